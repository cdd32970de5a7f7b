// KernelText.h: polynomials and affine forms of the analysis printed as
// kernel text (index arithmetic in weft::index_t), and the exact quotient
// that splits a subscript's offset by a stride.
#ifndef WEFT_PLUGIN_IR_KERNELTEXT_H
#define WEFT_PLUGIN_IR_KERNELTEXT_H

#include "ir/AffineForm.h"
#include "ir/Polynomial.h"

#include <optional>
#include <set>
#include <string>

namespace weft::ir {

/// P as kernel text: "$n" stands for capture n, other symbols for locals
/// of the same name; nullopt where a symbol is neither (an opaque
/// expression) or names one of Hidden.
std::optional<std::string> kernelText(const Polynomial &P,
                                      const std::set<std::string> &Hidden);

/// Q with Q * Divisor == P, where Divisor is a constant or one term;
/// nullopt where there is none.
std::optional<Polynomial> exactQuotient(const Polynomial &P,
                                        const Polynomial &Divisor);

/// F as kernel text: its variables (names in scope where it is printed)
/// times their constant coefficients, plus its offset; nullopt where a
/// coefficient is not constant or the offset is not kernel text.
std::optional<std::string> formText(const AffineForm &F,
                                    const std::set<std::string> &Hidden);

} // namespace weft::ir

#endif
