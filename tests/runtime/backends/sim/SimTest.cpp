// SimTest.cpp: kernels written by hand in device.h's dialect, run on the
// simulator: every primitive (barriers, shared memory, per-thread state,
// warp shuffles, votes and ballots at widths 32 and 64, atomics), and one
// planted bug per checker class, each caught, each with a correct twin.
#include "backends/BackendTable.h"
#include "core/Backend.h"
#include "core/KernelCache.h"
#include "core/LaunchBounds.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <numeric>
#include <thread>
#include <vector>

using namespace weft::rt;

namespace {

class SimEnvironment : public testing::Environment {
  // Each death test runs in a freshly started copy of this binary.
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};
const testing::Environment *const Registered =
    testing::AddGlobalTestEnvironment(new SimEnvironment);

/// One kernel launch on a fresh simulator: spans are copied in and out.
class SimLaunch {
public:
  explicit SimLaunch(bool Check = false, const char *Warp = "32") {
    setenv("WEFT_SIM_CHECK", Check ? "1" : "0", 1);
    setenv("WEFT_SIM_WARP", Warp, 1);
    std::string Reason;
    Sim = createSimBackend(Reason);
    if (!Sim)
      ADD_FAILURE() << "no simulator: " << Reason;
  }

  template <class T> void span(const char *Name, std::vector<T> &Data) {
    Info.Params.push_back({ParamKind::InOut, ScalarType::I32, Name});
    DevicePtr P = 0;
    EXPECT_EQ(Sim->allocate(Data.size() * sizeof(T), P), "");
    EXPECT_EQ(Sim->copyToDevice(P, Data.data(), Data.size() * sizeof(T)), "");
    Spans.push_back({P, Data.size()});
    Copies.push_back({Data.data(), Data.size() * sizeof(T)});
  }

  /// Compiles the kernel on a thread of its own, as the tuner does, before
  /// run() loads it.
  void precompile(const std::string &Name, const std::string &Source) {
    ASSERT_TRUE(Sim);
    Info.Name = Name;
    Status S = "not run";
    std::thread([&] { S = Sim->precompile(Info, Source, {}); }).join();
    EXPECT_EQ(S, "");
  }

  void run(const std::string &Name, const std::string &Source, unsigned Grid,
           unsigned Block) {
    ASSERT_TRUE(Sim);
    Info.Name = Name;
    Info.Location = "SimTest.cpp:" + Name;
    KernelHandle K = nullptr;
    ASSERT_EQ(Sim->getKernel(Info, Source.c_str(), {}, Info.Name, K), "");
    std::vector<void *> Params;
    for (auto &S : Spans)
      Params.push_back(&S);
    const unsigned G[3] = {Grid, 1, 1}, B[3] = {Block, 1, 1};
    ASSERT_EQ(Sim->launch(K, G, B, Params.data()), "");
    for (std::size_t I = 0; I < Spans.size(); ++I)
      ASSERT_EQ(
          Sim->copyToHost(Copies[I].first, Spans[I].Data, Copies[I].second),
          "");
  }

  ~SimLaunch() {
    for (auto &S : Spans)
      Sim->release(S.Data);
  }

private:
  struct DeviceSpan {
    DevicePtr Data;
    std::uint64_t Extent;
  };
  std::unique_ptr<Backend> Sim;
  KernelInfo Info;
  std::vector<DeviceSpan> Spans;
  std::vector<std::pair<void *, std::size_t>> Copies;
};

std::string kernel(const std::string &Name, const std::string &Params,
                   const std::string &Body) {
  return "#include <weft/device.h>\nWEFT_KERNEL(" + Name + ", 1024)(" + Params +
         ") {\n  const unsigned t = weft::thread_idx(0);\n" + Body + "\n}\n";
}

TEST(Sim, BarriersAndSharedMemoryTreeReduction) {
  std::vector<int> In(4 * 256), Out(4, 0);
  std::iota(In.begin(), In.end(), 0);
  SimLaunch L(/*Check=*/true);
  L.span("in", In);
  L.span("out", Out);
  L.run("k_tree",
        kernel("k_tree", "weft::dspan<const int> in, weft::dspan<int> out",
               R"(
  WEFT_SHARED weft::shared_array<int, 256> tile;
  const unsigned b = weft::block_idx(0);
  tile[t] = in.ld(b * 256 + t);
  weft::barrier();
  for (unsigned s = 128; s > 0; s /= 2) {
    if (t < s) tile[t] = tile.ld(t) + tile.ld(t + s);
    weft::barrier();
  }
  if (t == 0) out[b] = tile.ld(0);)"),
        4, 256);
  for (int B = 0; B < 4; ++B)
    EXPECT_EQ(Out[B], 256 * 256 * B + 255 * 128) << "block " << B;
}

/// The simulator's compiled objects for kernel Name: their inode numbers.
std::vector<ino_t> compiledObjects(const std::string &Name) {
  std::vector<ino_t> Found;
  std::error_code Error;
  for (const auto &E : std::filesystem::directory_iterator(
           userCacheDirectory() + "/sim", Error)) {
    const std::string File = E.path().filename().string();
    struct stat Info;
    if (File.rfind(Name + "-", 0) == 0 && E.path().extension() == ".so" &&
        ::stat(E.path().c_str(), &Info) == 0)
      Found.push_back(Info.st_ino);
  }
  return Found;
}

TEST(Sim, PrecompiledOnAnotherThreadLoadsWithoutCompiling) {
  // A text of its own, so that no earlier run's object stands in for it.
  const std::string Name =
      "k_ahead_" + std::to_string(::getpid()) + "_" +
      std::to_string(
          std::chrono::steady_clock::now().time_since_epoch().count());
  const std::string Source = kernel(Name, "weft::dspan<int> out",
                                    "out[weft::global_id_x()] = 3 * (int)t;");
  std::vector<int> Out(64, 0);
  SimLaunch L;
  L.span("out", Out);
  EXPECT_TRUE(compiledObjects(Name).empty());
  L.precompile(Name, Source);
  const std::vector<ino_t> Built = compiledObjects(Name);
  ASSERT_EQ(Built.size(), 1u);
  L.run(Name, Source, 2, 32);
  EXPECT_EQ(compiledObjects(Name), Built) << "getKernel compiled it again";
  for (int I = 0; I < 64; ++I)
    EXPECT_EQ(Out[I], 3 * (I % 32));
  // Its files, which no later run would use.
  std::error_code Error;
  for (const auto &E : std::filesystem::directory_iterator(
           userCacheDirectory() + "/sim", Error))
    if (E.path().filename().string().rfind(Name + "-", 0) == 0)
      std::filesystem::remove(E.path(), Error);
}

TEST(Sim, PerThreadStateSurvivesBarriers) {
  std::vector<int> Out(512, 0);
  SimLaunch L;
  L.span("out", Out);
  L.run("k_locals", kernel("k_locals", "weft::dspan<int> out", R"(
  int mine[4];
  for (int i = 0; i < 4; ++i) mine[i] = (int)t * 10 + i;
  weft::barrier();
  int s = 0;
  for (int i = 0; i < 4; ++i) s += mine[i];
  weft::barrier();
  out[weft::global_id_x()] = s;)"),
        2, 256);
  for (int I = 0; I < 512; ++I)
    EXPECT_EQ(Out[I], 40 * (I % 256) + 6);
}

void warpPrimitives(const char *Width, int W) {
  std::vector<int> Sum(256, 0), Ballot(256, 0), Votes(256, 0), Xor(256, 0);
  SimLaunch L(false, Width);
  L.span("sum", Sum);
  L.span("ballot", Ballot);
  L.span("votes", Votes);
  L.span("xr", Xor);
  L.run("k_warp",
        kernel("k_warp",
               "weft::dspan<int> sum, weft::dspan<int> ballot, "
               "weft::dspan<int> votes, weft::dspan<int> xr",
               R"(
  int v = (int)t;
  for (unsigned d = weft::warp_size() / 2; d > 0; d /= 2)
    v += weft::shfl_down(v, d);
  sum[t] = weft::shfl(v, 0);
  unsigned long long b = weft::ballot(t % 3 == 0);
  ballot[t] = __builtin_popcountll(b);
  votes[t] = (weft::all(t < 1000) ? 1 : 0) + (weft::any(t == 5) ? 2 : 0) +
             (weft::all(t % 2 == 0) ? 4 : 0);
  xr[t] = weft::shfl_xor((int)t, 1);)"),
        1, 256);
  for (int T = 0; T < 256; ++T) {
    const int First = T / W * W;
    EXPECT_EQ(Sum[T], W * First + W * (W - 1) / 2) << "lane " << T;
    int Multiples = 0;
    for (int I = First; I < First + W; ++I)
      Multiples += I % 3 == 0;
    EXPECT_EQ(Ballot[T], Multiples);
    EXPECT_EQ(Votes[T], 1 + (T / W == 0 ? 2 : 0));
    EXPECT_EQ(Xor[T], T ^ 1);
  }
}

TEST(Sim, WarpPrimitivesWidth32) { warpPrimitives("32", 32); }
TEST(Sim, WarpPrimitivesWidth64) { warpPrimitives("64", 64); }

TEST(Sim, AtomicsAcrossBlocksAndHostThreads) {
  std::vector<int> Counter(5, 0);
  std::vector<float> Sum(1, 0.0f);
  SimLaunch L;
  L.span("counter", Counter);
  L.span("sum", Sum);
  L.run("k_atomic",
        kernel("k_atomic", "weft::dspan<int> counter, weft::dspan<float> sum",
               R"(
  weft::atomic_add(counter.data(), 1);
  weft::atomic_max(counter.data() + 1, (int)weft::global_id_x());
  weft::atomic_min(counter.data() + 2, -(int)weft::global_id_x());
  if (weft::atomic_cas(counter.data() + 3, 0, 1) == 0)
    weft::atomic_add(counter.data() + 4, 1); // exactly one thread wins
  weft::atomic_exch(counter.data() + 3, 1);
  weft::atomic_add(sum.data(), 0.5f);)"),
        64, 128);
  EXPECT_EQ(Counter[0], 64 * 128);
  EXPECT_EQ(Counter[1], 64 * 128 - 1);
  EXPECT_EQ(Counter[2], -(64 * 128 - 1));
  EXPECT_EQ(Counter[3], 1);
  EXPECT_EQ(Counter[4], 1);
  EXPECT_EQ(Sum[0], 64 * 128 * 0.5f);
}

// ---- Planted bugs: each caught, each twin clean ---------------------------

[[noreturn]] void runAndExit(const std::string &Name, const std::string &Body,
                             unsigned Grid = 1, unsigned Block = 64) {
  std::vector<int> Y(Grid * Block + 1, 0);
  {
    SimLaunch L(/*Check=*/true);
    L.span("y", Y);
    L.run(Name, kernel(Name, "weft::dspan<int> y", Body), Grid, Block);
  }
  std::exit(0);
}

const char *const Where =
    "in kernel k_[a-z_]+ \\(loop at SimTest.cpp:k_[a-z_]+\\), "
    "block \\([0-9]+,0,0\\) thread \\([0-9]+,0,0\\)";

TEST(SimChecker, BarrierNotReachedByAllThreads) {
  EXPECT_EXIT(runAndExit("k_div", "if (t < 16) weft::barrier();"),
              testing::ExitedWithCode(3),
              std::string("sim checker: barrier divergence ") + Where +
                  ": .* never reaches: it has returned");
  EXPECT_EXIT(runAndExit("k_div_sites",
                         "if (t % 2) weft::barrier();\nelse weft::barrier();"),
              testing::ExitedWithCode(3),
              "barrier divergence .*at the one on line");
  EXPECT_EXIT(runAndExit("k_div_twin", "weft::barrier(); y[t] = 1;"),
              testing::ExitedWithCode(0), "");
}

TEST(SimChecker, BarrierDivergenceInAHelperNamesTheKernelsLine) {
  // A block-wide reduction that half the threads skip: the report names
  // the kernel's line of the call, not the helper's in device.h.
  const char *Body = R"(
  WEFT_SHARED weft::shared_array<int, 64> scratch;
  if (t < 32)
    y[t] = weft::block_allreduce<weft::reduce_add>(1, scratch, t);)";
  EXPECT_EXIT(runAndExit("k_div_helper", Body), testing::ExitedWithCode(3),
              "barrier divergence .*waits at the barrier on line [0-9]{1,2} "
              "that thread");
}

TEST(SimChecker, SharedMemoryRaceBetweenBarriers) {
  const char *Racy = R"(
  WEFT_SHARED weft::shared_array<int, 64> tile;
  tile[t] = (int)t;
  y[t] = tile.ld((t + 1) % 64);)";
  const char *Fixed = R"(
  WEFT_SHARED weft::shared_array<int, 64> tile;
  tile[t] = (int)t;
  weft::barrier();
  y[t] = tile.ld((t + 1) % 64);)";
  EXPECT_EXIT(runAndExit("k_shared", Racy), testing::ExitedWithCode(3),
              std::string("sim checker: shared-memory race ") + Where +
                  ": thread \\([0-9]+,0,0\\) (reads|writes) shared memory");
  EXPECT_EXIT(runAndExit("k_shared_twin", Fixed), testing::ExitedWithCode(0),
              "");
}

TEST(SimChecker, IterationsThatAreNotIndependent) {
  const char *Loop = "for (weft::index_t i = weft::global_id_x(); "
                     "i + 1 < (weft::index_t)y.size(); "
                     "i += weft::global_size_x()) {\n"
                     "  weft::begin_iteration(i);\n";
  EXPECT_EXIT(
      runAndExit("k_same_write", std::string(Loop) + "y[0] = (int)i; }", 2, 16),
      testing::ExitedWithCode(3),
      std::string("sim checker: loop iterations are not independent ") + Where +
          ": iteration [0-9]+ writes element 0 of span 'y', "
          "which iteration [0-9]+ writes");
  EXPECT_EXIT(runAndExit("k_read_other",
                         std::string(Loop) + "y[i] = y.ld(i + 1) + 1; }", 2,
                         16),
              testing::ExitedWithCode(3),
              "loop iterations are not independent .*span 'y'");
  EXPECT_EXIT(
      runAndExit("k_iter_twin",
                 std::string(Loop) + "y[i] = y.ld(i) + 1; y[i] += (int)i; }", 2,
                 16),
      testing::ExitedWithCode(0), "");
}

TEST(SimChecker, OutOfBoundsSpanAccess) {
  EXPECT_EXIT(runAndExit("k_oob", "y[t + 2] = 1;"), testing::ExitedWithCode(3),
              std::string("sim checker: out-of-bounds access ") + Where +
                  ": writes element 65 of span 'y', which has 65 elements");
  EXPECT_EXIT(runAndExit("k_oob_twin", "y[t + 1] = 1;"),
              testing::ExitedWithCode(0), "");
}

} // namespace
