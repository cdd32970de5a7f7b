// WindowTileTest.cpp: which nests a thread may run several iterations of a
// level of through one window walk, on a 5 x 5 convolution built by hand
// (alone and inside a level of channels) and the variations that must keep
// it from doing so.
#include "analysis/WindowTile.h"
#include "TestNests.h"

#include <gtest/gtest.h>

using namespace weft;
using namespace test_nests;

namespace {

ir::ExprPtr lit(int V) { return node(ir::Expr::IntLiteral, std::to_string(V)); }

/// What to change in the convolution.
struct Variation {
  bool BoundsFollowRow = false; // for (dy = y; dy < y + 5; ...)
  bool WritesInLoop = false;    // out[y * w + x] += ... inside the loops
  bool Breaks = false;          // if (s > 1) break; inside the loops
  bool AlongRowOnly = false;    // in[y * w + x + dx]: no window along y
  bool SecondLoop = false;      // another loop after the window's
  int Taps = 5;                 // the filter's side
  bool TriangularInner = false; // x < y
  std::string Hidden;           // a row's local the loops (or x's body) hide
};

/// for y: for x (parallel): float s = 0; for dy < Taps: for dx < Taps:
/// s += in[(y + dy) * w + x + dx] * f[dy * Taps + dx]; out[y * w + x] = s;
/// Captures: in 0, f 1, out 2, w 3.
ir::Nest convolution(const Variation &V = {}) {
  ir::Nest N;
  N.Params = {{"in", ir::ParamKind::ReadSpan, ir::ScalarKind::Float, true},
              {"f", ir::ParamKind::ReadSpan, ir::ScalarKind::Float, true},
              {"out", ir::ParamKind::WriteSpan, ir::ScalarKind::Float},
              {"w", ir::ParamKind::Scalar, ir::ScalarKind::Int}};
  N.Root = level("y", 0, lit(60));
  auto Inner = std::make_unique<ir::Level>(
      level("x", 1, V.TriangularInner ? local("y") : lit(60)));
  auto Sum = std::make_unique<ir::Stmt>();
  Sum->Kind = ir::Stmt::Decl;
  Sum->Name = "s";
  Sum->VarType.Scalar = ir::ScalarKind::Float;
  Sum->Exprs.push_back(node(ir::Expr::FloatLiteral, "0.0f"));
  Inner->Body.push_back(std::move(Sum));
  if (!V.Hidden.empty()) {
    auto Local = std::make_unique<ir::Stmt>();
    Local->Kind = ir::Stmt::Decl;
    Local->Name = V.Hidden;
    Local->Exprs.push_back(lit(0));
    Inner->Body.push_back(std::move(Local));
  }
  ir::ExprPtr Row =
      V.AlongRowOnly ? local("y") : binary("+", local("y"), local("dy"));
  ir::ExprPtr Read = element(
      0, binary("+",
                binary("+", binary("*", std::move(Row), param(3)), local("x")),
                local("dx")));
  ir::ExprPtr Tap = element(
      1, binary("+", binary("*", local("dy"), lit(V.Taps)), local("dx")));
  auto Body = std::make_unique<ir::Stmt>();
  Body->Kind = ir::Stmt::Block;
  Body->Children.push_back(statement(
      binary("+=", local("s"), binary("*", std::move(Read), std::move(Tap)))));
  auto Output = [] {
    return binary("+", binary("*", local("y"), param(3)), local("x"));
  };
  if (V.WritesInLoop)
    Body->Children.push_back(
        statement(binary("+=", element(2, Output(), true), local("s"))));
  if (V.Breaks) {
    auto If = std::make_unique<ir::Stmt>();
    If->Kind = ir::Stmt::If;
    If->Exprs.push_back(binary(">", local("s"), lit(1)));
    auto Break = std::make_unique<ir::Stmt>();
    Break->Kind = ir::Stmt::Break;
    If->Children.push_back(std::move(Break));
    If->Children.push_back(nullptr);
    Body->Children.push_back(std::move(If));
  }
  ir::StmtPtr Columns = countedFor("dx", lit(0), lit(V.Taps), std::move(Body));
  ir::StmtPtr Rows =
      V.BoundsFollowRow
          ? countedFor("dy", local("y"), binary("+", local("y"), lit(V.Taps)),
                       std::move(Columns))
          : countedFor("dy", lit(0), lit(V.Taps), std::move(Columns));
  Inner->Body.push_back(std::move(Rows));
  if (V.SecondLoop)
    Inner->Body.push_back(countedFor(
        "k", lit(0), lit(3),
        statement(binary("+=", local("s"), element(1, local("k"))))));
  Inner->Body.push_back(
      statement(binary("=", element(2, Output(), true), local("s"))));
  auto P = std::make_unique<ir::Stmt>();
  P->Kind = ir::Stmt::ParallelFor;
  P->Nested = std::move(Inner);
  N.Root.Body.push_back(std::move(P));
  return N;
}

TEST(WindowTile, AConvolutionsRowsShareTheirWindow) {
  ir::Nest N = convolution();
  std::optional<ir::WindowTile> W = ir::windowTile(N);
  ASSERT_TRUE(W);
  EXPECT_EQ(W->Inner, N.Root.Body[0]->Nested.get());
  ASSERT_EQ(W->Loops.size(), 2u);
  EXPECT_EQ(W->Loops[0], W->Inner->Body[1].get());
  EXPECT_EQ(W->LoopIndices, (std::vector<std::string>{"dy", "dx"}));
  ASSERT_EQ(W->Locals.size(), 1u);
  EXPECT_EQ(W->Locals[0]->Name, "s");
  EXPECT_EQ(W->WindowSpans, std::vector<unsigned>{0});
  EXPECT_EQ(W->SharedSpans, std::vector<unsigned>{1});
  EXPECT_EQ(W->Description, "in along y, f");
}

TEST(WindowTile, NotWhereARowCannotShareTheWalk) {
  const struct {
    const char *Why;
    Variation V;
  } Cases[] = {
      {"the loops' bounds follow the row", {.BoundsFollowRow = true}},
      {"the loops write a span", {.WritesInLoop = true}},
      {"the loops break", {.Breaks = true}},
      {"no window along the rows", {.AlongRowOnly = true}},
      {"a second loop", {.SecondLoop = true}},
      {"the inner level's bounds follow the row", {.TriangularInner = true}},
  };
  for (const auto &C : Cases)
    EXPECT_FALSE(ir::windowTile(convolution(C.V))) << C.Why;
}

TEST(WindowTile, NotForTooManySteps) {
  Variation V;
  V.Taps = 8; // 64 steps: unrolled for every row
  EXPECT_TRUE(ir::windowTile(convolution(V)));
  V.Taps = 9; // 81
  EXPECT_FALSE(ir::windowTile(convolution(V)));
}

TEST(WindowTile, NotWhereANameHidesARowsLocal) {
  Variation V;
  V.Hidden = "t";
  EXPECT_TRUE(ir::windowTile(convolution(V)));
  V.Hidden = "dx"; // the loop's index: the local's array would be hidden
  EXPECT_FALSE(ir::windowTile(convolution(V)));
  V.Hidden = "y"; // the root's index, which each row declares
  EXPECT_FALSE(ir::windowTile(convolution(V)));
  // A block after the loops declaring its own s.
  ir::Nest N = convolution();
  ir::Level &Inner = *N.Root.Body[0]->Nested;
  auto Shadow = std::make_unique<ir::Stmt>();
  Shadow->Kind = ir::Stmt::Decl;
  Shadow->Name = "s";
  Shadow->Exprs.push_back(lit(1));
  auto Block = std::make_unique<ir::Stmt>();
  Block->Kind = ir::Stmt::Block;
  Block->Children.push_back(std::move(Shadow));
  Inner.Body.push_back(std::move(Block));
  EXPECT_FALSE(ir::windowTile(N));
}

/// The convolution as the body of a level of channels (c < 3): its levels
/// one deeper; with InnerUpTo, x's upper bound replaced.
ir::Nest inChannels(ir::Nest Image, ir::ExprPtr InnerUpTo = nullptr) {
  ir::Nest N;
  N.Params = Image.Params;
  N.Root = level("c", 0, lit(3));
  auto Rows = std::make_unique<ir::Level>(std::move(Image.Root));
  Rows->Depth = 1;
  ir::Level &Inner = *Rows->Body[0]->Nested;
  Inner.Depth = 2;
  if (InnerUpTo)
    Inner.Upper = std::move(InnerUpTo);
  auto P = std::make_unique<ir::Stmt>();
  P->Kind = ir::Stmt::ParallelFor;
  P->Nested = std::move(Rows);
  N.Root.Body.push_back(std::move(P));
  return N;
}

TEST(WindowTile, TheRowsOfEachChannel) {
  ir::Nest N = inChannels(convolution());
  std::optional<ir::WindowTile> W = ir::windowTile(N);
  ASSERT_TRUE(W);
  const ir::Level &Rows = *N.Root.Body[0]->Nested;
  EXPECT_EQ(W->Rows, &Rows);
  EXPECT_EQ(W->Inner, Rows.Body[0]->Nested.get());
  EXPECT_EQ(W->LoopIndices, (std::vector<std::string>{"dy", "dx"}));
  EXPECT_EQ(W->Description, "in along y, f");
  // The inner level's bounds may follow the channel, the same for the rows
  // of a thread; not the row.
  EXPECT_TRUE(ir::windowTile(inChannels(convolution(), local("c"))));
  EXPECT_FALSE(ir::windowTile(inChannels(convolution(), local("y"))));
  EXPECT_FALSE(ir::windowTile(
      inChannels(convolution(), binary("-", lit(60), element(1, local("c"))))))
      << "a bound that reads a span";
}

TEST(WindowTile, NotWhereALevelOutsideIsMoreThanTheNextLevel) {
  // A reduction over the channels.
  ir::Nest N = inChannels(convolution());
  ir::Reduction R;
  R.Variable = "t";
  N.Root.Reductions.push_back(R);
  EXPECT_FALSE(ir::windowTile(N));
  // A statement beside the rows' level in the channels' body.
  N = inChannels(convolution());
  N.Root.Body.push_back(
      statement(binary("=", element(2, local("c"), true), lit(0))));
  EXPECT_FALSE(ir::windowTile(N));
  // A step of 2 on the rows' level.
  N = inChannels(convolution());
  N.Root.Body[0]->Nested->Step = 2;
  EXPECT_FALSE(ir::windowTile(N));
  N.Root.Body[0]->Nested->Step = 1;
  EXPECT_TRUE(ir::windowTile(N));
}

TEST(WindowTile, NotForASequentialNest) {
  ir::Nest N = convolution();
  N.Sequential = true;
  EXPECT_FALSE(ir::windowTile(N));
}

} // namespace
