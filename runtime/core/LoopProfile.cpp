// LoopProfile.cpp: WEFT_PROFILE's table and JSON.
#include "core/LoopProfile.h"

#include <cstdio>

namespace weft::rt {

namespace {

std::string bytes(std::uint64_t B) {
  char Text[32];
  if (B >= (1ull << 30))
    std::snprintf(Text, sizeof Text, "%.2f GiB", B / double(1ull << 30));
  else if (B >= (1ull << 20))
    std::snprintf(Text, sizeof Text, "%.2f MiB", B / double(1ull << 20));
  else if (B >= (1ull << 10))
    std::snprintf(Text, sizeof Text, "%.1f KiB", B / double(1ull << 10));
  else
    std::snprintf(Text, sizeof Text, "%llu B",
                  static_cast<unsigned long long>(B));
  return Text;
}

std::string seconds(double S) {
  char Text[32];
  if (S >= 1)
    std::snprintf(Text, sizeof Text, "%.2f s", S);
  else if (S >= 1e-3)
    std::snprintf(Text, sizeof Text, "%.2f ms", S * 1e3);
  else
    std::snprintf(Text, sizeof Text, "%.1f us", S * 1e6);
  return Text;
}

std::string quoted(const std::string &S) {
  std::string Out = "\"";
  for (const char C : S) {
    if (C == '"' || C == '\\') {
      Out += '\\';
      Out += C;
    } else if (static_cast<unsigned char>(C) < 0x20) {
      char Escape[8];
      std::snprintf(Escape, sizeof Escape, "\\u%04x", C);
      Out += Escape;
    } else {
      Out += C;
    }
  }
  return Out + "\"";
}

std::string number(double V) {
  char Text[32];
  std::snprintf(Text, sizeof Text, "%.9g", V);
  return Text;
}

std::string percent(double Fraction) {
  char Text[16];
  std::snprintf(Text, sizeof Text, "%.0f%%", Fraction * 100);
  return Text;
}

/// The quoted names joined: 'a', 'b' and 'c'.
std::string names(const std::vector<std::string> &Names) {
  std::string Out;
  for (std::size_t I = 0; I < Names.size(); ++I)
    Out += (I == 0 ? "" : I + 1 == Names.size() ? " and " : ", ") + Names[I];
  return Out;
}

/// The loop as the advice names it: where it is, and in which function.
std::string loopName(const ProfiledLoop &L) {
  return L.Profile.Function.empty()
             ? std::string("the loop")
             : "the calls of '" + L.Profile.Function + "'";
}

/// Achieved bandwidth over the data its timed kernels name, as a fraction
/// of the device's peak; negative where unknown.
double bandwidthFraction(const ProfiledDevice &D, const LoopProfile &P) {
  if (D.MemoryBytesPerSecond <= 0 || !P.KernelsTimed || P.KernelSeconds <= 0)
    return -1;
  return P.KernelBytes / P.KernelSeconds / D.MemoryBytesPerSecond;
}

} // namespace

std::vector<std::string> profileAdvice(const ProfiledLoop &L) {
  const weft::loop_stats_t &C = L.Calls;
  const LoopProfile &P = L.Profile;
  const RepeatedCopies &R = L.Repeated;
  std::vector<std::string> Advice;
  // Data in (and back) call after call: a time loop around a function
  // without a region, or loops handing data to each other through the host.
  if (!R.Names.empty()) {
    std::string A = "its data " + names(R.Names) + " went to the device " +
                    "or back in " + std::to_string(R.Calls) +
                    " of its calls (" + bytes(R.BytesPerCall) + " a call)";
    if (!R.Between.empty()) {
      A += ", passing through the host between it and the loop";
      A += R.Between.size() > 1 ? "s at " : " at ";
      for (std::size_t I = 0; I < R.Between.size(); ++I)
        A += (I ? ", " : "") + R.Between[I];
    }
    A += ": a region that holds " +
         std::string(R.Names.size() > 1 ? "them" : "it") +
         " ('#pragma weft region(...)' or 'weft::region') around " +
         loopName(L) + (R.Between.empty() ? "" : " and those loops") +
         " keeps " + (R.Names.size() > 1 ? "them" : "it") +
         " on the device and copies " + (R.Names.size() > 1 ? "them" : "it") +
         " once";
    Advice.push_back(A);
  }
  // Its host loop beat its launches (copies included).
  if (P.HostLoopsTimed && C.DeviceRuns) {
    const double Host = P.HostLoopSeconds / P.HostLoopsTimed;
    const double Device = P.DeviceSeconds / C.DeviceRuns;
    if (Host < Device)
      Advice.push_back("its host loop took " + seconds(Host) +
                       " a call, its launches " + seconds(Device) +
                       " (copies included): it runs faster on the host; "
                       "leave it unmarked, or give it an if clause "
                       "('if(n > N)') that launches only the sizes that gain");
  }
  return Advice;
}

std::string profileTable(const ProfiledDevice &D,
                         const std::vector<ProfiledLoop> &Loops) {
  const std::string &Backend = D.Backend;
  std::string Out =
      "weft: profile (" + Backend + "; calls on the host's clock, kernels on " +
      (D.DeviceClock ? "the device's" : "the simulator's, the host's") +
      ", bytes both ways by the loop's calls):\n";
  for (const ProfiledLoop &L : Loops) {
    const weft::loop_stats_t &C = L.Calls;
    const LoopProfile &P = L.Profile;
    Out += "weft:   " + std::string(C.Location);
    if (!P.Function.empty())
      Out += " (" + P.Function + ")";
    Out += ": " + std::to_string(C.DeviceRuns) + " calls on " + Backend +
           " in " + seconds(P.DeviceSeconds);
    if (C.DeviceRuns)
      Out += " (" + seconds(P.DeviceSeconds / C.DeviceRuns) + " a call)";
    if (P.KernelsTimed)
      Out += ", kernels " + seconds(P.KernelSeconds / P.KernelsTimed) +
             " a launch";
    Out += ", " + std::to_string(C.HostRuns) + " on the host";
    std::string HostNotes;
    if (P.HostLoopsTimed)
      HostNotes = "its loop " + seconds(P.HostLoopSeconds / P.HostLoopsTimed) +
                  " a call";
    if (C.HostReason)
      HostNotes += (HostNotes.empty() ? "last: " : "; last: ") +
                   std::string(C.HostReason);
    if (!HostNotes.empty())
      Out += " (" + HostNotes + ")";
    Out += "; " + bytes(P.BytesToDevice) + " to the device, " +
           bytes(P.BytesToHost) + " back";
    // (The profile's own host runs copy nothing.)
    if (const unsigned long long Calls =
            C.DeviceRuns + C.HostRuns - P.TrialCalls)
      Out += " (" + bytes(P.BytesToDevice / Calls) + " and " +
             bytes(P.BytesToHost / Calls) + " a call)";
    if (P.Loads)
      Out += "; " + std::to_string(P.Loads) + " kernel loads (" +
             std::to_string(P.CachedLoads) + " from the disk cache) in " +
             seconds(P.LoadSeconds);
    if (const double F = bandwidthFraction(D, P); F >= 0)
      Out += "; " + percent(F) + " of the memory bandwidth";
    if (!P.Kernel.empty())
      Out += "; last " + P.Kernel +
             (P.Mapping.empty() ? "" : " (" + P.Mapping + ")") + ": " +
             P.Geometry;
    Out += "\n";
    for (const std::string &Advice : profileAdvice(L))
      Out += "weft:     advice: " + Advice + "\n";
  }
  return Out;
}

std::string profileJson(const ProfiledDevice &D,
                        const std::vector<ProfiledLoop> &Loops) {
  auto OrNull = [](const std::string &S) {
    return S.empty() ? std::string("null") : quoted(S);
  };
  auto List = [](const std::vector<std::string> &Items) {
    std::string Out = "[";
    for (std::size_t I = 0; I < Items.size(); ++I)
      Out += (I ? ", " : "") + quoted(Items[I]);
    return Out + "]";
  };
  std::string Out = "{\"version\": 2, \"backend\": " + quoted(D.Backend) +
                    ", \"clock\": \"host\", \"kernel_clock\": " +
                    quoted(D.DeviceClock ? "device" : "host") +
                    ", \"memory_bytes_per_second\": " +
                    (D.MemoryBytesPerSecond > 0 ? number(D.MemoryBytesPerSecond)
                                                : std::string("null")) +
                    ", \"loops\": [";
  bool First = true;
  for (const ProfiledLoop &L : Loops) {
    const weft::loop_stats_t &C = L.Calls;
    const LoopProfile &P = L.Profile;
    const RepeatedCopies &R = L.Repeated;
    const double F = bandwidthFraction(D, P);
    Out += std::string(First ? "\n" : ",\n") +
           "  {\"location\": " + quoted(C.Location) +
           ", \"function\": " + OrNull(P.Function) +
           ", \"device_calls\": " + std::to_string(C.DeviceRuns) +
           ", \"host_calls\": " + std::to_string(C.HostRuns) +
           ", \"trial_calls\": " + std::to_string(P.TrialCalls) +
           ", \"host_reason\": " +
           (C.HostReason ? quoted(C.HostReason) : std::string("null")) +
           ", \"device_seconds\": " + number(P.DeviceSeconds) +
           ", \"host_seconds\": " + number(P.HostSeconds) +
           ", \"kernel_seconds\": " + number(P.KernelSeconds) +
           ", \"kernels_timed\": " + std::to_string(P.KernelsTimed) +
           ", \"kernel_bytes\": " + std::to_string(P.KernelBytes) +
           ", \"bandwidth_fraction\": " +
           (F >= 0 ? number(F) : std::string("null")) +
           ", \"host_loop_seconds\": " + number(P.HostLoopSeconds) +
           ", \"host_loops_timed\": " + std::to_string(P.HostLoopsTimed) +
           ", \"load_seconds\": " + number(P.LoadSeconds) +
           ", \"loads\": " + std::to_string(P.Loads) +
           ", \"cached_loads\": " + std::to_string(P.CachedLoads) +
           ", \"bytes_to_device\": " + std::to_string(P.BytesToDevice) +
           ", \"bytes_to_host\": " + std::to_string(P.BytesToHost) +
           ", \"repeated\": " +
           (R.Names.empty()
                ? std::string("null")
                : "{\"data\": " + List(R.Names) + ", \"bytes_per_call\": " +
                      std::to_string(R.BytesPerCall) +
                      ", \"calls\": " + std::to_string(R.Calls) +
                      ", \"between\": " + List(R.Between) + "}") +
           ", \"kernel\": " + OrNull(P.Kernel) +
           ", \"mapping\": " + OrNull(P.Mapping) +
           ", \"geometry\": " + OrNull(P.Geometry) +
           ", \"advice\": " + List(profileAdvice(L)) + "}";
    First = false;
  }
  return Out + "\n]}\n";
}

} // namespace weft::rt
