// RecognizeViews.cpp: views into the loop's data: what a pointer or span
// parameter of a function compiled into the loop is bound to (`&a[i * n]`,
// `a.subspan(k, n)`), and whether a call is made whenever its statement is.
#include "recognize/DataRecognizer.h"

namespace weft::recognize {

bool DataRecognizer::takesViews(const FunctionDecl *Def) {
  return llvm::any_of(Def->parameters(), [](const ParmVarDecl *P) {
    return P->getType()->isPointerType() || spanLike(P->getType());
  });
}

std::optional<DataRecognizer::SpanInto>
DataRecognizer::spanInto(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  while (true) {
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr()->IgnoreParenImpCasts();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr()->IgnoreParenImpCasts();
    else if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(E))
      E = F->getSubExpr()->IgnoreParenImpCasts();
    else
      break;
  }
  auto Length = [&](unsigned P) {
    auto S = make(ir::Expr::SpanSize, ir::ScalarKind::Long);
    S->ParamIndex = P;
    return S;
  };
  // A span constructed: from a pointer and a count, or from data (or a
  // copy of a span).
  if (const auto *C = dyn_cast<CXXConstructExpr>(E)) {
    if (C->getNumArgs() == 2) {
      std::optional<PointerInto> Ptr = pointerInto(C->getArg(0));
      ir::ExprPtr Count = Ptr ? expr(C->getArg(1), Access::Read) : nullptr;
      if (!Ptr || Ptr->LocalArray || !Count)
        return std::nullopt;
      return SpanInto{Ptr->Param,
                      Ptr->Offset ? std::move(Ptr->Offset) : integer(0),
                      converted(std::move(Count))};
    }
    if (C->getNumArgs() == 1)
      return spanInto(C->getArg(0));
    return std::nullopt;
  }
  // s.subspan(o, n), s.subspan(o), s.first(n), s.last(n).
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *M = MC->getMethodDecl();
    const llvm::StringRef Name =
        M && M->getIdentifier() ? M->getName() : llvm::StringRef();
    if (!spanDecl(MC->getImplicitObjectArgument()->getType()) ||
        !(Name == "subspan" || Name == "first" || Name == "last"))
      return std::nullopt;
    std::optional<SpanInto> Whole = spanInto(MC->getImplicitObjectArgument());
    if (!Whole)
      return std::nullopt;
    ir::ExprPtr A0 = expr(MC->getArg(0), Access::Read);
    ir::ExprPtr A1 = Name == "subspan" && MC->getNumArgs() > 1 &&
                             !isa<CXXDefaultArgExpr>(MC->getArg(1))
                         ? expr(MC->getArg(1), Access::Read)
                         : nullptr;
    if (!A0)
      return std::nullopt;
    A0 = converted(std::move(A0));
    SpanInto Part;
    Part.Param = Whole->Param;
    if (Name == "first") {
      Part.Offset = std::move(Whole->Offset);
      Part.Length = std::move(A0);
    } else if (Name == "last") {
      ir::ExprPtr Again = ir::cloneExpr(*A0);
      Part.Offset =
          operation("+", std::move(Whole->Offset),
                    operation("-", std::move(Whole->Length), std::move(A0)));
      Part.Length = std::move(Again);
    } else {
      ir::ExprPtr Start = ir::cloneExpr(*A0);
      Part.Offset = operation("+", std::move(Whole->Offset), std::move(A0));
      Part.Length =
          A1 ? converted(std::move(A1))
             : operation("-", std::move(Whole->Length), std::move(Start));
    }
    return Part;
  }
  // A span the loop or the function holds, or data of one dimension.
  if (const RowView *View = rowViewOf(E); View && !View->Length.empty())
    return SpanInto{View->Param,
                    make(ir::Expr::Local, ir::ScalarKind::Long, View->Local),
                    viewLength(*View)};
  std::optional<DataShape> Shape = dataShape(E->getType());
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  if (!Shape || Shape->IsPointer || Shape->IsMdspan || Shape->RowsApart ||
      !Shape->Inner.empty() || !(Ref || isa<MemberExpr>(E)) ||
      (Ref && Locals.contains(dyn_cast<VarDecl>(Ref->getDecl()))))
    return std::nullopt; // (a per-iteration array: the caller says so)
  std::optional<unsigned> P = spanOperand(E);
  if (!P)
    return std::nullopt;
  return SpanInto{*P, integer(0), Length(*P)};
}

namespace {

/// Whether E is evaluated whenever Root is.
bool unconditionalUnder(const Stmt *Root, const Expr *E) {
  // (The statement's own map: the context's is built once, before the
  // functions parsed after it.)
  ParentMap Parents(const_cast<Stmt *>(Root));
  const Stmt *Child = E;
  while (Child != Root) {
    const Stmt *Parent = Parents.getParent(Child);
    if (!Parent)
      return false;
    if (const auto *C = dyn_cast<AbstractConditionalOperator>(Parent);
        C && C->getCond() != Child)
      return false;
    if (const auto *B = dyn_cast<BinaryOperator>(Parent);
        B && B->isLogicalOp() && B->getRHS() == Child)
      return false;
    Child = Parent;
  }
  return true;
}

} // namespace

bool DataRecognizer::evaluatedUnconditionally(const Expr *Call) const {
  // In a method compiled in as its expression: whenever that is, and its
  // call whenever the statement making it is.
  for (int F = CurrentFrame; F >= 0 && MethodFrames[F].Call;
       F = MethodFrames[F].Caller) {
    if (!unconditionalUnder(MethodFrames[F].Method->getBody(), Call))
      return false;
    Call = MethodFrames[F].Call;
  }
  return HoistRoot && unconditionalUnder(HoistRoot, Call);
}

bool DataRecognizer::bindView(const ParmVarDecl *P, const Expr *Arg,
                              const std::string &Why,
                              std::vector<ir::StmtPtr> &Out) {
  const bool Span = spanLike(P->getType());
  std::optional<SpanInto> Part;
  std::optional<PointerInto> Ptr;
  if (Span)
    Part = spanInto(Arg);
  else
    Ptr = pointerInto(Arg, /*IntoLocalArrays=*/true);
  if (!Part && !Ptr) {
    if (!Failed)
      fail(Arg->getBeginLoc(),
           Why + "; its " + (Span ? "span '" : "pointer '") +
               P->getName().str() +
               (Span ? "' can be only a part of" : "' can point only into") +
               " captured data of one dimension",
           Span ? "pass such data, 'a.subspan(k, n)' or 'std::span(&a[k], n)'"
                : "pass an element of such data: 'a', 'a + k' or '&a[k]'");
    return false;
  }
  if (Ptr) {
    Out.push_back(pointerView(P, std::move(*Ptr)));
    return true;
  }
  bindSpanView(P, std::move(*Part), Out);
  return true;
}

void DataRecognizer::bindSpanView(const VarDecl *V, SpanInto Part,
                                  std::vector<ir::StmtPtr> &Out) {
  Out.push_back(bindRowView(V, Part.Param, std::move(Part.Offset)));
  RowView &View = RowViews[V];
  View.Offset = true;
  auto Length = std::make_unique<ir::Stmt>();
  Length->Kind = ir::Stmt::Decl;
  Length->Name = View.Local + "_length";
  Length->VarType.Scalar = ir::ScalarKind::Long;
  Length->VarType.IsConst = true;
  if (ir::gridUniform(*Part.Length))
    View.UniformLength = ir::cloneExpr(*Part.Length);
  Length->Exprs.push_back(std::move(Part.Length));
  View.Length = Length->Name;
  Out.push_back(std::move(Length));
}

ir::ExprPtr DataRecognizer::viewLength(const RowView &View) {
  return View.UniformLength
             ? ir::cloneExpr(*View.UniformLength)
             : make(ir::Expr::Local, ir::ScalarKind::Long, View.Length);
}

} // namespace weft::recognize
