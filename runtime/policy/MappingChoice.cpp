// MappingChoice.cpp: the nearest scenario to a launch's sizes.
#include "policy/MappingChoice.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace weft::rt {
namespace {

/// Each size's log2 (sizes below 1 as 1): the scale scenarios are near on.
std::vector<double> logsOf(const std::vector<std::int64_t> &Sizes) {
  std::vector<double> Logs;
  for (std::int64_t V : Sizes)
    Logs.push_back(
        std::log2(static_cast<double>(std::max<std::int64_t>(V, 1))));
  return Logs;
}

/// The squared distance of a scenario from the sizes, on that scale.
double distance(const std::vector<double> &Logs,
                const ChoiceInfo::Scenario &S) {
  double Distance = 0;
  for (std::size_t I = 0; I < Logs.size(); ++I) {
    const double D = Logs[I] - std::log2(static_cast<double>(S.Values[I]));
    Distance += D * D;
  }
  return Distance;
}

} // namespace

unsigned chooseMapping(const KernelInfo &First, const detail::LaunchArg *Args,
                       std::size_t NumArgs, std::vector<std::int64_t> &Sizes) {
  const ChoiceInfo &C = First.Choice;
  Sizes.clear();
  if (C.Scenarios.empty())
    return 0;
  for (const BoundExpr &E : C.Vary) {
    std::int64_t V = 0;
    std::string Error;
    if (!evaluateBound(E, First, Args, NumArgs, V, Error))
      return 0;
    Sizes.push_back(V);
  }
  const std::vector<double> Logs = logsOf(Sizes);
  unsigned Best = 0;
  double BestDistance = std::numeric_limits<double>::infinity();
  for (const ChoiceInfo::Scenario &S : C.Scenarios) {
    const double Distance = distance(Logs, S);
    if (Distance < BestDistance) {
      BestDistance = Distance;
      Best = S.Mapping;
    }
  }
  return Best;
}

bool rowLengthsFit(const KernelInfo &K, const detail::LaunchArg *Args,
                   std::size_t NumArgs) {
  for (std::size_t I = 0; I < K.Params.size(); ++I)
    if (K.Params[I].OneLength &&
        (I >= NumArgs || Args[I].ElementSize != sizeof(std::int64_t) ||
         *static_cast<const std::int64_t *>(Args[I].Data) < 0))
      return false;
  return true;
}

std::vector<unsigned> rankMappings(const KernelInfo &First,
                                   const std::vector<std::int64_t> &Sizes,
                                   unsigned Mapped, std::size_t Mappings) {
  std::vector<double> Nearest(Mappings,
                              std::numeric_limits<double>::infinity());
  const std::vector<double> Logs = logsOf(Sizes);
  for (const ChoiceInfo::Scenario &S : First.Choice.Scenarios)
    if (S.Mapping < Mappings && S.Values.size() == Sizes.size())
      Nearest[S.Mapping] = std::min(Nearest[S.Mapping], distance(Logs, S));
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
