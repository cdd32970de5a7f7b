// RegisterTileTest.cpp: register tiling on the hand-built product nest:
// which nests qualify, what the search chooses at a large and a small
// size, and the register budget that bounds a thread's tile.
#include "analysis/RegisterTile.h"
#include "TestNests.h"
#include "plan/KernelPlan.h"
#include "plan/KernelShape.h"

#include <gtest/gtest.h>

#include <functional>
#include <utility>

using namespace weft;
using namespace weft::test_nests;

namespace {

/// for i: for j (parallel): { float acc = 0; for k: acc += a[..] * b[..];
/// c[i * K + j] = acc; } with extents Rows x Cols.
ir::Nest
accumulatingProduct(bool ThreadRow, std::int64_t Rows, std::int64_t Cols,
                    const std::function<void(ir::Nest &)> &Edit = nullptr) {
  ir::Nest N = productNest(ThreadRow, ir::ParamKind::ReadSpan, true);
  N.Root.Upper = node(ir::Expr::IntLiteral, std::to_string(Rows));
  ir::Level &Inner = *N.Root.Body.front()->Nested;
  Inner.Upper = node(ir::Expr::IntLiteral, std::to_string(Cols));
  auto Acc = std::make_unique<ir::Stmt>();
  Acc->Kind = ir::Stmt::Decl;
  Acc->Name = "acc";
  Acc->VarType.Scalar = ir::ScalarKind::Float;
  Acc->Exprs.push_back(node(ir::Expr::FloatLiteral, "0"));
  Inner.Body.insert(Inner.Body.begin(), std::move(Acc));
  N.Params.push_back(
      {"c", ir::ParamKind::WriteSpan, ir::ScalarKind::Float, true});
  Inner.Body.push_back(statement(binary(
      "=",
      element(3, binary("+", binary("*", local("i"), param(0)), local("j")),
              /*Write=*/true),
      local("acc"))));
  if (Edit)
    Edit(N);
  ir::analyzeAccesses(N);
  return N;
}

/// The product's term (a[..] * b[..]) in the loop of accumulatingProduct.
ir::ExprPtr &productTerm(ir::Nest &N) {
  ir::Level &Inner = *N.Root.Body.front()->Nested;
  return Inner.Body[1]->Children[1]->Exprs[0]->Operands[1];
}

/// The factors registerTileable finds for each tile of N's loop.
std::vector<const ir::Expr *> tileFactors(const ir::Nest &N) {
  std::optional<ir::TileableLoop> T = ir::findTileableLoop(N);
  if (!T)
    return {};
  std::optional<ir::RegisterTileable> R =
      ir::registerTileable(N, *T, ir::planScalarReplacement(N));
  return R ? R->Factor : std::vector<const ir::Expr *>{};
}

map::NestMapping chosen(const ir::Nest &N, std::uint64_t Registers) {
  map::MappingInput In = plan::buildableOnly(N, {});
  In.Symbols["K"] = 2048;
  In.Device.RegistersPerMultiprocessor = Registers;
  return map::chooseMapping(N, In);
}

TEST(RegisterTile, TheProductQualifies) {
  const ir::Nest N = accumulatingProduct(false, 2048, 2048);
  std::optional<ir::TileableLoop> T = ir::findTileableLoop(N);
  ASSERT_TRUE(T);
  std::optional<ir::RegisterTileable> R =
      ir::registerTileable(N, *T, ir::planScalarReplacement(N));
  ASSERT_TRUE(R);
  EXPECT_EQ(R->Accumulators.size(), 1u);
}

// Without the accumulator's declaration in the level, acc is not the
// thread's own: one register per output cannot stand for it.
TEST(RegisterTile, NotAnAccumulatorFromOutside) {
  const ir::Nest N = productNest(false, ir::ParamKind::ReadSpan, true);
  std::optional<ir::TileableLoop> T = ir::findTileableLoop(N);
  ASSERT_TRUE(T);
  EXPECT_FALSE(ir::registerTileable(N, *T, ir::planScalarReplacement(N)));
}

// At 2048^2 the search gives each thread an 8 x 8 tile (a shared-memory
// load per 8 fused multiply-adds), and the plan holds it.
TEST(RegisterTile, LargeProductsTakeEightByEight) {
  const ir::Nest N = accumulatingProduct(false, 2048, 2048);
  const map::NestMapping M = chosen(N, 64 * 1024);
  ASSERT_EQ(M.Levels.size(), 2u);
  EXPECT_EQ(M.Levels[0].Dop.Kind, map::Parallelism::Span);
  EXPECT_EQ(M.Levels[0].Dop.N, 8u) << map::describe(M.Levels[0]);
  EXPECT_EQ(M.Levels[1].Dop.N, 8u) << map::describe(M.Levels[1]);
  EXPECT_EQ(M.Levels[1].Dim, map::Dimension::X)
      << map::describe(M.Levels[0]) << "; " << map::describe(M.Levels[1]);
  std::string Error;
  std::optional<plan::KernelPlan> P = plan::planKernel(N, M, Error);
  ASSERT_TRUE(P) << Error;
  ASSERT_TRUE(P->RegisterTile);
  EXPECT_EQ(P->RegisterTile->TM, 8u);
  EXPECT_EQ(P->RegisterTile->TN, 8u);
}

// Each thread's outputs and fragments take registers: on an SM with a
// quarter of the registers, the tile (or the block) shrinks to fit half
// of them.
TEST(RegisterTile, TheRegisterBudgetBoundsTheTile) {
  const ir::Nest N = accumulatingProduct(false, 2048, 2048);
  const map::NestMapping M = chosen(N, 16 * 1024);
  ASSERT_EQ(M.Levels.size(), 2u);
  const std::uint64_t N0 = M.Levels[0].Dop.N, N1 = M.Levels[1].Dop.N;
  const std::uint64_t Threads =
      std::uint64_t(M.Levels[0].BlockSize) * M.Levels[1].BlockSize;
  EXPECT_LE(Threads * (N0 * N1 + N0 + N1 + 32), 8u * 1024)
      << map::describe(M.Levels[0]) << "; " << map::describe(M.Levels[1]);
}

// A double takes two registers: a product of doubles gets a tile whose
// outputs and fragments, at two words a value, still leave two blocks an
// SM, on an SM of 64K registers and on one of 32K.
TEST(RegisterTile, DoublesTakeTwoRegistersAValue) {
  ir::Nest N = accumulatingProduct(false, 2048, 2048);
  N.Params[1].Element = N.Params[2].Element = ir::ScalarKind::Double;
  for (std::uint64_t Registers : {64 * 1024, 32 * 1024}) {
    const map::NestMapping M = chosen(N, Registers);
    ASSERT_EQ(M.Levels.size(), 2u);
    const std::uint64_t N0 = M.Levels[0].Dop.N, N1 = M.Levels[1].Dop.N;
    const std::uint64_t Threads =
        std::uint64_t(M.Levels[0].BlockSize) * M.Levels[1].BlockSize;
    EXPECT_LE(Threads * (2 * (N0 * N1 + N0 + N1) + 32), Registers / 2)
        << Registers << ": " << map::describe(M.Levels[0]) << "; "
        << map::describe(M.Levels[1]);
  }
}

// The tiles a register tile stages (its block's rows and columns times the
// outputs a thread along them, for 8 iterations of the loop, in two
// buffers) fit the shared memory set aside for tiles, whatever the
// extents.
TEST(RegisterTile, TilesFitTheirSharedMemory) {
  for (const auto &[Rows, Cols] :
       {std::pair<std::int64_t, std::int64_t>{128, 128},
        {128, 8192},
        {8192, 128},
        {2048, 2048},
        {65536, 16}}) {
    const ir::Nest N = accumulatingProduct(false, Rows, Cols);
    const map::NestMapping M = chosen(N, 64 * 1024);
    ASSERT_EQ(M.Levels.size(), 2u);
    const map::LevelMapping &R = M.Levels[0], &C = M.Levels[1];
    const std::uint64_t Bytes = 2 * sizeof(float) * map::RegisterTileWidth *
                                (std::uint64_t(R.BlockSize) * R.Dop.N + 4 +
                                 std::uint64_t(C.BlockSize) * C.Dop.N + 4);
    EXPECT_LE(Bytes, map::RegisterTileSharedBytes)
        << Rows << " x " << Cols << ": " << map::describe(R) << "; "
        << map::describe(C);
  }
}

/// The widths of the 16-byte runs the block loads each tile in.
std::vector<unsigned> vectorWidths(const ir::Nest &N) {
  std::optional<ir::TileableLoop> T = ir::findTileableLoop(N);
  if (!T)
    return {};
  std::optional<ir::RegisterTileable> R =
      ir::registerTileable(N, *T, ir::planScalarReplacement(N));
  return R ? R->VectorWidth : std::vector<unsigned>{};
}

// a[i * K + k] runs along k, b[k * K + j] along j: four floats a load; two
// doubles; an element at a time where b's column steps by 2 elements or
// the level by 2 iterations, or the element is a struct.
TEST(RegisterTile, RunsWhereTheSubscriptHasUnitStride) {
  EXPECT_EQ(vectorWidths(accumulatingProduct(false, 2048, 2048)),
            (std::vector<unsigned>{4, 4}));
  ir::Nest Doubles = accumulatingProduct(false, 2048, 2048);
  Doubles.Params[1].Element = Doubles.Params[2].Element =
      ir::ScalarKind::Double;
  EXPECT_EQ(vectorWidths(Doubles), (std::vector<unsigned>{2, 2}));
  ir::Nest Strided = accumulatingProduct(false, 2048, 2048);
  Strided.Root.Body.front()->Nested->Step = 2;
  EXPECT_EQ(vectorWidths(Strided), (std::vector<unsigned>{4, 1}));
  ir::Nest Structs = accumulatingProduct(false, 2048, 2048);
  ir::StructDef Pair;
  Pair.Name = "Pair";
  Pair.Size = 8;
  Structs.Structs.push_back(Pair);
  Structs.Params[1].Struct = 0;
  EXPECT_EQ(vectorWidths(Structs), (std::vector<unsigned>{1, 4}));
}

// alpha * a[..] * b[..]: a's tile is staged times alpha, b's as it is;
// (a[..] * b[..]) * alpha scales neither (its rounding is another); nor
// where the level assigns alpha, nor where a's read is also used alone.
TEST(RegisterTile, AFactorOfEveryReadIsStagedWithTheTile) {
  const auto WithAlpha = [](ir::Nest &N) {
    N.Params.push_back({"alpha", ir::ParamKind::Scalar, ir::ScalarKind::Int});
    ir::ExprPtr &Term = productTerm(N);
    Term->Operands[0] = binary("*", param(4), std::move(Term->Operands[0]));
  };
  {
    const ir::Nest N = accumulatingProduct(false, 2048, 2048, WithAlpha);
    const std::vector<const ir::Expr *> F = tileFactors(N);
    ASSERT_EQ(F.size(), 2u);
    ASSERT_TRUE(F[0]);
    EXPECT_EQ(F[0]->Kind, ir::Expr::ParamRef);
    EXPECT_EQ(F[0]->ParamIndex, 4u);
    EXPECT_FALSE(F[1]);
  }
  {
    const ir::Nest N = accumulatingProduct(false, 2048, 2048, [](ir::Nest &N) {
      N.Params.push_back({"alpha", ir::ParamKind::Scalar, ir::ScalarKind::Int});
      ir::ExprPtr &Term = productTerm(N);
      Term = binary("*", std::move(Term), param(4));
    });
    EXPECT_EQ(tileFactors(N),
              (std::vector<const ir::Expr *>{nullptr, nullptr}));
  }
  {
    const ir::Nest N = accumulatingProduct(false, 2048, 2048, [&](ir::Nest &N) {
      WithAlpha(N);
      ir::Level &Inner = *N.Root.Body.front()->Nested;
      Inner.Body.insert(Inner.Body.begin() + 1,
                        statement(binary("=", param(4), param(0))));
    });
    EXPECT_EQ(tileFactors(N),
              (std::vector<const ir::Expr *>{nullptr, nullptr}));
  }
  {
    const ir::Nest N = accumulatingProduct(false, 2048, 2048, [&](ir::Nest &N) {
      WithAlpha(N);
      // acc += alpha * a[i * K + k] * b[..] + a[i * K + k]
      ir::ExprPtr &Term = productTerm(N);
      const ir::Expr &A = *Term->Operands[0]->Operands[1];
      auto Again = node(ir::Expr::SpanElement, "", A.ParamIndex);
      Again->Operands.push_back(
          binary("+", binary("*", local("i"), param(0)), local("k")));
      Term = binary("+", std::move(Term), std::move(Again));
    });
    const std::vector<const ir::Expr *> F = tileFactors(N);
    ASSERT_EQ(F.size(), 2u);
    EXPECT_FALSE(F[0]);
  }
  // An integer division is not computed where the loop might not: the
  // block would divide by a zero that the loop never reaches.
  for (const char *Op : {"/", "*"}) {
    const ir::Nest N = accumulatingProduct(false, 2048, 2048, [&](ir::Nest &N) {
      N.Params.push_back({"alpha", ir::ParamKind::Scalar, ir::ScalarKind::Int});
      ir::ExprPtr &Term = productTerm(N);
      Term->Operands[0] = binary("*", binary(Op, param(0), param(4)),
                                 std::move(Term->Operands[0]));
    });
    const std::vector<const ir::Expr *> F = tileFactors(N);
    ASSERT_EQ(F.size(), 2u);
    EXPECT_EQ(F[0] != nullptr, std::string(Op) == "*") << Op;
  }
}

// A read that follows both indices shares nothing: no register tile.
TEST(RegisterTile, NotWhereNothingIsShared) {
  const ir::Nest N = accumulatingProduct(true, 2048, 2048);
  const map::NestMapping M = chosen(N, 64 * 1024);
  for (const map::LevelMapping &L : M.Levels)
    EXPECT_LE(L.Dop.N, 1u) << map::describe(L);
}

} // namespace
