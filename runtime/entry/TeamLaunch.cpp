// TeamLaunch.cpp: what an OpenMP team's threads share at a worksharing loop
// one of them launched (abi.h's teamLead, teamLaunched, teamRelease).
#include "weft/abi.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace {

/// One worksharing loop's answer, held by one team at a time.
struct TeamSite {
  std::mutex Held;
  bool Launched = false;
};

TeamSite &site(const char *Name) {
  static std::mutex Lock;
  static std::map<std::string, std::unique_ptr<TeamSite>> Sites;
  std::lock_guard<std::mutex> Guard(Lock);
  std::unique_ptr<TeamSite> &S = Sites[Name];
  if (!S)
    S = std::make_unique<TeamSite>();
  return *S;
}

} // namespace

void weft::detail::teamLead(const char *Site, bool Launched) noexcept {
  TeamSite &S = site(Site);
  S.Held.lock();
  S.Launched = Launched;
}

bool weft::detail::teamLaunched(const char *Site) noexcept {
  // The team's barrier after teamLead orders this read after its write.
  return site(Site).Launched;
}

void weft::detail::teamRelease(const char *Site) noexcept {
  site(Site).Held.unlock();
}
