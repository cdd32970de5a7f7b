// ArrayUsesAfter.cpp: whether a function may read what a loop leaves in a
// scratch array (leavesArrayUnread of ArrayCoverage.h).
#include "recognize/ArrayCoverage.h"

#include "clang/AST/OpenMPClause.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <string>
#include <vector>

using namespace clang;

namespace weft::recognize {

bool leavesArrayUnread(ASTContext &Ctx, const Stmt *Function, const Stmt *Nest,
                       const Stmt *Directive, const VarDecl *Array) {
  struct Uses : RecursiveASTVisitor<Uses> {
    const VarDecl *Array;
    std::vector<const DeclRefExpr *> Refs;
    bool Jumps = false;
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      if (E->getDecl() == Array)
        Refs.push_back(E);
      return true;
    }
    bool VisitGotoStmt(GotoStmt *) { return !(Jumps = true); }
    bool VisitIndirectGotoStmt(IndirectGotoStmt *) { return !(Jumps = true); }
  } U;
  U.Array = Array;
  U.TraverseStmt(const_cast<Stmt *>(Function));
  if (U.Jumps)
    return false;
  const ParentMap Parents(const_cast<Stmt *>(Function));
  const SourceManager &SM = Ctx.getSourceManager();
  auto Holds = [&](const Stmt *Outer, const Stmt *S) {
    for (; S; S = Parents.getParent(S))
      if (S == Outer)
        return true;
    return false;
  };
  auto BodyOf = [](const Stmt *S) -> const Stmt * {
    if (const auto *F = dyn_cast<ForStmt>(S))
      return F->getBody();
    if (const auto *W = dyn_cast<WhileStmt>(S))
      return W->getBody();
    if (const auto *D = dyn_cast<DoStmt>(S))
      return D->getBody();
    if (const auto *R = dyn_cast<CXXForRangeStmt>(S))
      return R->getBody();
    return nullptr;
  };
  // What the private and firstprivate clauses of the OpenMP directives
  // around the nest name (a weft mark under `omp parallel for
  // private(temp)`): each thread's copy, no use of the array.
  llvm::SmallPtrSet<const Expr *, 8> MadePrivate;
  for (const Stmt *A = Parents.getParent(Nest); A; A = Parents.getParent(A))
    if (const auto *D = dyn_cast<OMPExecutableDirective>(A))
      for (const OMPClause *C : D->clauses()) {
        if (const auto *P = dyn_cast<OMPPrivateClause>(C))
          MadePrivate.insert(P->varlist_begin(), P->varlist_end());
        if (const auto *P = dyn_cast<OMPFirstprivateClause>(C))
          MadePrivate.insert(P->varlist_begin(), P->varlist_end());
      }
  llvm::DenseMap<const Stmt *, bool> Covers;
  for (const DeclRefExpr *R : U.Refs) {
    if (Holds(Nest, R) || MadePrivate.contains(R))
      continue;
    // An OpenMP region's capture of it (each use inside is its own), or
    // a clause of the nest's directive (what it makes private is no read).
    const Stmt *Parent = Parents.getParent(R);
    if (Parent ? isa<CapturedStmt>(Parent)
               : Directive &&
                     !SM.isBeforeInTranslationUnit(R->getBeginLoc(),
                                                   Directive->getBeginLoc()) &&
                     !SM.isBeforeInTranslationUnit(Directive->getEndLoc(),
                                                   R->getBeginLoc()))
      continue;
    bool Fine = false, InLoopAroundNest = false;
    for (const Stmt *A = Parents.getParent(R); A && !Fine;
         A = Parents.getParent(A)) {
      const Stmt *Body = BodyOf(A);
      if (!Body)
        continue;
      if (Holds(A, Nest)) {
        InLoopAroundNest = true;
        break;
      }
      if (!Holds(Body, R))
        continue; // in its header
      auto [It, New] = Covers.try_emplace(A, false);
      if (New) {
        std::string Why;
        It->second = writesBeforeReading(Ctx, Body, Array, Why);
      }
      Fine = It->second;
    }
    if (Fine)
      continue;
    // Before the nest, and no loop takes it past: an element's use.
    if (InLoopAroundNest ||
        !SM.isBeforeInTranslationUnit(R->getBeginLoc(), Nest->getBeginLoc()))
      return false;
    const Stmt *Top = R;
    auto Up = [&](const Stmt *S) {
      return Parents.getParentIgnoreParenImpCasts(const_cast<Stmt *>(S));
    };
    for (const Stmt *P = Up(Top);
         P && isa<ArraySubscriptExpr>(P) &&
         cast<ArraySubscriptExpr>(P)->getBase()->IgnoreParenImpCasts() == Top;
         P = Up(P))
      Top = P;
    if (!isa<ArraySubscriptExpr>(Top) ||
        !cast<Expr>(Top)->getType()->isArithmeticType())
      return false;
  }
  return true;
}

} // namespace weft::recognize
