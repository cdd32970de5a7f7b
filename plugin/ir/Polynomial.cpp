// Polynomial.cpp: arithmetic on symbolic integer polynomials.
#include "ir/Polynomial.h"

#include <algorithm>

namespace weft::ir {

Polynomial Polynomial::constant(std::int64_t V) {
  Polynomial P;
  if (V != 0)
    P.Terms[{}] = V;
  return P;
}

Polynomial Polynomial::symbol(std::string Name) {
  Polynomial P;
  P.Terms[{std::move(Name)}] = 1;
  return P;
}

std::optional<std::int64_t> Polynomial::constantValue() const {
  if (Terms.empty())
    return 0;
  if (!isConstant())
    return std::nullopt;
  return Terms.begin()->second;
}

std::optional<Polynomial> Polynomial::plus(const Polynomial &O) const {
  Polynomial R = *this;
  for (const auto &[M, C] : O.Terms) {
    std::int64_t &Slot = R.Terms[M];
    if (__builtin_add_overflow(Slot, C, &Slot))
      return std::nullopt;
    if (Slot == 0)
      R.Terms.erase(M);
  }
  return R;
}

std::optional<Polynomial> Polynomial::minus(const Polynomial &O) const {
  std::optional<Polynomial> Negated = O.times(constant(-1));
  if (!Negated)
    return std::nullopt;
  return plus(*Negated);
}

std::optional<Polynomial> Polynomial::times(const Polynomial &O) const {
  Polynomial R;
  for (const auto &[MA, CA] : Terms)
    for (const auto &[MB, CB] : O.Terms) {
      Monomial M = MA;
      M.insert(M.end(), MB.begin(), MB.end());
      std::sort(M.begin(), M.end());
      std::int64_t C = 0;
      if (__builtin_mul_overflow(CA, CB, &C))
        return std::nullopt;
      std::int64_t &Slot = R.Terms[M];
      if (__builtin_add_overflow(Slot, C, &Slot))
        return std::nullopt;
      if (Slot == 0)
        R.Terms.erase(M);
    }
  return R;
}

std::string Polynomial::text() const {
  if (Terms.empty())
    return "0";
  std::string S;
  auto Term = [&](const Monomial &M, std::int64_t C) {
    const bool Negative = C < 0;
    // Appended, not assigned: GCC 12 warns about assigning a literal to a
    // string (-Wrestrict, a false positive, GCC bug 105329).
    if (S.empty())
      S.append(Negative ? "-" : "");
    else
      S.append(Negative ? " - " : " + ");
    // The magnitude, without negating INT64_MIN.
    const std::uint64_t Magnitude =
        Negative ? 0 - static_cast<std::uint64_t>(C) : C;
    std::string Factors;
    for (const std::string &F : M)
      Factors += (Factors.empty() ? "" : "*") + F;
    if (Factors.empty())
      S += std::to_string(Magnitude);
    else
      S += (Magnitude == 1 ? "" : std::to_string(Magnitude) + "*") + Factors;
  };
  // The symbolic terms first, then the constant.
  for (const auto &[M, C] : Terms)
    if (!M.empty())
      Term(M, C);
  if (auto It = Terms.find({}); It != Terms.end())
    Term({}, It->second);
  return S;
}

} // namespace weft::ir
