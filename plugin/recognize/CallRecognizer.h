// CallRecognizer.h: the recognizer's part that reads calls: device
// functions converted from their bodies, functions compiled into the loop
// at each call, constructors, lambdas and std::complex.
#ifndef WEFT_PLUGIN_RECOGNIZE_CALLRECOGNIZER_H
#define WEFT_PLUGIN_RECOGNIZE_CALLRECOGNIZER_H

#include "recognize/ReductionRecognizer.h"

namespace weft::recognize {

class CallRecognizer : public ReductionRecognizer {
protected:
  using ReductionRecognizer::ReductionRecognizer;

  static bool isOutputStream(QualType T);

  /// A call of a function with a visible body: converted once into a
  /// device function of the kernel. FirstArg skips a lambda's object.
  ir::ExprPtr userCall(const CallExpr *Call, const FunctionDecl *FD,
                       unsigned FirstArg, std::optional<ir::ScalarKind> K);

  /// A constructor's call (not a trivial one): a device function returning
  /// the object.
  ir::ExprPtr constructorCall(const CXXConstructExpr *CE);

  /// A call of FD (Object: a method's object, or null) as a device function
  /// converted from its body, once.
  ir::ExprPtr deviceCall(const FunctionDecl *FD, SourceLocation Loc,
                         QualType Result, const Expr *Object,
                         llvm::ArrayRef<const Expr *> Args,
                         std::optional<ir::ScalarKind> K);

  /// A constructor's device function: its object a local that the
  /// initializers assign and the body changes, returned.
  void constructorBody(const CXXConstructorDecl *Def, ir::Function &F);

  /// The object of the method or constructor being converted.
  ir::ExprPtr self();

  /// Every `return` under S returns `*this` (P null) or the parameter P.
  static bool returnsOnly(const Stmt *S, const ParmVarDecl *P);

  // std::complex<float> and <double> (RecognizeComplex.cpp): each is null
  // (without failing) where E involves no complex number.
  /// T's struct: weft::complex<float> or <double>; -1 for other types.
  int complexStruct(QualType T);
  ir::ExprPtr complexValue(const CXXConstructExpr *CE, int S);

  /// Struct S's value {Re, Im}, each converted to its part's type (a null
  /// Im: 0).
  ir::ExprPtr complexOf(int S, ir::ExprPtr Re, ir::ExprPtr Im);
  ir::ExprPtr complexOperator(const CXXOperatorCallExpr *OC,
                              std::optional<ir::ScalarKind> K);
  ir::ExprPtr complexCall(const CallExpr *Call, const FunctionDecl *FD,
                          std::optional<ir::ScalarKind> K);
  ir::ExprPtr complexMethod(const CXXMemberCallExpr *MC,
                            std::optional<ir::ScalarKind> K);

  // An entry point of the walk (RecognizerBase.h).
  ir::ExprPtr inlineCall(const CallExpr *Call, const FunctionDecl *Def,
                         llvm::ArrayRef<const Expr *> Args,
                         const Expr *Object = nullptr) override;

  /// Def's parameters bound to Args, into Out (Why: the call's own words).
  void bindParameters(const FunctionDecl *Def,
                      llvm::ArrayRef<const Expr *> Args, const std::string &Why,
                      std::vector<ir::StmtPtr> &Out);

  /// Body, the returned value Last sets assigned to Result, into Out.
  void inlinedBody(const CompoundStmt *Body, const ReturnStmt *Last,
                   const ir::Expr *Result, int RS,
                   std::vector<ir::StmtPtr> &Out);

  /// The variables a lambda captures hold at each call what the loop's own
  /// code would read there: by reference, or by copy of a variable that
  /// keeps its value; diagnosed where not.
  bool capturesKeepTheirValues(const CXXMethodDecl *Call, SourceLocation Loc);

  /// A call of Def, a lambda that returns one value of its arithmetic
  /// parameters, as that value with the arguments in place of the
  /// parameters (so it may sit in a branch of ?:, && or ||, where a call
  /// compiled in before its statement would run unconditionally); null,
  /// without an error, where Def or the arguments are not of that kind.
  ir::ExprPtr substitutedCall(const FunctionDecl *Def,
                              llvm::ArrayRef<const Expr *> Args,
                              std::optional<ir::ScalarKind> K);

  /// Converts Def's body into a device function; returns its name.
  std::optional<std::string> convertFunction(const FunctionDecl *Def,
                                             SourceLocation CallLoc);

  /// The device function's name for Def (Source, its qualified name): its
  /// stem and a hash of where it is defined and how it is instantiated.
  std::string functionName(const FunctionDecl *Def, const std::string &Source);

  /// What F returns (a value, a struct, the object itself, or nothing);
  /// false after a diagnostic.
  bool functionResult(const FunctionDecl *Def, SourceLocation CallLoc,
                      ir::Function &F);

  /// F's parameters: the object of a method first, then Def's.
  void functionParameters(const FunctionDecl *Def, ir::Function &F);
};

} // namespace weft::recognize

#endif
