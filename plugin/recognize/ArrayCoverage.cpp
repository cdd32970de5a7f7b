// ArrayCoverage.cpp: the write-before-read analysis of ArrayCoverage.h, an
// abstract run of the statement over the set of the array's elements written.
#include "recognize/ArrayCoverage.h"

#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

#include <optional>
#include <vector>

using namespace clang;

namespace weft::recognize {
namespace {

constexpr std::int64_t MaxElements = 1 << 16;
/// Statements visited in all, loops run element by element included: past
/// it the analysis gives up rather than slow the build.
constexpr std::int64_t MaxSteps = 1 << 17;
constexpr std::size_t MaxCallDepth = 4;

/// Whether S names one of Names anywhere.
bool mentions(const Stmt *S, llvm::ArrayRef<const VarDecl *> Names) {
  struct Finder : RecursiveASTVisitor<Finder> {
    llvm::ArrayRef<const VarDecl *> Names;
    bool Found = false;
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      Found |= llvm::is_contained(Names, E->getDecl());
      return !Found;
    }
  } F;
  F.Names = Names;
  F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Found;
}

/// Whether S holds a statement that leaves a loop S is the body of: a
/// break or continue outside the loops and switches nested in S, or a
/// return or goto anywhere.
bool leavesEarly(const Stmt *S, bool Nested = false) {
  if (!S)
    return false;
  if (isa<ReturnStmt>(S) || isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S))
    return true;
  if (!Nested && (isa<BreakStmt>(S) || isa<ContinueStmt>(S)))
    return true;
  const bool Inner = Nested || isa<ForStmt>(S) || isa<WhileStmt>(S) ||
                     isa<DoStmt>(S) || isa<CXXForRangeStmt>(S) ||
                     isa<SwitchStmt>(S);
  return llvm::any_of(S->children(),
                      [&](const Stmt *C) { return leavesEarly(C, Inner); });
}

/// Whether S assigns V, or takes its address.
bool assigns(const Stmt *S, const VarDecl *V) {
  if (!S)
    return false;
  auto Names = [&](const Expr *E) {
    const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return D && D->getDecl() == V;
  };
  if (const auto *B = dyn_cast<BinaryOperator>(S);
      B && B->isAssignmentOp() && Names(B->getLHS()))
    return true;
  if (const auto *U = dyn_cast<UnaryOperator>(S);
      U && (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) &&
      Names(U->getSubExpr()))
    return true;
  return llvm::any_of(S->children(),
                      [&](const Stmt *C) { return assigns(C, V); });
}

class Coverage {
public:
  Coverage(ASTContext &Ctx, const VarDecl *Array, std::int64_t Elements,
           std::int64_t ElementSize)
      : Ctx(Ctx), Array(Array), Elements(Elements), ElementSize(ElementSize),
        Written(static_cast<unsigned>(Elements)) {}

  bool run(const Stmt *Body, std::string &WhyNot) {
    stmt(Body);
    WhyNot = Why;
    return !Failed;
  }

private:
  /// What an expression names in the array: an element or a part from
  /// Offset (unknown where a subscript is not constant), Size elements.
  struct Place {
    bool InArray = false;
    std::optional<std::int64_t> Offset;
    std::int64_t Size = 0;
  };

  void fail(const Stmt *At, const std::string &Reason) {
    if (Failed)
      return;
    Failed = true;
    const SourceManager &SM = Ctx.getSourceManager();
    const PresumedLoc P = SM.getPresumedLoc(At->getBeginLoc());
    Why = Reason +
          (P.isValid() ? " (line " + std::to_string(P.getLine()) + ")" : "");
  }

  /// Elements of the type an access of T spans.
  std::int64_t units(QualType T) const {
    if (T->isIncompleteType() || T->isDependentType())
      return 0;
    return Ctx.getTypeSizeInChars(T).getQuantity() / ElementSize;
  }

  std::optional<std::int64_t> constant(const Expr *E) const {
    E = E->IgnoreParenImpCasts();
    if (const auto *D = dyn_cast<DeclRefExpr>(E))
      if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
        if (auto It = Constants.find(V); It != Constants.end())
          return It->second;
    if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      std::optional<std::int64_t> L = constant(B->getLHS()),
                                  R = constant(B->getRHS());
      if (L && R)
        switch (B->getOpcode()) {
        case BO_Add:
          return *L + *R;
        case BO_Sub:
          return *L - *R;
        case BO_Mul:
          return *L * *R;
        case BO_Div:
          return *R ? std::optional<std::int64_t>(*L / *R) : std::nullopt;
        case BO_Rem:
          return *R ? std::optional<std::int64_t>(*L % *R) : std::nullopt;
        default:
          break;
        }
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E);
        U && U->getOpcode() == UO_Minus)
      if (std::optional<std::int64_t> V = constant(U->getSubExpr()))
        return -*V;
    if (const auto *C = dyn_cast<CStyleCastExpr>(E);
        C && C->getType()->isIntegerType())
      return constant(C->getSubExpr());
    Expr::EvalResult R;
    if (!E->isValueDependent() && E->getType()->isIntegerType() &&
        E->EvaluateAsInt(R, Ctx))
      return R.Val.getInt().getSExtValue();
    return std::nullopt;
  }

  Place place(const Expr *E) const {
    E = E->IgnoreParenImpCasts();
    if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
      if (D->getDecl() == Array)
        return {true, 0, Elements};
      if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
        if (auto It = Pointers.find(V); It != Pointers.end())
          return {true, It->second, Elements - It->second};
      return {};
    }
    // P moved by Index units of Unit (backwards where Sign is -1).
    auto Moved = [&](Place P, const Expr *Index, QualType Unit, int Sign) {
      const std::int64_t U = units(Unit);
      std::optional<std::int64_t> I = constant(Index);
      if (P.Offset && I && U > 0)
        P.Offset = *P.Offset + Sign * *I * U;
      else
        P.Offset.reset();
      P.Size = U;
      return P;
    };
    if (const auto *S = dyn_cast<ArraySubscriptExpr>(E)) {
      Place P = place(S->getBase());
      return P.InArray ? Moved(P, S->getIdx(), S->getType(), 1) : P;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      if (U->getOpcode() == UO_AddrOf)
        return place(U->getSubExpr());
      if (U->getOpcode() == UO_Deref) {
        Place P = place(U->getSubExpr());
        P.Size = units(U->getType());
        return P;
      }
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E);
        B && E->getType()->isPointerType() &&
        (B->getOpcode() == BO_Add || B->getOpcode() == BO_Sub)) {
      const bool Left = B->getLHS()->getType()->isPointerType();
      Place P = place(Left ? B->getLHS() : B->getRHS());
      if (!P.InArray)
        return P;
      P = Moved(P, Left ? B->getRHS() : B->getLHS(),
                E->getType()->getPointeeType(),
                B->getOpcode() == BO_Sub ? -1 : 1);
      P.Size = Elements - P.Offset.value_or(0);
      return P;
    }
    return {};
  }

  /// The subscripts on the way to a place: reads of their own.
  void indices(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *S = dyn_cast<ArraySubscriptExpr>(E)) {
      expr(S->getIdx());
      indices(S->getBase());
    } else if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      indices(U->getSubExpr());
    } else if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      const bool Left = B->getLHS()->getType()->isPointerType();
      expr(Left ? B->getRHS() : B->getLHS());
      indices(Left ? B->getLHS() : B->getRHS());
    }
  }

  bool inRange(const Place &P) const {
    return P.Offset && *P.Offset >= 0 && P.Size > 0 &&
           *P.Offset + P.Size <= Elements;
  }

  void read(const Place &P, const Expr *At) {
    const bool Covered =
        P.Offset
            ? inRange(P) && Written.find_first_unset_in(
                                static_cast<unsigned>(*P.Offset),
                                static_cast<unsigned>(*P.Offset + P.Size)) == -1
            : Written.all();
    if (!Covered)
      fail(At, "it reads an element of '" + Array->getName().str() +
                   "' that it may not have written before");
  }

  void write(const Place &P) {
    if (!NoMarking && inRange(P))
      Written.set(static_cast<unsigned>(*P.Offset),
                  static_cast<unsigned>(*P.Offset + P.Size));
  }

  bool isElement(const Expr *E) const {
    const QualType T = E->getType().getNonReferenceType();
    return T->isArithmeticType() && units(T) == 1;
  }

  void expr(const Expr *E) {
    if (!E || Failed)
      return;
    if (isa<UnaryExprOrTypeTraitExpr>(E))
      return; // sizeof: not evaluated
    if (const auto *L = dyn_cast<LambdaExpr>(E)) {
      if (mentions(L, names()))
        fail(E, "a lambda uses '" + Array->getName().str() + "'");
      return;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      if (B->isAssignmentOp()) {
        const Place P = place(B->getLHS());
        if (!P.InArray) {
          if (const auto *D =
                  dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts());
              D && llvm::is_contained(names(), D->getDecl()))
            return fail(E, "it sets a pointer into '" + Array->getName().str() +
                               "'");
          expr(B->getLHS());
          expr(B->getRHS());
          return;
        }
        if (!isElement(B->getLHS()))
          return fail(E, "it assigns a part of '" + Array->getName().str() +
                             "' that is not one number");
        indices(B->getLHS());
        expr(B->getRHS());
        if (B->isCompoundAssignmentOp())
          read(P, E);
        write(P);
        return;
      }
      if (B->isLogicalOp()) {
        expr(B->getLHS());
        ++NoMarking;
        expr(B->getRHS());
        --NoMarking;
        return;
      }
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E);
        U && U->isIncrementDecrementOp()) {
      const Place P = place(U->getSubExpr());
      if (P.InArray) {
        if (!isElement(U->getSubExpr()))
          return fail(E, "it moves a pointer into '" + Array->getName().str() +
                             "'");
        indices(U->getSubExpr());
        read(P, E);
        write(P);
        return;
      }
    }
    if (const auto *C = dyn_cast<AbstractConditionalOperator>(E)) {
      expr(C->getCond());
      ++NoMarking;
      expr(C->getTrueExpr());
      expr(C->getFalseExpr());
      --NoMarking;
      return;
    }
    if (const auto *C = dyn_cast<CallExpr>(E);
        C && !isa<CXXOperatorCallExpr>(C))
      return call(C);
    if (const Place P = place(E); P.InArray) {
      if (!isElement(E))
        return fail(E, "the address of '" + Array->getName().str() +
                           "' is kept or passed where weft cannot follow it");
      indices(E);
      return read(P, E);
    }
    for (const Stmt *Child : E->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(Child))
        expr(CE);
  }

  std::vector<const VarDecl *> names() const {
    std::vector<const VarDecl *> N{Array};
    for (const auto &[V, Offset] : Pointers)
      N.push_back(V);
    return N;
  }

  void call(const CallExpr *C) {
    expr(C->getCallee());
    const FunctionDecl *Callee = C->getDirectCallee();
    llvm::DenseMap<const VarDecl *, std::int64_t> Bound;
    for (unsigned I = 0; I < C->getNumArgs() && !Failed; ++I) {
      const Expr *A = C->getArg(I);
      const Place P = place(A);
      if (!P.InArray || isElement(A)) {
        expr(A);
        continue;
      }
      const QualType Pointee = A->getType()->getPointeeType();
      const bool Numbers =
          !Pointee.isNull() &&
          (Pointee->isArithmeticType() ||
           Ctx.getBaseElementType(Pointee)->isArithmeticType());
      const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
      if (!Numbers || !Def || !Def->hasBody() || I >= Def->getNumParams())
        return fail(A, "it passes '" + Array->getName().str() +
                           "' to a function whose body weft cannot follow");
      if (!P.Offset)
        return fail(A, "it passes a part of '" + Array->getName().str() +
                           "' at a subscript weft cannot evaluate");
      indices(A);
      Bound[Def->getParamDecl(I)] = *P.Offset;
    }
    if (Failed || Bound.empty())
      return;
    const FunctionDecl *Def = Callee->getDefinition();
    if (llvm::is_contained(Calls, Def) || Calls.size() >= MaxCallDepth)
      return fail(C, "it passes '" + Array->getName().str() +
                         "' down more calls than weft follows");
    for (const auto &[Param, Offset] : Bound)
      if (assigns(Def->getBody(), Param))
        return fail(C, "the function it passes '" + Array->getName().str() +
                           "' to moves the pointer");
    // A function that may return before its end may skip its writes.
    const auto *Top = dyn_cast<CompoundStmt>(Def->getBody());
    const bool Early =
        !Top ||
        llvm::any_of(Top->body(),
                     [&](const Stmt *S) {
                       return S != Top->body_back() && leavesEarly(S);
                     }) ||
        (Top->body_back() && !isa<ReturnStmt>(Top->body_back()) &&
         leavesEarly(Top->body_back()));
    auto SavedPointers = std::move(Pointers);
    auto SavedConstants = std::move(Constants);
    Pointers = std::move(Bound);
    Constants.clear();
    Calls.push_back(Def);
    NoMarking += Early;
    stmt(Def->getBody());
    NoMarking -= Early;
    Calls.pop_back();
    Pointers = std::move(SavedPointers);
    Constants = std::move(SavedConstants);
  }

  /// A loop run element by element where its index goes over constants.
  bool unrolled(const ForStmt *F) {
    const VarDecl *V = nullptr;
    std::optional<std::int64_t> Start;
    if (const auto *D = dyn_cast_or_null<DeclStmt>(F->getInit());
        D && D->isSingleDecl())
      if ((V = dyn_cast<VarDecl>(D->getSingleDecl())) && V->getInit())
        Start = constant(V->getInit());
    if (const auto *B = dyn_cast_or_null<BinaryOperator>(F->getInit());
        B && B->getOpcode() == BO_Assign)
      if (const auto *D = dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParens()))
        if ((V = dyn_cast<VarDecl>(D->getDecl())))
          Start = constant(B->getRHS());
    const auto *Cond = dyn_cast_or_null<BinaryOperator>(F->getCond());
    if (!V || !Start || !Cond || !V->getType()->isIntegerType())
      return false;
    const auto *CondVar =
        dyn_cast<DeclRefExpr>(Cond->getLHS()->IgnoreParenImpCasts());
    std::optional<std::int64_t> End = constant(Cond->getRHS());
    if (!CondVar || CondVar->getDecl() != V || !End)
      return false;
    std::optional<std::int64_t> Step;
    if (const auto *U = dyn_cast_or_null<UnaryOperator>(F->getInc());
        U && U->isIncrementDecrementOp())
      Step = U->isIncrementOp() ? 1 : -1;
    if (const auto *B = dyn_cast_or_null<CompoundAssignOperator>(F->getInc());
        B && (B->getOpcode() == BO_AddAssign || B->getOpcode() == BO_SubAssign))
      if (std::optional<std::int64_t> K = constant(B->getRHS()))
        Step = B->getOpcode() == BO_AddAssign ? *K : -*K;
    const Stmt *Inc = F->getInc();
    const Expr *IncVar =
        !Inc                       ? nullptr
        : isa<UnaryOperator>(Inc)  ? cast<UnaryOperator>(Inc)->getSubExpr()
        : isa<BinaryOperator>(Inc) ? cast<BinaryOperator>(Inc)->getLHS()
                                   : nullptr;
    const auto *IncRef =
        IncVar ? dyn_cast<DeclRefExpr>(IncVar->IgnoreParenImpCasts()) : nullptr;
    if (!Step || *Step == 0 || !IncRef || IncRef->getDecl() != V ||
        assigns(F->getBody(), V) || leavesEarly(F->getBody()) ||
        mentions(Cond, names()) || mentions(Inc, names()))
      return false;
    auto Holds = [&](std::int64_t I) {
      switch (Cond->getOpcode()) {
      case BO_LT:
        return I < *End;
      case BO_LE:
        return I <= *End;
      case BO_GT:
        return I > *End;
      case BO_GE:
        return I >= *End;
      case BO_NE:
        return I != *End;
      default:
        return false;
      }
    };
    std::vector<std::int64_t> Values;
    for (std::int64_t I = *Start; Holds(I); I += *Step)
      if (Values.push_back(I); Values.size() > 4096)
        return false;
    const std::optional<std::int64_t> Outer =
        Constants.count(V) ? std::optional(Constants.lookup(V)) : std::nullopt;
    for (std::int64_t I : Values) {
      Constants[V] = I;
      stmt(F->getBody());
      if (Failed)
        break;
    }
    if (Outer)
      Constants[V] = *Outer;
    else
      Constants.erase(V);
    return true;
  }

  void stmt(const Stmt *S) {
    if (!S || Failed)
      return;
    if (++Steps > MaxSteps)
      return fail(S, "its uses of '" + Array->getName().str() +
                         "' are too many for weft to follow");
    if (const auto *E = dyn_cast<Expr>(S))
      return expr(E);
    if (const auto *C = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *Child : C->body())
        stmt(Child);
      return;
    }
    if (const auto *D = dyn_cast<DeclStmt>(S)) {
      for (const Decl *Each : D->decls())
        if (const auto *V = dyn_cast<VarDecl>(Each))
          expr(V->getInit());
      return;
    }
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      stmt(If->getInit());
      stmt(If->getConditionVariableDeclStmt());
      expr(If->getCond());
      const llvm::BitVector Before = Written;
      stmt(If->getThen());
      const llvm::BitVector Then = Written;
      Written = Before;
      stmt(If->getElse());
      Written &= Then;
      return;
    }
    if (const auto *F = dyn_cast<ForStmt>(S)) {
      stmt(F->getInit());
      if (unrolled(F))
        return;
      // Run once from what holds before: each iteration starts with at
      // least that written, and none may run.
      stmt(F->getConditionVariableDeclStmt());
      expr(F->getCond());
      const llvm::BitVector Before = Written;
      stmt(F->getBody());
      expr(F->getInc());
      Written = Before;
      return;
    }
    if (const auto *W = dyn_cast<WhileStmt>(S)) {
      stmt(W->getConditionVariableDeclStmt());
      expr(W->getCond());
      const llvm::BitVector Before = Written;
      stmt(W->getBody());
      Written = Before;
      return;
    }
    if (const auto *D = dyn_cast<DoStmt>(S)) {
      const llvm::BitVector Before = Written;
      stmt(D->getBody());
      expr(D->getCond());
      Written = Before;
      return;
    }
    // for (T v : a): every element read (a copy or a const reference
    // each); the body as a loop's, its writes covering nothing after it.
    if (const auto *F = dyn_cast<CXXForRangeStmt>(S)) {
      const VarDecl *Each = F->getLoopVariable();
      const QualType T = Each->getType();
      if (const Place P = place(F->getRangeInit()); P.InArray) {
        if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified())
          return fail(S, "it binds a reference to each element of '" +
                             Array->getName().str() + "'");
        read(P, F->getRangeInit());
      } else {
        expr(F->getRangeInit());
      }
      const llvm::BitVector Before = Written;
      stmt(F->getBody());
      Written = Before;
      return;
    }
    if (const auto *Sw = dyn_cast<SwitchStmt>(S)) {
      stmt(Sw->getInit());
      expr(Sw->getCond());
      const llvm::BitVector Before = Written;
      ++NoMarking; // a case is entered in its middle
      stmt(Sw->getBody());
      --NoMarking;
      Written = Before;
      return;
    }
    if (const auto *C = dyn_cast<CaseStmt>(S)) {
      stmt(C->getSubStmt());
      return;
    }
    if (const auto *D = dyn_cast<DefaultStmt>(S)) {
      stmt(D->getSubStmt());
      return;
    }
    if (const auto *A = dyn_cast<AttributedStmt>(S)) {
      stmt(A->getSubStmt());
      return;
    }
    if (const auto *R = dyn_cast<ReturnStmt>(S)) {
      expr(R->getRetValue());
      return;
    }
    if (isa<NullStmt>(S) || isa<BreakStmt>(S) || isa<ContinueStmt>(S))
      return;
    if (mentions(S, names()))
      fail(S, "it uses '" + Array->getName().str() +
                  "' in a statement weft does not follow");
  }

  ASTContext &Ctx;
  const VarDecl *Array;
  const std::int64_t Elements;
  const std::int64_t ElementSize;
  llvm::BitVector Written;
  /// The indices of the loops run element by element, at this step.
  llvm::DenseMap<const VarDecl *, std::int64_t> Constants;
  /// The pointer parameters of the functions followed, by the element of
  /// Array each points at.
  llvm::DenseMap<const VarDecl *, std::int64_t> Pointers;
  /// Where above zero, writes cover nothing (an operand evaluated only
  /// sometimes, a switch's cases, a function that may return early).
  unsigned NoMarking = 0;
  std::vector<const FunctionDecl *> Calls;
  std::int64_t Steps = 0;
  bool Failed = false;
  std::string Why;
};

/// The array's elements and the bytes of one, where they are numbers.
std::optional<std::pair<std::int64_t, std::int64_t>>
arrayShape(ASTContext &Ctx, const VarDecl *Array) {
  const QualType T = Array->getType();
  if (!Ctx.getAsConstantArrayType(T))
    return std::nullopt;
  const QualType Element = Ctx.getBaseElementType(T);
  if (!Element->isArithmeticType())
    return std::nullopt;
  const std::int64_t Size = Ctx.getTypeSizeInChars(Element).getQuantity();
  const std::int64_t Elements = Ctx.getTypeSizeInChars(T).getQuantity() / Size;
  if (Elements <= 0 || Elements > MaxElements)
    return std::nullopt;
  return std::pair(Elements, Size);
}

} // namespace

bool writesBeforeReading(ASTContext &Ctx, const Stmt *Body,
                         const VarDecl *Array, std::string &Why) {
  std::optional<std::pair<std::int64_t, std::int64_t>> Shape =
      arrayShape(Ctx, Array);
  if (!Shape) {
    Why = "its elements are not numbers, or too many";
    return false;
  }
  return Coverage(Ctx, Array, Shape->first, Shape->second).run(Body, Why);
}

} // namespace weft::recognize
