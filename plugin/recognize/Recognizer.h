// Recognizer.h: the AST walk behind recognizeNest: one class over the state
// its parts share (RecognizerState.h), the parts in this folder's
// Recognize*.cpp (levels, reductions, captures, expressions, calls,
// statements).
#ifndef WEFT_PLUGIN_RECOGNIZE_RECOGNIZER_H
#define WEFT_PLUGIN_RECOGNIZE_RECOGNIZER_H

#include "ir/IrQueries.h"
#include "ir/NameSupply.h"
#include "recognize/AstHelpers.h"
#include "recognize/IrBuilders.h"
#include "recognize/RecognizerState.h"

#include "compat/ClangCompat.h"
#include "support/Diagnose.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace weft::recognize {

using namespace clang;

enum class Access { Read, Write, ReadWrite };

inline constexpr const char *NotSupportedYet =
    "this weft version does not support it yet";

class Recognizer : RecognizerState {
public:
  Recognizer(Sema &S, const FunctionDecl *Function, Stmt *Loop,
             const VariableSet *OnlyRead)
      : RecognizerState(S, Function, Loop, OnlyRead) {}

  std::optional<RecognizedNest> run(const compat::Mark &Mark);

  /// False, after an error, where R combines into a variable the OpenMP
  /// directive of Mark makes each thread's own, or, under a target
  /// directive, writes data it maps to the device alone or reads a
  /// declare-target variable (whose device copy the region would use).
  bool checkOpenMPClauses(const compat::Mark &Mark, const RecognizedNest &R);

  /// Sets the Definition of each captured integer constant that is an
  /// affine expression of other captures keeping their values
  /// (RecognizeConstants.cpp).
  void defineCapturedConstants(std::vector<ir::Param> &Out);

  /// C is assert's expansion: `c ? void(0) : __assert_fail(...)`.
  static bool failedAssertion(const ConditionalOperator *C);

private:
  std::nullopt_t fail(SourceLocation Loc, const std::string &Message,
                      const std::string &Hint = "") {
    if (!Failed) // One error per loop: the rest would be consequences.
      error(Diags, Loc.isValid() ? Loc : Loop->getBeginLoc(), Message, Hint);
    Failed = true;
    return std::nullopt;
  }

  /// The length of P's rows held as pointers (extent(p: rows, cols)), or
  /// the common length of rows held apart, in their innermost elements.
  ir::ExprPtr rowColumns(unsigned P) {
    const unsigned Columns = RowColumnParams.lookup(P);
    auto Length = make(ir::Expr::ParamRef, Params[Columns].Element);
    Length->ParamIndex = Columns;
    return Length;
  }

  ir::ExprPtr failExpr(SourceLocation Loc, const std::string &Message,
                       const std::string &Hint = "") {
    fail(Loc, Message, Hint);
    return nullptr;
  }

  /// One parallel level: header, reductions, body.
  /// Literal: the string Clauses were written in, or null.
  bool level(Stmt *Loop, const syntax::Clauses &Clauses,
             const StringLiteral *Literal, ir::Level &L);
  /// A sequential loop's nest: a level of one iteration (one block of
  /// threads) whose body is the loop, its marked loops one level in.
  bool sequentialLevel(Stmt *Loop, const syntax::Clauses &Clauses,
                       ir::Level &L);

  /// Checks and records `reduction(Op: Name)` (one of Clause's) on level L.
  const VarDecl *reduction(Stmt *Loop, const Stmt *Body,
                           const syntax::Reduction &Clause,
                           const std::string &Name, ir::Level &L);
  /// Where byte Offset of the clauses of the mark at Depth was written; the
  /// loop where that is not known.
  SourceLocation clauseAt(unsigned Depth, std::size_t Offset) const;
  /// Where E, an expression of a clause at Depth, starts.
  SourceLocation clauseAt(unsigned Depth, const syntax::HostExpr &E) const;

  static const DeclRefExpr *findReference(const Stmt *S,
                                          const std::string &Name);

  bool header(ForStmt *F, ir::Level &L);
  /// F's index IV (null if none: the caller says so) and HeaderStart, its
  /// initial value; HeaderInc, the index's step; Companions and
  /// HeaderValues, the variables set beside it. False after a diagnostic.
  bool headerVariables(ForStmt *F, const VarDecl *&IV);
  /// The declarations of the level's Companions, each computed from the
  /// index, at the top of its body.
  void declareCompanions(const ir::Level &L, std::vector<ir::StmtPtr> &Out);
  /// The constant F's increment steps its index by, forward (`++i`,
  /// `i += c`, `i = i + c`) or, where Down, back; nullopt for another form.
  std::optional<llvm::APSInt> stepOf(const ForStmt *F, bool Down) const;
  /// F's descent (`--i`, `i -= c`, `i = i - c` with `i >= lo` or
  /// `i > lo`); nullopt for any other form.
  std::optional<Descent> countsDown(const ForStmt *F) const;
  /// Such a loop's level: its indices counted up, from the least the loop
  /// reaches to the initial value.
  bool descendingHeader(const ForStmt *F, Descent D, ir::Level &L);

  bool rangeHeader(CXXForRangeStmt *RF, ir::Level &L);

  /// E names the index of the level whose header is being read.
  bool isIndex(const Expr *E) const;

  bool isParallelIndex(const VarDecl *VD) const;

  /// A loop bound. The outermost level's are evaluated by the runtime
  /// before the launch, from the captured values alone.
  ir::ExprPtr bound(const Expr *E);

  std::optional<unsigned> capture(const DeclRefExpr *DRE,
                                  bool ReductionTarget = false);

  /// A member reached through `this`, when E is one.
  static const FieldDecl *memberOfThis(const Expr *E);

  /// The chain E is (`m.rows`, `grid->cells`, `this->mesh.nodes`), if it is
  /// one: the launch reads it on the host.
  std::optional<MemberChain> memberOfCapture(const Expr *E) const;

  /// Captures D (a variable, or a member through `this` or the end of
  /// Chain); Source is the expression the rewrite copies to pass it to the
  /// runtime.
  /// Type, where given, is the captured object's (the vector `*v` names).
  std::optional<unsigned> capture(const ValueDecl *D, const Expr *Source,
                                  SourceLocation Loc, bool ReductionTarget,
                                  const MemberChain *Chain = nullptr,
                                  QualType Type = QualType());
  /// The parameter D (or the end of Chain) is captured as already, if any.
  std::optional<unsigned> capturedBefore(const ValueDecl *D,
                                         const MemberChain *Chain) const;
  /// Name, or Name_1, Name_2, ...: the first no parameter has.
  std::string freeParamName(const std::string &Name) const;
  /// How the launch sizes captured data: a pointer's extent (stated,
  /// declared with its parameter, or left to the subscripts), rows held
  /// as pointers and their length.
  struct DataExtents {
    const Expr *Extent = nullptr, *Columns = nullptr;
    const syntax::Extent *Stated = nullptr;
    bool InferredRows = false;
    std::optional<UnstatedExtent> Unstated;
  };
  /// Those of D, data of Shape named Name (Shape then holds rows held as
  /// pointers as rows); false after a diagnostic.
  bool dataExtents(const ValueDecl *D, SourceLocation Loc,
                   const MemberChain *Chain, const std::string &Name,
                   DataShape &Shape, DataExtents &Out);
  /// P's kind and element: of data of Shape, else of a scalar or a struct
  /// of type T; false after a diagnostic.
  bool paramType(const ValueDecl *D, QualType T, SourceLocation Loc,
                 bool ReductionTarget, const std::optional<DataShape> &Shape,
                 ir::Param &P);
  /// `*v`, v a pointer to data (a `std::vector<float> *out`, as Google's
  /// style passes outputs), captured as the data it points to.
  std::optional<unsigned> pointedData(const UnaryOperator *Deref);

  /// A scalar member of a captured object, captured by value like a
  /// variable.
  ir::ExprPtr member(const MemberExpr *ME, const FieldDecl *F, Access A,
                     const MemberChain *Chain = nullptr);

  void markUse(unsigned P, Access A);

  /// A reference to a variable.
  ir::ExprPtr variable(const DeclRefExpr *DRE, Access A);
  /// A variable (or structured binding) of the code around the loop, as a
  /// kernel parameter.
  ir::ExprPtr capturedVariable(const DeclRefExpr *DRE, Access A);
  /// DRE names a structured binding declared before the loop (in the
  /// function around it): captured as a variable is.
  bool capturedBinding(const DeclRefExpr *DRE) const;

  /// T's shape as captured data; nullopt where T is none.
  std::optional<DataShape> dataShape(QualType T) const;
  std::optional<DataShape>
  mdspanShape(const ClassTemplateSpecializationDecl *Md) const;

  /// The extent clause that names Pointer, if any.
  const syntax::Extent *extentOf(llvm::StringRef Pointer) const;
  /// An extent, as an expression the launch evaluates; null after an error.
  const Expr *extentExpr(const syntax::HostExpr &E, llvm::StringRef Pointer);
  /// The condition of an if clause, as the launch's first argument (a
  /// bool); null after an error.
  Expr *conditionExpr(const syntax::HostExpr &E);
  /// A host expression of the outermost mark's clauses, built by Sema at
  /// the loop, each part located where it was written; Clause names it in
  /// diagnostics. SizeConstants: integer constants are size_t (an extent),
  /// else typed as C types them. Null after an error.
  Expr *hostExpr(const syntax::HostExpr &E, llvm::StringRef Clause,
                 bool SizeConstants);
  /// A constant of a host expression, typed as C types it (as size_t where
  /// SizeConstants).
  Expr *hostNumber(llvm::StringRef Text, SourceLocation Loc,
                   bool SizeConstants);
  /// A variable (or a chain of fields from one: `img->w`) a host
  /// expression names, as a reference at the loop.
  Expr *hostName(const syntax::ExprToken &T, SourceLocation Loc,
                 llvm::StringRef Clause);
  /// The variable T names alone.
  Expr *hostVariable(const syntax::ExprToken &T, SourceLocation Loc,
                     llvm::StringRef Clause);

  /// The captured data a subscript or size() applies to.
  std::optional<unsigned> spanOperand(const Expr *E);

  /// A subscript `Base[Index]` (an operator[] or a built-in one): a
  /// reduced element's stand-in, a per-iteration array's element, or an
  /// element of captured data.
  ir::ExprPtr subscript(const Expr *E, const Expr *Base, const Expr *Index,
                        Access A, std::optional<ir::ScalarKind> K);
  /// An element of captured data: `v[i]`, `a[i][j]` (flattened), `p[i]`.
  ir::ExprPtr dataElement(const Expr *E, Access A,
                          std::optional<ir::ScalarKind> K);
  /// False, after the error, when E is an element of a container weft
  /// refuses (the proxy std::vector<bool>'s operator[] returns).
  bool proxyOfData(const Expr *E);
  /// `A[i, j]` of the mdspan captured as P, flattened.
  ir::ExprPtr mdspanElement(const Expr *E, unsigned P,
                            llvm::ArrayRef<const Expr *> Subscripts, Access A);
  /// `A.extent(R)` of the mdspan captured as P: a constant, or a scalar
  /// the launch passes (captured on first use).
  ir::ExprPtr mdspanExtent(unsigned P, unsigned R);
  /// The length of View, a span of its own length.
  ir::ExprPtr viewLength(const RowView &View);
  std::optional<SpanInto> spanInto(const Expr *E);
  /// E as a PointerInto (`p`, `p + k`, `&v[k]`, `v.data() + k`, a
  /// pointer view; with IntoLocalArrays, into a per-iteration array too);
  /// nullopt for anything else (also after a diagnostic).
  std::optional<PointerInto> pointerInto(const Expr *E,
                                         bool IntoLocalArrays = false);
  /// A row of captured data of more dimensions, one subscript short of an
  /// element (`A[i]` of `float A[N][M]`, `A[i].data()` of nested
  /// std::arrays), as a pointer to its first element.
  std::optional<PointerInto> rowStart(const Expr *Row);
  /// `memset(d, 0, n * sizeof(T))`, `memcpy(d, s, bytes)` as a loop over
  /// the elements into Out; false if Call is neither (true after an error).
  bool byteCopy(const CallExpr *Call, std::vector<ir::StmtPtr> &Out);
  /// `const long weft_rowN_<name> = offset;`: VD points into Ptr's data.
  ir::StmtPtr pointerView(const VarDecl *VD, PointerInto Ptr);
  /// Element Index of per-iteration array VD, of type K (or struct Struct).
  ir::ExprPtr localArrayElement(const VarDecl *VD, ir::ScalarKind K, int Struct,
                                ir::ExprPtr Index);
  /// Element Offset + Index (Index or Offset may be null: 0) of P.
  ir::ExprPtr pointedElement(PointerInto Ptr, ir::ExprPtr Index, Access A,
                             const Expr *E);
  /// The element of P at the flat index Flat, as E accesses it.
  ir::ExprPtr spanElement(unsigned P, ir::ExprPtr Flat, Access A,
                          const Expr *E);
  /// The row view E names, if any.
  const RowView *rowViewOf(const Expr *E) const;
  /// `const long weft_rowN_<name> = Row;`, VD a view of row Row of P.
  ir::StmtPtr bindRowView(const VarDecl *VD, unsigned P, ir::ExprPtr Row);
  /// VD's declaration when it binds a row: the local of the row's index;
  /// nullopt for any other declaration (null after a diagnostic).
  std::optional<ir::StmtPtr> rowView(const VarDecl *VD);
  /// The subscripts of an element of P (a row's index first), flattened
  /// into one 64-bit index.
  ir::ExprPtr flatIndex(unsigned P, std::vector<ir::ExprPtr> Subscripts);
  /// The length of row Index of P (rows held apart or nested arrays).
  ir::ExprPtr rowLength(unsigned P, ir::ExprPtr Index,
                        std::optional<ir::ScalarKind> K);
  /// The row offsets of P, captured rows held apart: a parameter of
  /// Rows + 1 offsets the launch passes, and after it their common length
  /// (or -1), both captured on first use.
  unsigned rowOffsets(unsigned P);
  /// Row R of P's offsets, as a 64-bit index.
  ir::ExprPtr rowStart(unsigned P, ir::ExprPtr R);
  /// `a[i].size()` for rows held apart: row i's length; nullopt where
  /// Object is no such row (a null after a diagnostic).
  std::optional<ir::ExprPtr> rowSize(const Expr *Object,
                                     std::optional<ir::ScalarKind> K);
  /// `v.size()`: the elements of captured data (rows, for nested arrays).
  ir::ExprPtr dataSize(const Expr *Object, std::optional<ir::ScalarKind> K);

  /// E into the nest IR, by its kind; null after a diagnostic.
  ir::ExprPtr expr(const Expr *E, Access A = Access::Read);
  /// A literal, sizeof, or a value-initialized zero; nullopt for others.
  std::optional<ir::ExprPtr> literal(const Expr *E,
                                     std::optional<ir::ScalarKind> K, Access A);
  /// An overloaded operator: a struct's or <complex>'s, a subscript, a
  /// lambda's call, a method of a class around the loop's data.
  ir::ExprPtr operatorCall(const CXXOperatorCallExpr *OC,
                           std::optional<ir::ScalarKind> K, Access A);
  ir::ExprPtr explicitCast(const ExplicitCastExpr *ECE,
                           std::optional<ir::ScalarKind> K, Access A);
  ir::ExprPtr conditional(const ConditionalOperator *C,
                          std::optional<ir::ScalarKind> K, Access A);
  ir::ExprPtr memberCall(const CXXMemberCallExpr *MC,
                         std::optional<ir::ScalarKind> K, Access A);
  /// `size()` of data or a per-iteration array, `extent(r)` of an mdspan;
  /// nullopt where MC calls neither.
  std::optional<ir::ExprPtr> sizeOrExtent(const CXXMemberCallExpr *MC,
                                          const CXXMethodDecl *M,
                                          std::optional<ir::ScalarKind> K);
  /// A call of a function: a device function's, a user function's, or one
  /// that is its argument (std::move, __builtin_expect).
  ir::ExprPtr call(const CallExpr *Call, std::optional<ir::ScalarKind> K,
                   Access A);
  /// A member, or `this`: of the object around the loop, of a struct
  /// value, of a method's object.
  ir::ExprPtr memberAccess(const Expr *E, std::optional<ir::ScalarKind> K,
                           Access A);

  /// Expressions whose value is a struct: copies, aggregate initializers,
  /// assignments. Null (without failing) when E is none of those.
  ir::ExprPtr structValue(const Expr *E, Access A);

  /// The index in Structs of the struct T names (registering it and the
  /// structs it holds), or -1 when T is no struct weft can take; then, with
  /// Diagnose, after an error at Loc.
  int structIndex(QualType T, SourceLocation Loc, bool Diagnose = true);

  static bool isOutputStream(QualType T);

  /// A call of a function with a visible body: converted once into a
  /// device function of the kernel. FirstArg skips a lambda's object.
  ir::ExprPtr userCall(const CallExpr *Call, const FunctionDecl *FD,
                       unsigned FirstArg, std::optional<ir::ScalarKind> K);

  /// A constructor's call (not a trivial one): a device function returning
  /// the object.
  ir::ExprPtr constructorCall(const CXXConstructExpr *CE);

  /// FD's definition, instantiated where it is a template's; null after a
  /// diagnostic (not visible, or called recursively).
  const FunctionDecl *definitionOf(const FunctionDecl *FD, SourceLocation Loc);
  /// V keeps its value through the function: const, or only ever read.
  bool keepsItsValue(const VarDecl *V) const;
  /// E as literals and captures that keep their values, added, subtracted
  /// and multiplied; null otherwise.
  ir::ExprPtr constantDefinition(const Expr *E, unsigned Depth);
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

  /// An operator of a struct the kernel knows, with a body to convert
  /// (not a trivial copy).
  bool userOperator(const FunctionDecl *FD);

  /// Converts Def's body into a device function; returns its name.
  /// A call of Def, a function taking pointers into the loop's data
  /// (`dot(&a[i * n], x, n)`), compiled into the loop: its parameters and
  /// body go into Hoisted, before the statement that makes the call, and
  /// the call's value is the local its return sets (a literal 0 for void).
  /// Object, for a method of an object that holds the loop's data: what
  /// `this` is in its body, in the loop's terms.
  ir::ExprPtr inlineCall(const CallExpr *Call, const FunctionDecl *Def,
                         llvm::ArrayRef<const Expr *> Args,
                         const Expr *Object = nullptr);
  /// Def's parameters bound to Args, into Out (Why: the call's own words).
  void bindParameters(const FunctionDecl *Def,
                      llvm::ArrayRef<const Expr *> Args, const std::string &Why,
                      std::vector<ir::StmtPtr> &Out);
  /// Body, the returned value Last sets assigned to Result, into Out.
  void inlinedBody(const CompoundStmt *Body, const ReturnStmt *Last,
                   const ir::Expr *Result, int RS,
                   std::vector<ir::StmtPtr> &Out);

  // Methods of objects that hold the loop's data (RecognizeObjectMethods.cpp):
  // a class with a std::vector inside, as legacy C++ wraps its matrices
  // (`m(i, j)`, `g.at(i, j)`, `at(i, j)` in a method of the class). Each
  // call is compiled into the loop, `this` in its body the call's object,
  // so that the fields it reaches are the loop's captures. A body of one
  // `return e;` is the expression e itself, its parameters the arguments
  // (a reference it returns is then the element, to read or assign).
  /// Whether a call of M on an object of type ObjectType is one: M an
  /// instance method of a class weft cannot copy to the device as a struct.
  bool onObjectHoldingData(const CXXMethodDecl *M, QualType ObjectType);
  /// Call, a call of a method onObjectHoldingData.
  ir::ExprPtr objectMethodCall(const CallExpr *Call, Access A);
  static MethodCall methodCallOf(const Expr *E);
  /// Where the body of Def (C's method) is `return e;` after asserts
  /// alone, e and C's arguments without side effects: e, read from here on
  /// in Def's frame with `this` Object (until leaveMethodExpression), the
  /// asserts compiled in before the statement; else null.
  const Expr *enterMethodExpression(const MethodCall &C,
                                    const CXXMethodDecl *Def,
                                    const Expr *Object);
  void leaveMethodExpression();
  /// C's object in the loop's terms, where the launch can pass it (`this`,
  /// a variable the loop does not declare, or a member of one); else null.
  const Expr *callObject(const MethodCall &C);
  /// Frame, whose method's body is read from here on (Caller set here),
  /// until leaveFrame.
  void enterFrame(MethodFrame Frame);
  void leaveFrame();
  /// E (of the method being compiled in) in the loop's terms: `this` the
  /// call's object, a member of `this` that object's, a parameter taken
  /// for its argument; E itself where it names none of those.
  const Expr *inLoopTerms(const Expr *E);
  /// The argument standing for Ref, a parameter of a method compiled in as
  /// its expression, and the frame the argument is written in.
  std::optional<std::pair<const Expr *, int>>
  argumentFor(const DeclRefExpr *Ref) const;
  /// Binds P, a pointer or span parameter of a function compiled into the
  /// loop, to Arg as a view into the captured data, its declarations into
  /// Out; false after an error (Why: the call's own words).
  bool bindView(const ParmVarDecl *P, const Expr *Arg, const std::string &Why,
                std::vector<ir::StmtPtr> &Out);
  /// V, a std::span, as the view Part: its offset and its length in locals
  /// of their own, declared into Out.
  void bindSpanView(const VarDecl *V, SpanInto Part,
                    std::vector<ir::StmtPtr> &Out);
  /// Whether Def takes a pointer, a span or data by reference: such a
  /// function is compiled into the loop at each call (its accesses are
  /// then the loop's own, which every analysis sees).
  static bool takesViews(const FunctionDecl *Def);
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
  /// Whether Call is evaluated whenever HoistRoot is (not in a branch of
  /// ?:, nor after && or ||).
  bool evaluatedUnconditionally(const Expr *Call) const;
  /// The kernel's name of a local: its own, or for a local of a function
  /// compiled into the loop, one no other local has.
  std::string localName(const VarDecl *VD) const {
    auto It = InlinedNames.find(VD);
    return It != InlinedNames.end() ? It->second : VD->getName().str();
  }
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

  ir::ExprPtr conversion(const Expr *E, CastKind CK, const Expr *Sub,
                         std::optional<ir::ScalarKind> K, Access A);

  ir::ExprPtr unary(const UnaryOperator *U, std::optional<ir::ScalarKind> K,
                    Access A);

  static const Expr *stripped(const Expr *E);

  /// The active reduction variable E names, if any.
  const VarDecl *reductionVariable(const Expr *E) const;

  static std::string combineSpelling(ir::ReductionOp Op);

  /// In `v = <RHS>`, the references to v that combine it with Op, if RHS
  /// has that form (v + e, e + v, std::min(v, e), std::fmax(e, v),
  /// e > v ? e : v, ...); empty if it does not.
  llvm::SmallVector<const Expr *, 2>
  combiningOperands(const Expr *RHS, const VarDecl *V,
                    ir::ReductionOp Op) const;

  /// Cond compares v with a value e (<, <=, > or >=, either order): sets
  /// Value to e, Ref to the reference to v, and ValueWhenTrue to whether e
  /// is the better of the two for Op (min or max) when Cond holds.
  bool comparesWithValue(const Expr *Cond, const VarDecl *V, ir::ReductionOp Op,
                         const Expr *&Value, const Expr *&Ref,
                         bool &ValueWhenTrue) const;

  /// A and B are the same expression, without side effects (so that
  /// evaluating it twice gives one value).
  bool sameValue(const Expr *A, const Expr *B) const;

  /// `if (x > m) m = x;` (and its other comparisons and orders) on an
  /// active min or max reduction m: the assignment, which then combines m;
  /// null when If has another form.
  const BinaryOperator *guardedCombine(const IfStmt *If,
                                       const Expr *&Ref) const;
  /// `if (<If's condition>) v = <Assign's value>;` keeps the better of v and
  /// the value for Op (min or max); Ref: the condition's reference to v.
  bool keepsBetter(const IfStmt *If, const BinaryOperator *Assign,
                   const VarDecl *V, ir::ReductionOp Op,
                   const Expr *&Ref) const;

  /// E (stripped) when it names V: a reference to it, or for an element
  /// reduction's stand-in, the element.
  const Expr *refersTo(const Expr *E, const VarDecl *V) const;
  /// Base names the span Element (`tmp[i]`) is an element of.
  bool sameBase(const Expr *Base, const Expr *Element) const;
  /// A and B (stripped) are the same expression, by clang's profile.
  bool sameProfile(const Expr *A, const Expr *B) const;

  /// The active element reduction whose element E is, if any.
  const ReducedElement *reducedElement(const Expr *E) const;
  static ir::ReductionOp reductionOp(const std::string &Spelling);
  /// The reduction a binary operator combines by (`+`, `&&`), if any.
  static std::optional<ir::ReductionOp> binaryReduction(BinaryOperatorKind Op);
  /// The reduction a compound assignment combines by (`-=` a sum's).
  static std::optional<ir::ReductionOp>
  compoundReduction(BinaryOperatorKind Op);
  /// E's text as written.
  std::string exprSource(const Expr *E) const;
  /// V is assigned somewhere in S.
  bool isAssignedIn(const VarDecl *V, const Stmt *S) const;
  /// The element reduction of Loop's level: found, checked, stood in for.
  const VarDecl *elementReduction(Stmt *Loop, const Stmt *Body,
                                  const syntax::Reduction &Clause,
                                  const std::string &Name, ir::Level &L,
                                  ir::Reduction &R);

  /// reduction(op: a) naming an array (RecognizeArrayReductions): checks
  /// and captures it, and records it as reduced by L; false after a
  /// diagnostic.
  bool arrayReduction(const Stmt *Loop, const DeclRefExpr *Ref,
                      const std::string &Op, ir::Level &L);
  /// The array Element (a[i], a[i][j]) is of, when the level that reduces
  /// it is being read.
  std::optional<unsigned> reducedArrayOf(const Expr *Element) const;
  /// `a[e] += x`, `++a[e]`, `a[e] = std::max(a[e], x)`, ...: Update of
  /// Target, an element of reduced array P, as an Expr::Combine.
  /// Guarded: the value of `if (x > a[e]) a[e] = x;`, already matched.
  ir::ExprPtr arrayCombine(const Expr *Update, const Expr *Target, unsigned P,
                           const Expr *Guarded = nullptr);
  /// `if (x > a[e]) a[e] = x;` (any comparison keeping the better value)
  /// as an update of a reduced array; nullopt where If is not one, a null
  /// statement after a diagnostic.
  std::optional<ir::StmtPtr> guardedArrayCombine(const IfStmt *If);
  /// A reduced array used otherwise anywhere in the nest is an error.
  void checkReducedArrayUses();

  bool argReduction(Stmt *Loop, const Stmt *Body,
                    const syntax::Reduction &Clause, ir::Level &L);
  const ArgReduction *argReductionOf(const VarDecl *V) const;
  ir::ExprPtr argKeyRef(const ArgReduction &R);
  /// `if (x > v) { v = x; at = i; }` on an active argmax: the key's
  /// combination; nullopt when If compares no argmax value.
  std::optional<ir::StmtPtr> argCombine(const IfStmt *If);
  /// At the end of level Depth: its arg reductions were combined; the
  /// outermost's launch function is known, inner ones are finished around
  /// the level (FinishedArgs).
  bool finishArgReductions(unsigned Depth);

  /// `v op= e` or `v = v op e` on an active reduction variable v.
  ir::ExprPtr combine(const BinaryOperator *B, const VarDecl *V,
                      std::optional<ir::ScalarKind> K);

  ir::ExprPtr binary(const BinaryOperator *B, std::optional<ir::ScalarKind> K);

  void body(const Stmt *S, std::vector<ir::StmtPtr> &Out);

  ir::StmtPtr single(const Stmt *S);

  /// The calls that inlineCall compiles into the loop for one statement: they
  /// go before the statement whose expression makes them (where it evaluates
  /// them unconditionally), so their results are locals by then. Each
  /// statement starts with none and gives its enclosing statement's back.
  class HoistedCalls {
  public:
    explicit HoistedCalls(Recognizer &R);
    ~HoistedCalls();
    /// Calls made under Root, from now on, go before the statement.
    void from(const Stmt *Root);
    /// No call made from now on goes before the statement.
    void stop();
    /// The calls so far, into Out.
    void flushInto(std::vector<ir::StmtPtr> &Out);

  private:
    Recognizer &R;
    std::vector<ir::StmtPtr> *OuterInto;
    const Stmt *OuterRoot;
    std::vector<ir::StmtPtr> Before;
  };

  /// S into Out, by its kind.
  void stmt(const Stmt *S, std::vector<ir::StmtPtr> &Out);
  void declarationStmt(const DeclStmt *DS, HoistedCalls &Calls,
                       std::vector<ir::StmtPtr> &Out);
  /// `x = e;` that first sets a private x: its declaration.
  void privateFirstSet(const Expr *Set, const VarDecl *Private,
                       HoistedCalls &Calls, std::vector<ir::StmtPtr> &Out);
  void expressionStmt(const Expr *E, HoistedCalls &Calls,
                      std::vector<ir::StmtPtr> &Out);
  /// assert(c) as a check that stops the kernel where c fails.
  void assertion(const ConditionalOperator *Check,
                 std::vector<ir::StmtPtr> &Out);
  void ifStmt(const IfStmt *If, HoistedCalls &Calls,
              std::vector<ir::StmtPtr> &Out);
  void switchStmt(const SwitchStmt *Sw, std::vector<ir::StmtPtr> &Out);
  void switchCase(const SwitchCase *C, std::vector<ir::StmtPtr> &Out);
  /// break, continue, return and goto: whether S is one.
  bool jumpStmt(const Stmt *S, std::vector<ir::StmtPtr> &Out);
  /// S's mark as a level nested in the nest; none for the sequential
  /// loop's own mark.
  std::optional<compat::Mark> innerMark(const Stmt *S);
  /// A marked loop inside the nest: a level of its own, with the reduced
  /// elements and arg reductions it finishes around it.
  void nestedLevel(const compat::Mark &M, std::vector<ir::StmtPtr> &Out);
  /// The loads of the elements the level just read reduces into Before,
  /// their stores into After; false where one cannot be written.
  bool reducedElementsAround(std::vector<ir::StmtPtr> &Before,
                             std::vector<ir::StmtPtr> &After);
  /// The keys of the level's arg reductions, started in Before and
  /// finished into their value and position in After.
  void argReductionsAround(std::vector<ir::StmtPtr> &Before,
                           std::vector<ir::StmtPtr> &After);
  void forStmt(const ForStmt *F, std::vector<ir::StmtPtr> &Out);
  /// F's initializer into Init; the privates it declares a copy of, with
  /// the depth to give them back when the loop ends.
  std::vector<std::pair<const VarDecl *, unsigned>>
  forInit(const ForStmt *F, std::vector<ir::StmtPtr> &Init);
  void whileStmt(const WhileStmt *W, std::vector<ir::StmtPtr> &Out);
  void doStmt(const DoStmt *D, std::vector<ir::StmtPtr> &Out);
  /// An OpenMP directive inside the nest: an atomic update is its
  /// statement; anything else is refused.
  void openMPStatement(const OMPExecutableDirective &D,
                       std::vector<ir::StmtPtr> &Out);
  /// A range-based for inside the nest, over captured data of one
  /// dimension or a row: an index loop binding the loop variable to each
  /// element.
  void rangeLoop(const CXXForRangeStmt *RF, std::vector<ir::StmtPtr> &Out);
  /// A range-based for over the rows of captured data (a vector of vectors,
  /// a 2-D array): an index loop binding the loop variable as a row view.
  void rowsLoop(const CXXForRangeStmt *RF, std::vector<ir::StmtPtr> &Out);
  /// `for (long Counter = 0; Counter < Count; ++Counter)`, its body to add.
  /// A range-for's index loop: where it is, and its element variable's
  /// name (the remarks', should it become a level).
  void nameRangeLoop(ir::Stmt &Loop, const CXXForRangeStmt *RF);
  ir::StmtPtr indexLoop(const std::string &Counter, ir::ExprPtr Count);

  /// The std:: class template T specializes, if its name is Name.
  static const ClassTemplateSpecializationDecl *
  stdTemplate(QualType T, llvm::StringRef Name);

  ir::ExprPtr integer(std::int64_t V);

  /// A per-iteration array (C array, VLA, std::array, std::vector sized at
  /// its declaration); nullopt when VD is none of those.
  std::optional<ir::StmtPtr> localArray(const VarDecl *VD);

  /// Subscript, an element of a per-iteration array, when Base names one.
  ir::ExprPtr localElement(const Expr *Subscript, const Expr *Base,
                           const Expr *Index, std::optional<ir::ScalarKind> K);

  /// A local of the nest, declared inside as many levels as enclose it now.
  void declareLocal(const VarDecl *VD);

  ir::StmtPtr local(const Decl *D);

  Liveness &liveness();
  const ParentMap &nestParents();
  /// Makes private the variables whose uses in the nest all lie in Body, the
  /// body of the level LevelLoop, but not in one loop marked inside it (for
  /// a nest marked sequential, Body is LevelLoop, run once); and
  /// gives a copy of its own to a variable private to an enclosing level
  /// that this one sets, where no value crosses this level's bounds.
  /// Returns the depths such copies hide, to restore after the level.
  std::vector<std::pair<const VarDecl *, unsigned>>
  privatize(const Stmt *LevelLoop, const Stmt *Body,
            std::vector<ir::StmtPtr> &Out, bool Sequential = false);
  /// Reductions the level's body implies without a clause: a scalar from
  /// outside the level that the body only updates, each update a statement
  /// of one operator (`sum += x;`, `sum = sum + x;`, `count++;`,
  /// `bits |= m;`, `if (x > m) m = x;`), and argmax or argmin where a value
  /// and an index are set only as `if (x > v) { v = x; at = i; }`.
  std::vector<syntax::Reduction> inferredReductions(const Stmt *Body,
                                                    const syntax::Clauses &C);
  /// A flag of the outermost level (reduction "flag: v", inferred): a
  /// reduction target of its own, an int reduced by ||, passed as
  /// weft::detail::storedIf(v, value).
  bool flagReduction(const Stmt *Body, const syntax::Reduction &Clause,
                     ir::Level &L);
  /// The constant Ref's statement stores into it (`changed = 1;`, its
  /// value unused), if that is what it is.
  std::optional<llvm::APSInt> storedBy(const Stmt *Ref);
  /// E as the statement setting a flag (`changed = 1`): its key set.
  std::optional<ir::StmtPtr> flagSet(const Expr *E);
  /// The operator of the update of V whose target is Ref, a reference to
  /// V, adding to Covered Ref and the references to V the update reads (the
  /// v of `v = v + x`, of `if (x > v) v = x;`); none if Ref is no update's
  /// target or the update's value is used.
  std::optional<ir::ReductionOp>
  updateThrough(const VarDecl *V, const Stmt *Ref,
                llvm::SmallPtrSetImpl<const Stmt *> &Covered);
  /// argmax (argmin) of Value and an index variable, where Ref is Value's
  /// assignment in `if (x > Value) { Value = x; at = i; }`, i this level's
  /// index, and neither variable has another use in the body.
  std::optional<syntax::Reduction>
  inferredArgReduction(const VarDecl *Value, const Stmt *Ref,
                       const References &InBody,
                       llvm::function_ref<bool(const VarDecl *)> Reducible);
  /// The declaration of a private variable, with its initial value.
  ir::StmtPtr privateDeclaration(const VarDecl *VD, const Expr *Init);
  /// Where the index of a level's loop F is declared before it: an error
  /// unless its value after F is never read.
  bool outsideIndex(const VarDecl *VD, const ForStmt *F);

  /// Adds a kernel parameter with what goes with it; returns its index.
  unsigned addParam(ir::Param P, Capture C, DataShape Shape);
  unsigned addParam(ir::Param P, Capture C); // not data
  /// Bounds those pointers by the nest's subscripts (their extents, which
  /// the launch evaluates); false where one's are not known, diagnosed
  /// unless Quiet.
  bool inferExtents(ir::Nest &N, bool Quiet = false);
};

} // namespace weft::recognize

#endif
