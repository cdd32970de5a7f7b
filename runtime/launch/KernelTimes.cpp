// KernelTimes.cpp: kernel times read from the device's marks.
#include "launch/KernelTimes.h"

namespace weft::rt {

std::uint64_t namedBytes(const KernelInfo &K, const detail::LaunchArg *Args,
                         std::size_t NumArgs) {
  std::uint64_t Bytes = 0;
  for (std::size_t I = 0; I < NumArgs && I < K.Params.size(); ++I) {
    const ParamInfo &P = K.Params[I];
    if (P.isSpan())
      Bytes += std::uint64_t(Args[I].Count) * Args[I].ElementSize *
               (unsigned(P.readsDevice()) + unsigned(P.writesDevice()));
  }
  return Bytes;
}

void KernelTimes::add(const char *Loop, TimeMark Before, TimeMark After,
                      std::uint64_t Bytes) {
  Waiting.push_back({Loop, Before, After, Bytes});
}

void KernelTimes::collect(Backend &B, RunStats &Stats) {
  std::size_t Kept = 0;
  for (Timed &T : Waiting) {
    bool Passed = false;
    double Seconds = 0;
    const Status S = B.secondsBetween(T.Before, T.After, Passed, Seconds);
    if (S.empty() && !Passed) {
      Waiting[Kept++] = T; // still in the device's queue
      continue;
    }
    if (S.empty())
      Stats.kernelTimed(T.Loop, Seconds, T.Bytes);
    B.releaseMark(T.Before);
    B.releaseMark(T.After);
  }
  Waiting.resize(Kept);
}

} // namespace weft::rt
