// PlanTest.cpp: the kernel plan of a nest from its mapping: the search's
// mapping always plans, its tuning space, and the remarks that explain it.
#include "TestNests.h"
#include "map/Mapping.h"
#include "plan/Explain.h"
#include "plan/KernelPlan.h"
#include "plan/KernelShape.h"
#include "plan/TuningSpace.h"

#include <gtest/gtest.h>

#include <set>

using namespace weft;

namespace {

std::optional<plan::KernelPlan> planOfSearch(const ir::Nest &N,
                                             std::string &Error) {
  const map::MappingInput In = plan::buildableOnly(N, {});
  return plan::planKernel(N, map::chooseMapping(N, In), Error);
}

TEST(Plan, TheSearchRestrictedToWhatTheGeneratorBuildsAlwaysPlans) {
  for (bool Rows : {true, false}) {
    const ir::Nest N = test_nests::sumNest(Rows);
    std::string Error;
    EXPECT_TRUE(planOfSearch(N, Error)) << Error;
  }
}

TEST(Plan, TuningSpaceNamesEachMacroOnceWithDistinctValues) {
  for (bool Rows : {true, false}) {
    const ir::Nest N = test_nests::sumNest(Rows);
    std::string Error;
    std::optional<plan::KernelPlan> P = planOfSearch(N, Error);
    ASSERT_TRUE(P) << Error;
    const contract::TuneInfo T = plan::tuningSpace(*P);
    std::set<std::string> Macros;
    for (const contract::TuneParam &Param : T.Params) {
      EXPECT_TRUE(Macros.insert(Param.Macro).second) << Param.Macro;
      ASSERT_FALSE(Param.Values.empty()) << Param.Macro;
      // No value twice: each is a configuration of its own.
      EXPECT_EQ(
          std::set<unsigned>(Param.Values.begin(), Param.Values.end()).size(),
          Param.Values.size())
          << Param.Macro;
    }
    EXPECT_FALSE(T.Params.empty());
  }
}

TEST(Plan, ExplainsEachLevel) {
  const ir::Nest N = test_nests::sumNest(true);
  std::string Error;
  std::optional<plan::KernelPlan> P = planOfSearch(N, Error);
  ASSERT_TRUE(P) << Error;
  const std::vector<std::string> Texts =
      plan::explainLevels(N, *P, plan::ExplainContext{});
  ASSERT_EQ(Texts.size(), 2u);
  // Each level's text names it and what it was given, the inner one the
  // reduction it combines.
  EXPECT_EQ(Texts[0].rfind("weft: level 0 (i): dim ", 0), 0u) << Texts[0];
  EXPECT_EQ(Texts[1].rfind("weft: level 1 (j): dim ", 0), 0u) << Texts[1];
  for (const std::string &T : Texts)
    EXPECT_NE(T.find(", block "), std::string::npos) << T;
  EXPECT_NE(Texts[1].find("reduction(+: s)"), std::string::npos) << Texts[1];
  EXPECT_EQ(Texts[0].find("reduction(+: s)"), std::string::npos) << Texts[0];
}

} // namespace
