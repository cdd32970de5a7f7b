// ReductionRecognizer.h: the recognizer's part that reads reductions:
// clauses, the combining statements of scalars, elements, arrays, argmax
// and flags, and the reductions a level's body implies without a clause.
#ifndef WEFT_PLUGIN_RECOGNIZE_REDUCTIONRECOGNIZER_H
#define WEFT_PLUGIN_RECOGNIZE_REDUCTIONRECOGNIZER_H

#include "recognize/DataRecognizer.h"

namespace weft::recognize {

class ReductionRecognizer : public DataRecognizer {
protected:
  using DataRecognizer::DataRecognizer;

  /// Checks and records `reduction(Op: Name)` (one of Clause's) on level L.
  const VarDecl *reduction(Stmt *Loop, const Stmt *Body,
                           const syntax::Reduction &Clause,
                           const std::string &Name, ir::Level &L);
  static const DeclRefExpr *findReference(const Stmt *S,
                                          const std::string &Name);

  /// The active reduction variable E names, if any.
  const VarDecl *reductionVariable(const Expr *E) const;

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
};

} // namespace weft::recognize

#endif
