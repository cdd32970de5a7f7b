// ThreadSlice.h: the span elements one iteration of an innermost level
// alone reads and writes along a bounded sequential loop (its column of a
// matrix, for a triangular solve down the rows): held per thread in shared
// memory for the iteration, so that a chain of reads after writes runs at
// shared memory's latency rather than a round trip to L2 a step.
#ifndef WEFT_PLUGIN_ANALYSIS_THREADSLICE_H
#define WEFT_PLUGIN_ANALYSIS_THREADSLICE_H

#include "ir/NestIR.h"
#include "ir/Polynomial.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace weft::ir {

/// Element W of the slice is the span's Index * ThreadStride + W * Stride
/// (Index the level's), for W in [Lo, Lo + Count). Texts are kernel text
/// of captures and of names in scope at the top of the level's body.
struct ThreadSlice {
  const Level *Owner = nullptr;
  unsigned Param = 0;
  std::string ThreadStride, Stride, Lo, Count;
  std::optional<std::int64_t> FixedCount;
  /// Lo, ThreadStride and Stride over the captures and the names of their
  /// texts.
  Polynomial LoValue, ThreadStrideValue, StrideValue;
  /// An access the slice serves: its W is Variable + Shift (empty: 0).
  struct Use {
    const Expr *Element = nullptr;
    std::string Variable, Shift;
    Polynomial ShiftValue;
  };
  std::vector<Use> Uses;
  std::string Description; // "A[((I * $N) + J)]": its first write
  std::string Rows;        // "I, K": the loops it follows
};

/// Every span an innermost level's iteration can hold so: it writes the
/// span only at Index * ThreadStride + (k + c) * Stride (k the index of a
/// counted loop inside the body whose bounds bound k by loops further out,
/// captures and names the body does not assign; c a multiple of nothing
/// but constants and such names), reads it so too (and anywhere else, in
/// place: every write goes through to the span as well), binds none of its
/// elements to a reference, passes none to a call, and combines into none.
/// Two iterations never share an element one of them writes (the level's
/// mark), so only the iteration's own writes reach its slice.
std::vector<ThreadSlice> planThreadSlices(const Nest &N);

} // namespace weft::ir

#endif
