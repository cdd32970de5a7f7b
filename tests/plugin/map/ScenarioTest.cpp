// ScenarioTest.cpp: mappings for the sizes a nest meets at run time: the
// scenario grid over captured sizes, and which mapping each scenario gets.
#include "map/ExtentScenarios.h"

#include "TestNests.h"
#include "plan/KernelShape.h"

#include <gtest/gtest.h>

using namespace weft;

namespace {

/// The search as the plugin runs it: only mappings the generator builds.
map::MappingInput generatorInput(const ir::Nest &N) {
  return plan::buildableOnly(N, {});
}

map::ScenarioChoice scenarios(const ir::Nest &N, map::MappingInput In) {
  return map::chooseForScenarios(N, In, map::chooseMapping(N, In));
}
map::ScenarioChoice scenarios(const ir::Nest &N) {
  return scenarios(N, generatorInput(N));
}

/// The mapping a scenario gets is the search's own for those sizes, or,
/// when more mappings won than are kept, one of its runners-up.
TEST(Scenarios, EachScenarioGetsTheSearchsMappingForItsSizes) {
  for (bool Rows : {true, false}) {
    const ir::Nest N = test_nests::sumNest(Rows);
    const map::ScenarioChoice C = scenarios(N);
    ASSERT_EQ(C.Symbols.size(), 2u);
    // The outermost level's bound first.
    EXPECT_EQ(C.Symbols[0].Name, Rows ? "rows" : "cols");
    EXPECT_FALSE(C.Symbols[0].IsSize);
    if (C.Scenarios.empty()) {
      // One mapping serves every scenario.
      EXPECT_EQ(C.Mappings.size(), 1u);
      continue;
    }
    constexpr std::size_t Values = std::size(map::ScenarioValues);
    ASSERT_EQ(C.Scenarios.size(), Values * Values)
        << Values << " values of each of 2 sizes";
    ASSERT_LE(C.Mappings.size(), map::MaxMappings);
    EXPECT_TRUE(map::sameMapping(C.Mappings[0],
                                 map::chooseMapping(N, generatorInput(N))));
    unsigned Exact = 0;
    for (const map::ScenarioChoice::Scenario &S : C.Scenarios) {
      map::MappingInput In = generatorInput(N);
      for (std::size_t I = 0; I < S.Values.size(); ++I)
        In.Symbols[C.Symbols[I].Name] = S.Values[I];
      ASSERT_LT(S.Mapping, C.Mappings.size());
      const map::NestMapping Own = map::chooseMapping(N, In);
      if (map::sameMapping(C.Mappings[S.Mapping], Own)) {
        ++Exact;
        continue;
      }
      bool RunnerUp = S.Mapping == 0;
      for (const map::Candidate &Alt : Own.Alternatives) {
        map::NestMapping AsMapping;
        AsMapping.Levels = Alt.Levels;
        RunnerUp =
            RunnerUp || map::sameMapping(C.Mappings[S.Mapping], AsMapping);
      }
      EXPECT_TRUE(RunnerUp) << (Rows ? "sumRows" : "sumCols") << " at "
                            << S.Values[0] << ", " << S.Values[1];
    }
    EXPECT_GE(Exact, 3 * Values * Values / 4)
        << "most scenarios get their own winner";
    for (std::size_t I = 0; I < C.Mappings.size(); ++I)
      for (std::size_t J = I + 1; J < C.Mappings.size(); ++J)
        EXPECT_FALSE(map::sameMapping(C.Mappings[I], C.Mappings[J]));
  }
}

/// Lee et al.'s point: many short rows and few long rows want different
/// mappings of sumRows; the plugin cannot know which the program has.
TEST(Scenarios, ShortAndLongRowsGetDifferentMappings) {
  const map::ScenarioChoice C = scenarios(test_nests::sumNest(true));
  auto MappingFor = [&](std::int64_t Rows, std::int64_t Cols) {
    for (const map::ScenarioChoice::Scenario &S : C.Scenarios)
      if (S.Values[0] == Rows && S.Values[1] == Cols)
        return S.Mapping;
    ADD_FAILURE() << "no scenario " << Rows << " x " << Cols;
    return 0u;
  };
  EXPECT_GE(C.Mappings.size(), 2u);
  const unsigned Short = MappingFor(65536, 128), Long = MappingFor(128, 65536);
  EXPECT_NE(Short, Long);
  // Short rows: a row's threads fit in fewer lanes than a long row's.
  EXPECT_LT(C.Mappings[Short].Levels[1].BlockSize,
            C.Mappings[Long].Levels[1].BlockSize);
}

TEST(Scenarios, KnownSizesDoNotVary) {
  const ir::Nest N = test_nests::sumNest(true);
  map::MappingInput In = generatorInput(N);
  In.Symbols["cols"] = 4096;
  const map::ScenarioChoice C = scenarios(N, In);
  ASSERT_EQ(C.Symbols.size(), 1u);
  EXPECT_EQ(C.Symbols[0].Name, "rows");
  for (const map::ScenarioChoice::Scenario &S : C.Scenarios)
    EXPECT_EQ(S.Values.size(), 1u);
}

TEST(Scenarios, FixedStrategiesAndSingleLevelsKeepOneMapping) {
  ir::Nest Fixed = test_nests::sumNest(true);
  Fixed.Strategy = "warp";
  map::ScenarioChoice C = scenarios(Fixed);
  EXPECT_EQ(C.Mappings.size(), 1u);
  EXPECT_TRUE(C.Scenarios.empty());

  ir::Nest Single;
  Single.Params = {{"n", ir::ParamKind::Scalar, ir::ScalarKind::Int},
                   {"out", ir::ParamKind::WriteSpan, ir::ScalarKind::Float}};
  Single.Root = test_nests::level("i", 0, test_nests::param(0));
  Single.Root.Body.push_back(test_nests::statement(test_nests::binary(
      "=", test_nests::element(1, test_nests::local("i"), true),
      test_nests::node(ir::Expr::IntLiteral, "1"))));
  ir::analyzeAccesses(Single);
  C = scenarios(Single);
  EXPECT_EQ(C.Mappings.size(), 1u);
  EXPECT_TRUE(C.Scenarios.empty());
}

} // namespace
