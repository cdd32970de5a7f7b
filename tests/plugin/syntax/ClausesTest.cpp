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
  EXPECT_EQ(C.If->Value.Text, "n > (2 * k)");
  EXPECT_EQ(C.If->Offset, 89u);
}

std::string postfix(const weft::syntax::HostExpr &E) {
  std::string Out;
  for (const weft::syntax::ExprToken &T : E.Postfix)
    Out += T.Text + (T.Kind == weft::syntax::ExprToken::Unary ? "u " : " ");
  return Out;
}

// A condition takes C's binary operators at C's precedence, left to right,
// unary ! - ~, and floating-point constants.
TEST(Clauses, Conditions) {
  Clauses C;
  ClauseError E;
  ASSERT_TRUE(parseClauses("if(!a && b || c < 1 + 2 * d == e)", C, E))
      << E.Message;
  EXPECT_EQ(postfix(C.If->Value), "a !u b && c 1 2 d * + < e == || ");
  Clauses D;
  ASSERT_TRUE(parseClauses("if(-n <= 3.5e2 & m >> 2 != ~k ^ 1 | x % 2)", D, E))
      << E.Message;
  EXPECT_EQ(postfix(D.If->Value),
            "n -u 3.5e2 <= m 2 >> k ~u != & 1 ^ x 2 % | ");
  Clauses Bad, F;
  EXPECT_FALSE(parseClauses("if((n - m) - 1 >= .5)", Bad, E));
  ASSERT_TRUE(parseClauses("if((n - m) - 1 >= 0.5)", F, E)) << E.Message;
  EXPECT_EQ(postfix(F.If->Value), "n m - 1 - 0.5 >= ");
  EXPECT_EQ(F.If->Value.Postfix[5].Kind, weft::syntax::ExprToken::Number);
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

TEST(Clauses, ArgReductions) {
  Clauses C;
  ClauseError E;
  ASSERT_TRUE(
      parseClauses("reduction(argmax: best, at) reduction(min: m)", C, E))
      << E.Message;
  EXPECT_EQ(C.Reductions[0].Operator, "argmax");
  EXPECT_EQ(C.Reductions[0].Variables,
            (std::vector<std::string>{"best", "at"}));
  EXPECT_EQ(C.Reductions[1].Operator, "min");
}

// The extent expression comes out in postfix order, with the offsets of its
// tokens; several pointers share one extent, and the clause may repeat.
// An element of several dimensions: each subscript as written, spaces
// dropped.
TEST(Clauses, ElementOfSeveralDimensions) {
  Clauses C;
  ClauseError E;
  ASSERT_TRUE(parseClauses("reduction(+: c[i] [j + 1], s)", C, E)) << E.Message;
  ASSERT_EQ(C.Reductions.size(), 1u);
  EXPECT_EQ(C.Reductions[0].Variables,
            (std::vector<std::string>{"c[i][j+1]", "s"}));
  EXPECT_FALSE(parseClauses("reduction(+: c[i][)", C, E));
}

TEST(Clauses, Extents) {
  Clauses C;
  ClauseError E;
  ASSERT_TRUE(
      parseClauses("extent(a, b: (rows + 1) * cols) extent(p: 64)", C, E))
      << E.Message;
  ASSERT_EQ(C.Extents.size(), 2u);
  EXPECT_EQ(C.Extents[0].Pointers, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(C.Extents[0].Text, "(rows + 1) * cols");
  std::string Postfix;
  for (const weft::syntax::ExprToken &T : C.Extents[0].Postfix)
    Postfix += T.Text + " ";
  EXPECT_EQ(Postfix, "rows 1 + cols * ");
  EXPECT_EQ(C.Extents[0].Postfix[0].Offset, 14u);
  EXPECT_EQ(C.Extents[0].Postfix[0].Kind, weft::syntax::ExprToken::Name);
  EXPECT_EQ(C.Extents[0].Postfix[1].Kind, weft::syntax::ExprToken::Number);
  EXPECT_EQ(C.Extents[0].Postfix[2].Kind, weft::syntax::ExprToken::Binary);
  EXPECT_EQ(C.Extents[1].Pointers, (std::vector<std::string>{"p"}));
  ASSERT_EQ(C.Extents[1].Postfix.size(), 1u);
  EXPECT_EQ(C.Extents[1].Postfix[0].Text, "64");
  // Left-associative: n - m - 1 is (n - m) - 1.
  Clauses D;
  ASSERT_TRUE(parseClauses("extent(p: n - m - 1)", D, E));
  Postfix.clear();
  for (const weft::syntax::ExprToken &T : D.Extents[0].Postfix)
    Postfix += T.Text + " ";
  EXPECT_EQ(Postfix, "n m - 1 - ");
  EXPECT_FALSE(D.Extents[0].Columns);
}

// Fields as the loop names them: a chain without spaces, `this->` dropped
// (a member is its name), in the pointers and in the expressions.
TEST(Clauses, FieldChains) {
  Clauses C;
  ClauseError E;
  ASSERT_TRUE(parseClauses("extent(img -> pix, this->Data, s.a->b: img->w * "
                           "s.n) if(opts.gpu && n > 0)",
                           C, E))
      << E.Message;
  ASSERT_EQ(C.Extents.size(), 1u);
  EXPECT_EQ(C.Extents[0].Pointers,
            (std::vector<std::string>{"img->pix", "Data", "s.a->b"}));
  std::string Postfix;
  for (const weft::syntax::ExprToken &T : C.Extents[0].Postfix)
    Postfix += T.Text + " ";
  EXPECT_EQ(Postfix, "img->w s.n * ");
  ASSERT_TRUE(C.If);
  EXPECT_EQ(C.If->Value.Postfix[0].Text, "opts.gpu");
  Clauses D;
  EXPECT_FALSE(parseClauses("extent(p: s.)", D, E));
}

// Rows held as pointers: extent(w: rows, cols), the rows' length its own
// expression with its own offsets.
TEST(Clauses, ExtentOfRowsAsPointers) {
  Clauses C;
  ClauseError E;
  ASSERT_TRUE(parseClauses("extent(w: n, m + 1) extent(x: n)", C, E))
      << E.Message;
  ASSERT_EQ(C.Extents.size(), 2u);
  EXPECT_EQ(C.Extents[0].Text, "n");
  ASSERT_TRUE(C.Extents[0].Columns);
  EXPECT_EQ(C.Extents[0].Columns->Text, "m + 1");
  ASSERT_EQ(C.Extents[0].Columns->Postfix.size(), 3u);
  EXPECT_EQ(C.Extents[0].Columns->Postfix[0].Offset, 13u);
  EXPECT_FALSE(C.Extents[1].Columns);
  Clauses D;
  EXPECT_FALSE(parseClauses("extent(w: n, )", D, E));
  EXPECT_FALSE(parseClauses("extent(w: n, m, k)", D, E));
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
    testing::Values(
        Rejected{"colapse(2)", 0, "unknown clause 'colapse'"},
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
        Rejected{"if()", 3, "a number or a variable in 'if'"},
        Rejected{"if(v.size() > 3)", 9, "not calls or elements"},
        Rejected{"if(p[0])", 4, "not calls or elements"},
        Rejected{"if(n > 0x10)", 7, "'0x10' is not a decimal number"},
        Rejected{"if(n > 1.5e)", 7, "'1.5e' is not a decimal number"},
        Rejected{"if(n >)", 6, "a number or a variable in 'if'"},
        Rejected{"if(n > 1", 8, "expected ')'"},
        Rejected{"if(n = 1)", 5, "expected ')'"},
        Rejected{"if(a) if(b)", 6, "given twice"},
        Rejected{"extent(p: n > 1)", 12, "expected ')'"},
        Rejected{"extent(p: 1.5)", 10, "not a decimal integer"},
        Rejected{"extent(p: 1234567890123456789)", 10, "more than 18 digits"},
        Rejected{"span(some)", 5, "positive integer"},
        Rejected{"reduction(argmax: v)", 10, "value and its index"},
        Rejected{"reduction(argmin: v, at, w)", 10, "value and its index"},
        Rejected{"reduction(argmax: v[i], at)", 10, "value and its index"},
        Rejected{"extent(p n)", 9, "expected ':'"},
        Rejected{"extent(: n)", 7, "pointer's name"},
        Rejected{"extent(p: )", 10, "a number or a variable"},
        Rejected{"extent(p: n +)", 13, "a number or a variable"},
        Rejected{"extent(p: (n)", 13, "expected ')'"},
        Rejected{"extent(p: 12ab)", 10, "not a decimal integer"},
        Rejected{"extent(p: n.size())", 16, "not calls"}));

} // namespace
