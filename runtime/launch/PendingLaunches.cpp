// PendingLaunches.cpp: the journal of launches in flight, and their replay
// on the host after a fault only a later synchronization reported.
#include "launch/PendingLaunches.h"

#include "launch/KernelLaunch.h"
#include "launch/LaunchBounds.h"
#include "launch/LaunchConfig.h"
#include "policy/Environment.h"

#include <cstdint>
#include <set>

namespace weft::rt {

void PendingLaunches::record(const LoopSite &Site, const char *Source,
                             const detail::LaunchArg *Given,
                             std::size_t NumArgs) {
  if (Launches.empty())
    Thread = std::this_thread::get_id();
  Launches.push_back({&Site, Source, Args.size()});
  for (std::size_t I = 0; I < NumArgs; ++I) {
    detail::LaunchArg A = Given[I];
    if (!Site.Kernel.Params[I].isSpan()) {
      const char *Bytes = static_cast<const char *>(A.Data);
      A.Data = reinterpret_cast<const void *>(Values.size());
      Values.insert(Values.end(), Bytes, Bytes + A.ElementSize);
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
        Args.begin() + L.FirstArg,
        Args.begin() + L.FirstArg + K.Params.size());
    for (std::size_t I = 0; I < Given.size(); ++I)
      if (!K.Params[I].isSpan())
        Given[I].Data =
            Values.data() + reinterpret_cast<std::uintptr_t>(Given[I].Data);
    KernelHandle Kernel = nullptr, Combine = nullptr;
    if (Status S =
            Host.getKernel(K, L.Source, kernelDefines(), K.Name, Kernel);
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
  return true;
}

void PendingLaunches::abandon(Backend &B) {
  for (DevicePtr P : Buffers)
    B.release(P);
  Buffers.clear();
  Launches.clear();
  Args.clear();
  Values.clear();
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
