// OpenMPMarks.cpp: which OpenMP directives and clauses weft takes, their
// clauses in weft's words, and the loops a collapse clause makes levels.
#include "syntax/OpenMPMarks.h"

#include "support/Mentions.h"

#include "contract/Vocabulary.h"

#include "clang/AST/DeclOpenMP.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/OpenMPKinds.h"
#include "llvm/Frontend/OpenMP/OMP.h"

#include <map>

using namespace clang;

namespace weft::syntax {
namespace {

/// The loops taken directives' collapse clauses make levels, by the loop.
std::map<const Stmt *, compat::Mark> &collapsedMarks() {
  static std::map<const Stmt *, compat::Mark> Marks;
  return Marks;
}

/// What each directive met so far is to weft.
std::map<const Stmt *, OpenMPLoop> &seenDirectives() {
  static std::map<const Stmt *, OpenMPLoop> Seen;
  return Seen;
}

OpenMPLoop refusal(SourceLocation Where, std::string Why,
                   std::string Hint = "") {
  OpenMPLoop L;
  L.Where = Where;
  L.Refusal = std::move(Why);
  L.Hint = std::move(Hint);
  return L;
}

std::string directiveName(const OMPExecutableDirective &D) {
  return "'#pragma omp " +
         llvm::omp::getOpenMPDirectiveName(D.getDirectiveKind()).str() + "'";
}

/// The one loop a loop's body holds (through braces around it alone), or
/// null.
Stmt *onlyLoopIn(Stmt *Loop) {
  Stmt *Body = nullptr;
  if (auto *F = dyn_cast<ForStmt>(Loop))
    Body = F->getBody();
  else if (auto *R = dyn_cast<CXXForRangeStmt>(Loop))
    Body = R->getBody();
  while (auto *C = dyn_cast_or_null<CompoundStmt>(Body)) {
    if (C->size() != 1)
      return nullptr;
    Body = C->body_front();
  }
  return isa_and_nonnull<ForStmt, CXXForRangeStmt, AttributedStmt>(Body)
             ? Body
             : nullptr;
}

/// The variable E names, or null.
const VarDecl *namedVariable(const Expr *E) {
  const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  return V && !isa<OMPCapturedExprDecl>(V) ? V : nullptr;
}

/// The variable an array section (`a[0:n]`, `m[0:r][0:c]`) or a variable
/// names, or null.
const VarDecl *sectionVariable(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  while (true) {
    if (const auto *S = dyn_cast<ArraySectionExpr>(E))
      E = S->getBase()->IgnoreParenImpCasts();
    else if (const auto *S = dyn_cast<ArraySubscriptExpr>(E))
      E = S->getBase()->IgnoreParenImpCasts();
    else
      break;
  }
  return namedVariable(E);
}

/// A reduction clause's operator as weft's clause writes it, or empty.
/// OpenMP's `-` combines partial results by adding them, as `+` does.
std::string reductionOperator(const OMPReductionClause &C) {
  const DeclarationName Name = C.getNameInfo().getName();
  std::string Spelling;
  if (Name.getNameKind() == DeclarationName::CXXOperatorName) {
    const OverloadedOperatorKind Op = Name.getCXXOverloadedOperator();
    if (const char *S = getOperatorSpelling(Op == OO_Minus ? OO_Plus : Op))
      Spelling = S;
  } else if (const IdentifierInfo *I = Name.getAsIdentifierInfo())
    Spelling = I->getName().str();
  return contract::parseReduceClause(Spelling) ? Spelling : "";
}

/// Whether E names a value OpenMP computed for the directive (a captured
/// expression), which is not in scope where the launch is built.
bool readsCapturedExpression(const Stmt *E) {
  if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(E);
      Ref && isa<OMPCapturedExprDecl>(Ref->getDecl()))
    return true;
  for (const Stmt *Child :
       E ? E->children() : Stmt::const_child_range(nullptr, nullptr))
    if (readsCapturedExpression(Child))
      return true;
  return false;
}

/// The variable holding the array an element expression is of (`h` of
/// `h[k]`, `h[k][j]`, `h.at`-free `h[k]` of a vector or span), or null.
const VarDecl *arrayOf(const Expr *Element) {
  const Expr *E = Element->IgnoreParenImpCasts();
  while (true) {
    if (const auto *S = dyn_cast<ArraySubscriptExpr>(E)) {
      E = S->getBase()->IgnoreParenImpCasts();
    } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
               Op && Op->getOperator() == OO_Subscript) {
      E = Op->getArg(0)->IgnoreParenImpCasts();
    } else {
      break;
    }
    if (const VarDecl *V = namedVariable(E))
      return V;
  }
  return nullptr;
}

/// Whether each iteration of Loop sets V before anything reads it: the
/// first statement of its body that mentions V is `v = e`, e without v.
bool setFirst(const Stmt *Loop, const VarDecl *V) {
  const Stmt *Body = nullptr;
  if (const auto *F = dyn_cast<ForStmt>(Loop))
    Body = F->getBody();
  else if (const auto *R = dyn_cast<CXXForRangeStmt>(Loop))
    Body = R->getBody();
  llvm::SmallVector<const Stmt *, 8> Statements;
  if (const auto *Block = dyn_cast_or_null<CompoundStmt>(Body))
    Statements.append(Block->body_begin(), Block->body_end());
  else if (Body)
    Statements.push_back(Body);
  for (const Stmt *S : Statements) {
    if (!mentions(S, V))
      continue;
    const auto *B = dyn_cast<BinaryOperator>(S);
    return B && B->getOpcode() == BO_Assign &&
           namedVariable(B->getLHS()) == V && !mentions(B->getRHS(), V);
  }
  return false;
}

/// `#pragma omp atomic` updates of array elements in a loop: the arrays,
/// each with the reduction operator its updates combine by (they are the
/// histogram idiom weft's array reductions take); where one is not of
/// that form, the update, to refuse.
struct AtomicUpdates : RecursiveASTVisitor<AtomicUpdates> {
  bool VisitOMPAtomicDirective(OMPAtomicDirective *D) {
    const auto *E = dyn_cast_or_null<Expr>(D->getAssociatedStmt());
    if (!E)
      return true;
    E = E->IgnoreParenImpCasts();
    const Expr *Target = nullptr;
    std::string Op;
    if (const auto *U = dyn_cast<UnaryOperator>(E);
        U && U->isIncrementDecrementOp()) {
      Target = U->getSubExpr();
      Op = "+";
    } else if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      Target = B->getLHS();
      switch (B->getOpcode()) {
      case BO_AddAssign:
      case BO_SubAssign:
        Op = "+";
        break;
      case BO_MulAssign:
        Op = "*";
        break;
      case BO_AndAssign:
        Op = "&";
        break;
      case BO_OrAssign:
        Op = "|";
        break;
      case BO_XorAssign:
        Op = "^";
        break;
      case BO_Assign:
        // `x = x op e` (or `e op x`).
        if (const auto *R =
                dyn_cast<BinaryOperator>(B->getRHS()->IgnoreParenImpCasts()))
          Op = R->getOpcode() == BO_Add || R->getOpcode() == BO_Sub ? "+"
               : R->getOpcode() == BO_Mul                           ? "*"
               : R->getOpcode() == BO_And                           ? "&"
               : R->getOpcode() == BO_Or                            ? "|"
               : R->getOpcode() == BO_Xor                           ? "^"
                                                                    : "";
        break;
      default:
        break;
      }
    }
    if (!Target || isa<DeclRefExpr>(Target->IgnoreParenImpCasts()))
      return true; // a scalar: weft reads its updates as a reduction
    const VarDecl *Array = arrayOf(Target);
    if (!Array || Op.empty()) {
      if (!Unnamed)
        Unnamed = D;
      return true;
    }
    Arrays.insert({Array->getName().str(), Op});
    return true;
  }

  std::map<std::string, std::string> Arrays;
  const OMPAtomicDirective *Unnamed = nullptr;
};

/// How to write a loop without a clause weft does not take, where there
/// is a way.
std::string clauseHint(OpenMPClauseKind Kind) {
  switch (Kind) {
  case llvm::omp::OMPC_lastprivate:
    return "set the variable after the loop from the last iteration's "
           "values: a launch keeps no iteration's copy";
  case llvm::omp::OMPC_linear:
    return "compute the variable from the loop's index in each iteration";
  case llvm::omp::OMPC_ordered:
    return "the iterations' ordered parts run in order only on the host";
  default:
    return "";
  }
}

/// Reads clause C of the directive Name into M (Reductions: the weft
/// clauses it makes); a refusal where weft does not take it.
std::optional<OpenMPLoop> readClause(const OMPClause &C,
                                     const std::string &Name, compat::Mark &M,
                                     std::string &Reductions) {
  const Stmt *Loop = M.Loop;
  const std::string Clause =
      "'" + llvm::omp::getOpenMPClauseName(C.getClauseKind()).str() + "'";
  if (const auto *R = dyn_cast<OMPReductionClause>(&C)) {
    const std::string Op = reductionOperator(*R);
    if (R->getModifier() != OMPC_REDUCTION_unknown &&
        R->getModifier() != OMPC_REDUCTION_default)
      return refusal(C.getBeginLoc(),
                     "weft does not take a reduction with a modifier "
                     "(inscan, task)");
    if (Op.empty())
      return refusal(C.getBeginLoc(),
                     "weft does not take a reduction of a user-declared "
                     "operator");
    std::string Names;
    for (const Expr *E : compat::clauseVariables(R)) {
      const VarDecl *V = namedVariable(E);
      if (!V)
        return refusal(E->getBeginLoc(),
                       "weft takes reductions into variables, not array "
                       "sections or members",
                       "under the directive, '#pragma weft parallel for "
                       "reduction(+: a)' combines into the elements of an "
                       "array a");
      // Set anew in each iteration (`sum = 0;` before it adds), it is a
      // scratch value of the iteration's that OpenMP's threads happen to
      // combine: private, where weft proves it so.
      if (setFirst(Loop, V)) {
        M.Scratch.push_back(V);
        continue;
      }
      Names += (Names.empty() ? "" : ", ") + V->getName().str();
    }
    if (!Names.empty())
      Reductions += " reduction(" + Op + ": " + Names + ")";
    return std::nullopt;
  }
  if (const auto *If = dyn_cast<OMPIfClause>(&C)) {
    const OpenMPDirectiveKind On = If->getNameModifier();
    if (On == llvm::omp::OMPD_simd)
      return std::nullopt; // it decides vectorization alone
    // (A target directive's, false, runs the region on the host.)
    if (On != llvm::omp::OMPD_unknown && On != llvm::omp::OMPD_parallel &&
        On != llvm::omp::OMPD_target)
      return refusal(C.getBeginLoc(),
                     "weft does not take an if clause for another construct");
    Expr *Condition = If->getCondition();
    if (!Condition || readsCapturedExpression(Condition))
      return refusal(C.getBeginLoc(),
                     "weft cannot evaluate this if clause before the loop",
                     "compute the condition into a variable before the "
                     "loop");
    M.Condition = Condition;
    return std::nullopt;
  }
  if (const auto *Map = dyn_cast<OMPMapClause>(&C)) {
    // The launch moves what the loop reads and writes itself.
    const OpenMPMapClauseKind Kind = Map->getMapType();
    for (const Expr *E : compat::clauseVariables(Map)) {
      const VarDecl *V = sectionVariable(E);
      if (!V)
        return refusal(E->getBeginLoc(),
                       "weft takes map clauses of variables and their "
                       "array sections");
      if (Kind == OMPC_MAP_to || Kind == OMPC_MAP_alloc)
        M.MappedIn.push_back(V);
    }
    return std::nullopt;
  }
  if (isa<OMPPrivateClause, OMPFirstprivateClause>(&C)) {
    std::vector<const Expr *> Items;
    if (const auto *P = dyn_cast<OMPPrivateClause>(&C))
      llvm::append_range(Items, compat::clauseVariables(P));
    else
      llvm::append_range(
          Items, compat::clauseVariables(cast<OMPFirstprivateClause>(&C)));
    for (const Expr *E : Items) {
      const VarDecl *V = namedVariable(E);
      if (!V)
        return refusal(E->getBeginLoc(),
                       "weft takes private variables, not members");
      M.Privates.push_back(V);
    }
    return std::nullopt;
  }
  // What says how OpenMP's threads share the work, which weft maps
  // itself, or what shared data is (it is, in a kernel).
  if (isa<OMPSharedClause, OMPDefaultClause, OMPScheduleClause,
          OMPNumThreadsClause, OMPProcBindClause, OMPOrderClause,
          OMPCollapseClause, OMPSimdlenClause, OMPSafelenClause,
          OMPAlignedClause, OMPNontemporalClause, OMPBindClause,
          OMPNowaitClause, OMPNumTeamsClause, OMPThreadLimitClause,
          OMPDistScheduleClause>(&C))
    return std::nullopt;
  return refusal(C.getBeginLoc(),
                 "weft does not take the " + Clause + " clause of " + Name,
                 clauseHint(C.getClauseKind()));
}

/// A directive weft takes (in Region, a parallel region that holds it
/// alone, if not null): its loop, clauses (Region's too) and collapsed
/// loops.
OpenMPLoop takenLoop(OMPLoopBasedDirective &D, OMPParallelDirective *Region,
                     const ASTContext &Ctx) {
  const std::string Name = directiveName(D);
  if (!Ctx.getLangOpts().CPlusPlus17)
    return refusal(D.getBeginLoc(),
                   "weft takes OpenMP loops in C++17 and later: the "
                   "declarations of <weft/weft.hpp> need it",
                   "compile with -std=c++17");
  Stmt *Loop = D.getInnermostCapturedStmt()->getCapturedStmt();
  if (std::optional<compat::Mark> Weft = compat::findMark(Loop)) {
    // The user's weft mark says how to map the loop; the directive stays
    // as its fallback.
    Weft->Replaced = Region ? static_cast<Stmt *>(Region) : &D;
    Weft->OpenMPTarget = isOpenMPTargetExecutionDirective(D.getDirectiveKind());
    OpenMPLoop L;
    L.Mark = std::move(Weft);
    return L;
  }
  if (!isa<ForStmt, CXXForRangeStmt>(Loop))
    return refusal(D.getBeginLoc(),
                   "the statement under " + Name + " is not a loop weft reads");

  compat::Mark M;
  M.Loop = Loop;
  M.Replaced = Region ? static_cast<Stmt *>(Region) : &D;
  M.FromOpenMP = true;
  M.OpenMPTarget = isOpenMPTargetExecutionDirective(D.getDirectiveKind());
  std::string Reductions;
  std::vector<const OMPClause *> Clauses;
  if (Region)
    llvm::append_range(Clauses, Region->clauses());
  llvm::append_range(Clauses, D.clauses());
  for (const OMPClause *C : Clauses)
    if (C && !C->isImplicit())
      if (std::optional<OpenMPLoop> Refused =
              readClause(*C, Name, M, Reductions))
        return *Refused;
  // Atomic updates of an array's elements combine into the array.
  AtomicUpdates Atomics;
  Atomics.TraverseStmt(Loop);
  if (Atomics.Unnamed)
    return refusal(Atomics.Unnamed->getBeginLoc(),
                   "weft takes atomic updates of a variable or of an element "
                   "of an array a variable names, by + - * & | or ^",
                   "update the element through the array's name "
                   "('h[k] += 1')");
  for (const auto &[Array, Op] : Atomics.Arrays)
    Reductions += " reduction(" + Op + ": " + Array + ")";
  M.Clauses = Reductions.empty() ? "" : Reductions.substr(1);

  // collapse(n): the n - 1 loops inside are levels of the nest.
  Stmt *Outer = Loop;
  for (unsigned I = 1; I < D.getLoopsNumber(); ++I) {
    Stmt *Inner = onlyLoopIn(Outer);
    if (!Inner)
      return refusal(D.getBeginLoc(), "the loops " + Name +
                                          " collapses are not nested one "
                                          "inside the other alone");
    if (auto *AS = dyn_cast<AttributedStmt>(Inner)) {
      if (!compat::findMark(AS))
        return refusal(AS->getBeginLoc(),
                       "weft does not take an attributed loop that "
                       "collapse(n) covers");
      Outer = AS->getSubStmt();
      continue;
    }
    if (!compat::findMark(Inner))
      collapsedMarks()[Inner] = compat::Mark{Inner, Inner, "", nullptr};
    Outer = Inner;
  }
  OpenMPLoop L;
  L.Mark = std::move(M);
  return L;
}

} // namespace

bool &openMPLoopsTaken() {
  static bool Taken = true;
  return Taken;
}

std::optional<OpenMPLoop> openMPLoop(Stmt *S, const ASTContext &Ctx) {
  auto *D = dyn_cast_or_null<OMPExecutableDirective>(S);
  if (!D || !openMPLoopsTaken())
    return std::nullopt;
  if (auto It = seenDirectives().find(D); It != seenDirectives().end())
    return It->second;
  OpenMPLoop L;
  const OpenMPDirectiveKind Kind = D->getDirectiveKind();
  if (isa<OMPParallelForDirective, OMPParallelForSimdDirective,
          OMPParallelGenericLoopDirective, OMPTargetParallelForDirective,
          OMPTargetParallelForSimdDirective,
          OMPTargetTeamsDistributeParallelForDirective,
          OMPTargetTeamsDistributeParallelForSimdDirective,
          OMPTargetTeamsGenericLoopDirective,
          OMPTargetParallelGenericLoopDirective>(D)) {
    L = takenLoop(*cast<OMPLoopBasedDirective>(D), nullptr, Ctx);
  } else if (auto *Region = dyn_cast<OMPParallelDirective>(D)) {
    // `#pragma omp parallel` around one `#pragma omp for`: parallel for.
    // Any other region's worksharing loops are launched by its team.
    Stmt *Body = Region->getInnermostCapturedStmt()->getCapturedStmt();
    auto *Block = dyn_cast<CompoundStmt>(Body);
    if (Block && Block->size() == 1)
      Body = Block->body_front();
    if (!isa<OMPForDirective, OMPForSimdDirective>(Body))
      return std::nullopt;
    L = takenLoop(*cast<OMPLoopBasedDirective>(Body), Region, Ctx);
  } else if (isa<OMPForDirective, OMPForSimdDirective>(D)) {
    L = takenLoop(*cast<OMPLoopBasedDirective>(D), nullptr, Ctx);
    if (L.Mark)
      L.Mark->TeamLaunch = true;
  } else if (isOpenMPTargetExecutionDirective(Kind) &&
             isOpenMPLoopDirective(Kind))
    L = refusal(D->getBeginLoc(),
                "weft takes target directives over a parallel loop "
                "('target teams distribute parallel for', 'target parallel "
                "for', 'target teams loop'), not " +
                    directiveName(*D));
  else if (isOpenMPLoopDirective(Kind))
    L = refusal(D->getBeginLoc(),
                "weft takes '#pragma omp parallel for' loops, not " +
                    directiveName(*D),
                "");
  else
    return std::nullopt;
  return seenDirectives()[D] = std::move(L);
}

std::optional<OpenMPLoop> teamRefusal(const Stmt &Loop,
                                      llvm::ArrayRef<const Stmt *> Enclosing,
                                      const Stmt *&Team) {
  const auto &D = cast<OMPExecutableDirective>(Loop);
  // Orphaned (its region, if any, a caller's): the team votes at run time
  // on what each thread's launch would read.
  Team = nullptr;
  if (Enclosing.empty())
    return std::nullopt;
  const auto *Around = cast<OMPExecutableDirective>(Enclosing.back());
  if (!isa<OMPParallelDirective>(Around))
    return refusal(D.getBeginLoc(),
                   "weft takes a " + directiveName(D) +
                       " loop whose innermost construct is a '#pragma omp "
                       "parallel' region, not " +
                       directiveName(*Around));
  if (llvm::any_of(Enclosing, [](const Stmt *S) {
        return isOpenMPTargetExecutionDirective(
            cast<OMPExecutableDirective>(S)->getDirectiveKind());
      }))
    return refusal(D.getBeginLoc(),
                   "weft does not take a worksharing loop inside a target "
                   "region");
  Team = Around;
  return std::nullopt;
}

bool readsThreadNumber(const Stmt *Region) {
  if (!Region)
    return false;
  // (A captured statement's children are its captures alone.)
  if (const auto *Captured = dyn_cast<CapturedStmt>(Region))
    return readsThreadNumber(Captured->getCapturedStmt());
  if (const auto *Call = dyn_cast<CallExpr>(Region))
    if (const FunctionDecl *F = Call->getDirectCallee();
        F && F->getIdentifier() &&
        llvm::is_contained({"omp_get_thread_num", "omp_get_ancestor_thread_num",
                            "omp_get_place_num", "omp_get_team_num"},
                           F->getName()))
      return true;
  for (const Stmt *Child : Region->children())
    if (readsThreadNumber(Child))
      return true;
  return false;
}

namespace {

/// Whether a clause of Region of one of the kinds Clauses names V.
template <class... Clauses>
bool namedByClause(const OMPExecutableDirective &Region, const VarDecl *V) {
  const auto Names = [V](const auto *Clause) {
    return Clause &&
           llvm::any_of(compat::clauseVariables(Clause),
                        [V](const Expr *E) { return namedVariable(E) == V; });
  };
  return llvm::any_of(Region.clauses(), [&](const OMPClause *C) {
    return (Names(dyn_cast<Clauses>(C)) || ...);
  });
}

} // namespace

bool teamPrivate(const VarDecl *V, const Stmt *Team) {
  const auto *Region = dyn_cast_or_null<OMPExecutableDirective>(Team);
  if (!Region || !V->hasLocalStorage())
    return false;
  return Region->getInnermostCapturedStmt()->getCapturedDecl()->Encloses(
             V->getDeclContext()) ||
         namedByClause<OMPPrivateClause, OMPFirstprivateClause,
                       OMPReductionClause>(*Region, V);
}

bool teamReduces(const VarDecl *V, const Stmt *Team) {
  const auto *Region = dyn_cast_or_null<OMPExecutableDirective>(Team);
  return Region && namedByClause<OMPReductionClause>(*Region, V);
}

std::optional<compat::Mark> collapsedLoopMark(Stmt *Loop) {
  auto It = collapsedMarks().find(Loop);
  if (It == collapsedMarks().end())
    return std::nullopt;
  return It->second;
}

std::optional<compat::Mark> findLoopMark(Stmt *S, const ASTContext &Ctx) {
  if (std::optional<compat::Mark> M = compat::findMark(S))
    return M;
  if (std::optional<OpenMPLoop> L = openMPLoop(S, Ctx); L && L->Mark)
    return L->Mark;
  return collapsedLoopMark(S);
}

} // namespace weft::syntax
