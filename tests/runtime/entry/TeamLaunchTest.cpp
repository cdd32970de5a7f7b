// TeamLaunchTest.cpp: the answer a team's thread 0 publishes at a
// worksharing loop (abi.h's teamLead, teamLaunched, teamRelease) reaches
// each thread of its team, and two teams at one loop at once never read
// each other's: the second team's leader waits for the first's release.
#include "weft/abi.h"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace {

using namespace weft::detail;

/// A team's barrier, as OpenMP's `#pragma omp barrier` is (C++17 has no
/// std::barrier).
class Barrier {
public:
  explicit Barrier(int Count) : Count(Count) {}
  void arriveAndWait() {
    std::unique_lock<std::mutex> Guard(Lock);
    const int Phase = Generation;
    if (++Arrived == Count) {
      Arrived = 0;
      ++Generation;
      Done.notify_all();
      return;
    }
    Done.wait(Guard, [&] { return Generation != Phase; });
  }

private:
  const int Count;
  int Arrived = 0, Generation = 0;
  std::mutex Lock;
  std::condition_variable Done;
};

/// One team of Threads threads passing the protocol the plugin writes
/// around a worksharing loop Rounds times, its leader answering Launched
/// in round r when r's parity is Parity; Wrong counts answers read that
/// were not the team's own.
void team(const char *Site, int Threads, int Rounds, int Parity,
          std::atomic<int> &Wrong) {
  Barrier Meet(Threads);
  std::vector<std::thread> Members;
  for (int T = 0; T < Threads; ++T)
    Members.emplace_back([&, T] {
      for (int R = 0; R < Rounds; ++R) {
        const bool Answer = (R % 2) == Parity;
        if (T == 0)
          teamLead(Site, Answer);
        Meet.arriveAndWait();
        if (teamLaunched(Site) != Answer)
          ++Wrong;
        Meet.arriveAndWait();
        if (T == 0)
          teamRelease(Site);
      }
    });
  for (std::thread &M : Members)
    M.join();
}

TEST(TeamLaunch, EveryThreadReadsItsLeadersAnswer) {
  std::atomic<int> Wrong{0};
  team("weft_team_test_one", 4, 200, 0, Wrong);
  EXPECT_EQ(Wrong.load(), 0);
}

TEST(TeamLaunch, TwoTeamsAtOneSiteReadTheirOwn) {
  // Opposite answers in every round: a read of the other team's shows.
  std::atomic<int> Wrong{0};
  std::thread First([&] { team("weft_team_test_two", 3, 300, 0, Wrong); });
  std::thread Second([&] { team("weft_team_test_two", 3, 300, 1, Wrong); });
  First.join();
  Second.join();
  EXPECT_EQ(Wrong.load(), 0);
}

} // namespace
