// Mapping.cpp: the mapping search. The nest's levels are grouped by depth;
// every combination of per-depth options that passes the hard constraints is
// scored with the soft ones, and the best few are kept.
#include "map/Mapping.h"

#include "map/CandidateScore.h"
#include "map/NestFacts.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <tuple>

namespace weft::map {
namespace {

class MappingSearch {
public:
  MappingSearch(const ir::Nest &N, const MappingInput &In)
      : N(N), In(In), Facts(gatherFacts(N, In)), Depths(Facts.Depths),
        Scorer(N, In, Facts) {}

  NestMapping run() {
    NestMapping Result;
    Result.Strategy = N.Strategy;
    Result.Assumptions = Facts.Assumptions;
    for (std::size_t D = 1; D < Depths.size(); ++D)
      if (Depths[D].Forced && Depths[D].Forced->Split &&
          D > Facts.ShallowestCombine) {
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
      if (Broken.empty() && !Scorer.score(C))
        Broken = "it needs more shared memory or registers than a block has";
      if (!Broken.empty()) {
        Result.ErrorDepth = 0;
        Result.Error = "strategy(" + N.Strategy +
                       ") cannot be met with this nest's clauses: " + Broken;
        Result.ErrorHint = "drop the strategy or the dim/block/span/split "
                           "clauses that it conflicts with";
        return Result;
      }
      Scorer.explain(C, Result.Strategy +
                            " strategy (the paper's fixed baseline)");
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
    Scorer.explain(Best.front(), "");
    Result.Levels = Best.front().Levels;
    Result.Alternatives = std::move(Best);
    return Result;
  }

private:
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
      if (Facts.RegisterTileable && Forced <= 1 && D < 2)
        O.push_back({Parallelism::Span, 8u});
    }
    O.push_back({Parallelism::SpanAll, 0});
    // Split(k) runs the enclosing levels' code in each of k blocks and again
    // in the combining kernel: an array reduction's update there would count
    // more than once.
    if (I.Reduces && (D == 0 || D <= Facts.ShallowestCombine))
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
      if (Scorer.score(Scratch))
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

  const ir::Nest &N;
  const MappingInput &In;
  NestFacts Facts;
  /// (The clauses' search relaxes a depth's clauses in place.)
  std::vector<DepthInfo> &Depths;
  CandidateScorer Scorer;
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
