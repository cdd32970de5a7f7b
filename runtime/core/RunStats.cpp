// RunStats.cpp: the counters behind weft::loop_stats.
#include "core/RunStats.h"

#include "core/Kernel.h"

namespace weft::rt {

void RunStats::record(const char *Descriptor, bool OnDevice,
                      const std::string &Why) {
  std::lock_guard<std::mutex> Guard(Lock);
  auto [It, New] = Index.try_emplace(Descriptor, Loops.size());
  if (New) {
    const std::string Location =
        Descriptor ? contract::descriptorLocation(Descriptor) : std::string();
    Loops.push_back(
        {intern(Location.empty() ? "unknown" : Location), 0, 0, nullptr});
  }
  weft::loop_stats_t &L = Loops[It->second];
  if (OnDevice) {
    ++L.DeviceRuns;
    return;
  }
  ++L.HostRuns;
  if (!L.HostReason || Why != L.HostReason)
    L.HostReason = intern(Why.empty() ? "unknown" : Why);
}

std::size_t RunStats::snapshot(weft::loop_stats_t *Out,
                               std::size_t Capacity) const {
  std::lock_guard<std::mutex> Guard(Lock);
  for (std::size_t I = 0; I < Loops.size() && I < Capacity; ++I)
    Out[I] = Loops[I];
  return Loops.size();
}

std::vector<std::string> RunStats::lines(const std::string &Backend) const {
  std::lock_guard<std::mutex> Guard(Lock);
  std::vector<std::string> Out;
  for (const weft::loop_stats_t &L : Loops)
    Out.push_back(std::string(L.Location) + ": " +
                  std::to_string(L.DeviceRuns) + " calls on " + Backend + ", " +
                  std::to_string(L.HostRuns) + " on the host" +
                  (L.HostReason ? std::string(" (last: ") + L.HostReason + ")"
                                : std::string()));
  return Out;
}

const char *RunStats::intern(const std::string &S) {
  return Strings.insert(S).first->c_str();
}

} // namespace weft::rt
