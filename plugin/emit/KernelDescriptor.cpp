// KernelDescriptor.cpp: the descriptor a kernel is launched by, from its
// plan: parameters and how they move, the claims the runtime checks, the
// outermost range and the grid, reductions, the combining kernel, the
// tuning space and the per-thread buffers.
#include "emit/KernelParts.h"
#include "ir/HostBound.h"

namespace weft::emit {
namespace {

/// A level's bounds as the runtime evaluates them; the recognizer accepts
/// only host-evaluable bounds where the runtime needs them.
contract::LevelInfo levelBounds(const ir::Level &L) {
  contract::LevelInfo B;
  B.Lower = ir::hostBound(*L.Lower).value_or(contract::BoundExpr());
  B.Upper = ir::hostBound(*L.Upper).value_or(contract::BoundExpr());
  B.Step = L.Step;
  B.Inclusive = L.Inclusive;
  return B;
}

contract::Degree degreeOf(const map::Parallelism &P) {
  switch (P.Kind) {
  case map::Parallelism::Span:
    return contract::Degree::Span;
  case map::Parallelism::SpanAll:
    return contract::Degree::All;
  case map::Parallelism::Split:
    break;
  }
  return contract::Degree::Split;
}

} // namespace

contract::KernelInfo kernelDescriptor(const plan::KernelPlan &P,
                                      const std::string &Name) {
  const ir::Nest &N = *P.Nest;
  contract::KernelInfo D;
  D.Name = Name;
  D.Location = N.Location;
  D.Function = N.FunctionName;
  for (std::size_t I = 0; I < N.Params.size(); ++I) {
    const ir::Param &Param = N.Params[I];
    contract::ParamInfo Info;
    Info.Kind = memory::descriptorKind(P.Transfers[I]);
    Info.Name = Param.Name;
    Info.RowsApart = Param.RowsApart;
    Info.Kept = P.keeps(static_cast<unsigned>(I));
    Info.Apart = N.TakenApart.count(static_cast<unsigned>(I)) > 0;
    Info.OneLength = N.UniformRows && Param.CommonRowLengthOf >= 0;
    for (std::size_t J = 0; J < N.Params.size(); ++J)
      if (N.Params[J].RowOffsetsOf == static_cast<int>(I))
        Info.RowOffsets = static_cast<int>(J);
    if (Param.Struct >= 0) {
      Info.Type = contract::ScalarType::Bytes;
      Info.Bytes = N.Structs[Param.Struct].Size;
    } else {
      Info.Type = ir::descriptorType(Param.Element);
      Info.Bytes = ir::byteSize(Param.Element);
    }
    if (const std::optional<memory::GridCoverage> &G = P.Coverage[I];
        G && !Param.RowsApart) {
      std::optional<contract::BoundExpr> Cols = ir::hostBound(*G->Cols),
                                         Stride = ir::hostBound(*G->Stride);
      if (Cols && Stride) {
        Info.CoverCols = std::move(Cols);
        Info.CoverStride = std::move(Stride);
      }
    }
    if (Param.Subscripts) {
      Info.LowestIndex = Param.Subscripts->Lowest;
      Info.HighestIndex = Param.Subscripts->Highest;
    }
    if (Param.RowSubscripts && Param.ColumnSubscripts)
      for (std::size_t C = 0; C < N.Params.size(); ++C)
        if (N.Params[C].StatedRowLengthOf == static_cast<int>(I))
          Info.Gathered = contract::ParamInfo::InferredRows{
              Param.RowSubscripts->Lowest, Param.RowSubscripts->Highest,
              Param.ColumnSubscripts->Lowest, Param.ColumnSubscripts->Highest,
              static_cast<unsigned>(C)};
    D.Params.push_back(std::move(Info));
  }
  D.Levels.push_back(levelBounds(N.Root));
  // The grid: one dimension per depth a level is spread over.
  for (std::size_t Depth = 0; Depth < P.Mapping.Levels.size(); ++Depth) {
    const map::LevelMapping &LM = P.Mapping.Levels[Depth];
    if (LM.sequential())
      continue;
    contract::DimensionInfo Dim;
    Dim.Depth = static_cast<unsigned>(Depth);
    Dim.Axis = P.Shape.Depths[Depth].Axis;
    Dim.Block = LM.BlockSize;
    Dim.Kind = degreeOf(LM.Dop);
    Dim.N = LM.Dop.N;
    if (Dim.hasBounds())
      Dim.Bounds = levelBounds(*P.firstAtDepth(Dim.Depth));
    D.Dimensions.push_back(std::move(Dim));
  }
  for (const ir::Reduction &R : N.Root.Reductions)
    D.Reductions.push_back({static_cast<unsigned>(R.ParamIndex), R.Op});
  // The combining kernel (its block size), and the bytes of each split
  // reduction's partials.
  if (P.SplitLevel) {
    D.Combine.Name = Name + "_combine";
    D.Combine.Block = CombineBlock;
    for (const ir::Reduction &R : P.SplitLevel->Reductions)
      D.Combine.PartialBytes.push_back(ir::byteSize(R.Type));
  }
  D.Tune = P.Tune;
  // Per-iteration arrays: bytes per element, and elements per thread.
  for (const plan::ThreadBuffer &B : P.Buffers)
    D.Buffers.push_back({B.ElementBytes, *ir::hostBound(*B.Extent)});
  return D;
}

} // namespace weft::emit
