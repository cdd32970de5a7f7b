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

/// What the figures suggest doing, or empty.
std::string advice(const ProfiledLoop &L) {
  const weft::loop_stats_t &C = L.Calls;
  const LoopProfile &P = L.Profile;
  // Data in and back on every call of a loop called again and again (a
  // time loop around a function without a region).
  if (C.DeviceRuns >= 2 && P.BytesToDevice >= C.DeviceRuns &&
      P.BytesToHost >= C.DeviceRuns)
    return "its calls copy its data to the device and back each time (" +
           bytes(P.BytesToDevice / C.DeviceRuns) + " and " +
           bytes(P.BytesToHost / C.DeviceRuns) +
           " a call): a region around the code that calls it "
           "('#pragma weft region(...)' or 'weft::region') keeps the data on "
           "the device between the calls";
  return {};
}

} // namespace

std::string profileTable(const std::string &Backend,
                         const std::vector<ProfiledLoop> &Loops) {
  std::string Out = "weft: profile (" + Backend +
                    "; times on the host's clock, bytes both ways by the "
                    "loop's calls):\n";
  for (const ProfiledLoop &L : Loops) {
    const weft::loop_stats_t &C = L.Calls;
    const LoopProfile &P = L.Profile;
    Out += "weft:   " + std::string(C.Location) + ": " +
           std::to_string(C.DeviceRuns) + " calls on " + Backend + " in " +
           seconds(P.DeviceSeconds);
    if (C.DeviceRuns)
      Out += " (" + seconds(P.DeviceSeconds / C.DeviceRuns) + " a call)";
    Out += ", " + std::to_string(C.HostRuns) + " on the host";
    if (C.HostReason)
      Out += std::string(" (last: ") + C.HostReason + ")";
    Out += "; " + bytes(P.BytesToDevice) + " to the device, " +
           bytes(P.BytesToHost) + " back";
    if (const unsigned long long Calls = C.DeviceRuns + C.HostRuns)
      Out += " (" + bytes(P.BytesToDevice / Calls) + " and " +
             bytes(P.BytesToHost / Calls) + " a call)";
    if (P.Loads)
      Out += "; " + std::to_string(P.Loads) + " kernel loads in " +
             seconds(P.LoadSeconds);
    if (!P.Kernel.empty())
      Out += "; last " + P.Kernel + ": " + P.Geometry;
    Out += "\n";
    if (const std::string Advice = advice(L); !Advice.empty())
      Out += "weft:     advice: " + Advice + "\n";
  }
  return Out;
}

std::string profileJson(const std::string &Backend,
                        const std::vector<ProfiledLoop> &Loops) {
  std::string Out = "{\"version\": 1, \"backend\": " + quoted(Backend) +
                    ", \"clock\": \"host\", \"loops\": [";
  bool First = true;
  for (const ProfiledLoop &L : Loops) {
    const weft::loop_stats_t &C = L.Calls;
    const LoopProfile &P = L.Profile;
    Out += std::string(First ? "\n" : ",\n") +
           "  {\"location\": " + quoted(C.Location) +
           ", \"device_calls\": " + std::to_string(C.DeviceRuns) +
           ", \"host_calls\": " + std::to_string(C.HostRuns) +
           ", \"host_reason\": " +
           (C.HostReason ? quoted(C.HostReason) : std::string("null")) +
           ", \"device_seconds\": " + number(P.DeviceSeconds) +
           ", \"host_seconds\": " + number(P.HostSeconds) +
           ", \"load_seconds\": " + number(P.LoadSeconds) +
           ", \"loads\": " + std::to_string(P.Loads) +
           ", \"bytes_to_device\": " + std::to_string(P.BytesToDevice) +
           ", \"bytes_to_host\": " + std::to_string(P.BytesToHost) +
           ", \"kernel\": " +
           (P.Kernel.empty() ? std::string("null") : quoted(P.Kernel)) +
           ", \"geometry\": " +
           (P.Geometry.empty() ? std::string("null") : quoted(P.Geometry)) +
           ", \"advice\": " +
           (advice(L).empty() ? std::string("null") : quoted(advice(L))) + "}";
    First = false;
  }
  return Out + "\n]}\n";
}

} // namespace weft::rt
