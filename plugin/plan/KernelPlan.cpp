// KernelPlan.cpp: one mapping's kernel planned: its shape, memory plans,
// shared arrays, per-thread buffers, tuning space and coverage claims.
#include "plan/KernelPlan.h"

#include "plan/TuningSpace.h"

#include "ir/IrQueries.h"

#include <algorithm>

namespace weft::plan {
namespace {

const char *const AxisMacro[3] = {"WEFT_BLOCK_X", "WEFT_BLOCK_Y",
                                  "WEFT_BLOCK_Z"};

using contract::BoundExpr;

/// A slice's most elements a thread where its length is known only at run
/// time (a triangular solve's block of rows: 32 in Rodinia's lud).
constexpr std::int64_t ThreadSliceLength = 64;

BoundExpr mul(BoundExpr A, BoundExpr B) {
  return BoundExpr::binary(BoundExpr::Mul, std::move(A), std::move(B));
}
BoundExpr add(BoundExpr A, std::int64_t B) {
  return BoundExpr::binary(BoundExpr::Add, std::move(A), BoundExpr::literal(B));
}

/// A block size as a bound over the plan's tuning parameters.
BoundExpr blockBound(const KernelPlan &P, int Axis) {
  return macroBound(P.Tune, AxisMacro[Axis], P.Shape.Block[Axis]);
}

/// WEFT_BLOCK_THREADS elements of Bytes each.
BoundExpr threadsBytes(const KernelPlan &P, unsigned Bytes) {
  return mul(mul(blockBound(P, 0), mul(blockBound(P, 1), blockBound(P, 2))),
             BoundExpr::literal(Bytes));
}

/// The axis of the outermost level's threads.
int rowAxis(const KernelPlan &P) { return P.Shape.Depths[0].Axis; }

/// The stages' capacities (KernelPlan::StageCapacity): those of constant
/// extents exactly, where together they take at most the 24 KiB (a
/// window's at the mapped block size), the others what is left.
void sizeStages(KernelPlan &P) {
  const ir::Nest &N = *P.Nest;
  constexpr std::int64_t Budget = 24 * 1024;
  std::int64_t Fixed = 0;
  std::size_t Pooled = 0;
  std::vector<std::optional<std::int64_t>> Exact;
  for (const memory::Stage &S : P.Stages) {
    std::optional<std::int64_t> Elements = S.Elements;
    if (S.Window && S.Rows && S.ColumnReach)
      Elements =
          (*S.Rows + (S.OuterRows ? P.Shape.Block[rowAxis(P)] - 1 : 0)) *
          (P.Shape.Block[P.Shape.Depths[S.Level->Depth].Axis] + *S.ColumnReach);
    Exact.push_back(Elements);
    if (Elements)
      Fixed += *Elements * ir::elementBytes(N, N.Params[S.Param]);
    else
      ++Pooled;
  }
  if (Fixed > Budget) {
    std::fill(Exact.begin(), Exact.end(), std::nullopt);
    Fixed = 0;
    Pooled = P.Stages.size();
  }
  for (std::size_t I = 0; I < P.Stages.size(); ++I) {
    const memory::Stage &S = P.Stages[I];
    if (!Exact[I]) {
      P.StageCapacity.push_back(
          std::to_string((Budget - Fixed) / static_cast<std::int64_t>(Pooled) /
                         std::max(1u, ir::elementBytes(N, N.Params[S.Param]))));
    } else if (S.Elements) {
      P.StageCapacity.push_back(std::to_string(*S.Elements));
    } else {
      const std::string Rows =
          S.OuterRows ? "(" + std::string(AxisMacro[rowAxis(P)]) + " + " +
                            std::to_string(*S.Rows - 1) + ")"
                      : std::to_string(*S.Rows);
      P.StageCapacity.push_back("(" + Rows + " * (" +
                                AxisMacro[P.Shape.Depths[S.Level->Depth].Axis] +
                                " + " + std::to_string(*S.ColumnReach) + "))");
    }
  }
}

/// The bytes of stage I's array, as its capacity says.
BoundExpr stageBytes(const KernelPlan &P, std::size_t I, unsigned Bytes) {
  const memory::Stage &S = P.Stages[I];
  const std::string &Capacity = P.StageCapacity[I];
  if (Capacity.front() != '(')
    return BoundExpr::literal(std::stoll(Capacity) * Bytes);
  const BoundExpr Columns =
      add(blockBound(P, P.Shape.Depths[S.Level->Depth].Axis), *S.ColumnReach);
  if (S.OuterRows)
    return mul(mul(Columns, add(blockBound(P, rowAxis(P)), *S.Rows - 1)),
               BoundExpr::literal(Bytes));
  return mul(Columns, BoundExpr::literal(*S.Rows * Bytes));
}

/// The bytes of a block's shared memory each of Count slices (or resident
/// blocks) may take: 32 KiB among them, 16 beside staged ranges' 24.
std::int64_t stagingShare(const KernelPlan &P, std::size_t Count) {
  return (P.Stages.empty() ? 32768 : 16384) / static_cast<std::int64_t>(Count);
}

/// The slices a thread may hold (KernelPlan::Slices): where each thread
/// runs the iterations it starts to the end (no tiles nor windows walk
/// the block's threads together). Together they take 32 KiB of a block at
/// most (16 beside staged ranges' 24), each a thread's share of its part.
void planSlices(KernelPlan &P) {
  const ir::Nest &N = *P.Nest;
  if (P.Tiled || P.Coarsened || P.Window || P.Outer == OuterWalk::Uniform ||
      P.Outer == OuterWalk::RegisterTiles)
    return;
  std::vector<ir::ThreadSlice> Kept;
  for (ir::ThreadSlice &S : ir::planThreadSlices(N)) {
    // A register already holds an element of the span along a loop (its
    // value, not the slice's, is the element's), or a window's rows walk
    // the block together.
    if (std::none_of(P.Stages.begin(), P.Stages.end(),
                     [&](const memory::Stage &Stage) {
                       return Stage.Window && Stage.Level == S.Owner;
                     }) &&
        std::none_of(P.Registers.begin(), P.Registers.end(),
                     [&](const ir::ReplacedElement &R) {
                       return R.Param == S.Param && R.Level == S.Owner;
                     }))
      Kept.push_back(std::move(S));
  }
  if (Kept.empty())
    return;
  const std::int64_t Budget = stagingShare(P, Kept.size());
  for (ir::ThreadSlice &S : Kept) {
    const std::int64_t ElementBytes =
        std::max(1u, ir::elementBytes(N, N.Params[S.Param]));
    const std::string Share = "(" + std::to_string(Budget) +
                              " / (WEFT_BLOCK_THREADS * " +
                              std::to_string(ElementBytes) + "))";
    const std::int64_t Most = S.FixedCount ? *S.FixedCount : ThreadSliceLength;
    const std::int64_t Mapped = std::min<std::int64_t>(
        Most, std::max<std::int64_t>(
                  1, Budget / (static_cast<std::int64_t>(P.Shape.threads()) *
                               ElementBytes)));
    const std::string Limit = std::to_string(Most);
    P.Slices.push_back({std::move(S),
                        "(" + Limit + " < " + Share + " ? " + Limit + " : " +
                            Share + " > 0 ? " + Share + " : 1)",
                        Mapped, Budget});
  }
}

/// The blocks of a matrix a sequential nest may hold (KernelPlan::
/// Residents): together 32 KiB at most (16 beside staged ranges' 24). A
/// block of a size known only at run time gets its share, and the loop
/// takes the span in place where it is larger.
void planResidents(KernelPlan &P) {
  const ir::Nest &N = *P.Nest;
  // Tiles would load the span's elements from global memory, a register
  // would hold one of them: each beside the block's copy.
  if (P.Tiled || P.Coarsened || P.Window || P.Outer == OuterWalk::RegisterTiles)
    return;
  std::vector<ir::ResidentBlock> Blocks = ir::planResidentBlocks(N);
  Blocks.erase(std::remove_if(Blocks.begin(), Blocks.end(),
                              [&](const ir::ResidentBlock &B) {
                                return std::any_of(
                                    P.Registers.begin(), P.Registers.end(),
                                    [&](const ir::ReplacedElement &R) {
                                      return R.Param == B.Param;
                                    });
                              }),
               Blocks.end());
  if (Blocks.empty())
    return;
  const std::int64_t Budget = stagingShare(P, Blocks.size());
  for (ir::ResidentBlock &B : Blocks) {
    const std::int64_t Share =
        Budget / std::max(1u, ir::elementBytes(N, N.Params[B.Param]));
    if (B.FixedSlots && *B.FixedSlots > Share)
      continue; // never fits
    const std::int64_t Capacity = B.FixedSlots ? *B.FixedSlots : Share;
    P.Residents.push_back({std::move(B), Capacity});
  }
}

/// The bytes of slice S's array: its capacity's WEFT_BLOCK_THREADS times.
BoundExpr sliceBytes(const KernelPlan &P, const SlicePlan &S) {
  const ir::Nest &N = *P.Nest;
  const std::int64_t Bytes = ir::elementBytes(N, N.Params[S.Slice.Param]);
  const std::int64_t Most =
      S.Slice.FixedCount ? *S.Slice.FixedCount : ThreadSliceLength;
  BoundExpr Thread = threadsBytes(P, static_cast<unsigned>(Bytes));
  return BoundExpr::binary(
      BoundExpr::Min, mul(BoundExpr::literal(Most), Thread),
      BoundExpr::binary(BoundExpr::Max, BoundExpr::literal(S.Budget), Thread));
}

/// The bytes of tile array Tile, as plan.Shared's Count says.
BoundExpr tileBytes(const KernelPlan &P, const memory::Tile &Tile,
                    unsigned Bytes) {
  const BoundExpr Width = macroBound(P.Tune, "WEFT_TILE", P.Tiled->Width);
  const BoundExpr Staging = macroBound(P.Tune, "WEFT_STAGING", 1);
  // (WEFT_STAGING ? n : 1) is max(1, WEFT_STAGING * n): staging is 0 or 1.
  auto Staged = [&](BoundExpr Elements) {
    return BoundExpr::binary(BoundExpr::Max, BoundExpr::literal(1),
                             mul(Staging, std::move(Elements)));
  };
  if (P.Tiled->WholeBlock)
    return mul(Staged(mul(Width, BoundExpr::literal(Tile.RecordWidth))),
               BoundExpr::literal(Bytes));
  const unsigned Pair = P.Tiled->Outer->Depth;
  const int Outer = P.Shape.Depths[Pair].Axis,
            Inner = P.Shape.Depths[Pair + 1].Axis;
  BoundExpr Elements;
  if (P.RegisterTile) {
    const BoundExpr Run =
        Tile.AlongOuter
            ? mul(blockBound(P, Outer),
                  macroBound(P.Tune, "WEFT_TM", P.RegisterTile->TM))
            : mul(blockBound(P, Inner),
                  macroBound(P.Tune, "WEFT_TN", P.RegisterTile->TN));
    // Two buffers: the next tile is stored while this one is read.
    Elements = mul(BoundExpr::literal(2), mul(Width, add(Run, 4)));
  } else {
    Elements =
        Staged(Tile.AlongOuter ? mul(blockBound(P, Outer), add(Width, 1))
                               : mul(Width, add(blockBound(P, Inner), 1)));
  }
  return mul(std::move(Elements), BoundExpr::literal(Bytes));
}

/// Rows a thread of a window tile computes as mapped: a 5 x 5 filter's 4
/// rows read 8 rows of the window, 40 loads for 100 products where one row
/// takes 25 for 25, in some 70 registers (NVRTC, sm_90).
constexpr unsigned WindowRows = 4;

/// A window tile where the search left every level of the nest one
/// iteration a thread over the grid (no strategy or span clause on the
/// rows' level fixing it). It comes before tiles.
std::optional<WindowPlan> planWindow(const ir::Nest &N,
                                     const map::NestMapping &M,
                                     const KernelShape &Shape) {
  if (N.Strategy != "auto" || M.Levels.size() != Shape.Depths.size())
    return std::nullopt;
  for (std::size_t D = 0; D < M.Levels.size(); ++D)
    if (M.Levels[D].Dop.Kind != map::Parallelism::Span ||
        M.Levels[D].Dop.N != 1 || Shape.Depths[D].Axis < 0)
      return std::nullopt;
  std::optional<ir::WindowTile> W = ir::windowTile(N);
  if (!W || W->Rows->Forced.Span >= 0 || W->Inner->Depth + 1 != M.Levels.size())
    return std::nullopt;
  return WindowPlan{std::move(*W), WindowRows};
}

std::string typeOf(const ir::Nest &N, const ir::LocalType &T) {
  return ir::typeName(N, T.Scalar, T.Struct);
}

unsigned bytesOf(const ir::Nest &N, const ir::LocalType &T) {
  return T.Struct >= 0 ? N.Structs[T.Struct].Size : ir::byteSize(T.Scalar);
}

/// Walks the nest in the order the emitter prints it, planning each level
/// and naming the arrays the kernel declares.
class LevelPlanner {
public:
  explicit LevelPlanner(KernelPlan &P) : P(P), N(*P.Nest) {}

  void body(const std::vector<ir::StmtPtr> &Body) {
    const ir::Stmt *Outer = Tail;
    Tail = Body.empty() ? nullptr : Body.back().get();
    for (const ir::StmtPtr &S : Body)
      if (S)
        stmt(*S);
    Tail = Outer;
  }

private:
  void stmt(const ir::Stmt &S) {
    if (S.Kind == ir::Stmt::Decl && S.ArrayExtent &&
        S.ArrayExtent->Kind != ir::Expr::IntLiteral)
      P.Buffers.push_back({&S, typeOf(N, S.VarType), bytesOf(N, S.VarType),
                           S.ArrayExtent.get()});
    if (S.Kind == ir::Stmt::ParallelFor) {
      level(*S.Nested, &S == Tail);
      return;
    }
    for (const ir::StmtPtr &C : S.Children)
      if (C)
        stmt(*C);
  }

  /// Last: the level ends its enclosing level's body.
  void level(const ir::Level &L, bool Last) {
    const DepthShape &Depth = P.Shape.Depths[L.Depth];
    LevelPlan &LP = P.Levels[&L];
    LP.Axis = Depth.Axis;
    if (LP.Axis < 0 || (P.Tiled && P.Tiled->Inner == &L)) {
      body(L.Body);
      return;
    }
    for (std::size_t I = 0; I < P.Stages.size(); ++I) {
      if (P.Stages[I].Level != &L)
        continue;
      const ir::Param &Param = N.Params[P.Stages[I].Param];
      // Its array takes shared memory only where staged ranges are on (the
      // compiler drops an array no code reads).
      const BoundExpr On = mul(macroBound(P.Tune, "WEFT_STAGING", 1),
                               macroBound(P.Tune, "WEFT_STAGED_RANGES", 0));
      P.Shared.push_back(
          {ir::typeName(N, Param.Element, Param.Struct),
           "WEFT_STAGE" + std::to_string(I),
           "weft_stage" + std::to_string(I) + "_buffer",
           mul(On, stageBytes(P, I, ir::elementBytes(N, Param)))});
      LP.Stages.push_back(I);
    }
    body(L.Body);
    if (!L.Reductions.empty())
      LP.How = Depth.How;
    for (const ir::Reduction &R : L.Reductions) {
      if (LP.How == Combine::Warp) {
        LP.Scratch.emplace_back();
        continue;
      }
      LP.Scratch.push_back("weft_scratch" + std::to_string(Scratches++));
      P.Shared.push_back({ir::spelling(R.Type), "WEFT_BLOCK_THREADS",
                          LP.Scratch.back(),
                          threadsBytes(P, ir::byteSize(R.Type))});
    }
    // What the group's threads wrote, the code after may read (a
    // reduction's combining waits for them already). Where the level ends
    // its enclosing level's body, what follows is another iteration of
    // that level, independent by its mark (not of a sequential loop's): no
    // code reads what the group wrote. (A warp's wait there also held up a
    // 64-wide warp whose other rows had left the enclosing level's loop.)
    // Stages add a barrier of their own where they are compiled in
    // (emit's level).
    if (L.Reductions.empty() && (!Last || N.Sequential))
      LP.After = Depth.WholeBlock ? Sync::Barrier
                 : Depth.OneWarp  ? Sync::Warp
                                  : Sync::None;
  }

  KernelPlan &P;
  const ir::Nest &N;
  unsigned Scratches = 0;
  const ir::Stmt *Tail = nullptr; // the last statement of the body walked
};

} // namespace

bool KernelPlan::windowsFollowRows() const {
  return std::any_of(Stages.begin(), Stages.end(),
                     [](const memory::Stage &S) { return S.OuterRows; });
}

bool KernelPlan::keeps(unsigned Param) const {
  auto Of = [Param](const auto &Kept) { return Kept.Param == Param; };
  return std::any_of(Stages.begin(), Stages.end(), Of) ||
         (Tiled && std::any_of(Tiled->Tiles.begin(), Tiled->Tiles.end(), Of)) ||
         std::any_of(Registers.begin(), Registers.end(), Of) ||
         std::any_of(Slices.begin(), Slices.end(),
                     [&](const SlicePlan &S) { return Of(S.Slice); }) ||
         std::any_of(Residents.begin(), Residents.end(),
                     [&](const ResidentPlan &R) { return Of(R.Block); });
}

const ir::Level *KernelPlan::firstAtDepth(unsigned Depth) const {
  for (const ir::Level *L : ir::levels(*Nest))
    if (L->Depth == Depth)
      return L;
  return nullptr;
}

namespace {

/// Where the levels' reads are kept: a window tile, tiles, or staged
/// ranges, and the stages' sizes.
void planMemory(KernelPlan &P, const ir::Nest &N, const map::NestMapping &M) {
  // A window tile reads its windows from registers: no tiles or stages
  // beside it (its loops take 64 steps at most: a tile of them in shared
  // memory would cost the block a barrier to share a few elements the L1
  // cache broadcasts). Else tiles where threads share what a loop reads;
  // else whole ranges.
  P.Window = planWindow(N, M, P.Shape);
  if (!P.Window)
    P.Tiled = memory::planTiling(N, M);
  if (P.Window)
    P.Mapping.Levels[P.Window->Tile.Rows->Depth].Dop.N = P.Window->Rows;
  else if (!P.Tiled)
    P.Stages = memory::planStaging(N, M);
  // Windows along the outermost level's rows, or any stage where a block
  // holds several of that level's iterations: every thread of the block
  // loads them and waits at the barrier after, so blocks walk that level
  // together (a thread past its end would leave the others waiting).
  if (P.windowsFollowRows() ||
      (!P.Stages.empty() && !M.Levels[0].sequential() &&
       M.Levels[0].BlockSize > 1))
    P.Shape.UniformOuter = true;
  sizeStages(P);
}

/// Elements kept in registers, a register tile, a coarsened tile loop,
/// the level a split inner level is.
void planRegisters(KernelPlan &P, const ir::Nest &N,
                   const map::NestMapping &M) {
  P.Registers = ir::planScalarReplacement(N);
  // (A window's loops write no span: no element of theirs is replaced.)
  if (P.Shape.RegisterTiled && P.Tiled)
    if (std::optional<ir::RegisterTileable> R =
            ir::registerTileable(N, *P.Tiled, P.Registers)) {
      P.RegisterTile = RegisterTilePlan{
          M.Levels[0].Dop.N, M.Levels[1].Dop.N, R->Accumulators,  R->Registers,
          R->VectorWidth,    R->Factor,         R->ScaledProducts};
      // Iterations of the loop per tile: each a fragment per tile read.
      P.Tiled->Width = map::RegisterTileWidth;
    }
  P.Shape.RegisterTiled = P.RegisterTile.has_value();
  // Where the mapping gives the level one iteration a thread and no
  // span(n) clause fixes it.
  if (P.Tiled && P.Tiled->WholeBlock &&
      M.Levels[P.Tiled->Inner->Depth].Dop.Kind == map::Parallelism::Span &&
      M.Levels[P.Tiled->Inner->Depth].Dop.N <= 1 &&
      P.Tiled->Inner->Forced.Span < 0)
    P.Coarsened = ir::coarsenable(
        *P.Tiled, std::any_of(P.Registers.begin(), P.Registers.end(),
                              [&](const ir::ReplacedElement &E) {
                                return E.Loop == P.Tiled->Loop;
                              }));
  if (P.Shape.SplitInner)
    P.SplitLevel = P.firstAtDepth(1);
}

/// How the outermost level's iterations are walked.
OuterWalk outerWalk(const KernelPlan &P, const map::NestMapping &M) {
  const map::LevelMapping &Root = M.Levels.front();
  if (P.RegisterTile)
    return OuterWalk::RegisterTiles;
  if (P.Tiled || P.Shape.UniformOuter)
    return OuterWalk::Uniform;
  if (Root.Dop.Kind == map::Parallelism::SpanAll)
    return OuterWalk::BlockStride;
  if (Root.Dim == map::Dimension::X)
    return OuterWalk::GlobalX;
  return OuterWalk::Grid;
}

/// The loops unrolled by their steps, those counted from zero, and the
/// slices held in registers.
void planUnrolling(KernelPlan &P, const ir::Nest &N) {
  P.UnrolledSteps = ir::unrolledSteps(N);
  P.CountedFromZero = ir::constantCountLoops(N, N.Root.Body, P.UnrolledSteps);
  for (SlicePlan &S : P.Slices)
    if (std::optional<ir::SliceUnrolling> U = ir::registerSlice(N, S.Slice)) {
      S.Registers = true;
      S.Apart = U->Apart;
      for (const auto &[Loop, Steps] : U->Steps) {
        P.UnrolledSteps[Loop] = Steps;
        P.SliceLoops.insert(Loop);
      }
      for (const ir::Stmt *Loop : U->Counted) {
        P.CountedFromZero.insert(Loop);
        P.SliceLoops.insert(Loop);
      }
    }
}

/// The tiles' shared arrays.
void declareTiles(KernelPlan &P, const ir::Nest &N) {
  if (P.Tiled)
    for (std::size_t T = 0; T < P.Tiled->Tiles.size(); ++T) {
      const memory::Tile &Tile = P.Tiled->Tiles[T];
      if (Tile.holder(T) != T)
        continue; // its elements lie in its record's array
      const ir::Param &Param = N.Params[Tile.Param];
      const unsigned Pair = P.Tiled->Outer ? P.Tiled->Outer->Depth : 0;
      const std::string Outer = AxisMacro[P.Shape.Depths[Pair].Axis],
                        Inner = P.Tiled->WholeBlock
                                    ? ""
                                    : AxisMacro[P.Shape.Depths[Pair + 1].Axis];
      // A register tile's are [WEFT_TILE][its block tile + 4]: fragments
      // of 4 in a row stay 16-byte aligned.
      const std::string Count =
          P.Tiled->WholeBlock
              ? "(WEFT_STAGING ? WEFT_TILE" +
                    (Tile.RecordWidth > 1
                         ? " * " + std::to_string(Tile.RecordWidth)
                         : std::string()) +
                    " : 1)"
          : P.RegisterTile
              ? (Tile.AlongOuter ? "2 * WEFT_TILE * (WEFT_BM + 4)"
                                 : "2 * WEFT_TILE * (WEFT_BN + 4)")
              : "(WEFT_STAGING ? " +
                    (Tile.AlongOuter ? Outer + " * (WEFT_TILE + 1)"
                                     : "WEFT_TILE * (" + Inner + " + 1)") +
                    " : 1)";
      P.Shared.push_back({ir::typeName(N, Param.Element, Param.Struct), Count,
                          "weft_tile" + std::to_string(T),
                          tileBytes(P, Tile, ir::elementBytes(N, Param))});
    }
}

/// The shared arrays of the outermost level's reductions, the slices and
/// the resident blocks.
void declareOuterArrays(KernelPlan &P, const ir::Nest &N) {
  for (std::size_t I = 0; I < N.Root.Reductions.size(); ++I) {
    P.OuterScratch.push_back("weft_partial_scratch" + std::to_string(I));
    const ir::ScalarKind Type = N.Root.Reductions[I].Type;
    P.Shared.push_back({ir::spelling(Type), "WEFT_BLOCK_THREADS",
                        P.OuterScratch.back(),
                        threadsBytes(P, ir::byteSize(Type))});
  }
  for (std::size_t I = 0; I < P.Slices.size(); ++I) {
    const ir::Param &Param = N.Params[P.Slices[I].Slice.Param];
    // A slice in registers takes no shared memory (its one-element array
    // unused): the bytes times 1 - WEFT_UNROLL_STEPS.
    const std::string Count =
        "WEFT_SLICE" + std::to_string(I) + " * WEFT_BLOCK_THREADS";
    const bool Registers = P.Slices[I].Registers;
    P.Shared.push_back(
        {ir::typeName(N, Param.Element, Param.Struct),
         Registers ? "(WEFT_UNROLL_STEPS ? 1 : " + Count + ")" : Count,
         "weft_slice" + std::to_string(I) + "_buffer",
         Registers ? mul(BoundExpr::binary(
                             BoundExpr::Sub, BoundExpr::literal(1),
                             macroBound(P.Tune, "WEFT_UNROLL_STEPS", 1)),
                         sliceBytes(P, P.Slices[I]))
                   : sliceBytes(P, P.Slices[I])});
  }
  for (std::size_t I = 0; I < P.Residents.size(); ++I) {
    const ir::Param &Param = N.Params[P.Residents[I].Block.Param];
    P.Shared.push_back({ir::typeName(N, Param.Element, Param.Struct),
                        "WEFT_RESIDENT" + std::to_string(I),
                        "weft_resident" + std::to_string(I) + "_buffer",
                        BoundExpr::literal(P.Residents[I].Capacity *
                                           ir::elementBytes(N, Param))});
  }
}

void sumSharedBytes(KernelPlan &P) {
  // The configurations' shared memory, for the runtime to check: each
  // array 16-byte aligned (weft::shared_array), so taking a multiple of 16.
  if (!P.Tune.Params.empty() && !P.Shared.empty()) {
    auto Aligned = [](BoundExpr Bytes) {
      return mul(BoundExpr::binary(BoundExpr::Div, add(std::move(Bytes), 15),
                                   BoundExpr::literal(16)),
                 BoundExpr::literal(16));
    };
    BoundExpr Sum = Aligned(P.Shared.front().Bytes);
    for (std::size_t I = 1; I < P.Shared.size(); ++I)
      Sum = BoundExpr::binary(BoundExpr::Add, std::move(Sum),
                              Aligned(P.Shared[I].Bytes));
    P.Tune.SharedBytes = std::move(Sum);
  }
}

void planCoverage(KernelPlan &P, const ir::Nest &N) {
  // Written spans the runtime need not copy in when a grid claim holds.
  P.Coverage.resize(N.Params.size());
  for (std::size_t I = 0; I < N.Params.size(); ++I)
    if (P.Transfers[I] == memory::Transfer::InOut &&
        N.Params[I].Kind == ir::ParamKind::WriteSpan)
      P.Coverage[I] =
          memory::writesEveryElementOfGrid(N, static_cast<unsigned>(I));
}

} // namespace

std::optional<KernelPlan>
planKernel(const ir::Nest &N, const map::NestMapping &M, std::string &Error) {
  std::optional<KernelShape> Shape = ShapeRules(N).shape(M.Levels);
  if (!Shape) {
    Error = "weft cannot generate a kernel for this mapping";
    for (std::size_t D = 0; D < M.Levels.size(); ++D)
      Error += std::string(D ? "; " : " (") + "level " + std::to_string(D) +
               ": " + map::describe(M.Levels[D]);
    Error += ")";
    return std::nullopt;
  }
  KernelPlan P;
  P.Nest = &N;
  P.Mapping = M;
  P.Shape = *Shape;
  P.Transfers = memory::planTransfers(N);
  planMemory(P, N, M);
  planRegisters(P, N, M);
  P.Outer = outerWalk(P, M);
  planSlices(P);
  planResidents(P);
  planUnrolling(P, N);
  // The tuning space first: the shared arrays' sizes are bounds over it.
  P.Tune = tuningSpace(P);
  declareTiles(P, N);
  P.Levels[&N.Root].Axis = P.Shape.Depths[0].Axis;
  LevelPlanner(P).body(N.Root.Body);
  declareOuterArrays(P, N);
  sumSharedBytes(P);
  planCoverage(P, N);
  return P;
}

} // namespace weft::plan
