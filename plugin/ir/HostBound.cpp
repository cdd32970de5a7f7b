// HostBound.cpp: nest IR to the bound language.
#include "ir/HostBound.h"

namespace weft::ir {

std::optional<contract::BoundExpr> hostBound(const Expr &E) {
  using contract::BoundExpr;
  if (isFloating(E.Type))
    return std::nullopt;
  auto Operand = [&](std::size_t I) { return hostBound(*E.Operands[I]); };
  auto Binary = [&](BoundExpr::Op Op) -> std::optional<BoundExpr> {
    std::optional<BoundExpr> A = Operand(0), B = Operand(1);
    if (!A || !B)
      return std::nullopt;
    return BoundExpr::binary(Op, std::move(*A), std::move(*B));
  };
  switch (E.Kind) {
  case Expr::IntLiteral:
  case Expr::BoolLiteral:
    if (std::optional<std::int64_t> V = integerValue(E))
      return BoundExpr::literal(*V);
    return std::nullopt;
  case Expr::ParamRef:
    return BoundExpr::arg(E.ParamIndex);
  case Expr::SpanSize:
    return BoundExpr::size(E.ParamIndex);
  case Expr::Cast:
    return Operand(0);
  case Expr::Unary:
    if (E.Text == "+")
      return Operand(0);
    if (E.Text == "-")
      if (std::optional<BoundExpr> A = Operand(0))
        return BoundExpr::negate(std::move(*A));
    return std::nullopt;
  case Expr::Binary: {
    static const struct {
      const char *Spelling;
      BoundExpr::Op Op;
    } Ops[] = {{"+", BoundExpr::Add},
               {"-", BoundExpr::Sub},
               {"*", BoundExpr::Mul},
               {"/", BoundExpr::Div},
               {"%", BoundExpr::Rem}};
    for (const auto &O : Ops)
      if (E.Text == O.Spelling)
        return Binary(O.Op);
    return std::nullopt;
  }
  case Expr::Call:
    if (E.Operands.size() == 2 && E.Text == "weft::min")
      return Binary(BoundExpr::Min);
    if (E.Operands.size() == 2 && E.Text == "weft::max")
      return Binary(BoundExpr::Max);
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

} // namespace weft::ir
