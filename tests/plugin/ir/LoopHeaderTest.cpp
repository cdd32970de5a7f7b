// LoopHeaderTest.cpp: loopHeader and levelOf on hand-built loops: counting
// down, a bound and an index set beside the loop's in the header, a step
// of 2 written `x = x + 2`, down by 3; and the headers they refuse (a
// variable of the header the body changes or lends to a reference, `!=` by
// steps of 2, an unsigned index down to 0 or by 2, a header value that
// reads another).
#include "ir/LoopHeader.h"
#include "TestNests.h"

#include <gtest/gtest.h>

using namespace weft;
using namespace weft::test_nests;

namespace {

ir::Nest captures() {
  ir::Nest N;
  N.Params = {{"n", ir::ParamKind::Scalar, ir::ScalarKind::Int},
              {"c", ir::ParamKind::ReadWriteSpan, ir::ScalarKind::Float}};
  return N;
}

ir::StmtPtr declaration(const std::string &Name, ir::ExprPtr Init,
                        ir::ScalarKind T = ir::ScalarKind::Int) {
  auto D = std::make_unique<ir::Stmt>();
  D->Kind = ir::Stmt::Decl;
  D->Name = Name;
  D->VarType.Scalar = T;
  D->Exprs.push_back(std::move(Init));
  return D;
}

ir::ExprPtr literal(const std::string &V) {
  return node(ir::Expr::IntLiteral, V);
}

ir::ExprPtr step(const std::string &Op, const std::string &Name) {
  auto E = node(ir::Expr::Unary, Op);
  E->Operands.push_back(local(Name));
  return E;
}

/// for (Init; Cond; Step) c[x] = Value
ir::StmtPtr loop(ir::StmtPtr Init, ir::ExprPtr Cond, ir::ExprPtr Step,
                 ir::ExprPtr Value) {
  auto L = std::make_unique<ir::Stmt>();
  L->Kind = ir::Stmt::For;
  L->Children.push_back(std::move(Init));
  L->Exprs.push_back(std::move(Cond));
  L->Exprs.push_back(std::move(Step));
  L->Children.push_back(
      statement(binary("=", element(1, local("x"), true), std::move(Value))));
  L->Location = "f.cpp:5:5";
  return L;
}

/// { Declarations...; for (; Cond; Step) c[x] = Value }
ir::StmtPtr headerBlock(std::vector<ir::StmtPtr> Declarations, ir::ExprPtr Cond,
                        ir::ExprPtr Step, ir::ExprPtr Value) {
  auto B = std::make_unique<ir::Stmt>();
  B->Kind = ir::Stmt::Block;
  for (ir::StmtPtr &D : Declarations)
    B->Children.push_back(std::move(D));
  B->Children.push_back(
      loop(nullptr, std::move(Cond), std::move(Step), std::move(Value)));
  return B;
}

std::vector<ir::StmtPtr> declarations(ir::StmtPtr A, ir::StmtPtr B,
                                      ir::StmtPtr C = nullptr) {
  std::vector<ir::StmtPtr> Out;
  Out.push_back(std::move(A));
  Out.push_back(std::move(B));
  if (C)
    Out.push_back(std::move(C));
  return Out;
}

TEST(LoopHeader, CountingDownIsTheSameIndicesCountedUp) {
  // for (int x = n - 1; x >= 0; --x) c[x] = x
  ir::Nest N = captures();
  ir::StmtPtr S =
      loop(declaration("x", binary("-", param(0), literal("1"))),
           binary(">=", local("x"), literal("0")), step("--", "x"), local("x"));
  std::optional<ir::LoopHeader> H = ir::loopHeader(*S, N.Functions);
  ASSERT_TRUE(H);
  EXPECT_EQ(H->Index, "x");
  EXPECT_TRUE(H->CountsDown);
  EXPECT_TRUE(H->Inclusive);
  EXPECT_EQ(ir::exprText(N, *H->Lower), "0");
  EXPECT_EQ(ir::exprText(N, *H->Upper), "($n - 1)");
  std::unique_ptr<ir::Level> L = ir::levelOf(*S, *H, 1);
  EXPECT_EQ(L->IndexName, "x");
  EXPECT_EQ(L->Depth, 1u);
  EXPECT_TRUE(L->CountsDown && L->Inclusive);
  EXPECT_EQ(L->Location, "f.cpp:5:5");
  ASSERT_EQ(L->Body.size(), 1u);
  EXPECT_EQ(L->Body[0]->Kind, ir::Stmt::ExprStmt);

  // `x > 0`: the least index is 1.
  S = loop(declaration("x", param(0)), binary(">", local("x"), literal("0")),
           step("--", "x"), local("x"));
  H = ir::loopHeader(*S, N.Functions);
  ASSERT_TRUE(H);
  EXPECT_TRUE(H->PastLower);
  L = ir::levelOf(*S, *H, 1);
  EXPECT_EQ(ir::exprText(N, *L->Lower), "(0 + 1)");

  // By 3 from n to 0 at least: the last index reached, 0 + ((n - 0) % 3 +
  // 3) % 3.
  S = loop(declaration("x", param(0)), binary(">=", local("x"), literal("0")),
           binary("-=", local("x"), literal("3")), local("x"));
  H = ir::loopHeader(*S, N.Functions);
  ASSERT_TRUE(H);
  EXPECT_EQ(H->Step, 3);
  L = ir::levelOf(*S, *H, 1);
  EXPECT_EQ(ir::exprText(N, *L->Lower), "(0 + (((($n - 0) % 3) + 3) % 3))");
}

TEST(LoopHeader, BoundAndIndexSetBesideTheLoops) {
  // for (int x = 0, e = n, k = 3; x < e; ++x, k += 2) c[x] = k
  ir::Nest N = captures();
  ir::ExprPtr Steps =
      binary(",", step("++", "x"), binary("+=", local("k"), literal("2")));
  ir::StmtPtr S = headerBlock(
      declarations(declaration("x", literal("0")), declaration("e", param(0)),
                   declaration("k", literal("3"))),
      binary("<", local("x"), local("e")), std::move(Steps), local("k"));
  std::optional<ir::LoopHeader> H = ir::loopHeader(*S, N.Functions);
  ASSERT_TRUE(H);
  // The bound is e's value.
  EXPECT_EQ(ir::exprText(N, *H->Upper), "$n");
  ASSERT_EQ(H->Besides.size(), 2u);
  EXPECT_FALSE(H->Besides[0].Steps);
  EXPECT_TRUE(H->Besides[1].Steps);
  std::unique_ptr<ir::Level> L = ir::levelOf(*S, *H, 1);
  ASSERT_EQ(L->Body.size(), 3u);
  EXPECT_EQ(L->Body[0]->Name, "e");
  EXPECT_EQ(ir::exprText(N, *L->Body[0]->Exprs[0]), "$n");
  EXPECT_EQ(L->Body[1]->Name, "k");
  EXPECT_EQ(ir::exprText(N, *L->Body[1]->Exprs[0]), "(3 + ((x - 0) * 2))");
}

TEST(LoopHeader, StepOfTwoWrittenAsAnAssignment) {
  // for (int x = 1, h = 0; n > x; x = x + 2, ++h) c[x] = h
  ir::Nest N = captures();
  ir::ExprPtr Steps = binary(
      ",", binary("=", local("x"), binary("+", local("x"), literal("2"))),
      step("++", "h"));
  ir::StmtPtr S = headerBlock(declarations(declaration("x", literal("1")),
                                           declaration("h", literal("0"))),
                              binary(">", param(0), local("x")),
                              std::move(Steps), local("h"));
  std::optional<ir::LoopHeader> H = ir::loopHeader(*S, N.Functions);
  ASSERT_TRUE(H);
  EXPECT_EQ(H->Step, 2);
  EXPECT_FALSE(H->CountsDown || H->Inclusive);
  std::unique_ptr<ir::Level> L = ir::levelOf(*S, *H, 1);
  EXPECT_EQ(L->Step, 2);
  EXPECT_EQ(ir::exprText(N, *L->Body[0]->Exprs[0]), "(0 + ((x - 1) / 2))");
}

TEST(LoopHeader, RefusesWhatTheIterationsCannotComputeAlone) {
  ir::Nest N = captures();
  // `!=` by steps of 2 may pass its bound.
  ir::StmtPtr S =
      loop(declaration("x", literal("0")), binary("!=", local("x"), param(0)),
           binary("+=", local("x"), literal("2")), local("x"));
  EXPECT_FALSE(ir::loopHeader(*S, N.Functions));
  // An unsigned index is never below 0.
  S = loop(declaration("x", param(0), ir::ScalarKind::UInt),
           binary(">=", local("x"), literal("0")), step("--", "x"), local("x"));
  EXPECT_FALSE(ir::loopHeader(*S, N.Functions));
  // An unsigned index down by more than one may pass 0 and wrap around.
  S = loop(declaration("x", param(0), ir::ScalarKind::UInt),
           binary(">", local("x"), literal("0")),
           binary("-=", local("x"), literal("2")), local("x"));
  EXPECT_FALSE(ir::loopHeader(*S, N.Functions));
  // The body changes the bound.
  S = headerBlock(
      declarations(declaration("x", literal("0")), declaration("e", param(0))),
      binary("<", local("x"), local("e")), step("++", "x"),
      binary("=", local("e"), literal("4")));
  EXPECT_FALSE(ir::loopHeader(*S, N.Functions));
  // A function of the nest binds it to a reference it may write.
  ir::Function F;
  F.Name = "shrink";
  ir::LocalType Ref;
  Ref.IsReference = true;
  F.Params.push_back({"v", Ref});
  N.Functions.push_back(std::move(F));
  auto Call = node(ir::Expr::Call, "shrink");
  Call->Operands.push_back(local("e"));
  S = headerBlock(
      declarations(declaration("x", literal("0")), declaration("e", param(0))),
      binary("<", local("x"), local("e")), step("++", "x"), std::move(Call));
  EXPECT_FALSE(ir::loopHeader(*S, N.Functions));
  // e's value reads x's.
  S = headerBlock(
      declarations(declaration("x", literal("0")),
                   declaration("e", binary("+", local("x"), param(0)))),
      binary("<", local("x"), local("e")), step("++", "x"), local("x"));
  EXPECT_FALSE(ir::loopHeader(*S, N.Functions));
  // The condition compares something else.
  S = loop(declaration("x", literal("0")), binary("<", local("y"), param(0)),
           step("++", "x"), local("x"));
  EXPECT_FALSE(ir::loopHeader(*S, N.Functions));
}

} // namespace
