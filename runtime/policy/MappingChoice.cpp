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

std::vector<unsigned> rankMappings(const KernelInfo &First,
                                   const std::vector<std::int64_t> &Sizes,
                                   unsigned Mapped, std::size_t Mappings) {
  std::vector<double> Nearest(Mappings,
                              std::numeric_limits<double>::infinity());
  const ChoiceInfo &C = First.Choice;
  for (const ChoiceInfo::Scenario &S : C.Scenarios) {
    if (S.Mapping >= Mappings || S.Values.size() != Sizes.size())
      continue;
    double Distance = 0;
    for (std::size_t I = 0; I < Sizes.size(); ++I) {
      const double D =
          std::log2(static_cast<double>(std::max<std::int64_t>(Sizes[I], 1))) -
          std::log2(static_cast<double>(S.Values[I]));
      Distance += D * D;
    }
    Nearest[S.Mapping] = std::min(Nearest[S.Mapping], Distance);
  }
  std::vector<unsigned> Order;
  for (unsigned M = 0; M < Mappings; ++M)
    if (M != Mapped)
      Order.push_back(M);
  std::stable_sort(Order.begin(), Order.end(), [&](unsigned A, unsigned B) {
    return Nearest[A] < Nearest[B];
  });
  if (Mapped < Mappings)
    Order.insert(Order.begin(), Mapped);
  return Order;
}

} // namespace weft::rt
