// ThreadSliceTest.cpp: the proof that an iteration's column of a span can
// live in its thread's slice, on a recurrence down each column built by
// hand (a[k * n + j] = 0.5f * a[(k - 1) * n + j]), and the polynomial
// helpers it prints with.
#include "analysis/ThreadSlice.h"
#include "TestNests.h"
#include "ir/KernelText.h"

#include <gtest/gtest.h>

using namespace weft;
using test_nests::binary;
using test_nests::countedFor;
using test_nests::element;
using test_nests::local;
using test_nests::node;
using test_nests::statement;

namespace {

/// (k + Shift) * n + j, with n capture 1.
ir::ExprPtr columnSubscript(int Shift) {
  ir::ExprPtr Row = local("k");
  if (Shift)
    Row = binary(
        Shift > 0 ? "+" : "-", std::move(Row),
        node(ir::Expr::IntLiteral, std::to_string(Shift > 0 ? Shift : -Shift)));
  return binary("+",
                binary("*", std::move(Row), node(ir::Expr::ParamRef, "", 1)),
                local("j"));
}

/// for j (parallel, 0 .. 64): for (int k = 1; k < m; ++k)
///   a[k * n + j] = 0.5f * a[(k - 1) * n + j];  (and then Extra, if any)
ir::Nest recurrence(ir::ParamKind Kind, ir::ExprPtr Extra = nullptr) {
  ir::Nest N;
  N.Params = {{"a", Kind, ir::ScalarKind::Float, false},
              {"n", ir::ParamKind::Scalar, ir::ScalarKind::Int},
              {"m", ir::ParamKind::Scalar, ir::ScalarKind::Int}};
  N.Root.IndexName = "j";
  N.Root.Lower = node(ir::Expr::IntLiteral, "0");
  N.Root.Upper = node(ir::Expr::IntLiteral, "64");
  ir::StmtPtr Body =
      statement(binary("=", element(0, columnSubscript(0), true),
                       binary("*", node(ir::Expr::FloatLiteral, "0.5f"),
                              element(0, columnSubscript(-1), false))));
  N.Root.Body.push_back(countedFor("k", node(ir::Expr::IntLiteral, "1"),
                                   node(ir::Expr::ParamRef, "", 2),
                                   std::move(Body)));
  if (Extra)
    N.Root.Body.push_back(statement(std::move(Extra)));
  return N;
}

TEST(ThreadSlice, ColumnRecurrence) {
  ir::Nest N = recurrence(ir::ParamKind::ReadWriteSpan);
  std::vector<ir::ThreadSlice> S = ir::planThreadSlices(N);
  ASSERT_EQ(S.size(), 1u);
  EXPECT_EQ(S[0].Owner, &N.Root);
  EXPECT_EQ(S[0].Param, 0u);
  EXPECT_EQ(S[0].ThreadStride, "((weft::index_t)1)");
  EXPECT_EQ(S[0].Stride, "((weft::index_t)n)");
  // Rows k - 1 .. k over k in [1, m): [0, m - 1], m of them.
  EXPECT_EQ(S[0].Lo, "(weft::index_t)0");
  EXPECT_EQ(S[0].Count, "((weft::index_t)m)");
  EXPECT_FALSE(S[0].FixedCount);
  ASSERT_EQ(S[0].Uses.size(), 2u);
  EXPECT_EQ(S[0].Uses[0].Shift, "");
  EXPECT_EQ(S[0].Uses[1].Shift, "(-(weft::index_t)1)");
  EXPECT_EQ(S[0].Description, "a[((k * $n) + j)]");
}

TEST(ThreadSlice, NotWhereAWriteFallsOutsideTheSlice) {
  // a[j] = 0 after the loop: a write the slice would not hold.
  ir::Nest N = recurrence(ir::ParamKind::ReadWriteSpan,
                          binary("=", element(0, local("j"), true),
                                 node(ir::Expr::FloatLiteral, "0.0f")));
  EXPECT_TRUE(ir::planThreadSlices(N).empty());
}

TEST(ThreadSlice, ReadsOutsideTheSliceStayInPlace) {
  // A read of a[j] after the loop: the span, where the writes went through.
  ir::Nest N =
      recurrence(ir::ParamKind::ReadWriteSpan,
                 binary("+=", local("acc"), element(0, local("j"), false)));
  std::vector<ir::ThreadSlice> S = ir::planThreadSlices(N);
  ASSERT_EQ(S.size(), 1u);
  EXPECT_EQ(S[0].Uses.size(), 2u);
}

TEST(ThreadSlice, NotInASequentialNest) {
  ir::Nest N = recurrence(ir::ParamKind::ReadWriteSpan);
  N.Sequential = true;
  EXPECT_TRUE(ir::planThreadSlices(N).empty());
}

TEST(ThreadSlice, KernelText) {
  using ir::Polynomial;
  Polynomial P = *Polynomial::symbol("$End").minus(Polynomial::symbol("$Off"));
  P = *P.plus(Polynomial::constant(-2));
  EXPECT_EQ(*ir::kernelText(P, {}),
            "(-(weft::index_t)2 + (weft::index_t)End - (weft::index_t)Off)");
  Polynomial Q = *Polynomial::symbol("b").times(Polynomial::symbol("$m"));
  EXPECT_EQ(*ir::kernelText(*Q.times(Polynomial::constant(3)), {}),
            "(3 * (weft::index_t)m * (weft::index_t)b)");
  // A local the level's body assigns is no value at its top; an opaque
  // expression is no name.
  EXPECT_FALSE(ir::kernelText(Polynomial::symbol("b"), {"b"}));
  EXPECT_FALSE(ir::kernelText(Polynomial::symbol("$a.size()"), {}));
  EXPECT_EQ(*ir::kernelText(Polynomial(), {}), "(weft::index_t)0");
}

TEST(ThreadSlice, ExactQuotient) {
  using ir::Polynomial;
  const Polynomial N = Polynomial::symbol("$n");
  // (b * m + 2) * n over n.
  Polynomial P = *Polynomial::symbol("b").times(Polynomial::symbol("$m"));
  P = *P.plus(Polynomial::constant(2));
  EXPECT_EQ(*ir::exactQuotient(*P.times(N), N), P);
  EXPECT_EQ(
      *ir::exactQuotient(Polynomial::constant(6), Polynomial::constant(3)),
      Polynomial::constant(2));
  EXPECT_FALSE(ir::exactQuotient(Polynomial::constant(1), N));
  EXPECT_FALSE(
      ir::exactQuotient(Polynomial::constant(7), Polynomial::constant(2)));
  EXPECT_FALSE(ir::exactQuotient(N, *N.plus(Polynomial::constant(1))));
}

} // namespace
