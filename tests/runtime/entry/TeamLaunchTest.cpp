// TeamLaunchTest.cpp: the answer a team's thread 0 publishes at a
// worksharing loop (abi.h's teamLead, teamLaunched, teamRelease) reaches
// each thread of its team, and two teams at one loop at once never read
// each other's: the second team's leader waits for the first's release.
// At an orphaned loop the team's vote (teamHold, teamVote, teamAgreed)
// agrees exactly where every thread voted the same.
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

/// Threads threads meeting at one barrier, thread T running Round(T, R,
/// Meet) for each of Rounds rounds R: one OpenMP team.
template <class RoundFn> void runTeam(int Threads, int Rounds, RoundFn Round) {
  Barrier Meet(Threads);
  std::vector<std::thread> Members;
  for (int T = 0; T < Threads; ++T)
    Members.emplace_back([&, T] {
      for (int R = 0; R < Rounds; ++R)
        Round(T, R, Meet);
    });
  for (std::thread &M : Members)
    M.join();
}

/// One team of Threads threads passing the protocol the plugin writes
/// around a worksharing loop Rounds times, its leader answering Launched
/// in round r when r's parity is Parity; Wrong counts answers read that
/// were not the team's own.
void team(const char *Site, int Threads, int Rounds, int Parity,
          std::atomic<int> &Wrong) {
  runTeam(Threads, Rounds, [&](int T, int R, Barrier &Meet) {
    const bool Answer = (R % 2) == Parity;
    if (T == 0)
      teamLead(Site, Answer);
    Meet.arriveAndWait();
    if (teamLaunched(Site) != Answer)
      ++Wrong;
    Meet.arriveAndWait();
    if (T == 0)
      teamRelease(Site);
  });
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

/// One team voting at an orphaned loop Rounds times, thread T voting
/// Vote(R, T) in round R; Wrong counts rounds whose answer (read by every
/// thread after the leader settles with teamAgreed) was not Agrees(R).
template <class VoteFn, class AgreesFn>
void votingTeam(const char *Site, int Threads, int Rounds, VoteFn Vote,
                AgreesFn Agrees, std::atomic<int> &Wrong) {
  runTeam(Threads, Rounds, [&](int T, int R, Barrier &Meet) {
    if (T == 0)
      teamHold(Site);
    Meet.arriveAndWait();
    teamVote(Site, Vote(R, T));
    Meet.arriveAndWait();
    if (T == 0)
      teamSettle(Site, teamAgreed(Site));
    Meet.arriveAndWait();
    if (teamLaunched(Site) != Agrees(R))
      ++Wrong;
    Meet.arriveAndWait();
    if (T == 0)
      teamRelease(Site);
  });
}

TEST(TeamLaunch, AVoteAgreesWhereEveryThreadVotedAlike) {
  std::atomic<int> Wrong{0};
  // In odd rounds one thread votes apart: the leader itself, then another.
  for (int Odd : {0, 3})
    votingTeam(
        "weft_team_test_vote", 4, 100,
        [Odd](int R, int T) -> unsigned long long {
          return R % 2 && T == Odd ? 1000 + R : 7 + R;
        },
        [](int R) { return R % 2 == 0; }, Wrong);
  EXPECT_EQ(Wrong.load(), 0);
}

TEST(TeamLaunch, ATeamOfOneAlwaysAgrees) {
  teamHold("weft_team_test_alone");
  teamVote("weft_team_test_alone", 42);
  EXPECT_TRUE(teamAgreed("weft_team_test_alone"));
  teamRelease("weft_team_test_alone");
}

TEST(TeamLaunch, TwoVotingTeamsAtOneSiteCountTheirOwn) {
  // One team always votes alike, the other never: a vote counted in the
  // other team's round shows.
  std::atomic<int> Wrong{0};
  const char *Site = "weft_team_test_votes";
  std::thread First([&] {
    votingTeam(
        Site, 3, 200, [](int, int) { return 5ull; }, [](int) { return true; },
        Wrong);
  });
  std::thread Second([&] {
    votingTeam(
        Site, 3, 200, [](int, int T) { return 100ull + T; },
        [](int) { return false; }, Wrong);
  });
  First.join();
  Second.join();
  EXPECT_EQ(Wrong.load(), 0);
}

} // namespace
