// RunStats.cpp: the counters behind weft::loop_stats.
#include "core/RunStats.h"

#include "core/Kernel.h"

namespace weft::rt {

std::size_t RunStats::entry(const char *Descriptor) {
  auto [It, New] = Index.try_emplace(Descriptor, Loops.size());
  if (New) {
    const std::string Location =
        Descriptor ? contract::descriptorLocation(Descriptor) : std::string();
    Loops.push_back(
        {intern(Location.empty() ? "unknown" : Location), 0, 0, nullptr});
    Costs.emplace_back();
    if (Descriptor)
      Costs.back().Function = contract::descriptorFunction(Descriptor);
    Descriptors.push_back(Descriptor);
  }
  return It->second;
}

void RunStats::record(const char *Descriptor, bool OnDevice,
                      const std::string &Why) {
  std::lock_guard<std::mutex> Guard(Lock);
  weft::loop_stats_t &L = Loops[entry(Descriptor)];
  if (OnDevice) {
    ++L.DeviceRuns;
    return;
  }
  ++L.HostRuns;
  if (!L.HostReason || Why != L.HostReason)
    L.HostReason = intern(Why.empty() ? "unknown" : Why);
}

void RunStats::cost(const char *Descriptor, bool OnDevice, double Seconds,
                    std::uint64_t ToDevice, std::uint64_t ToHost) {
  std::lock_guard<std::mutex> Guard(Lock);
  LoopProfile &P = Costs[entry(Descriptor)];
  (OnDevice ? P.DeviceSeconds : P.HostSeconds) += Seconds - P.LoadsInCall;
  P.LoadsInCall = 0;
  P.BytesToDevice += ToDevice;
  P.BytesToHost += ToHost;
}

void RunStats::load(const char *Descriptor, double Seconds, bool Cached) {
  std::lock_guard<std::mutex> Guard(Lock);
  LoopProfile &P = Costs[entry(Descriptor)];
  P.LoadSeconds += Seconds;
  P.LoadsInCall += Seconds;
  ++P.Loads;
  P.CachedLoads += Cached;
}

void RunStats::kernelTimed(const char *Descriptor, double Seconds,
                           std::uint64_t Bytes) {
  std::lock_guard<std::mutex> Guard(Lock);
  LoopProfile &P = Costs[entry(Descriptor)];
  P.KernelSeconds += Seconds;
  ++P.KernelsTimed;
  P.KernelBytes += Bytes;
}

void RunStats::hostTrial(const char *Descriptor) {
  std::lock_guard<std::mutex> Guard(Lock);
  ++Costs[entry(Descriptor)].TrialCalls;
}

void RunStats::hostLoopTimed(const char *Descriptor, double Seconds) {
  std::lock_guard<std::mutex> Guard(Lock);
  LoopProfile &P = Costs[entry(Descriptor)];
  P.HostLoopSeconds += Seconds;
  ++P.HostLoopsTimed;
}

weft::loop_stats_t RunStats::calls(const char *Descriptor) {
  std::lock_guard<std::mutex> Guard(Lock);
  return Loops[entry(Descriptor)];
}

void RunStats::launched(const char *Descriptor, const KernelInfo &Kernel,
                        const std::string &Geometry) {
  std::lock_guard<std::mutex> Guard(Lock);
  LoopProfile &P = Costs[entry(Descriptor)];
  if (P.Kernel != Kernel.Name) {
    P.Kernel = Kernel.Name;
    P.Mapping = mappingText(Kernel);
  }
  P.Geometry = Geometry;
}

std::string mappingText(const KernelInfo &K) {
  std::string Out;
  for (const DimensionInfo &D : K.Dimensions) {
    std::string Degree = D.Kind == contract::Degree::All ? "Span(all)"
                         : D.Kind == contract::Degree::Split
                             ? "Split(" + std::to_string(D.N) + ")"
                             : "Span(" + std::to_string(D.N) + ")";
    Out += (Out.empty() ? "level " : ", level ") + std::to_string(D.Depth) +
           " " + contract::axisLetter(D.Axis) + " " + std::to_string(D.Block) +
           " " + Degree;
  }
  return Out;
}

std::vector<ProfiledLoop>
RunStats::profiles(const TransferLedger &Ledger) const {
  std::lock_guard<std::mutex> Guard(Lock);
  std::vector<ProfiledLoop> Out;
  for (std::size_t I = 0; I < Loops.size(); ++I) {
    const TransferLedger::Repeated R = Ledger.repeated(Descriptors[I]);
    RepeatedCopies Copies{R.Names, R.BytesPerCall, R.Calls, {}};
    for (const char *Other : R.Between)
      if (auto It = Index.find(Other); It != Index.end())
        Copies.Between.push_back(Loops[It->second].Location);
    Out.push_back({Loops[I], Costs[I], std::move(Copies)});
  }
  return Out;
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
