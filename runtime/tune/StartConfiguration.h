// StartConfiguration.h: the configuration a loop runs before tuning has
// timed any: the mapped one, or one with smaller blocks where the mapped
// grid leaves multiprocessors idle.
#ifndef WEFT_RUNTIME_TUNE_STARTCONFIGURATION_H
#define WEFT_RUNTIME_TUNE_STARTCONFIGURATION_H

#include "core/Backend.h"
#include "tune/TuningSpace.h"
#include "weft/abi.h"

namespace weft::rt {

/// Mapped, unless its grid at this launch (Args, RootCount) has fewer
/// blocks than the device has multiprocessors: a small grid of large
/// blocks leaves most of the device idle (lud's perimeter at 2048: 2016
/// threads in 8 blocks of 256, on 8 of an H100's 132). Then the same
/// mapping with smaller blocks (only block sizes change, none grows) that
/// occupies the most multiprocessors, the largest blocks among those;
/// where no smaller block adds blocks (a grid of one by design), Mapped.
std::size_t fillingStart(const TuningSpace &Space, std::size_t Mapped,
                         const DeviceProperties &Props,
                         const detail::LaunchArg *Args, std::size_t NumArgs,
                         std::int64_t RootCount);

} // namespace weft::rt

#endif
