// AffineForm.h: an integer expression as an affine function of chosen
// variables (the parallel indices, a loop's index), its coefficients and
// offset polynomials over the rest (captures, locals the analysis cannot
// see through): what the coalescing analysis reads strides from, and what
// proves two subscripts always name different elements.
#ifndef WEFT_PLUGIN_IR_AFFINEFORM_H
#define WEFT_PLUGIN_IR_AFFINEFORM_H

#include "ir/NestIR.h"
#include "ir/Polynomial.h"

#include <functional>
#include <map>
#include <optional>
#include <string>

namespace weft::ir {

/// sum of Coefficients[v] * v + Offset; no zero coefficients.
struct AffineForm {
  std::map<std::string, Polynomial> Coefficients;
  Polynomial Offset;
  bool dependsOnVariables() const { return !Coefficients.empty(); }
};

/// How the analysis sees a local: one of the variables, a value it stands
/// for (int row = i * cols, never assigned again), or else a symbol.
struct AffineScope {
  std::function<bool(const std::string &)> IsVariable;
  const std::map<std::string, AffineForm> *Values = nullptr;
  /// A local whose value the variables decide in no affine way (`int r =
  /// idx[i]`): an expression of it is no affine form.
  std::function<bool(const std::string &)> IsOpaque;
};

/// E as an affine form, or nullopt (a product of variables, a floating
/// value, an overflow, an opaque expression of a variable).
std::optional<AffineForm> affineForm(const Nest &N, const Expr &E,
                                     const AffineScope &Scope);

/// A + B (or A - B); nullopt when a coefficient overflows.
std::optional<AffineForm> add(AffineForm A, const AffineForm &B, bool Subtract);

/// A and B differ by a nonzero constant whatever the variables and symbols
/// are: the subscripts name different elements.
bool provablyDistinct(const AffineForm &A, const AffineForm &B);

} // namespace weft::ir

#endif
