// ClausesTest.cpp: the clause grammar, accepted and rejected, with the
// offsets that diagnostics point at.
#include "syntax/Clauses.h"

#include <gtest/gtest.h>

using weft::syntax::ClauseError;
using weft::syntax::Clauses;
using weft::syntax::parseClauses;

namespace {

TEST(Clauses, EmptyIsValid) {
  Clauses C;
  ClauseError E;
  EXPECT_TRUE(parseClauses("", C, E));
  EXPECT_TRUE(parseClauses("   ", C, E));
  EXPECT_TRUE(C.Reductions.empty());
  EXPECT_FALSE(C.Block);
}

TEST(Clauses, AllClauses) {
  Clauses C;
  ClauseError E;
  ASSERT_TRUE(parseClauses("reduction(+: s, t) reduction(max:m) "
                           "strategy(warp), dim(y) block(128) span(all) "
                           "split(4) if(n > (2 * k))",
                           C, E))
      << E.Message;
  ASSERT_EQ(C.Reductions.size(), 2u);
  EXPECT_EQ(C.Reductions[0].Operator, "+");
  EXPECT_EQ(C.Reductions[0].Variables, (std::vector<std::string>{"s", "t"}));
  EXPECT_EQ(C.Reductions[1].Operator, "max");
  EXPECT_EQ(C.Reductions[1].Offset, 19u);
  EXPECT_EQ(C.Strategy->Value, "warp");
  EXPECT_EQ(C.Dim->Value, 'y');
  EXPECT_EQ(C.Block->Value, 128u);
  EXPECT_EQ(C.Span->Value, 0u); // all
  EXPECT_EQ(C.Split->Value, 4u);
  EXPECT_EQ(C.If->Value, "n > (2 * k)");
}

TEST(Clauses, ReductionOperators) {
  for (const char *Op : {"+", "*", "min", "max", "&", "|", "^", "&&", "||"}) {
    Clauses C;
    ClauseError E;
    ASSERT_TRUE(parseClauses(std::string("reduction(") + Op + ": v)", C, E))
        << Op << ": " << E.Message;
    EXPECT_EQ(C.Reductions[0].Operator, Op);
  }
}

// reduction(op: tmp[i]): an element, its subscript kept without spaces;
// an unclosed or empty subscript is an error at its bracket.
TEST(Clauses, ReductionElements) {
  Clauses C;
  ClauseError E;
  ASSERT_TRUE(parseClauses("reduction(+: tmp[ i * 2 ], s, y[a[k]])", C, E))
      << E.Message;
  EXPECT_EQ(C.Reductions[0].Variables,
            (std::vector<std::string>{"tmp[i*2]", "s", "y[a[k]]"}));
  Clauses Bad;
  EXPECT_FALSE(parseClauses("reduction(+: tmp[i)", Bad, E));
  EXPECT_EQ(E.Offset, 16u);
  EXPECT_FALSE(parseClauses("reduction(+: tmp[])", Bad, E));
  EXPECT_EQ(E.Offset, 16u);
}

struct Rejected {
  const char *Text;
  std::size_t Offset;
  const char *Message;
};

class ClauseErrors : public testing::TestWithParam<Rejected> {};

TEST_P(ClauseErrors, PointsAtTheFault) {
  Clauses C;
  ClauseError E;
  EXPECT_FALSE(parseClauses(GetParam().Text, C, E));
  EXPECT_EQ(E.Offset, GetParam().Offset) << E.Message;
  EXPECT_NE(E.Message.find(GetParam().Message), std::string::npos) << E.Message;
}

INSTANTIATE_TEST_SUITE_P(
    Grammar, ClauseErrors,
    testing::Values(Rejected{"colapse(2)", 0, "unknown clause 'colapse'"},
                    Rejected{"block(128", 9, "expected ')'"},
                    Rejected{"block 128", 6, "expected '('"},
                    Rejected{"block(100)", 6, "power of two"},
                    Rejected{"block(0)", 6, "must be positive"},
                    Rejected{"block(x)", 6, "positive integer"},
                    Rejected{"dim(w)", 4, "unknown dimension"},
                    Rejected{"strategy(fast)", 9, "unknown strategy"},
                    Rejected{"reduction(-: s)", 10, "reduction operator"},
                    Rejected{"reduction(+ s)", 12, "expected ':'"},
                    Rejected{"reduction(+: )", 13, "variable name"},
                    Rejected{"block(64) block(32)", 10, "given twice"},
                    Rejected{"if()", 3, "needs a condition"},
                    Rejected{"span(some)", 5, "positive integer"}));

} // namespace
