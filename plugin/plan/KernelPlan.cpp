// KernelPlan.cpp: one mapping's kernel planned: its shape, memory plans,
// shared arrays, per-thread buffers, tuning space and coverage claims.
#include "plan/KernelPlan.h"

#include <algorithm>

namespace weft::plan {
namespace {

const char *const AxisMacro[3] = {"WEFT_BLOCK_X", "WEFT_BLOCK_Y",
                                  "WEFT_BLOCK_Z"};

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
    for (const ir::StmtPtr &S : Body)
      if (S)
        stmt(*S);
  }

private:
  void stmt(const ir::Stmt &S) {
    if (S.Kind == ir::Stmt::Decl && S.ArrayExtent &&
        S.ArrayExtent->Kind != ir::Expr::IntLiteral)
      P.Buffers.push_back({&S, typeOf(N, S.VarType), bytesOf(N, S.VarType),
                           S.ArrayExtent.get()});
    if (S.Kind == ir::Stmt::ParallelFor) {
      level(*S.Nested);
      return;
    }
    for (const ir::StmtPtr &C : S.Children)
      if (C)
        stmt(*C);
  }

  void level(const ir::Level &L) {
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
      P.Shared.push_back({ir::typeName(N, Param.Element, Param.Struct),
                          "WEFT_STAGE" + std::to_string(I),
                          "weft_stage" + std::to_string(I) + "_buffer"});
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
      P.Shared.push_back(
          {ir::spelling(R.Type), "WEFT_BLOCK_THREADS", LP.Scratch.back()});
    }
    // The next iteration's staging must not overwrite what slower threads
    // still read; what the group's threads wrote, the code after may read
    // (a reduction's combining waits for them already).
    if (!LP.Stages.empty())
      LP.After = Sync::Barrier;
    else if (L.Reductions.empty())
      LP.After = Depth.WholeBlock ? Sync::Barrier
                 : Depth.OneWarp  ? Sync::Warp
                                  : Sync::None;
  }

  KernelPlan &P;
  const ir::Nest &N;
  unsigned Scratches = 0;
};

/// Block sizes the runtime may try instead, as the program runs: for a
/// kernel whose threads spread along one axis and combine nothing (so any
/// block gives the same result bit for bit, and every barrier still spans
/// the level's whole group).
contract::TuneInfo tuneSpace(const KernelPlan &P) {
  contract::TuneInfo T;
  bool Reduces = P.SplitLevel != nullptr;
  for (const ir::Level *L : ir::levels(*P.Nest))
    Reduces = Reduces || !L->Reductions.empty();
  int Axis = -1;
  unsigned Spread = 0;
  for (int A = 0; A < 3; ++A)
    if (P.Shape.Block[A] > 1) {
      ++Spread;
      Axis = A;
    }
  if (Reduces || Spread != 1 || P.Tiled)
    return T;
  T.Axis = Axis;
  const unsigned B = P.Shape.Block[Axis];
  for (unsigned Candidate : {B / 2, B, B * 2})
    if (Candidate >= 32 && Candidate <= 1024)
      T.Blocks.push_back(Candidate);
  return T;
}

} // namespace

const ir::Level *KernelPlan::firstAtDepth(unsigned Depth) const {
  for (const ir::Level *L : ir::levels(*Nest))
    if (L->Depth == Depth)
      return L;
  return nullptr;
}

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
  // Tiles where threads share what a loop reads; else whole ranges.
  P.Tiled = memory::planTiling(N, M);
  if (!P.Tiled)
    P.Stages = memory::planStaging(N, M);
  for (const memory::Stage &S : P.Stages) {
    const ir::Param &Param = N.Params[S.Param];
    const unsigned Bytes = Param.Struct >= 0 ? N.Structs[Param.Struct].Size
                                             : ir::byteSize(Param.Element);
    P.StageCapacity.push_back(24 * 1024 / P.Stages.size() /
                              std::max(1u, Bytes));
  }
  P.Registers = ir::planScalarReplacement(N);
  if (P.Shape.RegisterTiled && P.Tiled)
    if (std::optional<ir::RegisterTileable> R =
            ir::registerTileable(N, *P.Tiled, P.Registers)) {
      P.RegisterTile = RegisterTilePlan{M.Levels[0].Dop.N, M.Levels[1].Dop.N,
                                        R->Accumulators, R->Registers};
      // Iterations of the loop per tile: each a fragment per tile read.
      P.Tiled->Width = map::RegisterTileWidth;
    }
  P.Shape.RegisterTiled = P.RegisterTile.has_value();
  if (P.Shape.SplitInner)
    P.SplitLevel = P.firstAtDepth(1);

  const map::LevelMapping &Root = M.Levels.front();
  if (P.RegisterTile)
    P.Outer = OuterWalk::RegisterTiles;
  else if (P.Tiled || P.Shape.UniformOuter)
    P.Outer = OuterWalk::Uniform;
  else if (Root.Dop.Kind == map::Parallelism::SpanAll)
    P.Outer = OuterWalk::BlockStride;
  else if (Root.Dim == map::Dimension::X)
    P.Outer = OuterWalk::GlobalX;
  else
    P.Outer = OuterWalk::Grid;

  if (P.Tiled)
    for (std::size_t T = 0; T < P.Tiled->Tiles.size(); ++T) {
      const memory::Tile &Tile = P.Tiled->Tiles[T];
      const ir::Param &Param = N.Params[Tile.Param];
      const std::string Outer = AxisMacro[P.Shape.Depths[0].Axis],
                        Inner = AxisMacro[P.Shape.Depths[1].Axis];
      // A register tile's are [WEFT_TILE][its block tile + 4]: fragments
      // of 4 in a row stay 16-byte aligned.
      const std::string Count =
          P.RegisterTile
              ? (Tile.AlongOuter ? "WEFT_TILE * (WEFT_BM + 4)"
                                 : "WEFT_TILE * (WEFT_BN + 4)")
              : "(WEFT_STAGING ? " +
                    (Tile.AlongOuter ? Outer + " * (WEFT_TILE + 1)"
                                     : "WEFT_TILE * (" + Inner + " + 1)") +
                    " : 1)";
      P.Shared.push_back({ir::typeName(N, Param.Element, Param.Struct), Count,
                          "weft_tile" + std::to_string(T)});
    }
  P.Levels[&N.Root].Axis = P.Shape.Depths[0].Axis;
  LevelPlanner(P).body(N.Root.Body);
  for (std::size_t I = 0; I < N.Root.Reductions.size(); ++I) {
    P.OuterScratch.push_back("weft_partial_scratch" + std::to_string(I));
    P.Shared.push_back({ir::spelling(N.Root.Reductions[I].Type),
                        "WEFT_BLOCK_THREADS", P.OuterScratch.back()});
  }

  P.Tune = tuneSpace(P);
  // Written spans the runtime need not copy in when a grid claim holds.
  P.Coverage.resize(N.Params.size());
  for (std::size_t I = 0; I < N.Params.size(); ++I)
    if (P.Transfers[I] == memory::Transfer::InOut &&
        N.Params[I].Kind == ir::ParamKind::WriteSpan)
      P.Coverage[I] =
          memory::writesEveryElementOfGrid(N, static_cast<unsigned>(I));
  return P;
}

} // namespace weft::plan
