// PolynomialTest.cpp: the symbolic integer polynomials that affine
// subscripts' coefficients and offsets are made of.
#include "ir/Polynomial.h"

#include <gtest/gtest.h>

using weft::ir::Polynomial;

namespace {

TEST(Polynomial, ArithmeticIsExact) {
  const Polynomial N = Polynomial::symbol("$n"), M = Polynomial::symbol("$m");
  // (i - 1) * n + j against i * n + j: the offsets differ by n.
  const Polynomial Shifted = *N.times(Polynomial::constant(-1));
  EXPECT_EQ(Shifted.text(), "-$n");
  EXPECT_EQ(*Shifted.plus(N), Polynomial());
  EXPECT_TRUE(Shifted.plus(N)->isZero());
  const Polynomial P = *N.times(M)->plus(Polynomial::constant(-3));
  EXPECT_EQ(P.text(), "$m*$n - 3");
  EXPECT_EQ(*M.times(N), *N.times(M));
  EXPECT_FALSE(P.isConstant());
  EXPECT_EQ(Polynomial::constant(-1).constantValue(), -1);
  EXPECT_TRUE(Polynomial::constant(-1).isUnit());
  EXPECT_FALSE(N.isUnit());
  EXPECT_EQ(Polynomial().text(), "0");
}

TEST(Polynomial, OverflowIsNoResult) {
  const Polynomial Big = Polynomial::constant(INT64_MAX);
  EXPECT_FALSE(Big.plus(Polynomial::constant(1)));
  EXPECT_FALSE(Big.times(Polynomial::constant(2)));
  EXPECT_FALSE(Polynomial::constant(INT64_MIN).minus(Polynomial::constant(1)));
}

} // namespace
