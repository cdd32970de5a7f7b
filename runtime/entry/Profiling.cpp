// Profiling.cpp: the runtime's WEFT_PROFILE parts: the host loop's own time
// (begun where a call returns to it, ended where the plugin's code says it
// ended), the call run on the host to compare, and the profile at exit.
#include "entry/Runtime.h"

#include "core/Diagnostics.h"
#include "policy/Environment.h"

#include <chrono>
#include <cstdio>
#include <cstring>

namespace weft::rt {

namespace {

using Clock = std::chrono::steady_clock;

struct HostRun {
  const char *Descriptor;
  Clock::time_point Start;
};
/// This thread's host loops under way, innermost last (a host loop may call
/// a function with a marked loop of its own).
thread_local std::vector<HostRun> HostRuns;

} // namespace

void Runtime::hostLoopStart(const char *Descriptor) {
  if (!profileSettings().on())
    return;
  // A host loop left by an exception never says it ended.
  if (HostRuns.size() >= 64)
    HostRuns.erase(HostRuns.begin());
  HostRuns.push_back({Descriptor, Clock::now()});
}

void Runtime::hostLoopEnd(const char *Descriptor) {
  if (!profileSettings().on())
    return;
  const Clock::time_point End = Clock::now();
  // (The plugin's code may name the descriptor by another copy of its
  // text.)
  for (std::size_t I = HostRuns.size(); I-- > 0;) {
    const char *Started = HostRuns[I].Descriptor;
    if (Started != Descriptor && std::strcmp(Started, Descriptor) != 0)
      continue;
    Stats.hostLoopTimed(
        Started,
        std::chrono::duration<double>(End - HostRuns[I].Start).count());
    HostRuns.resize(I);
    return;
  }
}

bool Runtime::hostTrial(const char *Descriptor) {
  const ProfileSettings &P = profileSettings();
  if (!P.on() || !P.HostTrial || !Resident.empty() || !Pending.empty())
    return false;
  const weft::loop_stats_t Calls = Stats.calls(Descriptor);
  if (Calls.DeviceRuns != 1 || Calls.HostRuns != 0)
    return false;
  Stats.hostTrial(Descriptor);
  return true;
}

void Runtime::printProfile() {
  ProfiledDevice Device;
  Device.Backend = Active ? Active->name() : "host";
  if (Active) {
    Device.DeviceClock = Device.Backend != "sim";
    Device.MemoryBytesPerSecond = Active->properties().MemoryBytesPerSecond;
    // The kernels still in the device's queue (not while another thread
    // launches, or a fault stops the program from inside a launch).
    std::unique_lock<std::mutex> Guard(Lock, std::try_to_lock);
    if (Guard.owns_lock() && !Failed && settle() && KernelsTimed.size() &&
        Active->synchronize().empty())
      KernelsTimed.collect(*Active, Stats);
  }
  const std::vector<ProfiledLoop> Loops = Stats.profiles(Data.Ledger);
  if (profileSettings().Table)
    std::fputs(profileTable(Device, Loops).c_str(), stderr);
  const std::string &File = profileSettings().JsonFile;
  if (File.empty())
    return;
  std::FILE *F = std::fopen(File.c_str(), "w");
  if (!F || std::fputs(profileJson(Device, Loops).c_str(), F) < 0)
    warn("WEFT_PROFILE: cannot write " + File);
  if (F)
    std::fclose(F);
}

} // namespace weft::rt

void weft::detail::hostLoopEnd(const char *Descriptor) noexcept {
  try {
    rt::Runtime::get().hostLoopEnd(Descriptor);
  } catch (const std::exception &) {
    // Only a figure of the profile is lost.
  }
}
