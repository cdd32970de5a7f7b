// TuningSpace.cpp: the parameters each kernel shape can vary without
// changing what it computes.
#include "plan/TuningSpace.h"

#include "plan/KernelPlan.h"

#include <algorithm>

namespace weft::plan {
namespace {

const char *const BlockMacro[3] = {"WEFT_BLOCK_X", "WEFT_BLOCK_Y",
                                   "WEFT_BLOCK_Z"};
/// Threads a block may have along each axis (CUDA's and HIP's limits).
constexpr unsigned MaxBlock[3] = {1024, 1024, 64};

/// Mapped first, then the other candidates within [Lo, Hi] in order.
std::vector<unsigned> valuesAround(unsigned Mapped,
                                   std::initializer_list<unsigned> Candidates,
                                   unsigned Lo, unsigned Hi) {
  std::vector<unsigned> Values{Mapped};
  for (unsigned C : Candidates)
    if (C >= Lo && C <= Hi &&
        std::find(Values.begin(), Values.end(), C) == Values.end())
      Values.push_back(C);
  std::sort(Values.begin() + 1, Values.end());
  return Values;
}

/// What the program's clauses force at some level of each depth.
std::vector<ir::MappingClauses> forcedPerDepth(const ir::Nest &N) {
  std::vector<ir::MappingClauses> Out;
  for (const ir::Level *L : ir::levels(N)) {
    if (Out.size() <= L->Depth)
      Out.resize(L->Depth + 1);
    ir::MappingClauses &F = Out[L->Depth];
    F.Block = std::max(F.Block, L->Forced.Block);
    F.Span = std::max(F.Span, L->Forced.Span);
    F.Split = std::max(F.Split, L->Forced.Split);
  }
  return Out;
}

/// A block size along this axis changes nothing but the grid's shape:
/// no depth on it is one warp's group or combines among several groups
/// of one block (those fix its threads), and no block(N) clause fixes it.
bool blockTunable(const KernelPlan &P,
                  const std::vector<ir::MappingClauses> &Forced, int Axis) {
  // (Blocks that walk the outermost level together for windows along its
  // rows take any shape: the windows follow the block's macros.)
  if (P.Shape.UniformOuter && !P.Tiled && !P.RegisterTile &&
      !P.windowsFollowRows())
    return false;
  for (std::size_t D = 0; D < P.Shape.Depths.size(); ++D) {
    const DepthShape &S = P.Shape.Depths[D];
    if (S.Axis == Axis &&
        (S.OneWarp || S.How == Combine::Warp || S.How == Combine::Axis ||
         (D < Forced.size() && Forced[D].Block)))
      return false;
  }
  return true;
}

/// Some reduction of the nest combines floating-point values by + or *:
/// another grouping of its iterations gives other bits.
bool reordersFloatingPoint(const KernelPlan &P) {
  for (const ir::Level *L : ir::levels(*P.Nest))
    for (const ir::Reduction &R : L->Reductions)
      if (ir::isFloating(R.Type) &&
          contract::reduceKind(R.Op) == contract::ReduceKind::Arithmetic)
        return true;
  return false;
}

} // namespace

contract::TuneInfo tuningSpace(const KernelPlan &P) {
  contract::TuneInfo T;
  T.Reorders = reordersFloatingPoint(P);
  const std::vector<ir::MappingClauses> Forced = forcedPerDepth(*P.Nest);
  for (int A = 0; A < 3; ++A) {
    const unsigned B = P.Shape.Block[A];
    if (B <= 1 || !blockTunable(P, Forced, A))
      continue;
    // Along x whole warps (a register tile's threads read by their linear
    // index, so any multiple of 4 does).
    const unsigned Lo = P.RegisterTile ? 4 : A == 0 ? 32 : 1;
    // A sequential nest's one block: its inner loops are often short
    // (a block's columns), and each barrier waits for all its warps.
    // Blocks down to an eighth: a small grid fills the device with them
    // (tune/StartConfiguration.h).
    std::vector<unsigned> Values =
        P.RegisterTile ? valuesAround(B, {B / 2, B * 2}, Lo, MaxBlock[A])
        : P.Nest->Sequential
            ? valuesAround(B, {32, 64, 128, 256, 512, 1024}, Lo, MaxBlock[A])
            : valuesAround(B, {B / 8, B / 4, B / 2, B * 2, B * 4}, Lo,
                           MaxBlock[A]);
    if (Values.size() > 1)
      T.Params.push_back(
          {BlockMacro[A], contract::TuneRole::Block, A, std::move(Values)});
  }
  // span(n) clauses fix a register tile's shape.
  auto SpanFree = [&](unsigned Depth) {
    return Depth >= Forced.size() || Forced[Depth].Span < 0;
  };
  if (P.RegisterTile && SpanFree(0))
    T.Params.push_back({"WEFT_TM", contract::TuneRole::SpanN, 0,
                        valuesAround(P.RegisterTile->TM, {2, 4, 8}, 1, 16)});
  if (P.RegisterTile && SpanFree(1))
    T.Params.push_back({"WEFT_TN", contract::TuneRole::SpanN, 1,
                        valuesAround(P.RegisterTile->TN, {2, 4, 8}, 1, 16)});
  // k of an inner Split(k): blocks per outermost iteration, each leaving a
  // partial for the combining kernel, which reads how many from its launch.
  for (std::size_t D = 1; D < P.Mapping.Levels.size(); ++D) {
    const map::Parallelism &Dop = P.Mapping.Levels[D].Dop;
    if (Dop.Kind == map::Parallelism::Split &&
        (D >= Forced.size() || !Forced[D].Split))
      T.Params.push_back(
          {"WEFT_SPLIT" + std::to_string(D), contract::TuneRole::SplitK,
           static_cast<int>(D),
           valuesAround(Dop.N, {Dop.N / 2, Dop.N * 2, Dop.N * 4}, 2, 256)});
  }
  if (P.Tiled)
    T.Params.push_back(
        {"WEFT_TILE", contract::TuneRole::Text, 0,
         P.RegisterTile ? valuesAround(P.Tiled->Width, {8, 16, 32}, 1, 64)
         : P.Tiled->WholeBlock
             ? valuesAround(P.Tiled->Width, {64, 128, 256, 512}, 1, 1024)
             : valuesAround(P.Tiled->Width, {16, 32, 64}, 1, 128)});
  if (P.Coarsened)
    T.Params.push_back({"WEFT_CM", contract::TuneRole::SpanN,
                        static_cast<int>(P.Tiled->Inner->Depth),
                        valuesAround(1, {2, 4}, 1, 4)});
  if (P.Window && SpanFree(P.Window->Tile.Rows->Depth))
    T.Params.push_back({"WEFT_RM", contract::TuneRole::SpanN,
                        static_cast<int>(P.Window->Tile.Rows->Depth),
                        valuesAround(P.Window->Rows, {1, 2, 8}, 1, 8)});
  if (!P.RegisterTile && (P.Tiled || !P.Stages.empty() || !P.Slices.empty() ||
                          !P.Residents.empty()))
    T.Params.push_back({"WEFT_STAGING", contract::TuneRole::Text, 0, {1, 0}});
  if (!P.UnrolledSteps.empty())
    T.Params.push_back(
        {"WEFT_UNROLL_STEPS", contract::TuneRole::Text, 0, {1, 0}});
  // Off unless the tuner finds them faster (they were not on an H200).
  if (!P.Stages.empty())
    T.Params.push_back(
        {"WEFT_STAGED_RANGES", contract::TuneRole::Text, 0, {0, 1}});
  return T;
}

contract::BoundExpr macroBound(const contract::TuneInfo &T,
                               const std::string &Macro, unsigned Mapped) {
  for (std::size_t I = 0; I < T.Params.size(); ++I)
    if (T.Params[I].Macro == Macro)
      return contract::BoundExpr::tune(static_cast<unsigned>(I));
  return contract::BoundExpr::literal(Mapped);
}

} // namespace weft::plan
