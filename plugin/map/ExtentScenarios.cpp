// ExtentScenarios.cpp: the mapping search over a grid of run-time sizes.
#include "map/ExtentScenarios.h"

#include "ir/HostBound.h"
#include "ir/NestIR.h"

#include <algorithm>

namespace weft::map {
namespace {

void collectSymbols(const ir::Nest &N, const ir::Expr &E,
                    const MappingInput &In,
                    std::vector<ScenarioChoice::Symbol> &Out) {
  if (E.Kind == ir::Expr::ParamRef || E.Kind == ir::Expr::SpanSize) {
    const bool IsSize = E.Kind == ir::Expr::SpanSize;
    const std::string &Param = N.Params[E.ParamIndex].Name;
    const std::string Name = IsSize ? "size(" + Param + ")" : Param;
    if (In.Symbols.count(Name) ||
        (!IsSize && ir::isFloating(N.Params[E.ParamIndex].Element)))
      return;
    for (const ScenarioChoice::Symbol &S : Out)
      if (S.Name == Name)
        return;
    Out.push_back({Name, E.ParamIndex, IsSize});
    return;
  }
  for (const ir::ExprPtr &Op : E.Operands)
    if (Op)
      collectSymbols(N, *Op, In, Out);
}

bool sameLevels(const std::vector<LevelMapping> &A,
                const std::vector<LevelMapping> &B) {
  if (A.size() != B.size())
    return false;
  for (std::size_t D = 0; D < A.size(); ++D)
    if (A[D].Dim != B[D].Dim || A[D].BlockSize != B[D].BlockSize ||
        !(A[D].Dop == B[D].Dop))
      return false;
  return true;
}

} // namespace

bool sameMapping(const NestMapping &A, const NestMapping &B) {
  return sameLevels(A.Levels, B.Levels);
}

ScenarioChoice chooseForScenarios(const ir::Nest &N, const MappingInput &In,
                                  NestMapping Default) {
  ScenarioChoice C;
  C.Mappings.push_back(std::move(Default));
  // Clauses that fix the mapping leave nothing for the sizes to decide; a
  // single level's only choice is its block size, which the runtime tunes.
  if (!C.Mappings[0].Error.empty() || C.Mappings[0].Strategy != "auto" ||
      C.Mappings[0].Levels.size() < 2)
    return C;
  // The sizes the runtime can read before the launch: captured values in
  // bounds it evaluates (an inner level's bounds may read outer indices).
  // Those of levels whose whole extent the launch knows come first: a
  // level whose other bound reads an index is sized inside the kernel, and
  // its symbol would take the place of one that sizes a block.
  const auto Known = [](const ir::Level &L) {
    return ir::isHostEvaluable(*L.Lower) && ir::isHostEvaluable(*L.Upper);
  };
  for (const bool Whole : {true, false})
    for (const ir::Level *L : ir::levels(N))
      if (Known(*L) == Whole)
        for (const ir::Expr *B : {L->Lower.get(), L->Upper.get()})
          if (B && ir::isHostEvaluable(*B))
            collectSymbols(N, *B, In, C.Symbols);
  if (C.Symbols.size() > MaxVariedSymbols)
    C.Symbols.resize(MaxVariedSymbols);
  if (C.Symbols.empty())
    return C;

  // Every scenario's winner, and how many scenarios each distinct one wins.
  const std::size_t Values = std::size(ScenarioValues);
  std::size_t Count = 1;
  for (std::size_t I = 0; I < C.Symbols.size(); ++I)
    Count *= Values;
  std::vector<NestMapping> Winners;
  std::vector<NestMapping> Distinct;
  std::vector<unsigned> Wins;
  for (std::size_t Code = 0; Code < Count; ++Code) {
    ScenarioChoice::Scenario S;
    MappingInput Scenario = In;
    for (std::size_t I = 0, Rest = Code; I < C.Symbols.size();
         ++I, Rest /= Values) {
      S.Values.push_back(ScenarioValues[Rest % Values]);
      Scenario.Symbols[C.Symbols[I].Name] = S.Values.back();
    }
    C.Scenarios.push_back(std::move(S));
    Winners.push_back(chooseMapping(N, Scenario));
    const NestMapping &W = Winners.back();
    if (!W.Error.empty() || sameMapping(W, C.Mappings[0]))
      continue;
    auto Same =
        std::find_if(Distinct.begin(), Distinct.end(),
                     [&](const NestMapping &D) { return sameMapping(D, W); });
    if (Same == Distinct.end()) {
      Distinct.push_back(W);
      Wins.push_back(1);
    } else {
      ++Wins[Same - Distinct.begin()];
    }
  }
  // Keep those that win the most scenarios (the first of equals).
  std::vector<std::size_t> Order(Distinct.size());
  for (std::size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::stable_sort(
      Order.begin(), Order.end(),
      [&](std::size_t A, std::size_t B) { return Wins[A] > Wins[B]; });
  if (Order.size() > MaxMappings - 1)
    Order.resize(MaxMappings - 1);
  std::sort(Order.begin(), Order.end());
  for (std::size_t I : Order)
    C.Mappings.push_back(std::move(Distinct[I]));
  // A scenario whose winner was not kept takes the best of its runners-up
  // that was, else the default.
  for (std::size_t S = 0; S < C.Scenarios.size(); ++S) {
    const NestMapping &W = Winners[S];
    if (!W.Error.empty())
      continue;
    std::vector<const std::vector<LevelMapping> *> Ranked = {&W.Levels};
    for (const Candidate &Alt : W.Alternatives)
      Ranked.push_back(&Alt.Levels);
    for (const std::vector<LevelMapping> *Levels : Ranked) {
      auto Kept = std::find_if(
          C.Mappings.begin(), C.Mappings.end(),
          [&](const NestMapping &M) { return sameLevels(M.Levels, *Levels); });
      if (Kept != C.Mappings.end()) {
        C.Scenarios[S].Mapping =
            static_cast<unsigned>(Kept - C.Mappings.begin());
        break;
      }
    }
  }
  // A default mapping that no scenario chose is still the one for sizes
  // the runtime cannot read; one mapping for all needs no table.
  if (C.Mappings.size() == 1)
    C.Scenarios.clear();
  return C;
}

} // namespace weft::map
