// Mapping.cpp: the mapping search. The nest's levels are grouped by depth;
// every combination of per-depth options that passes the hard constraints is
// scored with the soft ones, and the best few are kept.
#include "map/Mapping.h"

#include "ir/IndexRange.h"

#include "analysis/RegisterTile.h"
#include "analysis/TileableLoop.h"
#include "ir/HostBound.h"
#include "ir/IrQueries.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <tuple>

namespace weft::map {
namespace {

using Symbols = std::map<std::string, std::int64_t>;

/// E's value where every capture it reads has a known or assumed value.
std::optional<std::int64_t> evaluate(const ir::Nest &N, const ir::Expr &E,
                                     const Symbols &S) {
  std::optional<contract::BoundExpr> B = ir::hostBound(E);
  if (!B)
    return std::nullopt;
  auto Leaf = [&](const contract::BoundExpr &L, std::int64_t &V,
                  std::string &) {
    const std::string &Name = N.Params[L.Value].Name;
    auto It = S.find(L.Kind == contract::BoundExpr::Size ? "size(" + Name + ")"
                                                         : Name);
    if (It == S.end())
      return false;
    V = It->second;
    return true;
  };
  std::int64_t V = 0;
  std::string Error;
  if (!contract::evaluateBound(*B, Leaf, V, Error))
    return std::nullopt;
  return V;
}

/// What the search needs to know of one nest depth.
struct DepthInfo {
  std::int64_t Extent = 1;
  bool Irregular = false; // extent not known at launch: no grid mapping
  bool Reduces = false;
  bool CapturedReduction = false; // into a variable outside the nest
  unsigned ReductionBytes = 0;
  std::vector<std::string> ReductionNames;
  std::vector<std::string> ArrayReductionNames;
  const ir::MappingClauses *Forced = nullptr;
  double Frequency = 1; // iterations of this depth over the whole nest
};

struct AccessInfo {
  const ir::Access *A;
  int UnitStrideDepth = -1;
  double Frequency = 1;
};

std::string number(double V) {
  std::ostringstream OS;
  OS.precision(3);
  OS << V;
  return OS.str();
}

class MappingSearch {
public:
  MappingSearch(const ir::Nest &N, const MappingInput &In) : N(N), In(In) {}

  NestMapping run() {
    NestMapping Result;
    Result.Strategy = N.Strategy;
    analyze(Result);
    for (std::size_t D = 1; D < Depths.size(); ++D)
      if (Depths[D].Forced && Depths[D].Forced->Split &&
          D > ShallowestCombine) {
        Result.Error = "split(k) cannot divide level " + std::to_string(D) +
                       ": an array reduction's update around it would be "
                       "made once per block of the split; drop split(k)";
        return Result;
      }
    if (N.Strategy != "auto") {
      Candidate C;
      C.Levels =
          baseline(N.Strategy, static_cast<unsigned>(Depths.size()), In.Device);
      for (std::size_t D = 0; D < Depths.size(); ++D)
        if (Depths[D].Forced)
          applyClauses(C.Levels[D], *Depths[D].Forced);
      // The baseline with the levels' clauses is held to the hard
      // constraints the search keeps to: a kernel that breaks one (two
      // levels on one dimension, a block past the device's) computes
      // wrong results or does not launch.
      std::string Broken = brokenConstraint(C.Levels);
      if (Broken.empty() && !evaluate(C))
        Broken = "it needs more shared memory or registers than a block has";
      if (!Broken.empty()) {
        Result.ErrorDepth = 0;
        Result.Error = "strategy(" + N.Strategy +
                       ") cannot be met with this nest's clauses: " + Broken;
        Result.ErrorHint = "drop the strategy or the dim/block/span/split "
                           "clauses that it conflicts with";
        return Result;
      }
      explain(C, Result.Strategy + " strategy (the paper's fixed baseline)");
      Result.Levels = C.Levels;
      Result.Alternatives.push_back(std::move(C));
      return Result;
    }
    Current.resize(Depths.size());
    enumerate(0, 1, 0);
    if (Best.empty()) {
      explainFailure(Result);
      return Result;
    }
    explain(Best.front(), "");
    Result.Levels = Best.front().Levels;
    Result.Alternatives = std::move(Best);
    return Result;
  }

private:
  void analyze(NestMapping &Result) {
    if (In.Buildable) {
      Tileable = ir::findTileableLoop(N);
      RegisterTileable =
          Tileable &&
          ir::registerTileable(N, *Tileable, ir::planScalarReplacement(N));
    }
    for (const ir::Access &A : N.Accesses)
      if (A.Combined)
        ShallowestCombine = std::min(ShallowestCombine, A.Depth);
    std::map<std::string, unsigned> IndexDepth;
    // Per depth and index (sibling levels of one name say it once), the
    // most iterations their bounds allow.
    std::map<std::pair<unsigned, std::string>, std::int64_t> Bounded;
    for (const ir::Level *L : ir::levels(N)) {
      if (Depths.size() <= L->Depth)
        Depths.resize(L->Depth + 1);
      DepthInfo &D = Depths[L->Depth];
      IndexDepth[L->IndexName] = L->Depth;
      if (!D.Forced)
        D.Forced = &L->Forced;
      std::optional<std::int64_t> Lo = map::evaluate(N, *L->Lower, In.Symbols);
      std::optional<std::int64_t> Hi = map::evaluate(N, *L->Upper, In.Symbols);
      std::int64_t Extent = In.DefaultExtent;
      if (Lo && Hi) {
        const std::int64_t Span = *Hi - *Lo + (L->Inclusive ? 1 : 0);
        Extent = std::max<std::int64_t>(0, (Span + L->Step - 1) / L->Step);
      } else if (std::optional<std::int64_t> Most = ir::mostIterations(N, *L)) {
        // Bounds that move with the loops around, a constant apart at most
        // (a sequential nest's `for (j = i; j < off + 32; ++j)`).
        Extent = *Most;
        std::int64_t &Said = Bounded[{L->Depth, L->IndexName}];
        Said = std::max(Said, *Most);
      } else {
        // An inner level sized only inside the kernel (its bound reads an
        // index or data) is not given a guess the size of a block that a
        // short loop pays for at every step: its upper bound where the
        // launch knows that (its lower bound taken as non-negative), else
        // a warp, which a long loop strides over.
        const bool KernelOnly = L->Depth > 0 &&
                                (!ir::isHostEvaluable(*L->Lower) ||
                                 !ir::isHostEvaluable(*L->Upper));
        if (KernelOnly)
          Extent = Hi && !Lo ? std::max<std::int64_t>(*Hi, 1)
                             : std::int64_t(In.Device.WarpSize);
        // Sibling levels of one name (a sequential loop's) say it once.
        std::string Assumed = "the extent of level " +
                              std::to_string(L->Depth) + " (" +
                              ir::shownIndex(*L) + ") is assumed to be " +
                              std::to_string(Extent) +
                              (KernelOnly ? Hi && !Lo
                                                ? " (at most its upper bound)"
                                                : " (a warp: it is known only "
                                                  "inside the kernel)"
                                          : "");
        if (std::find(Result.Assumptions.begin(), Result.Assumptions.end(),
                      Assumed) == Result.Assumptions.end())
          Result.Assumptions.push_back(std::move(Assumed));
      }
      D.Extent = std::max(D.Extent, Extent);
      if (L->Depth > 0 &&
          (!ir::isHostEvaluable(*L->Lower) || !ir::isHostEvaluable(*L->Upper)))
        D.Irregular = true;
      for (const ir::Reduction &R : L->Reductions) {
        D.Reduces = true;
        D.CapturedReduction = D.CapturedReduction || R.ParamIndex >= 0;
        // (Each reduction stages its block's partials in an array of its
        // own.)
        D.ReductionBytes += ir::byteSize(R.Type);
        // Sibling levels of one depth (a sequential loop's) name theirs
        // once.
        std::string Name = std::string("reduction(") + ir::spelling(R.Op) +
                           ": " + (R.Element.empty() ? R.Variable : R.Element) +
                           ")";
        if (std::find(D.ReductionNames.begin(), D.ReductionNames.end(), Name) ==
            D.ReductionNames.end())
          D.ReductionNames.push_back(std::move(Name));
      }
      for (const ir::ArrayReduction &R : L->ArrayReductions)
        D.ArrayReductionNames.push_back(std::string("reduction(") +
                                        ir::spelling(R.Op) + ": " +
                                        N.Params[R.ParamIndex].Name + ")");
    }
    for (const auto &[Level, Most] : Bounded)
      Result.Assumptions.push_back(
          "the extent of level " + std::to_string(Level.first) + " (" +
          Level.second + ") is at most " + std::to_string(Most) +
          " (its bounds over the loops around)");
    double F = 1;
    for (DepthInfo &D : Depths) {
      F *= static_cast<double>(std::max<std::int64_t>(D.Extent, 1));
      D.Frequency = F;
    }
    for (const ir::Access &A : N.Accesses) {
      // A row's start, read along the row: one address a warp, whichever
      // level is on x.
      if (N.Params[A.ParamIndex].RowOffsetsOf >= 0)
        continue;
      AccessInfo I{&A};
      for (const auto &[Index, Coef] : A.Coefficients)
        if (Coef.isUnit())
          if (auto It = IndexDepth.find(Index); It != IndexDepth.end())
            I.UnitStrideDepth = static_cast<int>(It->second);
      I.Frequency =
          Depths[std::min<std::size_t>(A.Depth, Depths.size() - 1)].Frequency *
          std::pow(0.5, A.Branches);
      Accesses.push_back(I);
    }
  }

  // ---- Enumeration --------------------------------------------------------

  std::vector<Parallelism> options(unsigned D) const {
    const DepthInfo &I = Depths[D];
    if (I.Irregular)
      return {{Parallelism::SpanAll, 0}};
    std::vector<Parallelism> O;
    // Spreading a reduction over blocks needs a combining step: only the
    // outermost level's (into a captured variable) has one, or Split(k).
    if (!I.Reduces || D == 0) {
      O.push_back({Parallelism::Span, 1});
      // Span(n) stands for every n here (the runtime may change n); a
      // forced span(n) is offered as written.
      const int Forced = I.Forced ? I.Forced->Span : -1;
      O.push_back({Parallelism::Span, Forced > 1 ? unsigned(Forced) : 4u});
      // A thread's register tile may be larger (the matrix product's 8 x 8).
      if (RegisterTileable && Forced <= 1 && D < 2)
        O.push_back({Parallelism::Span, 8u});
    }
    O.push_back({Parallelism::SpanAll, 0});
    // Split(k) runs the enclosing levels' code in each of k blocks and again
    // in the combining kernel: an array reduction's update there would count
    // more than once.
    if (I.Reduces && (D == 0 || D <= ShallowestCombine))
      O.push_back({Parallelism::Split, 0}); // k is chosen per candidate
    return O;
  }

  static bool matches(const LevelMapping &L, const ir::MappingClauses &F) {
    auto DimOf = [](char C) {
      return C == 'x' ? Dimension::X : C == 'y' ? Dimension::Y : Dimension::Z;
    };
    if (F.Dim && L.Dim != DimOf(F.Dim))
      return false;
    if (F.Block && L.BlockSize != F.Block)
      return false;
    if (F.Span == 0 && L.Dop.Kind != Parallelism::SpanAll)
      return false;
    if (F.Span > 0 && !(L.Dop.Kind == Parallelism::Span &&
                        L.Dop.N == static_cast<unsigned>(F.Span)))
      return false;
    if (F.Split && L.Dop.Kind != Parallelism::Split)
      return false;
    return true;
  }

  static void applyClauses(LevelMapping &L, const ir::MappingClauses &F) {
    if (F.Dim)
      L.Dim = F.Dim == 'x'   ? Dimension::X
              : F.Dim == 'y' ? Dimension::Y
                             : Dimension::Z;
    if (F.Block)
      L.BlockSize = F.Block;
    if (F.Span == 0)
      L.Dop = {Parallelism::SpanAll, 0};
    else if (F.Span > 0)
      L.Dop = {Parallelism::Span, static_cast<unsigned>(F.Span)};
    if (F.Split)
      L.Dop = {Parallelism::Split, F.Split};
  }

  /// Where no mapping meets every clause: the first clause, by depth, that
  /// the search meets once it is dropped, and why it cannot be met.
  void explainFailure(NestMapping &Result) {
    Result.Error = "no mapping satisfies the hard constraints together "
                   "with the dim/block/span/split clauses of this nest";
    for (std::size_t D = 0; D < Depths.size(); ++D) {
      const ir::MappingClauses &Asked = *Depths[D].Forced;
      const std::string Span =
          Asked.Span == 0 ? "all" : std::to_string(Asked.Span);
      // Each clause asked for: its text, and the clauses without it.
      ir::MappingClauses NoBlock = Asked, NoSpan = Asked, NoDim = Asked,
                         NoSplit = Asked;
      NoBlock.Block = 0;
      NoSpan.Span = -1;
      NoDim.Dim = 0;
      NoSplit.Split = 0;
      const std::tuple<bool, std::string, const ir::MappingClauses &>
          Clauses[] = {
              {Asked.Block != 0, "block(" + std::to_string(Asked.Block) + ")",
               NoBlock},
              {Asked.Span >= 0, "span(" + Span + ")", NoSpan},
              {Asked.Dim != 0, std::string("dim(") + Asked.Dim + ")", NoDim},
              {Asked.Split != 0, "split(" + std::to_string(Asked.Split) + ")",
               NoSplit}};
      for (const auto &[Given, Text, Without] : Clauses) {
        if (!Given || !finds(D, Without))
          continue;
        Result.ErrorDepth = static_cast<int>(D);
        Result.Error = "the clause " + Text +
                       " of this loop cannot be met: " + whyNot(D, Asked);
        Result.ErrorHint =
            "drop " + Text +
            " and let the search choose (-fplugin-arg-weft-remarks shows what "
            "it chose)";
        return;
      }
    }
  }

  /// The hard constraint a whole mapping breaks, in words, or empty.
  std::string brokenConstraint(const std::vector<LevelMapping> &Levels) const {
    unsigned Used = 0;
    std::uint64_t Threads = 1;
    for (const LevelMapping &L : Levels) {
      if (L.sequential())
        continue;
      const unsigned Bit = 1u << static_cast<unsigned>(L.Dim);
      if (Used & Bit)
        return std::string("two levels on dimension ") + spelling(L.Dim);
      Used |= Bit;
      Threads *= L.BlockSize;
    }
    if (Threads > In.Device.MaxThreadsPerBlock)
      return "its block would hold " + std::to_string(Threads) +
             " threads, more than a block holds (" +
             std::to_string(In.Device.MaxThreadsPerBlock) + ")";
    if (In.Buildable && !In.Buildable(Levels))
      return "the kernel generator builds no such mapping of this nest";
    return "";
  }

  /// Whether some mapping meets the clauses with those of depth D replaced,
  /// and the hard constraints as relaxed.
  bool finds(std::size_t D, const ir::MappingClauses &Clauses,
             bool SmallBlocks = false, bool AnyShape = false) {
    const ir::MappingClauses *Asked = Depths[D].Forced;
    Depths[D].Forced = &Clauses;
    AllowSmallBlocks = SmallBlocks;
    AllowAnyShape = AnyShape;
    Best.clear();
    enumerate(0, 1, 0);
    Depths[D].Forced = Asked;
    AllowSmallBlocks = AllowAnyShape = false;
    const bool Found = !Best.empty();
    Best.clear();
    return Found;
  }

  /// Which hard constraint the clauses break, in words.
  std::string whyNot(std::size_t D, const ir::MappingClauses &Asked) {
    // (The generator first: where blocks of a warp or more are what it
    // cannot build, a block of fewer only looks like the way out.)
    if (finds(D, Asked, false, true))
      return "the kernel generator builds no such mapping of this nest (a "
             "level spread over blocks needs the loop around it to hold "
             "nothing else but declarations, a level that combines a "
             "reduction, or that code of the loop around it follows, needs "
             "a warp or the whole block, and three levels on threads need a "
             "perfect nest)";
    if (finds(D, Asked, true))
      return "the block would hold fewer threads than a warp (" +
             std::to_string(In.Device.WarpSize) +
             "), whose other lanes would idle; the block sizes of a nest's "
             "levels multiply";
    return "with the other levels' clauses it asks for more than a block "
           "holds (" +
           std::to_string(In.Device.MaxThreadsPerBlock) +
           " threads, its shared memory and registers)";
  }

  void enumerate(unsigned D, unsigned BlockThreads, unsigned UsedDims) {
    if (D == Depths.size()) {
      if ((BlockThreads < In.Device.WarpSize && !AllowSmallBlocks) ||
          (In.Buildable && !AllowAnyShape && !In.Buildable(Current)))
        return;
      // Scored in place; copied only when it is among the best.
      Scratch.Levels = Current;
      Scratch.Value = {};
      Scratch.Threads = 0;
      if (evaluate(Scratch))
        keep(Scratch);
      return;
    }
    const ir::MappingClauses &F = *Depths[D].Forced;
    // A depth of four or more runs serially: three dimensions are all.
    if (D > 0 && !F.Dim && !F.Block && F.Span < 0 && !F.Split) {
      Current[D] =
          LevelMapping{Dimension::None, 1, {Parallelism::SpanAll, 0}, {}};
      enumerate(D + 1, BlockThreads, UsedDims);
    }
    if (D >= 3)
      return;
    for (Dimension Dim : {Dimension::X, Dimension::Y, Dimension::Z}) {
      const unsigned Bit = 1u << static_cast<unsigned>(Dim);
      if (UsedDims & Bit)
        continue;
      for (unsigned Block = 1;
           Block * BlockThreads <= In.Device.MaxThreadsPerBlock; Block *= 2)
        for (const Parallelism &P : options(D)) {
          LevelMapping L{Dim, Block, P, {}};
          if (!matches(L, F))
            continue;
          if (F.Split)
            L.Dop.N = F.Split; // forced k; otherwise chosen per candidate
          Current[D] = L;
          enumerate(D + 1, BlockThreads * Block, UsedDims | Bit);
        }
    }
  }

  void keep(const Candidate &C) {
    auto BlockDistance = [](const Candidate &C) {
      unsigned Threads = 1;
      for (const LevelMapping &L : C.Levels)
        Threads *= L.BlockSize;
      return std::abs(std::log2(static_cast<double>(Threads)) - 8.0);
    };
    auto Better = [&](const Candidate &A, const Candidate &B) {
      const double SA = A.Value.total(), SB = B.Value.total();
      if (std::abs(SA - SB) > 1e-9 * std::max(std::abs(SA), std::abs(SB)))
        return SA > SB;
      if (A.Threads != B.Threads)
        return A.Threads > B.Threads; // ties go to the higher DOP
      // Then to 256 threads a block: full occupancy at 8 blocks an SM, and
      // warps enough in each to hide latency.
      return BlockDistance(A) < BlockDistance(B);
    };
    // After its equals: the earlier candidate (x before y before z) wins.
    auto Pos = std::upper_bound(Best.begin(), Best.end(), C, Better);
    if (static_cast<unsigned>(Pos - Best.begin()) >= In.KeepTop)
      return;
    Best.insert(Pos, C);
    if (Best.size() > In.KeepTop)
      Best.pop_back();
  }

  // ---- Scoring --------------------------------------------------------------

  /// Fills C's thread count and score; false when C breaks a hard
  /// constraint that only the whole candidate shows.
  bool evaluate(Candidate &C) {
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
            OtherIterations *= static_cast<double>(
                std::max<std::int64_t>(Depths[O].Extent, 1));
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
            ? std::min(16.0, static_cast<double>(C.Levels[0].Dop.N) *
                                 C.Levels[1].Dop.N)
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
                        (1.0 - E / L.BlockSize) * L.BlockSize /
                        std::max(E, 1.0);
    }
    S.Reuse = reuse(C.Levels) + windowReuse(C.Levels);
    C.Value = S;
    return true;
  }

  /// Tiled reads shared by the threads along the other dimension (see
  /// memory/TilingPlan: both levels on the grid along two dimensions).
  double reuse(const std::vector<LevelMapping> &L) const {
    if (!Tileable || L.size() != 2 || L[0].sequential() || L[1].sequential() ||
        L[0].Dop.Kind != Parallelism::Span ||
        L[1].Dop.Kind != Parallelism::Span)
      return 0;
    double R = 0;
    // A register tile shares each element among n outputs of its thread
    // too: once from global memory into the block's tile, and again from
    // the tile into a register, which each of the n outputs along the
    // other level reads. The second step is what bounds a tiled product
    // (a shared-memory load per n fused multiply-adds), so it scores too.
    const bool Registers = registerTiled(L);
    for (const ir::Tile &T : Tileable->Tiles) {
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
  double windowReuse(const std::vector<LevelMapping> &L) const {
    if (!In.WindowShare || L.size() < 2)
      return 0;
    return In.Weight.Reuse * Depths[1].Frequency * In.WindowShare(L);
  }

  /// The threads the nest can keep busy at once: the device's, or one
  /// block's for a sequential loop (it runs in one block).
  double concurrentThreads() const {
    return static_cast<double>(N.Sequential ? In.Device.MaxThreadsPerBlock
                                            : In.Device.ConcurrentThreads);
  }

  /// Whether a clause sets level D's n (span(n)).
  bool spanForced(std::size_t D) const {
    return D < Depths.size() && Depths[D].Forced && Depths[D].Forced->Span > 1;
  }

  /// 32-bit words a value of the widest tiled element takes.
  std::uint64_t tileWords() const {
    std::uint64_t Bytes = 4;
    for (const ir::Tile &T : Tileable->Tiles)
      Bytes = std::max<std::uint64_t>(Bytes,
                                      ir::elementBytes(N, N.Params[T.Param]));
    return Bytes / 4;
  }

  /// A register tile's shared memory: per tile, its block's rows (or
  /// columns) times the n outputs a thread along them, padded by 4, for
  /// each of the RegisterTileWidth iterations a tile holds, in two buffers
  /// (plan/KernelPlan).
  std::uint64_t registerTileBytes(const std::vector<LevelMapping> &L) const {
    std::uint64_t Bytes = 0;
    for (const ir::Tile &T : Tileable->Tiles) {
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
  bool registerTiled(const std::vector<LevelMapping> &L) const {
    return RegisterTileable && L.size() == 2 && !L[0].sequential() &&
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
  double coalesces(const std::vector<LevelMapping> &Levels,
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
  double reductionFactor(const LevelMapping &L, std::size_t D,
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

  std::string reductionMechanism(const LevelMapping &L, std::size_t D) const {
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

  void explain(Candidate &C, const std::string &Forced) {
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
        R.push_back("reuse: " + std::to_string(Tileable->Tiles.size()) +
                    " read(s) along the loop over " + Tileable->Index +
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

  const ir::Nest &N;
  /// The shallowest depth of an array reduction's update (Access::Depth).
  unsigned ShallowestCombine = ~0u;
  const MappingInput &In;
  std::vector<DepthInfo> Depths;
  std::vector<AccessInfo> Accesses;
  /// Reads shared-memory tiles could serve under a 2-D grid mapping.
  std::optional<ir::TileableLoop> Tileable;
  bool RegisterTileable = false;
  std::vector<LevelMapping> Current;
  Candidate Scratch; // the candidate being scored
  std::vector<Candidate> Best;
  // The hard constraints explainFailure() relaxes, to say which one failed.
  bool AllowSmallBlocks = false, AllowAnyShape = false;
};

} // namespace

NestMapping chooseMapping(const ir::Nest &N, const MappingInput &In) {
  return MappingSearch(N, In).run();
}

std::vector<LevelMapping> baseline(const std::string &Strategy, unsigned Depths,
                                   const DeviceModel &D) {
  const LevelMapping Serial{Dimension::None, 1, {Parallelism::SpanAll, 0}, {}};
  std::vector<LevelMapping> L(Depths, Serial);
  if (Depths == 0)
    return L;
  L[0] = {Dimension::X, 256, {Parallelism::Span, 1}, {}};
  if (Depths == 1 || Strategy == "1d")
    return L;
  if (Strategy == "thread_block") {
    L[0] = {Dimension::Y, 1, {Parallelism::Span, 1}, {}};
    L[1] = {Dimension::X, D.MaxThreadsPerBlock, {Parallelism::SpanAll, 0}, {}};
  } else if (Strategy == "warp") {
    L[0] = {Dimension::Y, 16, {Parallelism::Span, 1}, {}};
    L[1] = {Dimension::X, D.WarpSize, {Parallelism::SpanAll, 0}, {}};
  }
  return L;
}

const char *spelling(Dimension D) {
  switch (D) {
  case Dimension::X:
    return "x";
  case Dimension::Y:
    return "y";
  case Dimension::Z:
    return "z";
  case Dimension::None:
    return "none";
  }
  return "?";
}

std::string spelling(const Parallelism &P) {
  switch (P.Kind) {
  case Parallelism::Span:
    return "Span(" + std::to_string(P.N) + ")";
  case Parallelism::SpanAll:
    return "Span(all)";
  case Parallelism::Split:
    return "Split(" + std::to_string(P.N) + ")";
  }
  return "?";
}

std::string describe(const LevelMapping &L) {
  if (L.sequential())
    return "sequential";
  return std::string("dim ") + spelling(L.Dim) + ", block " +
         std::to_string(L.BlockSize) + ", " + spelling(L.Dop);
}

} // namespace weft::map
