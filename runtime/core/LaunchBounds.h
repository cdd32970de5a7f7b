// LaunchBounds.h: a descriptor's loop bounds and sizes evaluated from a
// launch's arguments.
#ifndef WEFT_RUNTIME_CORE_LAUNCHBOUNDS_H
#define WEFT_RUNTIME_CORE_LAUNCHBOUNDS_H

#include "core/Kernel.h"

#include "weft/abi.h"

#include <cstdint>
#include <string>
#include <vector>

namespace weft::rt {

/// Evaluates a bound from the launch arguments. False (and Error) when an
/// argument is missing or of the wrong kind, on division by zero or on
/// overflow.
bool evaluateBound(const BoundExpr &E, const KernelInfo &K,
                   const detail::LaunchArg *Args, std::size_t NumArgs,
                   std::int64_t &Value, std::string &Error);

/// Number of iterations of a level: 0 when the range is empty.
bool evaluateTripCount(const LevelInfo &L, const KernelInfo &K,
                       const detail::LaunchArg *Args, std::size_t NumArgs,
                       std::int64_t &Lower, std::int64_t &Count,
                       std::string &Error);

/// A launch's arguments as sizedArgs completes them, and what they point to.
struct SizedArguments {
  std::vector<detail::LaunchArg> Args;
  /// Rows held as pointers that it gathered: each row, the rows, and the
  /// rows' length (the scalar argument the kernel indexes them by).
  std::vector<std::vector<detail::RowPiece>> Pieces;
  std::vector<detail::RowsArg> Rows;
  std::vector<std::int64_t> Columns;
};

/// The arguments with the extents of pointers passed without theirs (the
/// descriptor's extent lines) made the bounds of their subscripts: [0,
/// highest]; rows held as pointers without theirs (gather lines) made the
/// rows [0, highest row] of elements [0, highest column], each its row
/// pointer's, and their length the columns argument; copied into Sized.
/// Args itself where no parameter needs either. Null, with Error, where a
/// bound does not evaluate or a subscript is below 0 (before where the
/// pointer points).
const detail::LaunchArg *sizedArgs(const KernelInfo &K,
                                   const detail::LaunchArg *Args,
                                   std::size_t NumArgs, SizedArguments &Sized,
                                   std::string &Error);

} // namespace weft::rt

#endif
