// TransferPlan.h: which captured spans move between host and device, and in
// which direction, decided from how the nest uses them.
#ifndef WEFT_PLUGIN_MEMORY_TRANSFERPLAN_H
#define WEFT_PLUGIN_MEMORY_TRANSFERPLAN_H

#include "contract/Vocabulary.h"
#include "ir/NestIR.h"

#include <optional>
#include <vector>

namespace weft::memory {

/// Out: written everywhere, so nothing need be copied in. A span written
/// only in places is InOut: the elements the kernel skips keep their values.
enum class Transfer { In, Out, InOut, ByValue };

/// How the descriptor states it.
contract::ParamKind descriptorKind(Transfer T);

/// One entry per parameter of the nest.
std::vector<Transfer> planTransfers(const ir::Nest &N);

/// True when the nest provably writes every element of span Param: the
/// outermost level runs its index over exactly [0, Param.size()) with step
/// 1, and its body assigns Param[index] unconditionally at top level.
bool writesEveryElement(const ir::Nest &N, unsigned Param);

/// A claim the runtime checks at launch: span Param is written at every
/// element when rows * Cols == its size and Cols == Stride, rows being the
/// outermost trip count. The nest: `for (i = 0; i < rows; ++i)` whose body
/// runs `for (j = 0; j < Cols; ++j)` unconditionally (a marked level) which
/// assigns Param[i * Stride + j] unconditionally; no continue in either.
struct GridCoverage {
  const ir::Expr *Cols = nullptr, *Stride = nullptr;
};
std::optional<GridCoverage> writesEveryElementOfGrid(const ir::Nest &N,
                                                     unsigned Param);

} // namespace weft::memory

#endif
