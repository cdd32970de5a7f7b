// SharedMemory.h: whether a kernel is right on arguments whose host memory
// overlaps. Plain spans that overlap share one device copy (KernelLaunch);
// what the kernel keeps copies of, and rows held apart, are wrong there
// where one of the overlapping parameters is written.
#ifndef WEFT_RUNTIME_LAUNCH_SHAREDMEMORY_H
#define WEFT_RUNTIME_LAUNCH_SHAREDMEMORY_H

#include "core/Kernel.h"

#include "weft/abi.h"

#include <string>
#include <vector>

namespace weft::rt {

/// Host bytes [Begin, End) of parameter Param: a span, or one row of rows
/// held apart.
struct MemoryPiece {
  const char *Begin, *End;
  unsigned Param;
};

/// Why K cannot run on Args, or empty where it can: the memory of two
/// parameters overlaps (or rows of one parameter overlap each other), one
/// of them is written, and the kernel keeps copies of one of them (the
/// descriptor's keeps line) or one is rows held apart, gathered into a
/// copy of its own. Pieces is scratch, kept between calls.
std::string sharedMemoryConflict(const KernelInfo &K,
                                 const detail::LaunchArg *Args,
                                 std::size_t NumArgs,
                                 std::vector<MemoryPiece> &Pieces);

} // namespace weft::rt

#endif
