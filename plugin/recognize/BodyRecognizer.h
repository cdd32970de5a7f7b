// BodyRecognizer.h: the recognizer's part that reads a level's body:
// statements and expressions by kind, sequential loops, locals and
// per-iteration arrays, privates.
#ifndef WEFT_PLUGIN_RECOGNIZE_BODYRECOGNIZER_H
#define WEFT_PLUGIN_RECOGNIZE_BODYRECOGNIZER_H

#include "recognize/CallRecognizer.h"

namespace weft::recognize {

/// The fields from a variable to what E reaches (`v.a[2].b`: a, b;
/// subscripts and `->` left out).
std::vector<const FieldDecl *> fieldPath(const Expr *E);

class BodyRecognizer : public CallRecognizer {
protected:
  using CallRecognizer::CallRecognizer;

  // The walk's entry points (RecognizerBase.h).
  ir::ExprPtr subscript(const Expr *E, const Expr *Base, const Expr *Index,
                        Access A, std::optional<ir::ScalarKind> K) override;
  ir::ExprPtr localArrayElement(const VarDecl *VD, ir::ScalarKind K, int Struct,
                                ir::ExprPtr Index) override;
  ir::ExprPtr expr(const Expr *E, Access A = Access::Read) override;
  int structIndex(QualType T, SourceLocation Loc,
                  bool Diagnose = true) override;
  void body(const Stmt *S, std::vector<ir::StmtPtr> &Out) override;
  void stmt(const Stmt *S, std::vector<ir::StmtPtr> &Out) override;
  void declareLocal(const VarDecl *VD) override;

  /// In a level's bounds (InLevelBound), E read from an element
  /// or field of a global at constant subscripts: a value the launch reads
  /// (a scalar capture of E itself); null for any other E.
  ir::ExprPtr globalValue(const Expr *E);

  /// False, after the error, when E is an element of a container weft
  /// refuses (the proxy std::vector<bool>'s operator[] returns).
  bool proxyOfData(const Expr *E);

  /// `memset(d, 0, n * sizeof(T))`, `memcpy(d, s, bytes)` as a loop over
  /// the elements into Out; false if Call is neither (true after an error).
  bool byteCopy(const CallExpr *Call, std::vector<ir::StmtPtr> &Out);

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

  /// An operator of a struct the kernel knows, with a body to convert
  /// (not a trivial copy).
  bool userOperator(const FunctionDecl *FD);
  ir::ExprPtr conversion(const Expr *E, CastKind CK, const Expr *Sub,
                         std::optional<ir::ScalarKind> K, Access A);
  ir::ExprPtr unary(const UnaryOperator *U, std::optional<ir::ScalarKind> K,
                    Access A);
  ir::ExprPtr binary(const BinaryOperator *B, std::optional<ir::ScalarKind> K);
  ir::StmtPtr single(const Stmt *S);

  /// The calls that inlineCall compiles into the loop for one statement: they
  /// go before the statement whose expression makes them (where it evaluates
  /// them unconditionally), so their results are locals by then. Each
  /// statement starts with none and gives its enclosing statement's back.
  class HoistedCalls {
  public:
    explicit HoistedCalls(BodyRecognizer &R);
    ~HoistedCalls();
    /// Calls made under Root, from now on, go before the statement.
    void from(const Stmt *Root);
    /// No call made from now on goes before the statement.
    void stop();
    /// The calls so far, into Out.
    void flushInto(std::vector<ir::StmtPtr> &Out);

  private:
    BodyRecognizer &R;
    std::vector<ir::StmtPtr> *OuterInto;
    const Stmt *OuterRoot;
    std::vector<ir::StmtPtr> Before;
  };

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

  /// A per-iteration array (C array, VLA, std::array, std::vector sized at
  /// its declaration); nullopt when VD is none of those. Without its
  /// initializer for a private copy of an array declared before the nest.
  std::optional<ir::StmtPtr> localArray(const VarDecl *VD,
                                        bool WithInitializer = true);

  /// IL's values into List, its rows' one after another (an array of
  /// several dimensions is one of all their elements).
  /// several dimensions is one of all their elements); a Row, one of
  /// several, is filled with zeros to its end.
  bool flatInitializer(const InitListExpr *IL, ir::Expr &List,
                       bool Row = false);
  /// Subscript, an element of a per-iteration array, when Base names one
  /// (or a row of one, for each dimension but the last).
  ir::ExprPtr localElement(const Expr *Subscript, const Expr *Base,
                           const Expr *Index, std::optional<ir::ScalarKind> K);

  ir::StmtPtr local(const Decl *D);

  /// Makes private the variables whose uses in the nest all lie in Body, the
  /// body of the level LevelLoop, but not in one loop marked inside it (for
  /// a nest marked sequential, Body is LevelLoop, run once); and
  /// gives a copy of its own to a variable private to an enclosing level
  /// that this one sets, where no value crosses this level's bounds.
  /// Returns the depths such copies hide, to restore after the level.
  std::vector<std::pair<const VarDecl *, unsigned>>
  privatize(const Stmt *LevelLoop, const Stmt *Body,
            std::vector<ir::StmtPtr> &Out, bool Sequential = false);
  /// Whether V is an array of constant size declared before the nest and
  /// used only in it (C's scratch arrays at a function's top).
  bool scratchArray(const VarDecl *V, const std::vector<const Stmt *> &Refs,
                    std::size_t UsesInNest);
  /// A copy of scratch array V for each iteration of Body, where each
  /// iteration writes what it reads first and nothing reads what the loop
  /// leaves in it; else why not, in NotPrivate.
  void privateArray(const VarDecl *V, const Stmt *Body,
                    std::vector<ir::StmtPtr> &Out);
  /// Where the private scalar V is declared, as C99 would declare it: the
  /// loop whose initializer sets it, the assignment that first sets it in
  /// the block holding every use, or null (the top of the level's body).
  const Stmt *declaringStatement(const VarDecl *V,
                                 const std::vector<const Stmt *> &Refs,
                                 const Stmt *Body);

  /// The declaration of a private variable, with its initial value.
  ir::StmtPtr privateDeclaration(const VarDecl *VD, const Expr *Init);

  /// Where the index of a level's loop F is declared before it: an error
  /// unless its value after F is never read.
  bool outsideIndex(const VarDecl *VD, const ForStmt *F);
};

} // namespace weft::recognize

#endif
