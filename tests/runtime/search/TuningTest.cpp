// TuningTest.cpp: the tuning space (its constraints, neighbours, applied
// configurations), the start that fills the device, the searchers on
// landscapes of known optimum, the text forms, and the searchers replayed
// against the recordings kept under benchmarks/tuning (recorded on a GPU by
// scripts/gpu-check.sh).
#include "search/Replay.h"
#include "search/Searcher.h"
#include "search/TuningRecord.h"
#include "search/TuningSpace.h"
#include "tune/StartConfiguration.h"

#include <gtest/gtest.h>

#include <cmath>
#include <dirent.h>
#include <fstream>
#include <set>
#include <sstream>

using namespace weft::rt;

namespace {

KernelInfo parsed(const std::string &Text) {
  KernelInfo K;
  std::string Error;
  EXPECT_TRUE(weft::contract::parseDescriptor(Text, K, Error)) << Error;
  return K;
}

/// A register-tiled product's space: blocks x and y, TM (n0), TN (n1), the
/// tile width, and its shared memory: two tiles of TILE * (block * T + 4)
/// floats.
const char *const TiledProduct =
    "weft 8\nkernel k\nloc a.cpp:1:1\nparam scalar i32 n\n"
    "level (lit 0) (arg 0) 1 lt\n"
    "map 0 y 16 span 4\nmap 1 x 16 span 4 (lit 0) (arg 0) 1 lt\n"
    "tune WEFT_BLOCK_X x 16 8 32\ntune WEFT_BLOCK_Y y 16 8 32\n"
    "tune WEFT_TM n0 4 2 8\ntune WEFT_TN n1 4 2 8\n"
    "tune WEFT_TILE text 8 16 32\n"
    "shared (mul (lit 4) (add (mul (tune 4) (add (mul (tune 1) (tune 2)) "
    "(lit 4))) (mul (tune 4) (add (mul (tune 0) (tune 3)) (lit 4)))))\n";

DeviceProperties device() {
  DeviceProperties P;
  P.MaxThreadsPerBlock = 1024;
  P.MaxSharedPerBlock = 48 * 1024;
  return P;
}

std::vector<KernelInfo> one(const char *Text) { return {parsed(Text)}; }

/// The product, and a second mapping over one axis with three block sizes.
std::vector<KernelInfo> twoMappings() {
  return {parsed(TiledProduct),
          parsed("weft 8\nkernel k2\nloc a.cpp:1:1\n"
                 "param scalar i32 n\nlevel (lit 0) (arg 0) 1 lt\n"
                 "map 0 x 256 span 1\ntune WEFT_BLOCK_X x 256 128 512\n")};
}

TEST(TuningSpace, LeavesOutWhatTheDeviceCannotRun) {
  const TuningSpace S(one(TiledProduct), device());
  // 3^5 combinations; those over 48 KiB of tiles are left out: a 32 x 32
  // block with 8 x 8 outputs a thread and 32-wide tiles needs 2 * 32 *
  // (256 + 4) * 4 bytes = 66 KiB.
  EXPECT_LT(S.size(), 243u);
  EXPECT_GT(S.size(), 150u);
  for (std::size_t I = 0; I < S.size(); ++I) {
    const std::vector<unsigned> V = S.values(I);
    const long Bytes = 4L * V[4] * (V[1] * V[2] + 4 + V[0] * V[3] + 4);
    EXPECT_LE(Bytes, 48 * 1024) << S.describe(I);
    EXPECT_LE(V[0] * V[1], 1024u);
  }
  EXPECT_EQ(S.findValues(0, {32, 32, 8, 8, 32}), TuningSpace::None);
  EXPECT_NE(S.findValues(0, {32, 32, 8, 8, 8}), TuningSpace::None);
  // Fewer threads per block leave out more.
  DeviceProperties Small = device();
  Small.MaxThreadsPerBlock = 256;
  EXPECT_LT(TuningSpace(one(TiledProduct), Small).size(), S.size());
}

TEST(TuningSpace, MappedNeighboursAndApplied) {
  const TuningSpace S(one(TiledProduct), device());
  const std::size_t M = S.mapped(0);
  ASSERT_NE(M, TuningSpace::None);
  EXPECT_EQ(S.values(M), (std::vector<unsigned>{16, 16, 4, 4, 8}));
  EXPECT_EQ(S.describe(M), "mapping 0: WEFT_BLOCK_X=16 WEFT_BLOCK_Y=16 "
                           "WEFT_TM=4 WEFT_TN=4 WEFT_TILE=8");
  // One step along one parameter, in value order: 10 neighbours, less
  // the tile width's smaller one (8 is its smallest).
  std::set<std::vector<unsigned>> Near;
  for (std::size_t N : S.neighbours(M))
    Near.insert(S.values(N));
  EXPECT_EQ(Near.size(), 9u);
  EXPECT_TRUE(Near.count({8, 16, 4, 4, 8}));
  EXPECT_TRUE(Near.count({16, 16, 4, 4, 16}));
  EXPECT_FALSE(Near.count({8, 8, 4, 4, 8}));
  // The configuration sets block sizes and Span(n) in the descriptor the
  // launch is sized by.
  const KernelInfo K = S.apply(S.findValues(0, {32, 8, 2, 8, 16}));
  EXPECT_EQ(K.Dimensions[0].Axis, 1);
  EXPECT_EQ(K.Dimensions[0].Block, 8u);
  EXPECT_EQ(K.Dimensions[0].N, 2u);
  EXPECT_EQ(K.Dimensions[1].Block, 32u);
  EXPECT_EQ(K.Dimensions[1].N, 8u);
  EXPECT_EQ(
      S.defines(S.findValues(0, {32, 8, 2, 8, 16})),
      (std::vector<std::string>{"WEFT_BLOCK_X=32", "WEFT_BLOCK_Y=8",
                                "WEFT_TM=2", "WEFT_TN=8", "WEFT_TILE=16"}));
}

TEST(TuningSpace, EveryMappingTakesPart) {
  const std::vector<KernelInfo> Kernels = twoMappings();
  const TuningSpace All(Kernels, device());
  const TuningSpace First(Kernels, device(), {true, false});
  EXPECT_EQ(All.size(), First.size() + 3);
  EXPECT_EQ(All.values(All.mapped(1)), (std::vector<unsigned>{256}));
  EXPECT_EQ(First.mapped(1), TuningSpace::None);
}

TEST(TuningSpace, SplitKSetsTheLaunchNotTheText) {
  const TuningSpace S(one("weft 8\nkernel k\nloc a.cpp:1:1\n"
                          "param scalar i32 n\nlevel (lit 0) (arg 0) 1 lt\n"
                          "map 0 y 1 span 1\nmap 1 x 256 split 8\n"
                          "combine k_combine 256\nsplit 4\n"
                          "tune WEFT_BLOCK_X x 256 128 512\n"
                          "tune WEFT_SPLIT1 k1 8 4 16 32\n"),
                      device());
  EXPECT_EQ(S.size(), 12u);
  const std::size_t I = S.findValues(0, {128, 32});
  ASSERT_NE(I, TuningSpace::None);
  EXPECT_EQ(S.apply(I).Dimensions[1].N, 32u);
  EXPECT_EQ(S.apply(I).Dimensions[1].Block, 128u);
  EXPECT_EQ(S.defines(I), (std::vector<std::string>{"WEFT_BLOCK_X=128"}));
  EXPECT_EQ(S.describe(I), "mapping 0: WEFT_BLOCK_X=128 WEFT_SPLIT1=32");
}

DeviceProperties h100() {
  DeviceProperties P = device();
  P.MultiprocessorCount = 132;
  return P;
}

/// lud's perimeter as the plugin maps it: one thread per row, 256 a block.
const char *const RowPerThread =
    "weft 8\nkernel k\nloc a.cpp:1:1\nparam scalar i32 n\n"
    "level (lit 0) (arg 0) 1 lt\nmap 0 x 256 span 1\n"
    "tune WEFT_BLOCK_X x 256 32 64 128 512 1024\n";

// A grid of fewer blocks than multiprocessors starts with smaller blocks:
// lud's 2016 rows in 63 blocks of 32 (8 of 256 used 8 of 132), 200 rows
// in 7 of 32; a grid that fills the device keeps the mapped blocks.
TEST(StartConfiguration, SmallGridsFillTheDevice) {
  const TuningSpace S(one(RowPerThread), h100());
  const std::size_t M = S.mapped(0);
  auto Start = [&](int N) {
    weft::detail::LaunchArg Args[] = {{&N, 1, 4}};
    return S.values(fillingStart(S, M, h100(), Args, 1, N));
  };
  EXPECT_EQ(Start(2016), (std::vector<unsigned>{32}));
  EXPECT_EQ(Start(200), (std::vector<unsigned>{32}));
  EXPECT_EQ(Start(132 * 256), (std::vector<unsigned>{256}));
  EXPECT_EQ(Start(1 << 20), (std::vector<unsigned>{256}));
  // 64 threads a block reach 132 blocks; 128 would leave SMs idle.
  EXPECT_EQ(Start(132 * 64), (std::vector<unsigned>{64}));
  // A one-SM device: the mapped grid fills it.
  DeviceProperties One = h100();
  One.MultiprocessorCount = 1;
  int N = 2016;
  weft::detail::LaunchArg Args[] = {{&N, 1, 4}};
  EXPECT_EQ(fillingStart(S, M, One, Args, 1, N), M);
}

// Only block sizes and register tiles change, and only downward; the tile
// width stays; a grid of one block by design (no smaller block adds any)
// keeps the mapped block.
TEST(StartConfiguration, OnlySmallerBlocksAndRegisterTiles) {
  const TuningSpace S(one(TiledProduct), h100());
  const std::size_t M = S.mapped(0);
  auto Start = [&](int N) {
    weft::detail::LaunchArg Args[] = {{&N, 1, 4}};
    return S.values(fillingStart(S, M, h100(), Args, 1, N));
  };
  // 16 x 16 threads of 4 x 4 outputs: 4 x 4 blocks. Only 8 x 8 threads of
  // 2 x 2 reach 132 blocks (256).
  EXPECT_EQ(Start(256), (std::vector<unsigned>{8, 8, 2, 2, 8}));
  // 10 x 10 blocks as mapped: 16 x 16 threads of 4 x 2 or 2 x 4 (10 x 20)
  // busy every SM with blocks as large, and more outputs a thread than
  // 2 x 2.
  const std::vector<unsigned> Rectangle = Start(640);
  EXPECT_EQ(Rectangle[0], 16u);
  EXPECT_EQ(Rectangle[1], 16u);
  EXPECT_EQ(Rectangle[2] * Rectangle[3], 8u);
  // 12 x 12 blocks as mapped fill 132 SMs: unchanged.
  EXPECT_EQ(Start(768), S.values(M));
  const TuningSpace One(
      one("weft 8\nkernel k\nloc a.cpp:1:1\nlevel (lit 0) (lit 1) 1 lt\n"
          "map 0 x 256 span 1\ntune WEFT_BLOCK_X x 256 32 64 1024\n"),
      h100());
  EXPECT_EQ(fillingStart(One, One.mapped(0), h100(), nullptr, 0, 1),
            One.mapped(0));
}

/// Seconds of a configuration on a landscape whose optimum is known: the
/// further each parameter from its best value (in log steps), the slower.
double landscape(const TuningSpace &S, std::size_t I,
                 const std::vector<unsigned> &Best) {
  const std::vector<unsigned> V = S.values(I);
  double T = 1;
  for (std::size_t P = 0; P < V.size(); ++P)
    T += 0.3 * std::fabs(std::log2(double(V[P]) / Best[P]));
  return T;
}

TEST(Searcher, ExhaustiveAndRandomVisitEachOnceMappedFirst) {
  const TuningSpace S(one(TiledProduct), device());
  for (SearchMethod M : {SearchMethod::Exhaustive, SearchMethod::Random}) {
    std::unique_ptr<Searcher> Search = makeSearcher(M, S, {0}, 7);
    std::set<std::size_t> Seen;
    std::size_t First = TuningSpace::None;
    for (std::size_t I = Search->next(); I != TuningSpace::None;
         I = Search->next()) {
      if (First == TuningSpace::None)
        First = I;
      EXPECT_TRUE(Seen.insert(I).second) << searchMethodWord(M);
      Search->report(I, landscape(S, I, {32, 8, 8, 4, 16}));
    }
    EXPECT_EQ(Seen.size(), S.size());
    EXPECT_EQ(First, S.mapped(0));
  }
}

// The start untuned launches ran is timed first by every searcher, and the
// model climbs from it: (8, 8, ...) is one step from (8, 16, ...).
TEST(Searcher, TheStartFirst) {
  const TuningSpace S(one(TiledProduct), device());
  const std::size_t Start = S.findValues(0, {8, 16, 4, 4, 8});
  ASSERT_NE(Start, TuningSpace::None);
  for (SearchMethod M :
       {SearchMethod::Exhaustive, SearchMethod::Random, SearchMethod::Model}) {
    std::unique_ptr<Searcher> Search = makeSearcher(M, S, {0}, 7, Start);
    EXPECT_EQ(Search->next(), Start) << searchMethodWord(M);
  }
  std::unique_ptr<Searcher> Model =
      makeSearcher(SearchMethod::Model, S, {0}, 7, Start);
  ASSERT_EQ(Model->next(), Start);
  Model->report(Start, 1.0);
  const std::size_t Next = Model->next();
  const std::vector<std::size_t> Near = S.neighbours(Start);
  EXPECT_NE(std::find(Near.begin(), Near.end(), Next), Near.end());
}

TEST(Searcher, ModelClimbsToTheOptimumWithinTwentySteps) {
  const TuningSpace S(one(TiledProduct), device());
  const std::vector<unsigned> Best{32, 8, 8, 4, 16};
  std::unique_ptr<Searcher> Search =
      makeSearcher(SearchMethod::Model, S, {0}, 7);
  const std::size_t Optimum = S.findValues(0, Best);
  ASSERT_NE(Optimum, TuningSpace::None);
  unsigned Steps = 0;
  bool Found = false;
  std::set<std::size_t> Seen;
  for (; Steps < 20 && !Found; ++Steps) {
    const std::size_t I = Search->next();
    ASSERT_NE(I, TuningSpace::None);
    EXPECT_TRUE(Seen.insert(I).second);
    Found = I == Optimum;
    Search->report(I, landscape(S, I, Best));
  }
  EXPECT_TRUE(Found) << "after " << Steps << " configurations";
}

TEST(Searcher, ModelTriesTheRankedMappingsFirst) {
  const std::vector<KernelInfo> Kernels = twoMappings();
  const TuningSpace S(Kernels, device());
  std::unique_ptr<Searcher> Search =
      makeSearcher(SearchMethod::Model, S, {1, 0}, 7);
  const std::size_t First = Search->next();
  EXPECT_EQ(First, S.mapped(1));
  // Every configuration of mapping 1 equally fast, all of mapping 0
  // slower: the climb ends, and the next start is mapping 0's.
  Search->report(First, 1.0);
  std::size_t I = Search->next();
  for (; S[I].Mapping == 1; I = Search->next())
    Search->report(I, 1.0);
  EXPECT_EQ(I, S.mapped(0));
}

TEST(TuningRecord, RecordingAndEntryRoundTrip) {
  TuningRecording R;
  R.Location = "a.cpp:1:1";
  R.Device = "NVIDIA H100 80GB HBM3 (sm_90, 132 multiprocessors)";
  R.Architecture = "sm_90";
  R.Bucket = "11.11";
  R.Preferred = {1, 0};
  R.Descriptor = TiledProduct;
  R.Times = {{0, {16, 16, 4, 4, 8}, 1.5e-4}, {0, {32, 32, 8, 8, 8}, {}}};
  std::string Error;
  std::optional<TuningRecording> Back =
      parseRecording(writeRecording(R), Error);
  ASSERT_TRUE(Back) << Error;
  EXPECT_EQ(Back->Device, R.Device);
  EXPECT_EQ(Back->Preferred, R.Preferred);
  EXPECT_EQ(Back->Descriptor, R.Descriptor);
  ASSERT_EQ(Back->Times.size(), 2u);
  EXPECT_DOUBLE_EQ(*Back->Times[0].Seconds, 1.5e-4);
  EXPECT_FALSE(Back->Times[1].Seconds);
  EXPECT_FALSE(parseRecording("weft-tuning-recording 1\ntime 0 x 1\n", Error));

  TunedEntry E;
  E.KernelHash = "0123456789abcdef";
  E.Device = R.Device;
  E.Bucket = "11";
  E.Location = "a.cpp:1:1";
  E.Kernel = "k";
  E.Mapping = 1;
  E.Values = {256};
  E.Seconds = 1e-5;
  E.MappedSeconds = 2e-5;
  E.Tried = 12;
  std::optional<TunedEntry> F = parseTunedEntry(writeTunedEntry(E), Error);
  ASSERT_TRUE(F) << Error;
  EXPECT_EQ(F->key(), E.key());
  EXPECT_EQ(F->Values, E.Values);
  EXPECT_EQ(F->Tried, 12u);
  EXPECT_FALSE(parseTunedEntry("weft-tuned 1\nmapping 1\n", Error));
}

TEST(Replay, SearchersAgainstARecordedLandscape) {
  // The landscape above as a recording: replay finds what the searchers
  // find live.
  TuningRecording R;
  R.Descriptor = TiledProduct;
  R.Preferred = {0};
  const TuningSpace S(one(TiledProduct), device());
  for (std::size_t I = 0; I < S.size(); ++I)
    R.Times.push_back({0, S.values(I), landscape(S, I, {32, 8, 8, 4, 16})});
  std::string Error;
  std::optional<ReplaySpace> Space = replaySpace(R, Error);
  ASSERT_TRUE(Space) << Error;
  EXPECT_EQ(Space->Recorded, S.size());
  const ReplayResult All =
      replaySearch(*Space, SearchMethod::Exhaustive, 1, 1000, 1.0);
  ASSERT_TRUE(All.StepsToFraction);
  EXPECT_DOUBLE_EQ(All.FractionWithinBudget, 1.0);
  const ReplayResult Model =
      replaySearch(*Space, SearchMethod::Model, 1, 20, 0.95);
  ASSERT_TRUE(Model.StepsToFraction);
  EXPECT_LE(*Model.StepsToFraction, 20u);
}

/// The goal of the tuning issue on every recording made on a GPU: 95% of
/// the exhaustive best within 20 configurations (the model searcher, and
/// the random one averaged over seeds for comparison).
TEST(Replay, GpuRecordingsReachTheGoal) {
  const std::string Directory =
      std::string(WEFT_SOURCE_DIR) + "/benchmarks/tuning/recordings";
  std::vector<std::string> Files;
  if (DIR *D = opendir(Directory.c_str())) {
    while (const dirent *E = readdir(D)) {
      const std::string Name = E->d_name;
      if (Name.size() > 4 && Name.substr(Name.size() - 4) == ".txt")
        Files.push_back(Directory + "/" + Name);
    }
    closedir(D);
  }
  unsigned Gpu = 0;
  for (const std::string &File : Files) {
    std::ifstream In(File);
    std::stringstream Text;
    Text << In.rdbuf();
    std::string Error;
    std::optional<TuningRecording> R = parseRecording(Text.str(), Error);
    ASSERT_TRUE(R) << File << ": " << Error;
    if (R->Architecture.rfind("sim", 0) == 0)
      continue;
    ++Gpu;
    std::optional<ReplaySpace> S = replaySpace(*R, Error);
    ASSERT_TRUE(S) << File << ": " << Error;
    const ReplayResult Model =
        replaySearch(*S, SearchMethod::Model, 1, 20, 0.95);
    EXPECT_GE(Model.FractionWithinBudget, 0.95) << File;
  }
  if (!Gpu)
    GTEST_SKIP() << "no recording from a GPU in " << Directory
                 << " (scripts/gpu-check.sh records them on a GPU)";
}

} // namespace

TEST(TuningSpace, UserDefinesFixParametersAndTheGrid) {
  KernelInfo K = parsed(TiledProduct);
  applyDefines(K, {"WEFT_TM=2", "WEFT_TILE=32", "WEFT_TN", "WEFT_OTHER=3",
                   "WEFT_TM2=5"});
  // WEFT_TM's one value, and level 0's Span(n) with it; TN named without
  // a value keeps its space, and the grid its mapped n.
  EXPECT_EQ(K.Tune.Params[2].Values, std::vector<unsigned>{2});
  EXPECT_EQ(K.Dimensions[0].N, 2u);
  EXPECT_EQ(K.Tune.Params[3].Values, (std::vector<unsigned>{4, 2, 8}));
  EXPECT_EQ(K.Dimensions[1].N, 4u);
  EXPECT_EQ(K.Tune.Params[4].Values, std::vector<unsigned>{32});
  // Block sizes come from the mapping (the runtime drops their defines).
  EXPECT_EQ(K.Tune.Params[0].Values, (std::vector<unsigned>{16, 8, 32}));
  const TuningSpace S({K}, device());
  EXPECT_EQ(S.values(S.mapped(0)), (std::vector<unsigned>{16, 16, 2, 4, 32}));
}
