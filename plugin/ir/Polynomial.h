// Polynomial.h: an integer polynomial over symbols (captured scalars, span
// sizes, locals the analysis cannot see through): the type of the
// coefficients and offsets of affine subscripts, so that strides compare
// and subtract exactly (i * $n + j and (i - 1) * $n + j differ by $n).
#ifndef WEFT_PLUGIN_IR_POLYNOMIAL_H
#define WEFT_PLUGIN_IR_POLYNOMIAL_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace weft::ir {

class Polynomial {
public:
  /// A product of symbols, sorted; empty for the constant term.
  using Monomial = std::vector<std::string>;

  Polynomial() = default; // 0
  static Polynomial constant(std::int64_t V);
  static Polynomial symbol(std::string Name);

  bool isZero() const { return Terms.empty(); }
  bool isConstant() const {
    return Terms.empty() || (Terms.size() == 1 && Terms.begin()->first.empty());
  }
  /// The value of a constant polynomial.
  std::optional<std::int64_t> constantValue() const;
  /// 1 or -1: a unit stride.
  bool isUnit() const {
    std::optional<std::int64_t> V = constantValue();
    return V && (*V == 1 || *V == -1);
  }
  const std::map<Monomial, std::int64_t> &terms() const { return Terms; }

  /// Nullopt when a coefficient overflows 64 bits.
  std::optional<Polynomial> plus(const Polynomial &O) const;
  std::optional<Polynomial> minus(const Polynomial &O) const;
  std::optional<Polynomial> times(const Polynomial &O) const;

  bool operator==(const Polynomial &O) const { return Terms == O.Terms; }
  bool operator!=(const Polynomial &O) const { return Terms != O.Terms; }

  /// "$n", "2*$n*$m - 1", "0".
  std::string text() const;

private:
  std::map<Monomial, std::int64_t> Terms; // no zero coefficients
};

} // namespace weft::ir

#endif
