// MappingChoice.cpp: the nearest scenario to a launch's sizes.
#include "policy/MappingChoice.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace weft::rt {

unsigned chooseMapping(const KernelInfo &First, const detail::LaunchArg *Args,
                       std::size_t NumArgs, std::vector<std::int64_t> &Sizes) {
  const ChoiceInfo &C = First.Choice;
  Sizes.clear();
  if (C.Scenarios.empty())
    return 0;
  std::vector<double> Logs;
  for (const BoundExpr &E : C.Vary) {
    std::int64_t V = 0;
    std::string Error;
    if (!evaluateBound(E, First, Args, NumArgs, V, Error))
      return 0;
    Sizes.push_back(V);
    Logs.push_back(
        std::log2(static_cast<double>(std::max<std::int64_t>(V, 1))));
  }
  unsigned Best = 0;
  double BestDistance = std::numeric_limits<double>::infinity();
  for (const ChoiceInfo::Scenario &S : C.Scenarios) {
    double Distance = 0;
    for (std::size_t I = 0; I < Logs.size(); ++I) {
      const double D = Logs[I] - std::log2(static_cast<double>(S.Values[I]));
      Distance += D * D;
    }
    if (Distance < BestDistance) {
      BestDistance = Distance;
      Best = S.Mapping;
    }
  }
  return Best;
}

} // namespace weft::rt
