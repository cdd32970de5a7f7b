// BoundExpr.h: the language of loop bounds and sizes that the runtime
// evaluates from a launch's arguments (grid extents, per-thread buffers,
// coverage claims, the sizes a mapping choice reads). Its text form is a
// prefix S-expression: (lit N) (arg K) (size K) (add a b) (sub a b)
// (mul a b) (div a b) (rem a b) (min a b) (max a b) (neg a), and in a
// tuning space's constraints (tune K): the value of its K-th parameter.
#ifndef WEFT_CONTRACT_BOUNDEXPR_H
#define WEFT_CONTRACT_BOUNDEXPR_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace weft::contract {

struct BoundExpr {
  enum Op { Lit, Arg, Size, Tune, Add, Sub, Mul, Div, Rem, Min, Max, Neg };
  Op Kind = Lit;
  /// Lit: the value; Arg: the scalar parameter's index; Size: the span
  /// parameter's index (its element count); Tune: the tuning parameter's
  /// index.
  std::int64_t Value = 0;
  std::vector<BoundExpr> Operands;

  static BoundExpr literal(std::int64_t V) { return {Lit, V, {}}; }
  static BoundExpr arg(unsigned Param) { return {Arg, Param, {}}; }
  static BoundExpr size(unsigned Param) { return {Size, Param, {}}; }
  static BoundExpr tune(unsigned Param) { return {Tune, Param, {}}; }
  static BoundExpr negate(BoundExpr A) { return {Neg, 0, {std::move(A)}}; }
  static BoundExpr binary(Op K, BoundExpr A, BoundExpr B) {
    return {K, 0, {std::move(A), std::move(B)}};
  }
  bool operator==(const BoundExpr &O) const {
    return Kind == O.Kind && Value == O.Value && Operands == O.Operands;
  }
  bool operator!=(const BoundExpr &O) const { return !(*this == O); }
};

/// Operands the operator takes; 0 for the leaves.
unsigned arity(BoundExpr::Op K);
/// "add" for Add, ...
const char *opWord(BoundExpr::Op K);

std::string writeBound(const BoundExpr &E);
/// Parses one bound starting at Text[Pos], skipping spaces before it; Pos
/// ends past it. Nullopt on malformed text.
std::optional<BoundExpr> parseBound(std::string_view Text, std::size_t &Pos);

/// The value of a leaf: (arg K), (size K) or (tune K); false, with Error set,
/// when it has none. A non-owning reference to the callable, which outlives the
/// evaluation: bounds are evaluated at every launch, so nothing allocates.
class LeafValue {
public:
  template <class Fn, class = std::enable_if_t<
                          !std::is_same_v<std::decay_t<Fn>, LeafValue>>>
  LeafValue(Fn &&F)
      : Callable(const_cast<void *>(static_cast<const void *>(&F))),
        Call([](void *C, const BoundExpr &Leaf, std::int64_t &Value,
                std::string &Error) {
          return (*static_cast<std::remove_reference_t<Fn> *>(C))(Leaf, Value,
                                                                  Error);
        }) {}
  bool operator()(const BoundExpr &Leaf, std::int64_t &Value,
                  std::string &Error) const {
    return Call(Callable, Leaf, Value, Error);
  }

private:
  void *Callable;
  bool (*Call)(void *, const BoundExpr &, std::int64_t &, std::string &);
};
/// Evaluates E in 64-bit signed arithmetic. False (and Error) when a leaf
/// has no value, on division by zero, or on overflow.
bool evaluateBound(const BoundExpr &E, const LeafValue &Leaf,
                   std::int64_t &Value, std::string &Error);

} // namespace weft::contract

#endif
