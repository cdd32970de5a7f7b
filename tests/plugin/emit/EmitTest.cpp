// EmitTest.cpp: kernel text and descriptors from nest IR built by hand, and
// the NVRTC compile of that text where NVRTC is installed.
#include "TestNests.h"
#include "emit/KernelEmitter.h"
#include "ir/NestIR.h"
#include "map/Mapping.h"
#include "plan/KernelPlan.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

using namespace weft;

namespace {

ir::ExprPtr node(ir::Expr::KindType K, ir::ScalarKind T, std::string Text = "",
                 unsigned Param = 0) {
  auto E = std::make_unique<ir::Expr>();
  E->Kind = K;
  E->Type = T;
  E->Text = std::move(Text);
  E->ParamIndex = Param;
  return E;
}

ir::ExprPtr binary(std::string Op, ir::ExprPtr L, ir::ExprPtr R,
                   ir::ScalarKind T) {
  auto E = node(ir::Expr::Binary, T, std::move(Op));
  E->Operands.push_back(std::move(L));
  E->Operands.push_back(std::move(R));
  return E;
}

/// for (int i = 1; i < n - 1; ++i) y[i] = a * x[i] + y[i];
ir::Nest saxpyNest() {
  ir::Nest N;
  N.Location = "dir/sax-py.cpp:12:3";
  N.Params = {{"x", ir::ParamKind::ReadSpan, ir::ScalarKind::Float, true},
              {"y", ir::ParamKind::ReadWriteSpan, ir::ScalarKind::Float, false},
              {"a", ir::ParamKind::Scalar, ir::ScalarKind::Float, false},
              {"n", ir::ParamKind::Scalar, ir::ScalarKind::Int, false}};
  ir::Level L;
  L.IndexName = "i";
  L.IndexType = ir::ScalarKind::Int;
  L.Lower = node(ir::Expr::IntLiteral, ir::ScalarKind::Int, "1");
  L.Upper = binary("-", node(ir::Expr::ParamRef, ir::ScalarKind::Int, "", 3),
                   node(ir::Expr::IntLiteral, ir::ScalarKind::Int, "1"),
                   ir::ScalarKind::Int);
  L.Location = N.Location;
  auto Xi = node(ir::Expr::SpanElement, ir::ScalarKind::Float, "", 0);
  Xi->Operands.push_back(node(ir::Expr::Local, ir::ScalarKind::Int, "i"));
  auto Yi = node(ir::Expr::SpanElement, ir::ScalarKind::Float, "", 1);
  Yi->Use = ir::ElementUse::Written;
  Yi->Operands.push_back(node(ir::Expr::Local, ir::ScalarKind::Int, "i"));
  auto Yi2 = node(ir::Expr::SpanElement, ir::ScalarKind::Float, "", 1);
  Yi2->Operands.push_back(node(ir::Expr::Local, ir::ScalarKind::Int, "i"));
  auto Rhs =
      binary("+",
             binary("*", node(ir::Expr::ParamRef, ir::ScalarKind::Float, "", 2),
                    std::move(Xi), ir::ScalarKind::Float),
             std::move(Yi2), ir::ScalarKind::Float);
  auto S = std::make_unique<ir::Stmt>();
  S->Kind = ir::Stmt::ExprStmt;
  S->Exprs.push_back(
      binary("=", std::move(Yi), std::move(Rhs), ir::ScalarKind::Float));
  L.Body.push_back(std::move(S));
  N.Root = std::move(L);
  return N;
}

map::NestMapping oneDimensional(unsigned Block) {
  map::NestMapping M;
  M.Levels = map::baseline("1d", 1, map::DeviceModel());
  if (Block)
    M.Levels[0].BlockSize = Block;
  return M;
}

emit::EmittedKernel emitSaxpy(unsigned Block = 0) {
  ir::Nest N = saxpyNest();
  std::string Error;
  std::optional<plan::KernelPlan> P =
      plan::planKernel(N, oneDimensional(Block), Error);
  EXPECT_TRUE(P) << Error;
  return emit::emitKernel(*P);
}

TEST(Emit, KernelSignatureAndBody) {
  emit::EmittedKernel K = emitSaxpy();
  EXPECT_EQ(K.Name.rfind("weft_sax_py_L12_", 0), 0u) << K.Name;
  EXPECT_NE(K.Source.find("#include <weft/device.h>"), std::string::npos);
  EXPECT_NE(K.Source.find("WEFT_KERNEL(" + K.Name + ", WEFT_BLOCK_THREADS)"),
            std::string::npos);
  EXPECT_NE(K.Source.find("(weft::dspan<const float> x, weft::dspan<float> y, "
                          "float a, int n, weft::index_t weft_lo0, "
                          "weft::index_t weft_count0)"),
            std::string::npos)
      << K.Source;
  EXPECT_NE(K.Source.find("const int i = (int)(weft_lo0 + weft_t0);\n"
                          "    weft::begin_iteration(weft_t0);"),
            std::string::npos);
  EXPECT_NE(K.Source.find("(y[i] = ((a * x.ld(i)) + y.ld(i)));"),
            std::string::npos)
      << K.Source;
  EXPECT_NE(K.Source.find("#define WEFT_BLOCK_X 256"), std::string::npos);
}

TEST(Emit, Descriptor) {
  emit::EmittedKernel K = emitSaxpy(64);
  EXPECT_EQ(contract::writeDescriptor(K.Descriptor),
            "weft 8\nkernel " + K.Name +
                "\nloc dir/sax-py.cpp:12:3\n"
                "param in f32 x\nparam inout f32 y\n"
                "param scalar f32 a\nparam scalar i32 n\n"
                "level (lit 1) (sub (arg 3) (lit 1)) 1 lt\n"
                "map 0 x 64 span 1\n"
                "tune WEFT_BLOCK_X x 64 32 128 256\n");
  EXPECT_NE(K.Source.find("#define WEFT_BLOCK_X 64"), std::string::npos);
}

TEST(Emit, NameIsStableAndDependsOnContent) {
  EXPECT_EQ(emitSaxpy().Name, emitSaxpy().Name);
  ir::Nest Other = saxpyNest();
  Other.Params[1].Element = ir::ScalarKind::Double; // another instantiation
  std::string Error;
  emit::EmittedKernel K =
      emit::emitKernel(*plan::planKernel(Other, oneDimensional(0), Error));
  EXPECT_NE(K.Name, emitSaxpy().Name);
}

TEST(Emit, DumpIsReadable) {
  std::string D = ir::dump(saxpyNest());
  EXPECT_NE(D.find("param 1 y: read-written span of float"), std::string::npos)
      << D;
  EXPECT_NE(D.find("level 0 at dir/sax-py.cpp:12:3: int i in [1, ($n - 1)) "
                   "step 1"),
            std::string::npos)
      << D;
  EXPECT_NE(D.find("($y[i] = (($a * $x[i]) + $y[i]))"), std::string::npos) << D;
}

TEST(Emit, CompilesWithNvrtc) {
  emit::EmittedKernel K = emitSaxpy();
  std::string Path = testing::TempDir() + K.Name + ".cu";
  std::ofstream(Path) << K.Source;
  int Status = std::system((std::string(WEFT_NVRTC) + " " + Path).c_str());
  if (WIFEXITED(Status) && WEXITSTATUS(Status) == 77)
    GTEST_SKIP() << "NVRTC is not installed";
  EXPECT_TRUE(WIFEXITED(Status) && WEXITSTATUS(Status) == 0);
}

} // namespace

// The generator never writes data the loop only reads: a nest whose IR
// says an element of a read span is written is caught before its text is
// assembled (the plugin refuses the loop with an error), and the same nest
// writing a read-write span is not.
TEST(Emit, WritesOnlyDataTheLoopWrites) {
  ir::Nest Reads = test_nests::productNest(false, ir::ParamKind::ReadSpan);
  EXPECT_EQ(emit::writtenReadOnlyData(Reads), "");
  auto Target = [](ir::Nest &N) -> ir::Expr & {
    ir::Stmt &Loop = *N.Root.Body[0]->Nested->Body[0];
    return *Loop.Children[1]->Exprs[0]->Operands[1]; // a[...] of acc += a[...]
  };
  ASSERT_EQ(Target(Reads).Kind, ir::Expr::SpanElement);
  Target(Reads).Use = ir::ElementUse::Bound;
  EXPECT_EQ(emit::writtenReadOnlyData(Reads), "") << "bound is read";
  Target(Reads).Use = ir::ElementUse::Written;
  EXPECT_EQ(emit::writtenReadOnlyData(Reads), "a");
  ir::Nest Writes =
      test_nests::productNest(false, ir::ParamKind::ReadWriteSpan);
  Target(Writes).Use = ir::ElementUse::Written;
  EXPECT_EQ(emit::writtenReadOnlyData(Writes), "");
}
