// BoundExpr.cpp: the bound language's text form and its evaluation.
#include "contract/BoundExpr.h"

namespace weft::contract {
namespace {

struct OpEntry {
  const char *Word;
  BoundExpr::Op Kind;
  unsigned Arity;
};
constexpr OpEntry Ops[] = {
    {"lit", BoundExpr::Lit, 0},   {"arg", BoundExpr::Arg, 0},
    {"size", BoundExpr::Size, 0}, {"tune", BoundExpr::Tune, 0},
    {"add", BoundExpr::Add, 2},   {"sub", BoundExpr::Sub, 2},
    {"mul", BoundExpr::Mul, 2},   {"div", BoundExpr::Div, 2},
    {"rem", BoundExpr::Rem, 2},   {"min", BoundExpr::Min, 2},
    {"max", BoundExpr::Max, 2},   {"neg", BoundExpr::Neg, 1}};

void skipSpaces(std::string_view Text, std::size_t &Pos) {
  while (Pos < Text.size() && Text[Pos] == ' ')
    ++Pos;
}

bool parseInteger(std::string_view Text, std::size_t &Pos, std::int64_t &V) {
  skipSpaces(Text, Pos);
  const bool Negative = Pos < Text.size() && Text[Pos] == '-';
  if (Negative)
    ++Pos;
  const std::size_t Start = Pos;
  std::uint64_t Magnitude = 0;
  for (; Pos < Text.size() && Text[Pos] >= '0' && Text[Pos] <= '9'; ++Pos) {
    const std::uint64_t Digit = static_cast<std::uint64_t>(Text[Pos] - '0');
    if (Magnitude > (UINT64_MAX - Digit) / 10)
      return false;
    Magnitude = Magnitude * 10 + Digit;
  }
  if (Pos == Start ||
      Magnitude > static_cast<std::uint64_t>(INT64_MAX) + (Negative ? 1u : 0u))
    return false;
  V = Negative ? static_cast<std::int64_t>(0 - Magnitude)
               : static_cast<std::int64_t>(Magnitude);
  return true;
}

} // namespace

unsigned arity(BoundExpr::Op K) {
  for (const OpEntry &O : Ops)
    if (O.Kind == K)
      return O.Arity;
  return 0;
}

const char *opWord(BoundExpr::Op K) {
  for (const OpEntry &O : Ops)
    if (O.Kind == K)
      return O.Word;
  return "?";
}

std::string writeBound(const BoundExpr &E) {
  std::string S = std::string("(") + opWord(E.Kind);
  if (arity(E.Kind) == 0)
    S += " " + std::to_string(E.Value);
  for (const BoundExpr &O : E.Operands)
    S += " " + writeBound(O);
  return S + ")";
}

std::optional<BoundExpr> parseBound(std::string_view Text, std::size_t &Pos) {
  skipSpaces(Text, Pos);
  if (Pos >= Text.size() || Text[Pos] != '(')
    return std::nullopt;
  ++Pos;
  std::size_t End = Pos;
  while (End < Text.size() && Text[End] >= 'a' && Text[End] <= 'z')
    ++End;
  const std::string_view Word = Text.substr(Pos, End - Pos);
  Pos = End;
  const OpEntry *Op = nullptr;
  for (const OpEntry &O : Ops)
    if (Word == O.Word)
      Op = &O;
  if (!Op)
    return std::nullopt;
  BoundExpr E;
  E.Kind = Op->Kind;
  if (Op->Arity == 0) {
    if (!parseInteger(Text, Pos, E.Value) ||
        (E.Kind != BoundExpr::Lit && E.Value < 0))
      return std::nullopt;
  }
  for (unsigned I = 0; I < Op->Arity; ++I) {
    std::optional<BoundExpr> Sub = parseBound(Text, Pos);
    if (!Sub)
      return std::nullopt;
    E.Operands.push_back(std::move(*Sub));
  }
  skipSpaces(Text, Pos);
  if (Pos >= Text.size() || Text[Pos] != ')')
    return std::nullopt;
  ++Pos;
  return E;
}

bool evaluateBound(const BoundExpr &E, const LeafValue &Leaf,
                   std::int64_t &Value, std::string &Error) {
  std::int64_t A = 0, B = 0;
  if (!E.Operands.empty() && !evaluateBound(E.Operands[0], Leaf, A, Error))
    return false;
  if (E.Operands.size() > 1 && !evaluateBound(E.Operands[1], Leaf, B, Error))
    return false;
  bool Overflow = false;
  switch (E.Kind) {
  case BoundExpr::Lit:
    Value = E.Value;
    return true;
  case BoundExpr::Arg:
  case BoundExpr::Size:
  case BoundExpr::Tune:
    return Leaf(E, Value, Error);
  case BoundExpr::Add:
    Overflow = __builtin_add_overflow(A, B, &Value);
    break;
  case BoundExpr::Sub:
    Overflow = __builtin_sub_overflow(A, B, &Value);
    break;
  case BoundExpr::Mul:
    Overflow = __builtin_mul_overflow(A, B, &Value);
    break;
  case BoundExpr::Div:
  case BoundExpr::Rem:
    if (B == 0) {
      Error = "division by zero in a loop bound";
      return false;
    }
    Overflow = A == INT64_MIN && B == -1;
    if (!Overflow)
      Value = E.Kind == BoundExpr::Div ? A / B : A % B;
    break;
  case BoundExpr::Min:
    Value = A < B ? A : B;
    break;
  case BoundExpr::Max:
    Value = A < B ? B : A;
    break;
  case BoundExpr::Neg:
    Overflow = __builtin_sub_overflow(std::int64_t(0), A, &Value);
    break;
  }
  if (Overflow) {
    Error = "a loop bound overflows 64-bit arithmetic";
    return false;
  }
  return true;
}

} // namespace weft::contract
