// BoundAlgebra.h: arithmetic on the bounds the launch evaluates
// (contract/BoundExpr.h) that keeps them small: sums and products as
// polynomials, min and max without operands a constant apart, literals
// folded; and their text for the remarks.
#ifndef WEFT_PLUGIN_IR_BOUNDALGEBRA_H
#define WEFT_PLUGIN_IR_BOUNDALGEBRA_H

#include "contract/BoundExpr.h"
#include "ir/NestIR.h"
#include "ir/Polynomial.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace weft::ir {
namespace bounds {

using contract::BoundExpr;

/// E's value where it is a literal.
std::optional<std::int64_t> literalOf(const BoundExpr &E);
/// E as a polynomial over its leaves and the parts that are no sums or
/// products (a min, a quotient), each a symbol named by its text; nullopt
/// on an overflow.
std::optional<Polynomial> polynomial(const BoundExpr &E);
/// A Op B, normalized: a sum or product as a polynomial, a min or max
/// without the operands another a constant beyond makes redundant, a
/// quotient or remainder of literals its value.
BoundExpr fold(BoundExpr::Op Op, BoundExpr A, BoundExpr B);
BoundExpr add(BoundExpr A, BoundExpr B);
BoundExpr sub(BoundExpr A, BoundExpr B);
BoundExpr mul(BoundExpr A, BoundExpr B);
BoundExpr least(BoundExpr A, BoundExpr B);
BoundExpr greatest(BoundExpr A, BoundExpr B);
BoundExpr negate(BoundExpr A);
/// How many nodes E has.
std::size_t nodes(const BoundExpr &E);

} // namespace bounds

/// B as the remarks write it: `n * m - 1`, `min(a, b)`, parameters by
/// name.
std::string boundText(const Nest &N, const contract::BoundExpr &B);

} // namespace weft::ir

#endif
