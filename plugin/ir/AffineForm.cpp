// AffineForm.cpp: affine forms of integer expressions.
#include "ir/AffineForm.h"

namespace weft::ir {

std::optional<AffineForm> add(AffineForm A, const AffineForm &B,
                              bool Subtract) {
  for (const auto &[Variable, Coef] : B.Coefficients) {
    Polynomial &Slot = A.Coefficients[Variable];
    std::optional<Polynomial> Sum =
        Subtract ? Slot.minus(Coef) : Slot.plus(Coef);
    if (!Sum)
      return std::nullopt;
    Slot = std::move(*Sum);
    if (Slot.isZero())
      A.Coefficients.erase(Variable);
  }
  std::optional<Polynomial> Offset =
      Subtract ? A.Offset.minus(B.Offset) : A.Offset.plus(B.Offset);
  if (!Offset)
    return std::nullopt;
  A.Offset = std::move(*Offset);
  return A;
}

namespace {

/// B scaled by F (free of variables).
std::optional<AffineForm> scale(const Polynomial &F, AffineForm B) {
  for (auto It = B.Coefficients.begin(); It != B.Coefficients.end();) {
    std::optional<Polynomial> P = F.times(It->second);
    if (!P)
      return std::nullopt;
    It->second = std::move(*P);
    It = It->second.isZero() ? B.Coefficients.erase(It) : std::next(It);
  }
  std::optional<Polynomial> Offset = F.times(B.Offset);
  if (!Offset)
    return std::nullopt;
  B.Offset = std::move(*Offset);
  return B;
}

class FormBuilder {
public:
  FormBuilder(const Nest &N, const AffineScope &Scope) : N(N), Scope(Scope) {}

  std::optional<AffineForm> form(const Expr &E) {
    AffineForm R;
    switch (E.Kind) {
    case Expr::IntLiteral: {
      std::optional<std::int64_t> V = integerValue(E);
      if (!V)
        return std::nullopt;
      R.Offset = Polynomial::constant(*V);
      return R;
    }
    case Expr::Local:
      if (Scope.IsOpaque && Scope.IsOpaque(E.Text))
        return std::nullopt;
      if (Scope.IsVariable && Scope.IsVariable(E.Text)) {
        R.Coefficients[E.Text] = Polynomial::constant(1);
        return R;
      }
      if (Scope.Values)
        if (auto It = Scope.Values->find(E.Text); It != Scope.Values->end())
          return It->second;
      R.Offset = Polynomial::symbol(E.Text);
      return R;
    case Expr::ParamRef:
      // A constant the loop captures, seen as what it was set to.
      if (E.ParamIndex < N.Params.size())
        if (const std::shared_ptr<const Expr> &D =
                N.Params[E.ParamIndex].Definition)
          return form(*D);
      break;
    case Expr::Cast:
      if (isFloating(E.Type))
        return std::nullopt;
      return form(*E.Operands[0]);
    case Expr::Unary:
      if (E.Text == "+")
        return form(*E.Operands[0]);
      if (E.Text == "-") {
        std::optional<AffineForm> V = form(*E.Operands[0]);
        if (!V)
          return std::nullopt;
        return scale(Polynomial::constant(-1), std::move(*V));
      }
      break;
    case Expr::Binary:
      if (E.Text == "+" || E.Text == "-") {
        std::optional<AffineForm> A = form(*E.Operands[0]);
        std::optional<AffineForm> B = form(*E.Operands[1]);
        if (!A || !B)
          return std::nullopt;
        return add(std::move(*A), *B, E.Text == "-");
      }
      if (E.Text == "*") {
        std::optional<AffineForm> A = form(*E.Operands[0]);
        std::optional<AffineForm> B = form(*E.Operands[1]);
        if (!A || !B || (A->dependsOnVariables() && B->dependsOnVariables()))
          return std::nullopt;
        if (A->dependsOnVariables())
          std::swap(A, B);
        // A is free of the variables: it scales B.
        return scale(A->Offset, std::move(*B));
      }
      break;
    default:
      break;
    }
    // Anything else is an opaque symbol, unless it involves a variable.
    if (mentionsVariable(E))
      return std::nullopt;
    R.Offset = Polynomial::symbol(exprText(N, E));
    return R;
  }

private:
  bool mentionsVariable(const Expr &E) const {
    if (E.Kind == Expr::Local) {
      if ((Scope.IsVariable && Scope.IsVariable(E.Text)) ||
          (Scope.IsOpaque && Scope.IsOpaque(E.Text)))
        return true;
      if (Scope.Values)
        if (auto It = Scope.Values->find(E.Text); It != Scope.Values->end())
          return It->second.dependsOnVariables();
      return false;
    }
    for (const ExprPtr &O : E.Operands)
      if (mentionsVariable(*O))
        return true;
    return false;
  }

  const Nest &N;
  const AffineScope &Scope;
};

} // namespace

std::optional<AffineForm> affineForm(const Nest &N, const Expr &E,
                                     const AffineScope &Scope) {
  return FormBuilder(N, Scope).form(E);
}

bool provablyDistinct(const AffineForm &A, const AffineForm &B) {
  if (A.Coefficients != B.Coefficients)
    return false;
  std::optional<Polynomial> Delta = A.Offset.minus(B.Offset);
  if (!Delta)
    return false;
  std::optional<std::int64_t> V = Delta->constantValue();
  return V && *V != 0;
}

} // namespace weft::ir
