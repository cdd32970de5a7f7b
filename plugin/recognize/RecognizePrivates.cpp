// RecognizePrivates.cpp: variables a function declares before the nest
// (C89's `int i, j, k; double sum;`) that each iteration sets before it
// reads them: private to the iteration, as OpenMP's private(...) makes
// them, where clang's liveness analysis proves that no iteration reads the
// value from before it and nothing after the nest reads the value it left.
#include "recognize/ArrayCoverage.h"
#include "recognize/BodyRecognizer.h"
#include "syntax/OpenMPMarks.h"

namespace weft::recognize {
namespace {

/// S as `V = e`, if it is that.
const BinaryOperator *assignmentTo(const Stmt *S, const VarDecl *V) {
  const VarDecl *Assigned;
  const BinaryOperator *B = variableAssignment(S, Assigned);
  return Assigned == V ? B : nullptr;
}

bool isWritten(const Stmt *Ref, const ParentMap &Parents) {
  const Stmt *P = Parents.getParentIgnoreParens(Ref);
  if (const auto *B = dyn_cast_or_null<BinaryOperator>(P))
    return B->isAssignmentOp() && B->getLHS()->IgnoreParens() == Ref;
  const auto *U = dyn_cast_or_null<UnaryOperator>(P);
  return U && U->isIncrementDecrementOp();
}

bool isInside(const Stmt *S, const Stmt *Ancestor, const ParentMap &Parents) {
  for (; S; S = Parents.getParent(S))
    if (S == Ancestor)
      return true;
  return false;
}

} // namespace

std::vector<std::pair<const VarDecl *, unsigned>>
BodyRecognizer::privatize(const Stmt *LevelLoop, const Stmt *Body,
                          std::vector<ir::StmtPtr> &Out, bool Sequential) {
  const References InBody = referencesIn(Body), InNest = referencesIn(Loop);
  const ParentMap &Parents = nestParents();
  // Whether every use is inside one loop marked in Body (that level's).
  auto InOneMarkedLoop = [&](const std::vector<const Stmt *> &Refs) {
    std::optional<const Stmt *> Marked;
    for (const Stmt *R : Refs) {
      // (Body itself may be the marked loop, written without braces.)
      const Stmt *M = nullptr;
      for (const Stmt *P = Parents.getParent(R); P; P = Parents.getParent(P)) {
        if (P != LevelLoop && syntax::findLoopMark(const_cast<Stmt *>(P), Ctx))
          M = P;
        if (P == Body)
          break;
      }
      if (Marked && *Marked != M)
        return false;
      Marked = M;
    }
    return Marked && *Marked;
  };
  auto Written = [&](const std::vector<const Stmt *> &Refs) {
    return llvm::any_of(Refs,
                        [&](const Stmt *R) { return isWritten(R, Parents); });
  };
  // Whether every use is in a loop that sets V first and leaves it unread
  // after: each such loop declares V for itself (RecognizeStatements).
  auto OnlyLoopIndex = [&](const VarDecl *V,
                           const std::vector<const Stmt *> &Refs) {
    return llvm::all_of(Refs, [&](const Stmt *R) {
      for (const Stmt *A = Parents.getParent(R); A; A = Parents.getParent(A)) {
        // (A marked loop's index is its level's own.)
        if (const auto *F = dyn_cast<ForStmt>(A);
            F && initializerAssignmentTo(F->getInit(), V) &&
            !liveness().liveAfter(F, V))
          return true;
        if (A == Body)
          break;
      }
      return false;
    });
  };
  std::vector<std::pair<const VarDecl *, unsigned>> Hidden;
  for (const auto &[V, Refs] : InBody) {
    // Private to an enclosing level and set in this one (`k` of a loop in
    // each): a copy of its own where no value enters or leaves the level.
    // (Not declared yet: its declaring statement is in this body.)
    if (Privates.contains(V) && !RowViews.count(V) && LocalDepth.count(V) &&
        LocalDepth.lookup(V) < Indices.size() && Written(Refs) &&
        !InOneMarkedLoop(Refs) && !liveness().liveAtIteration(LevelLoop, V) &&
        !liveness().liveAfter(LevelLoop, V)) {
      if (!OnlyLoopIndex(V, Refs)) {
        Hidden.push_back({V, LocalDepth.lookup(V)});
        Out.push_back(privateDeclaration(V, nullptr));
      }
      continue;
    }
    // A scratch array the function declares before the nest (`double
    // temp[5];`): a copy of the iteration's own where each fills it first.
    if (!Sequential && scratchArray(V, Refs, InNest.lookup(V).size())) {
      if (llvm::none_of(Refs,
                        [&](const Stmt *R) { return InOneMarkedLoop({R}); }))
        privateArray(V, Body, Out); // (else the deeper level's)
      continue;
    }
    if (Privates.contains(V) || NotPrivate.count(V) || isParallelIndex(V) ||
        Locals.contains(V) || !V->hasLocalStorage() || isa<ParmVarDecl>(V) ||
        V->getType()->isReferenceType() || V->getType().isVolatileQualified() ||
        !(scalarKind(V->getType()) || V->getType()->isPointerType()) ||
        ActiveReductions.count(V) || argReductionOf(V) ||
        !SM.isBeforeInTranslationUnit(V->getLocation(), Loop->getBeginLoc()))
      continue;
    // Used in the header of a level further out, or only read: captured.
    if (InNest.lookup(V).size() != Refs.size() || !Written(Refs) ||
        InOneMarkedLoop(Refs))
      continue;
    Liveness &Live = liveness();
    if (Live.escapes(V, Loop)) {
      NotPrivate[V] = "its address is taken in the function";
      continue;
    }
    if (Live.liveAfter(Loop, V,
                       llvm::is_contained(ScratchReductions, V) ? Directive
                                                                : nullptr)) {
      NotPrivate[V] = "the value the loop leaves in it is read after the loop";
      continue;
    }
    if (Sequential ? Live.liveBefore(LevelLoop, V)
                   : Live.liveAtIteration(LevelLoop, V)) {
      NotPrivate[V] = Sequential
                          ? "the loop reads the value it had before the loop"
                          : "an iteration reads the value an earlier one left";
      continue;
    }
    Privates.insert(V);

    const Stmt *Declaring = declaringStatement(V, Refs, Body);
    // A pointer (`float *row;`, set once: `row = a + i * n;`) is a view
    // where it is set.
    const bool Pointer = V->getType()->isPointerType();
    if (Pointer && (!Declaring || !isa<Expr>(Declaring) ||
                    llvm::count_if(Refs, [&](const Stmt *R) {
                      return isWritten(R, Parents);
                    }) != 1)) {
      Privates.erase(V);
      NotPrivate[V] = "a pointer is set once in an iteration, before it is "
                      "used";
      continue;
    }
    if (Declaring) {
      DeclaringStmts[Declaring].push_back(V);
      continue;
    }
    if (!OnlyLoopIndex(V, Refs))
      Out.push_back(privateDeclaration(V, nullptr));
  }
  return Hidden;
}

bool BodyRecognizer::scratchArray(const VarDecl *V,
                                  const std::vector<const Stmt *> &Refs,
                                  std::size_t UsesInNest) {
  return !Locals.contains(V) && !NotPrivate.count(V) && V->hasLocalStorage() &&
         !isa<ParmVarDecl>(V) && Ctx.getAsConstantArrayType(V->getType()) &&
         SM.isBeforeInTranslationUnit(V->getLocation(), Loop->getBeginLoc()) &&
         UsesInNest == Refs.size();
}

void BodyRecognizer::privateArray(const VarDecl *V, const Stmt *Body,
                                  std::vector<ir::StmtPtr> &Out) {
  std::string Why;
  if (!writesBeforeReading(Ctx, Body, V, Why))
    NotPrivate[V] = "each iteration may read what an earlier one left: " + Why;
  else if (!leavesArrayUnread(Ctx, Function->getBody(), Loop, Directive, V))
    NotPrivate[V] = "the function may read what the loop leaves in it";
  else if (std::optional<ir::StmtPtr> Copy =
               localArray(V, /*WithInitializer=*/false))
    Out.push_back(std::move(*Copy));
}

const Stmt *BodyRecognizer::declaringStatement(
    const VarDecl *V, const std::vector<const Stmt *> &Refs, const Stmt *Body) {
  const ParentMap &Parents = nestParents();
  // Declared where the source would have declared it: in the initializer
  // of the outermost loop holding every use whose initializer sets it,
  // else at the assignment that first sets it in the block holding every
  // use, else at the top of the level's body.
  const Stmt *Common = Body;
  for (const Stmt *A = Refs.front(); A && A != Body; A = Parents.getParent(A))
    if (llvm::all_of(Refs,
                     [&](const Stmt *R) { return isInside(R, A, Parents); })) {
      Common = A;
      break;
    }
  const Stmt *Declaring = nullptr;
  for (const Stmt *A = Common; A; A = Parents.getParent(A)) {
    // (A marked loop declares it as its level's index.)
    if (const auto *F = dyn_cast<ForStmt>(A);
        F && initializerAssignmentTo(F->getInit(), V))
      Declaring = F;
    if (A == Body)
      break;
  }
  if (!Declaring) {
    const Stmt *Block = Common;
    while (Block != Body && !isa<CompoundStmt>(Block))
      Block = Parents.getParent(Block);
    if (const auto *C = dyn_cast<CompoundStmt>(Block))
      for (const Stmt *Child : C->body()) {
        if (llvm::none_of(Refs, [&](const Stmt *R) {
              return isInside(R, Child, Parents);
            }))
          continue;
        const BinaryOperator *First = assignmentTo(Child, V);
        if (First && !referencesIn(First->getRHS()).count(V))
          Declaring = Child;
        break;
      }
  }
  return Declaring;
}

bool BodyRecognizer::outsideIndex(const VarDecl *VD, const ForStmt *F) {
  Liveness &Live = liveness();
  if (!Live.escapes(VD, Loop) && !Live.liveAfter(F, VD))
    return true;
  return fail(F->getInit()->getBeginLoc(),
              "'" + VD->getName().str() +
                  "', declared before the loop, is read after it, where the "
                  "serial loop leaves it past its last value; a weft loop "
                  "does not set it",
              "declare the index in the loop ('for (int " +
                  VD->getName().str() +
                  " = ...') and compute the value read after it"),
         false;
}

} // namespace weft::recognize
