// DescriptorWriter.cpp: a descriptor's text form, line by line in the order
// Descriptor.h lists them.
#include "contract/Descriptor.h"

namespace weft::contract {
namespace {

std::string bounds(const LevelInfo &L) {
  return writeBound(L.Lower) + " " + writeBound(L.Upper) + " " +
         std::to_string(L.Step) + (L.Inclusive ? " le" : " lt");
}

} // namespace

std::string writeDescriptor(const KernelInfo &K) {
  std::string D = "weft " + std::to_string(DescriptorVersion) + "\n";
  D += "kernel " + K.Name + "\nloc " + K.Location + "\n";
  for (const ParamInfo &P : K.Params)
    D += std::string("param ") + paramWord(P.Kind) + " " +
         typeWord(P.Type, P.Bytes) + " " + P.Name + "\n";
  for (std::size_t I = 0; I < K.Params.size(); ++I)
    if (K.Params[I].RowsApart)
      D += "rows " + std::to_string(I) +
           (K.Params[I].RowOffsets >= 0
                ? " " + std::to_string(K.Params[I].RowOffsets)
                : std::string()) +
           "\n";
  for (const auto &[Key, Flag] : {std::pair{"keeps ", &ParamInfo::Kept},
                                  {"apart ", &ParamInfo::Apart},
                                  {"uniform ", &ParamInfo::OneLength}})
    for (std::size_t I = 0; I < K.Params.size(); ++I)
      if (K.Params[I].*Flag)
        D += Key + std::to_string(I) + "\n";
  for (std::size_t I = 0; I < K.Params.size(); ++I)
    if (K.Params[I].CoverCols && K.Params[I].CoverStride)
      D += "covers " + std::to_string(I) + " " +
           writeBound(*K.Params[I].CoverCols) + " " +
           writeBound(*K.Params[I].CoverStride) + "\n";
  for (std::size_t I = 0; I < K.Params.size(); ++I)
    if (K.Params[I].LowestIndex && K.Params[I].HighestIndex)
      D += "extent " + std::to_string(I) + " " +
           writeBound(*K.Params[I].LowestIndex) + " " +
           writeBound(*K.Params[I].HighestIndex) + "\n";
  for (std::size_t I = 0; I < K.Params.size(); ++I)
    if (const auto &G = K.Params[I].Gathered)
      D += "gather " + std::to_string(I) + " " + std::to_string(G->Columns) +
           " " + writeBound(G->LowestRow) + " " + writeBound(G->HighestRow) +
           " " + writeBound(G->LowestColumn) + " " +
           writeBound(G->HighestColumn) + "\n";
  for (const LevelInfo &L : K.Levels)
    D += "level " + bounds(L) + "\n";
  for (const DimensionInfo &Dim : K.Dimensions) {
    D += "map " + std::to_string(Dim.Depth) + " " + axisLetter(Dim.Axis) + " " +
         std::to_string(Dim.Block) + " " + degreeWord(Dim.Kind) + " " +
         std::to_string(Dim.N);
    if (Dim.hasBounds())
      D += " " + bounds(Dim.Bounds);
    D += "\n";
  }
  for (const ReductionInfo &R : K.Reductions)
    D += "reduce " + std::to_string(R.Param) + " " + reduceWord(R.Op) + "\n";
  if (!K.Combine.Name.empty())
    D += "combine " + K.Combine.Name + " " + std::to_string(K.Combine.Block) +
         "\n";
  for (std::size_t Bytes : K.Combine.PartialBytes)
    D += "split " + std::to_string(Bytes) + "\n";
  for (const TuneParam &P : K.Tune.Params) {
    D += "tune " + P.Macro + " " + tuneRoleWord(P.Role, P.Target);
    for (unsigned V : P.Values)
      D += " " + std::to_string(V);
    D += "\n";
  }
  if (K.Tune.SharedBytes)
    D += "shared " + writeBound(*K.Tune.SharedBytes) + "\n";
  if (K.Tune.Reorders)
    D += "reorders\n";
  for (const BufferInfo &B : K.Buffers)
    D += "buffer " + std::to_string(B.ElementBytes) + " " +
         writeBound(B.Extent) + "\n";
  if (K.TextLength)
    D += "text " + std::to_string(K.TextOffset) + " " +
         std::to_string(K.TextLength) + "\n";
  for (const BoundExpr &V : K.Choice.Vary)
    D += "vary " + writeBound(V) + "\n";
  for (const ChoiceInfo::Scenario &S : K.Choice.Scenarios) {
    D += "scenario " + std::to_string(S.Mapping);
    for (std::int64_t V : S.Values)
      D += " " + std::to_string(V);
    D += "\n";
  }
  return D;
}

std::string writeDescriptors(const std::vector<KernelInfo> &Kernels) {
  std::string D;
  for (std::size_t I = 0; I < Kernels.size(); ++I)
    D += (I ? "alternative\n" : "") + writeDescriptor(Kernels[I]);
  return D;
}

} // namespace weft::contract
