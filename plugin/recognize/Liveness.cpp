// Liveness.cpp: clang's live-variables analysis asked about one variable at
// a loop's exit and at the start of its body.
#include "recognize/Liveness.h"

#include "support/Mentions.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Analysis/Analyses/LiveVariables.h"
#include "clang/Analysis/AnalysisDeclContext.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace weft::recognize {

using namespace clang;

namespace {

bool refersTo(const Expr *E, const VarDecl *V) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParens());
  return DRE && DRE->getDecl() == V;
}

/// A plain assignment to V: its value before is not read.
bool assigns(const Stmt *S, const VarDecl *V) {
  const auto *B = dyn_cast<BinaryOperator>(S);
  return B && B->getOpcode() == BO_Assign && refersTo(B->getLHS(), V);
}

bool mutableReference(const FunctionDecl *F, unsigned I) {
  const QualType T = F->getParamDecl(I)->getType();
  return T->isReferenceType() && !T.getNonReferenceType().isConstQualified();
}

/// Address-taking and reference binding of V, outside one statement.
class EscapeFinder : public RecursiveASTVisitor<EscapeFinder> {
public:
  EscapeFinder(const VarDecl *V, const Stmt *Inside) : V(V), Inside(Inside) {}

  bool TraverseStmt(Stmt *S) {
    if (S == Inside)
      return true;
    return RecursiveASTVisitor::TraverseStmt(S);
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->getOpcode() == UO_AddrOf && refersTo(U->getSubExpr(), V))
      Escaped = true;
    return !Escaped;
  }
  bool VisitVarDecl(VarDecl *D) {
    if (D->getType()->isReferenceType() && D->getInit() &&
        refersTo(D->getInit()->IgnoreImpCasts(), V))
      Escaped = true;
    return !Escaped;
  }
  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *F = C->getDirectCallee();
    // A member operator's object is its first argument.
    const unsigned Object =
        isa<CXXOperatorCallExpr>(C) && isa_and_nonnull<CXXMethodDecl>(F) ? 1
                                                                         : 0;
    for (unsigned I = 0; I < C->getNumArgs(); ++I) {
      if (!refersTo(C->getArg(I)->IgnoreImpCasts(), V))
        continue;
      // Variadic arguments go by value.
      if (!F || I < Object ||
          (I - Object < F->getNumParams() && mutableReference(F, I - Object)))
        Escaped = true;
    }
    return !Escaped;
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    for (const LambdaCapture &C : L->captures())
      if (C.capturesVariable() && C.getCapturedVar() == V &&
          C.getCaptureKind() == LCK_ByRef)
        Escaped = true;
    return !Escaped;
  }

  bool Escaped = false;

private:
  const VarDecl *V;
  const Stmt *Inside;
};

} // namespace

Liveness::Liveness(ASTContext &Ctx, const FunctionDecl *Function)
    : Function(Function),
      Manager(std::make_unique<AnalysisDeclContextManager>(Ctx)) {
  // Every subexpression an element of its block, so that the uses of one
  // variable in a block can be followed.
  Manager->getCFGBuildOptions().setAllAlwaysAdd();
  if (!Function || !Function->hasBody())
    return;
  Context = Manager->getContext(Function);
  const CFG *Graph = Context->getCFG();
  if (!Graph)
    return;
  Live = Context->getAnalysis<LiveVariables>();
  for (const CFGBlock *B : *Graph)
    if (B && B->getTerminatorStmt() && B->succ_size() == 2)
      Branches[B->getTerminatorStmt()] = B;
}

Liveness::~Liveness() = default;

const CFGBlock *Liveness::branchOf(const Stmt *Loop) const {
  return Branches.lookup(Loop);
}

bool Liveness::liveIn(const CFGBlock *B, const VarDecl *V,
                      const Stmt *Directive) {
  if (!B)
    return false; // unreachable
  // The CFG places the uses in a directive's clauses after its loop.
  llvm::SmallPtrSet<const Stmt *, 4> ClauseUses;
  if (const auto *D = dyn_cast_or_null<OMPExecutableDirective>(Directive))
    for (const Stmt *S :
         OMPExecutableDirective::used_clauses_children(D->clauses()))
      if (const auto *E = dyn_cast_or_null<Expr>(S))
        ClauseUses.insert(E->IgnoreParens());
  bool IsLive = Live->isLive(B, V);
  // Backwards through the block: an assignment kills, any other use reads
  // (its left-hand side is part of the assignment, not a read).
  const ParentMap &Parents = Context->getParentMap();
  for (auto It = B->rbegin(); It != B->rend(); ++It) {
    std::optional<CFGStmt> S = It->getAs<CFGStmt>();
    if (!S)
      continue;
    const Stmt *E = S->getStmt();
    if (assigns(E, V)) {
      IsLive = false;
    } else if (const auto *DRE = dyn_cast<DeclRefExpr>(E);
               DRE && DRE->getDecl() == V && !ClauseUses.contains(DRE)) {
      const Stmt *Parent = Parents.getParentIgnoreParens(DRE);
      if (!Parent || !assigns(Parent, V) ||
          cast<BinaryOperator>(Parent)->getLHS()->IgnoreParens() != DRE)
        IsLive = true;
    }
  }
  return IsLive;
}

bool Liveness::liveAfter(const Stmt *Loop, const VarDecl *V,
                         const Stmt *Directive) {
  const CFGBlock *B = branchOf(Loop);
  return !B || liveIn(*(B->succ_begin() + 1), V, Directive);
}

bool Liveness::liveBefore(const Stmt *Loop, const VarDecl *V) {
  const CFGBlock *B = branchOf(Loop);
  if (!B)
    return true;
  // The initializer runs once, before the branch.
  if (const auto *F = dyn_cast<ForStmt>(Loop); F && F->getInit()) {
    const auto *Init = dyn_cast<Expr>(F->getInit());
    if (Init && assigns(Init->IgnoreParens(), V) &&
        !mentions(cast<BinaryOperator>(Init->IgnoreParens())->getRHS(), V))
      return false;
    if (mentions(F->getInit(), V))
      return true;
  }
  return liveIn(B, V);
}

bool Liveness::liveAtIteration(const Stmt *Loop, const VarDecl *V) {
  const CFGBlock *B = branchOf(Loop);
  return !B || liveIn(*B->succ_begin(), V);
}

bool Liveness::escapes(const VarDecl *V, const Stmt *Inside) {
  if (!Function || !Function->hasBody())
    return true;
  auto [It, New] = Escaping.try_emplace({V, Inside}, false);
  if (New) {
    EscapeFinder Finder(V, Inside);
    Finder.TraverseStmt(const_cast<Stmt *>(Function->getBody()));
    It->second = Finder.Escaped;
  }
  return It->second;
}

} // namespace weft::recognize
