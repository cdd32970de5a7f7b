// TeamLaunch.cpp: what an OpenMP team's threads share at a worksharing loop
// one of them launched (abi.h's teamLead, teamLaunched, teamRelease), and
// the vote an orphaned one takes first (teamHold, teamVote, teamAgreed).
#include "weft/abi.h"

#include "core/Diagnostics.h"

#include <atomic>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace {

/// One worksharing loop's answer, held by one team at a time.
struct TeamSite {
  std::mutex Held;
  bool Launched = false;
  // The least and the greatest hash the team's threads voted: equal where
  // all agree (no count of the team needed).
  std::atomic<unsigned long long> Least{0}, Greatest{0};
  bool Disagreed = false; // said so once already
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

void weft::detail::teamHold(const char *Site) noexcept {
  TeamSite &S = site(Site);
  S.Held.lock();
  S.Least = std::numeric_limits<unsigned long long>::max();
  S.Greatest = 0;
}

void weft::detail::teamVote(const char *Site,
                            unsigned long long Hash) noexcept {
  TeamSite &S = site(Site);
  unsigned long long Seen = S.Least.load();
  while (Hash < Seen && !S.Least.compare_exchange_weak(Seen, Hash)) {
  }
  Seen = S.Greatest.load();
  while (Hash > Seen && !S.Greatest.compare_exchange_weak(Seen, Hash)) {
  }
}

bool weft::detail::teamAgreed(const char *Site) noexcept {
  // The barrier after the votes orders this read after every vote.
  TeamSite &S = site(Site);
  if (S.Least.load() == S.Greatest.load())
    return true;
  // Said once a site (WEFT_VERBOSE=1), or every time (=2); the leader
  // holds the site.
  weft::rt::note(std::string(Site) +
                     ": the team's threads hold different values of what "
                     "the orphaned loop reads (locals of their own): the "
                     "team runs it as OpenMP does",
                 S.Disagreed ? 2 : 1);
  S.Disagreed = true;
  return false;
}

void weft::detail::teamSettle(const char *Site, bool Launched) noexcept {
  site(Site).Launched = Launched;
}
