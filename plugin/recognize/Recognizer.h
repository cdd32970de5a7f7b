// Recognizer.h: the AST walk behind recognizeNest, the last of the
// recognizer's parts (RecognizerBase.h lists them): the nest's levels, their
// headers and clauses, and the nest they make.
#ifndef WEFT_PLUGIN_RECOGNIZE_RECOGNIZER_H
#define WEFT_PLUGIN_RECOGNIZE_RECOGNIZER_H

#include "recognize/BodyRecognizer.h"

namespace weft::recognize {

class Recognizer : BodyRecognizer {
public:
  Recognizer(Sema &S, const FunctionDecl *Function, Stmt *Loop,
             const VariableSet *OnlyRead)
      : BodyRecognizer(S, Function, Loop, OnlyRead) {}
  std::optional<RecognizedNest> run(const compat::Mark &Mark);

  /// False, after an error, where R combines into a variable the OpenMP
  /// directive of Mark makes each thread's own, or, under a target
  /// directive, writes data it maps to the device alone or reads a
  /// declare-target variable (whose device copy the region would use).
  bool checkOpenMPClauses(const compat::Mark &Mark, const RecognizedNest &R);
  /// Whether capture I (of variable V, Combined into by the nest) is the
  /// same for every thread of the parallel region Team, whose one thread
  /// launches the loop (Team null, an orphaned loop: what is not
  /// threadprivate is left to the team's vote at run time); false after a
  /// diagnostic.
  bool teamShares(const Stmt *Team, const RecognizedNest &R, std::size_t I,
                  const VarDecl *V, bool Combined);

private:
  // An entry point of the walk (RecognizerBase.h).
  bool level(Stmt *Loop, const syntax::Clauses &Clauses,
             const StringLiteral *Literal, ir::Level &L) override;

  /// A sequential loop's nest: a level of one iteration (one block of
  /// threads) whose body is the loop, its marked loops one level in.
  bool sequentialLevel(Stmt *Loop, const syntax::Clauses &Clauses,
                       ir::Level &L);
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

  /// A loop bound. The outermost level's are evaluated by the runtime
  /// before the launch, from the captured values alone.
  ir::ExprPtr bound(const Expr *E);

  /// Bounds those pointers by the nest's subscripts (their extents, which
  /// the launch evaluates); false where one's are not known, diagnosed
  /// unless Quiet.
  bool inferExtents(ir::Nest &N, bool Quiet = false);
};

} // namespace weft::recognize

#endif
