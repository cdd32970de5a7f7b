// PendingLaunches.cpp: the journal of launches in flight, and their replay
// on the host after a fault only a later synchronization reported.
#include "launch/PendingLaunches.h"

#include "core/LaunchBounds.h"
#include "launch/KernelLaunch.h"
#include "launch/LaunchConfig.h"
#include "policy/Environment.h"
#include "region/RowsApart.h"

#include <cstdint>
#include <set>

namespace weft::rt {

void PendingLaunches::record(const LoopSite &Site, const char *Source,
                             const detail::LaunchArg *Given,
                             std::size_t NumArgs,
                             const std::vector<Residency::Rows *> &RegionRows) {
  if (Launches.empty())
    Thread = std::this_thread::get_id();
  Launches.push_back({&Site, Source, Args.size()});
  const std::vector<ParamInfo> &Params = Site.Kernel.Params;
  for (std::size_t I = 0; I < NumArgs; ++I) {
    detail::LaunchArg A = Given[I];
    if (!Params[I].isSpan()) {
      const char *Bytes = static_cast<const char *>(A.Data);
      A.Data = reinterpret_cast<const void *>(Values.size());
      Values.insert(Values.end(), Bytes, Bytes + A.ElementSize);
    } else if (Params[I].RowsApart) {
      // Only rows a region holds are pending (KernelLaunch::resident):
      // the launch's own list of them is gone when it returns (and so are
      // their row offsets, recomputed at a replay).
      A.Data = reinterpret_cast<const void *>(RowSets.size());
      RowSets.push_back(RegionRows[I]);
    }
    Args.push_back(A);
  }
}

Status PendingLaunches::synchronize(Backend &B) {
  if (Launches.empty())
    return {};
  Status S = injectedFault("deferred");
  if (S.empty())
    S = B.synchronize();
  if (!S.empty())
    return S;
  abandon(B);
  return {};
}

bool PendingLaunches::replay(Backend &Host, std::string &Error) {
  DataMover Data(&Host);
  Residency None(&Host, Data);
  LaunchScratch Scratch;
  for (const Launch &L : Launches) {
    const KernelInfo &K = L.Site->Kernel;
    auto Fail = [&](const std::string &Why) {
      Error = K.Location + ": kernel " + K.Name + ": " + Why;
      return false;
    };
    // The arguments as they were, the scalars' values where they are now.
    std::vector<detail::LaunchArg> Given(
        Args.begin() + L.FirstArg, Args.begin() + L.FirstArg + K.Params.size());
    std::vector<detail::RowsArg> Rows(Given.size());
    std::vector<std::vector<std::uint64_t>> Offsets(Given.size());
    for (std::size_t I = 0; I < Given.size(); ++I) {
      const ParamInfo &P = K.Params[I];
      const std::uintptr_t At = reinterpret_cast<std::uintptr_t>(Given[I].Data);
      if (!P.isSpan()) {
        Given[I].Data = Values.data() + At;
      } else if (P.RowsApart) {
        Rows[I] = RowSets[At]->arg();
        Given[I].Data = &Rows[I];
      }
    }
    for (std::size_t I = 0; I < Given.size(); ++I)
      if (const int Of = K.Params[I].RowOffsets; Of >= 0) {
        Offsets[Of] = rowOffsets(Rows[I]);
        Given[Of].Data = Offsets[Of].data();
        Given[Of].Count = Offsets[Of].size();
      }
    KernelHandle Kernel = nullptr, Combine = nullptr;
    if (Status S = Host.getKernel(K, L.Source, kernelDefines(), K.Name, Kernel);
        !S.empty())
      return Fail(S);
    if (!K.Combine.Name.empty())
      if (Status S = Host.getKernel(K, L.Source, kernelDefines(),
                                    K.Combine.Name, Combine);
          !S.empty())
        return Fail(S);
    std::int64_t Lower = 0, Count = 0;
    std::string Why;
    LaunchConfig Config;
    if (!evaluateTripCount(K.Levels[0], K, Given.data(), Given.size(), Lower,
                           Count, Why) ||
        !computeLaunchConfig(K, Given.data(), Given.size(), Count,
                             Host.properties(), Config, Why))
      return Fail(Why);
    if (Count == 0)
      continue;
    KernelLaunch Run(Host, Data, None, Scratch, K, Given.data(), Given.size());
    Run.spareInjectedFaults();
    Status S = Run.bind(Lower, Count, Config);
    if (S.empty())
      S = Run.enqueue(Kernel, Combine, Config);
    if (S.empty())
      S = Host.synchronize();
    if (!S.empty())
      return Fail(S);
    Run.copyOut();
    Run.combine();
  }
  Launches.clear();
  Args.clear();
  Values.clear();
  RowSets.clear();
  return true;
}

void PendingLaunches::abandon(Backend &B) {
  for (DevicePtr P : Buffers)
    B.release(P);
  Buffers.clear();
  Launches.clear();
  Args.clear();
  Values.clear();
  RowSets.clear();
}

std::string PendingLaunches::loops() const {
  std::set<std::string> Seen;
  std::string Text;
  for (const Launch &L : Launches)
    if (Seen.insert(L.Site->Kernel.Location).second)
      Text += (Text.empty() ? "" : ", ") + L.Site->Kernel.Location;
  return Text;
}

} // namespace weft::rt
