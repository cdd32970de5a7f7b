// CandidateScore.cpp: a candidate mapping's score and the reasons for it.
// The weights are MappingInput's; the device is the model's (an H100 by
// default), since the plugin sees no GPU.
#include "map/CandidateScore.h"

#include "ir/IrQueries.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace weft::map {
namespace {

std::string number(double V) {
  std::ostringstream OS;
  OS.precision(3);
  OS << V;
  return OS.str();
}

} // namespace

/// Fills C's thread count and score; false when C breaks a hard
/// constraint that only the whole candidate shows.
bool CandidateScorer::score(Candidate &C) const {
  const DeviceModel &Dev = In.Device;
  std::uint64_t BlockThreads = 1;
  for (const LevelMapping &L : C.Levels)
    BlockThreads *= L.BlockSize;
  // Threads launched along each depth, Split's k aside.
  // At most four levels (the recognizer's limit).
  double Along[4] = {1, 1, 1, 1};
  double Others = 1;
  for (std::size_t D = 0; D < C.Levels.size(); ++D) {
    const LevelMapping &L = C.Levels[D];
    const double E =
        static_cast<double>(std::max<std::int64_t>(Depths[D].Extent, 1));
    double Grid = 1;
    if (L.Dop.Kind == Parallelism::Span)
      Grid = std::ceil(E / (L.BlockSize * static_cast<double>(L.Dop.N)));
    Along[D] = Grid * L.BlockSize;
    if (L.Dop.Kind != Parallelism::Split)
      Others *= Along[D];
  }
  // Split(k): enough blocks to fill the device, within the extent.
  for (std::size_t D = 0; D < C.Levels.size(); ++D) {
    LevelMapping &L = C.Levels[D];
    if (L.Dop.Kind != Parallelism::Split)
      continue;
    if (L.Dop.N == 0) {
      const double E = static_cast<double>(Depths[D].Extent);
      // A Split's second step (a launch and the partials) pays only where
      // the other levels' iterations, with as many threads along this
      // level as a block holds beside a warp on the others (1024 / 32),
      // leave the device half idle: past that the loop is as fast in
      // Span(all) (sumCols 8192 x 8192 on the H100: Span(all) 0.99x the
      // hand-written kernel, Split(2) 1.45x).
      double OtherIterations = 1;
      for (std::size_t O = 0; O < C.Levels.size(); ++O)
        if (O != D && !C.Levels[O].sequential())
          OtherIterations *=
              static_cast<double>(std::max<std::int64_t>(Depths[O].Extent, 1));
      if (OtherIterations *
              std::min(E, static_cast<double>(Dev.MaxThreadsPerBlock /
                                              Dev.WarpSize)) >=
          0.5 * static_cast<double>(Dev.ConcurrentThreads))
        return false;
      double K = std::ceil(static_cast<double>(Dev.ConcurrentThreads) /
                           (Others * L.BlockSize));
      K = std::min(K, std::ceil(E / L.BlockSize));
      L.Dop.N = static_cast<unsigned>(std::clamp(K, 2.0, 1024.0));
    }
    Along[D] = static_cast<double>(L.Dop.N) * L.BlockSize;
  }
  // Threads with work: a block wider than its level's extent launches
  // idle ones, which hide no latency.
  double Threads = 1;
  for (std::size_t D = 0; D < C.Levels.size(); ++D) {
    const LevelMapping &L = C.Levels[D];
    const double E =
        static_cast<double>(std::max<std::int64_t>(Depths[D].Extent, 1));
    Threads *= std::min(Along[D], L.Dop.Kind == Parallelism::Split
                                      ? E
                                      : std::ceil(E / std::max(1u, L.Dop.N)));
  }
  C.Threads = static_cast<std::uint64_t>(std::min(Threads, 1e18));

  // Reductions across a block's threads stage partials in shared memory.
  std::uint64_t Shared = 0;
  for (std::size_t D = 0; D < C.Levels.size(); ++D)
    if (Depths[D].Reduces && !C.Levels[D].sequential())
      Shared += BlockThreads * Depths[D].ReductionBytes;
  if (Shared > Dev.SharedMemoryPerBlock)
    return false;
  // A register tile's registers, in 32-bit words: its outputs and a
  // fragment of each tile at the width of the tiles' elements (a double
  // takes two), the thread's share of the next tiles fetched ahead (one
  // buffer's worth among the block), and some 32 for addresses and
  // indices; two blocks an SM at least, so that one computes while the
  // other loads (one, where clauses set both tiles' n: the user's shape
  // is taken as long as a block fits).
  if (registerTiled(C.Levels)) {
    const std::uint64_t N0 = C.Levels[0].Dop.N, N1 = C.Levels[1].Dop.N;
    const std::uint64_t Bytes = registerTileBytes(C.Levels);
    const std::uint64_t Ahead = (Bytes / 2 / 4 + BlockThreads - 1) /
                                std::max<std::uint64_t>(1, BlockThreads);
    const bool Asked = spanForced(0) && spanForced(1);
    if (BlockThreads * (tileWords() * (N0 * N1 + N0 + N1) + Ahead + 32) >
        Dev.RegistersPerMultiprocessor / (Asked ? 1 : 2))
      return false;
    if (Bytes > RegisterTileSharedBytes)
      return false;
  }

  const Weights &W = In.Weight;
  Score S;
  for (const AccessInfo &A : Accesses)
    if (A.UnitStrideDepth >= 0)
      S.Coalescing +=
          W.Coalescing * A.Frequency * coalesces(C.Levels, A.UnitStrideDepth);
  // Small blocks cannot fill an SM: it holds only so many blocks.
  const double Concurrent = concurrentThreads();
  const double Resident =
      std::min<double>(Concurrent, static_cast<double>(Dev.Multiprocessors) *
                                       Dev.MaxBlocksPerMultiprocessor *
                                       static_cast<double>(BlockThreads));
  const double Work = Depths.back().Frequency;
  // A register tile's outputs are independent work in one thread: as
  // much latency hidden as that many threads (up to 16).
  const double Independent =
      registerTiled(C.Levels)
          ? std::min(16.0,
                     static_cast<double>(C.Levels[0].Dop.N) * C.Levels[1].Dop.N)
          : 1.0;
  S.Parallelism =
      W.Parallelism * Work *
      std::min(1.0, std::min(Threads, Resident) * Independent / Concurrent);
  for (std::size_t D = 0; D < C.Levels.size(); ++D) {
    // Every mechanism accumulates in registers; they differ in the
    // combining step, once per iteration of the enclosing level.
    if (Depths[D].Reduces)
      S.Reduction += W.Reduction * (D ? Depths[D - 1].Frequency : 1.0) *
                     reductionFactor(C.Levels[D], D, Along[D]);
    const LevelMapping &L = C.Levels[D];
    const double E = static_cast<double>(Depths[D].Extent);
    if (!L.sequential() && E < L.BlockSize)
      S.Divergence -= W.Divergence * Depths[D].Frequency *
                      (1.0 - E / L.BlockSize) * L.BlockSize / std::max(E, 1.0);
  }
  S.Reuse = reuse(C.Levels) + windowReuse(C.Levels);
  C.Value = S;
  return true;
}

/// Tiled reads shared by the threads along the other dimension (see
/// memory/TilingPlan: both levels on the grid along two dimensions).
double CandidateScorer::reuse(const std::vector<LevelMapping> &L) const {
  if (!Facts.Tileable || L.size() != 2 || L[0].sequential() ||
      L[1].sequential() || L[0].Dop.Kind != Parallelism::Span ||
      L[1].Dop.Kind != Parallelism::Span)
    return 0;
  double R = 0;
  // A register tile shares each element among n outputs of its thread
  // too: once from global memory into the block's tile, and again from
  // the tile into a register, which each of the n outputs along the
  // other level reads. The second step is what bounds a tiled product
  // (a shared-memory load per n fused multiply-adds), so it scores too.
  const bool Registers = registerTiled(L);
  for (const ir::Tile &T : Facts.Tileable->Tiles) {
    const LevelMapping &Other = T.AlongOuter ? L[1] : L[0];
    const double OutputsPerLoad = Registers ? Other.Dop.N : 1;
    const double Sharers =
        static_cast<double>(Other.BlockSize) * OutputsPerLoad;
    const double Share = (Sharers >= 2 ? 1.0 - 1.0 / Sharers : 0.0) +
                         (1.0 - 1.0 / OutputsPerLoad);
    R += In.Weight.Reuse * Depths[1].Frequency *
         static_cast<double>(T.Reads.size()) * Share;
  }
  return R;
}

/// Reads that windows (halo tiles) serve from shared memory, each as
/// much as the block's threads share its elements.
double CandidateScorer::windowReuse(const std::vector<LevelMapping> &L) const {
  if (!In.WindowShare || L.size() < 2)
    return 0;
  return In.Weight.Reuse * Depths[1].Frequency * In.WindowShare(L);
}

/// The threads the nest can keep busy at once: the device's, or one
/// block's for a sequential loop (it runs in one block).
double CandidateScorer::concurrentThreads() const {
  return static_cast<double>(N.Sequential ? In.Device.MaxThreadsPerBlock
                                          : In.Device.ConcurrentThreads);
}

/// Whether a clause sets level D's n (span(n)).
bool CandidateScorer::spanForced(std::size_t D) const {
  return D < Depths.size() && Depths[D].Forced && Depths[D].Forced->Span > 1;
}

/// 32-bit words a value of the widest tiled element takes.
std::uint64_t CandidateScorer::tileWords() const {
  std::uint64_t Bytes = 4;
  for (const ir::Tile &T : Facts.Tileable->Tiles)
    Bytes =
        std::max<std::uint64_t>(Bytes, ir::elementBytes(N, N.Params[T.Param]));
  return Bytes / 4;
}

/// A register tile's shared memory: per tile, its block's rows (or
/// columns) times the n outputs a thread along them, padded by 4, for
/// each of the RegisterTileWidth iterations a tile holds, in two buffers
/// (plan/KernelPlan).
std::uint64_t
CandidateScorer::registerTileBytes(const std::vector<LevelMapping> &L) const {
  std::uint64_t Bytes = 0;
  for (const ir::Tile &T : Facts.Tileable->Tiles) {
    const std::uint64_t Element = ir::elementBytes(N, N.Params[T.Param]);
    const LevelMapping &Along = T.AlongOuter ? L[0] : L[1];
    Bytes += 2 * Element * RegisterTileWidth *
             (std::uint64_t(Along.BlockSize) * Along.Dop.N + 4);
  }
  return Bytes;
}

/// Both levels of a register-tileable nest spread over the grid along two
/// dimensions, n outputs a thread along one of them at least: each thread
/// computes an n0 x n1 tile of outputs (plan/KernelShape).
bool CandidateScorer::registerTiled(const std::vector<LevelMapping> &L) const {
  return Facts.RegisterTileable && L.size() == 2 && !L[0].sequential() &&
         !L[1].sequential() && L[0].Dim != L[1].Dim &&
         L[0].Dop.Kind == Parallelism::Span &&
         L[1].Dop.Kind == Parallelism::Span &&
         (L[0].Dop.N > 1 || L[1].Dop.N > 1);
}

/// How much of a warp reads consecutive addresses (1: all of it): the
/// unit-stride level is on x, with whole warps, and has a warp's worth of
/// iterations to give them. In a register tile a thread's outputs come in
/// runs of 4 along x (n a multiple of 4), next to its neighbours' runs. A
/// level of fewer iterations than a warp, all of them in the block along
/// x, gives the warp runs of that many (a batch of small matrices' rows).
double CandidateScorer::coalesces(const std::vector<LevelMapping> &Levels,
                                  std::size_t D) const {
  const LevelMapping &L = Levels[D];
  const unsigned Run =
      L.BlockSize * (registerTiled(Levels) && L.Dop.N % 4 == 0 ? 4 : 1);
  const std::int64_t Warp = In.Device.WarpSize, Extent = Depths[D].Extent;
  if (L.Dim != Dimension::X)
    return 0;
  if (Run % Warp == 0 && Extent >= Warp)
    return 1;
  if (Extent > 1 && Extent < Warp && Run >= Extent &&
      (L.Dop.Kind == Parallelism::SpanAll ||
       (L.Dop.Kind == Parallelism::Span && L.Dop.N == 1)))
    return static_cast<double>(Extent) / static_cast<double>(Warp);
  return 0;
}

/// How cheaply a level combines its reduction: in registers or warp
/// shuffles, through shared memory, or across blocks.
double CandidateScorer::reductionFactor(const LevelMapping &L, std::size_t D,
                                        double Along) const {
  if (L.Dop.Kind == Parallelism::Split ||
      (D == 0 && Depths[D].CapturedReduction && Along > L.BlockSize))
    return 0.3;
  if (L.sequential())
    return 0.9;
  if (L.Dim == Dimension::X && L.BlockSize <= In.Device.WarpSize)
    return 0.9;
  return 0.8;
}

std::string CandidateScorer::reductionMechanism(const LevelMapping &L,
                                                std::size_t D) const {
  const double F = reductionFactor(
      L, D, L.Dop.Kind == Parallelism::Span ? 2.0 * L.BlockSize : 0.0);
  if (L.Dop.Kind == Parallelism::Split)
    return "per block, then the " + std::to_string(L.Dop.N) +
           " partials by a second step";
  if (F == 0.3)
    return "per block, then the blocks' partials by a second step";
  if (L.sequential())
    return "in registers";
  if (F == 0.9)
    return "in warp shuffles";
  return "through shared memory";
}

void CandidateScorer::explain(Candidate &C, const std::string &Forced) const {
  for (std::size_t D = 0; D < C.Levels.size(); ++D) {
    LevelMapping &L = C.Levels[D];
    std::vector<std::string> &R = L.Reasons;
    if (!Forced.empty())
      R.push_back(Forced);
    const ir::MappingClauses &F = *Depths[D].Forced;
    if (F.Dim || F.Block || F.Span >= 0 || F.Split)
      R.push_back("constrained by this loop's dim/block/span/split clauses");
    if (Depths[D].Irregular)
      R.push_back("extent known only inside the kernel: strided over by "
                  "the block, not spread over the grid");
    double Coalesced = 0;
    int Count = 0;
    for (const AccessInfo &A : Accesses)
      if (A.UnitStrideDepth == static_cast<int>(D)) {
        ++Count;
        Coalesced +=
            In.Weight.Coalescing * A.Frequency * coalesces(C.Levels, D);
      }
    if (Count && Coalesced > 0)
      R.push_back("coalescing: " + std::to_string(Count) +
                  " access(es) have unit stride in this index [+" +
                  number(Coalesced) + "]");
    else if (Count)
      R.push_back("coalescing not met: " + std::to_string(Count) +
                  " access(es) have unit stride in this index (that needs "
                  "it on dimension x, in whole warps, with at least a "
                  "warp of iterations)");
    for (const std::string &Name : Depths[D].ReductionNames)
      R.push_back(Name + " combined " + reductionMechanism(L, D));
    for (const std::string &Name : Depths[D].ArrayReductionNames)
      R.push_back(Name + " combined by atomic updates of its elements");
    if (!L.sequential() && Depths[D].Extent < L.BlockSize)
      R.push_back("idle lanes: extent " + std::to_string(Depths[D].Extent) +
                  " < block " + std::to_string(L.BlockSize));
    const double Windows = D == 1 ? windowReuse(C.Levels) : 0,
                 Tiles = D == 1 ? reuse(C.Levels) : 0;
    if (Windows > 0)
      R.push_back("reuse: overlapping reads among the block's threads [+" +
                  number(Windows) + "]");
    if (Tiles > 0)
      R.push_back("reuse: " + std::to_string(Facts.Tileable->Tiles.size()) +
                  " read(s) along the loop over " + Facts.Tileable->Index +
                  " tiled in shared memory, shared by the block's threads" +
                  (registerTiled(C.Levels)
                       ? " and by the " + std::to_string(C.Levels[0].Dop.N) +
                             " x " + std::to_string(C.Levels[1].Dop.N) +
                             " outputs of each thread's register tile"
                       : std::string()) +
                  " [+" + number(Tiles) + "]");
    if (R.empty() && D > 0)
      R.push_back(L.sequential() ? "in-thread: spreading it scored no better"
                                 : "spread over threads for parallelism");
  }
  C.Levels[0].Reasons.push_back(
      "parallelism: " + number(static_cast<double>(C.Threads)) +
      " threads for " + number(concurrentThreads()) + " concurrent [+" +
      number(C.Value.Parallelism) + "]; score " + number(C.Value.total()));
}

} // namespace weft::map
