// PendingLaunches.cpp: the journal of launches in flight, and their replay
// on the host after a fault only a later synchronization reported.
#include "launch/PendingLaunches.h"

#include "launch/KernelLaunch.h"
#include "launch/LaunchBounds.h"
#include "launch/LaunchConfig.h"
#include "policy/Environment.h"

#include <cstring>
#include <set>

namespace weft::rt {

void PendingLaunches::record(const LoopSite &Site, const char *Source,
                             const detail::LaunchArg *Args, std::size_t NumArgs,
                             std::vector<DevicePtr> Owned) {
  if (Launches.empty())
    Thread = std::this_thread::get_id();
  Launch L{&Site, Source, {Args, Args + NumArgs}, {}};
  for (std::size_t I = 0; I < NumArgs; ++I) {
    if (Site.Kernel.Params[I].isSpan())
      continue;
    const char *Bytes = static_cast<const char *>(Args[I].Data);
    L.Values.emplace_back(Bytes, Bytes + Args[I].ElementSize);
  }
  // The copies' addresses are final once every value is in place.
  for (std::size_t I = 0, V = 0; I < NumArgs; ++I)
    if (!Site.Kernel.Params[I].isSpan())
      L.Args[I].Data = L.Values[V++].data();
  Launches.push_back(std::move(L));
  Buffers.insert(Buffers.end(), Owned.begin(), Owned.end());
}

Status PendingLaunches::synchronize(Backend &B) {
  if (Launches.empty())
    return {};
  Status S = injectedFault("deferred");
  if (S.empty())
    S = B.synchronize();
  if (!S.empty())
    return S;
  for (DevicePtr P : Buffers)
    B.release(P);
  Buffers.clear();
  Launches.clear();
  return {};
}

bool PendingLaunches::replay(Backend &Host, std::string &Error) {
  DataMover Data(&Host);
  Residency None(&Host, Data);
  for (const Launch &L : Launches) {
    const KernelInfo &K = L.Site->Kernel;
    auto Fail = [&](const std::string &Why) {
      Error = K.Location + ": kernel " + K.Name + ": " + Why;
      return false;
    };
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
    if (!evaluateTripCount(K.Levels[0], K, L.Args.data(), L.Args.size(), Lower,
                           Count, Why) ||
        !computeLaunchConfig(K, L.Args.data(), L.Args.size(), Count,
                             Host.properties(), Config, Why))
      return Fail(Why);
    if (Count == 0)
      continue;
    KernelLaunch Run(Host, Data, None, K, L.Args.data(), L.Args.size());
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
  return true;
}

void PendingLaunches::abandon(Backend &B) {
  for (DevicePtr P : Buffers)
    B.release(P);
  Buffers.clear();
  Launches.clear();
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
