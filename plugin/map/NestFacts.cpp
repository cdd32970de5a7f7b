// NestFacts.cpp: a nest's facts for the mapping search: the extents the
// host knows, bounds, or assumes (an extent known only inside the kernel is
// bounded, never guessed at a block's size), and the accesses' strides.
#include "map/NestFacts.h"

#include "analysis/RegisterTile.h"
#include "analysis/ScalarReplacement.h"
#include "ir/HostBound.h"
#include "ir/IndexRange.h"
#include "ir/IrQueries.h"

#include <algorithm>
#include <cmath>

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

} // namespace

NestFacts gatherFacts(const ir::Nest &N, const MappingInput &In) {
  NestFacts Facts;
  if (In.Buildable) {
    Facts.Tileable = ir::findTileableLoop(N);
    Facts.RegisterTileable =
        Facts.Tileable &&
        ir::registerTileable(N, *Facts.Tileable, ir::planScalarReplacement(N));
  }
  for (const ir::Access &A : N.Accesses)
    if (A.Combined)
      Facts.ShallowestCombine = std::min(Facts.ShallowestCombine, A.Depth);
  std::map<std::string, unsigned> IndexDepth;
  // Per depth and index (sibling levels of one name say it once), the
  // most iterations their bounds allow.
  std::map<std::pair<unsigned, std::string>, std::int64_t> Bounded;
  for (const ir::Level *L : ir::levels(N)) {
    if (Facts.Depths.size() <= L->Depth)
      Facts.Depths.resize(L->Depth + 1);
    DepthInfo &D = Facts.Depths[L->Depth];
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
      const bool KernelOnly =
          L->Depth > 0 &&
          (!ir::isHostEvaluable(*L->Lower) || !ir::isHostEvaluable(*L->Upper));
      if (KernelOnly)
        Extent = Hi && !Lo ? std::max<std::int64_t>(*Hi, 1)
                           : std::int64_t(In.Device.WarpSize);
      // Sibling levels of one name (a sequential loop's) say it once.
      std::string Assumed =
          "the extent of level " + std::to_string(L->Depth) + " (" +
          ir::shownIndex(*L) + ") is assumed to be " + std::to_string(Extent) +
          (KernelOnly ? Hi && !Lo ? " (at most its upper bound)"
                                  : " (a warp: it is known only "
                                    "inside the kernel)"
                      : "");
      if (std::find(Facts.Assumptions.begin(), Facts.Assumptions.end(),
                    Assumed) == Facts.Assumptions.end())
        Facts.Assumptions.push_back(std::move(Assumed));
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
      std::string Name = std::string("reduction(") + ir::spelling(R.Op) + ": " +
                         (R.Element.empty() ? R.Variable : R.Element) + ")";
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
    Facts.Assumptions.push_back(
        "the extent of level " + std::to_string(Level.first) + " (" +
        Level.second + ") is at most " + std::to_string(Most) +
        " (its bounds over the loops around)");
  double F = 1;
  for (DepthInfo &D : Facts.Depths) {
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
        Facts.Depths[std::min<std::size_t>(A.Depth, Facts.Depths.size() - 1)]
            .Frequency *
        std::pow(0.5, A.Branches);
    Facts.Accesses.push_back(I);
  }
  return Facts;
}

} // namespace weft::map
