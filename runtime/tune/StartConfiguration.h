// StartConfiguration.h: the configuration a loop runs before tuning has
// timed any: the mapped one, or one with smaller blocks (and register tiles)
// where the mapped grid leaves multiprocessors idle.
#ifndef WEFT_RUNTIME_TUNE_STARTCONFIGURATION_H
#define WEFT_RUNTIME_TUNE_STARTCONFIGURATION_H

#include "core/Backend.h"
#include "search/TuningSpace.h"
#include "weft/abi.h"

namespace weft::rt {

/// Mapped, unless its grid at this launch (Args, RootCount) has fewer
/// blocks than the device has multiprocessors: a small grid of large
/// blocks leaves most of the device idle (lud's perimeter at 2048: 2016
/// threads in 8 blocks of 256, on 8 of an H100's 132). Then the same
/// mapping with smaller blocks and register tiles (only block sizes and
/// outputs a thread change, none grows) that occupies the most
/// multiprocessors, the largest blocks among those, then the most outputs a
/// thread (lud's trailing update at 1024: 992 x 992 outputs in 64 blocks of
/// 16 x 16 threads of 8 x 8 become 961 blocks of 16 x 16 threads of 2 x 2,
/// each thread's chain 16x shorter); where nothing smaller adds blocks (a
/// grid of one by design), Mapped.
std::size_t fillingStart(const TuningSpace &Space, std::size_t Mapped,
                         const DeviceProperties &Props,
                         const detail::LaunchArg *Args, std::size_t NumArgs,
                         std::int64_t RootCount);

} // namespace weft::rt

#endif
