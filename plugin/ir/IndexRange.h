// IndexRange.h: the least and greatest values an affine expression of loop
// indices takes, where each loop's bounds are affine in the indices of the
// loops around it (a triangular loop's `k < i` too): what sizes the
// elements a thread or a block holds in shared memory.
#ifndef WEFT_PLUGIN_IR_INDEXRANGE_H
#define WEFT_PLUGIN_IR_INDEXRANGE_H

#include "ir/AffineForm.h"

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace weft::ir {

/// A loop index and its bounds: Lower <= Index < Upper (<= Upper where
/// Inclusive). A loop whose bounds the analysis does not know has none: it
/// only hides the loops around of the same index.
struct IndexBounds {
  std::string Index;
  const Expr *Lower = nullptr, *Upper = nullptr;
  bool Inclusive = false;
};

/// A For statement's index and bounds: none known where the loop is not
/// counted (it hides the loops around of its index), no index where it
/// declares none.
IndexBounds loopBounds(const Stmt &For);
/// A parallel level's.
IndexBounds levelBounds(const Level &L);

/// Loops, outermost first, and the names that are variables (every index,
/// and what else may not stand for a value: a local the loops assign).
struct LoopNest {
  const Nest &N;
  std::vector<IndexBounds> Around;
  std::function<bool(const std::string &)> IsVariable;

  /// The innermost of Around[0, Before) whose index is Name, or Before.
  std::size_t find(const std::string &Name, std::size_t Before) const;
  /// The least and greatest values of F over the loops Around[0, Before),
  /// as polynomials of the symbols; nullopt where a variable of F is no
  /// index there, a coefficient is not constant, or a bound is unknown.
  std::optional<std::pair<Polynomial, Polynomial>>
  range(const AffineForm &F, std::size_t Before) const;
  /// The same of the index of Around[At].
  std::optional<std::pair<Polynomial, Polynomial>>
  indexRange(std::size_t At) const;
  /// E as an affine form of the variables.
  std::optional<AffineForm> form(const Expr &E) const;
};

/// The least and greatest of the values some expressions take, as each
/// one's range comes in: bounds a constant apart pick the wider.
struct Hull {
  std::optional<Polynomial> Lo, Hi;
  /// Widens the hull to take R; false where a bound of R is more than a
  /// constant apart from the hull's (which is wider is not known).
  bool take(const std::pair<Polynomial, Polynomial> &R);
  /// Hi - Lo + 1: how many values it spans; nullopt where empty or on an
  /// overflow.
  std::optional<Polynomial> count() const;
};

/// The most iterations level L has wherever it runs, where the ranges of
/// its bounds over the loops around it (sequential loops and levels) set a
/// constant one (a sequential nest's `for (j = i; j < off + 32; ++j)`:
/// 32); nullopt otherwise.
std::optional<std::int64_t> mostIterations(const Nest &N, const Level &L);

} // namespace weft::ir

#endif
