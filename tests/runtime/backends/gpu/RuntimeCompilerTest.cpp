// RuntimeCompilerTest.cpp: the device prelude and the runtime compilers,
// NVRTC for sm_90 and hipRTC for gfx90a, compiling for real where they are
// installed (skipped, with the reason, where they are not).
#include "gpu/RuntimeCompiler.h"
#include "gpu/KernelResources.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

using weft::rt::RuntimeCompiler;

namespace {

struct Target {
  RuntimeCompiler::Kind Kind;
  const char *Arch;
};

class RuntimeCompilerTest : public testing::TestWithParam<Target> {
protected:
  void SetUp() override {
    std::string Error;
    if (!Compiler.load(Error))
      GTEST_SKIP() << Compiler.name() << " is not installed: " << Error;
  }
  RuntimeCompiler Compiler{GetParam().Kind};
  const std::string Arch = GetParam().Arch;
};

TEST_P(RuntimeCompilerTest, PreludeCoversEveryMathFunction) {
  std::string Source = "#include <weft/device.h>\n"
                       "template <class T> WEFT_DEVICE T all(T x) {\n"
                       "  using namespace weft;\n"
                       "  T r = x;\n";
  for (const char *F :
       {"sqrt",   "cbrt", "exp",   "exp2",  "expm1", "log",   "log2", "log10",
        "log1p",  "sin",  "cos",   "tan",   "asin",  "acos",  "atan", "sinh",
        "cosh",   "tanh", "asinh", "acosh", "atanh", "erf",   "erfc", "tgamma",
        "lgamma", "fabs", "floor", "ceil",  "round", "trunc", "abs"})
    Source += std::string("  r += weft::") + F + "(x);\n";
  for (const char *F : {"pow", "atan2", "fmod", "fmin", "fmax", "hypot",
                        "copysign", "min", "max"})
    Source += std::string("  r += weft::") + F + "(x, r);\n";
  Source += "  r += weft::fma(x, r, x) + weft::clamp(r, x, x);\n"
            "  return r;\n}\n"
            "WEFT_KERNEL(k, 128)(weft::dspan<float> f, weft::dspan<double> d, "
            "weft::dspan<int> i) {\n"
            "  weft::index_t t = weft::global_id_x();\n"
            "  if (t < (weft::index_t)f.size()) f[t] = all(f[t]);\n"
            "  if (t < (weft::index_t)d.size()) d[t] = all(d[t]);\n"
            "  if (t < (weft::index_t)i.size()) i[t] = weft::abs(i[t]) + "
            "weft::min(i[t], 3);\n"
            "}\n";
  std::vector<char> Cubin;
  std::string Log;
  EXPECT_TRUE(Compiler.compile(Source, "prelude", Arch, {}, Cubin, Log)) << Log;
  EXPECT_GT(Cubin.size(), 1000u);
}

// The tuner compiles on its own thread only once the program's thread has
// compiled (GpuBackend::precompiles): NVRTC loads its builtins then.
TEST_P(RuntimeCompilerTest, SaysWhetherItHasCompiled) {
  EXPECT_FALSE(Compiler.hasCompiled());
  std::vector<char> Binary;
  std::string Log;
  Compiler.compile("#include <weft/device.h>\nWEFT_KERNEL(k, 64)(int x) {}\n",
                   "first", Arch, {}, Binary, Log);
  EXPECT_TRUE(Compiler.hasCompiled()) << Log;
}

TEST_P(RuntimeCompilerTest, ErrorsComeBackWithTheLog) {
  std::vector<char> Cubin;
  std::string Log;
  EXPECT_FALSE(Compiler.compile("#include <weft/device.h>\n"
                                "WEFT_KERNEL(k, 64)(int x) { undeclared(); }\n",
                                "broken", Arch, {}, Cubin, Log));
  EXPECT_NE(Log.find("undeclared"), std::string::npos) << Log;
}

// The tuner compiles variants on a thread of its own while the program's
// thread compiles other kernels: each gets its own binary.
TEST_P(RuntimeCompilerTest, CompilesFromSeveralThreadsAtOnce) {
  const char *Source = "#include <weft/device.h>\n"
                       "WEFT_KERNEL(k, WEFT_BLOCK_X)(weft::dspan<int> o) {\n"
                       "  o[weft::global_id_x()] = WEFT_BLOCK_X;\n}\n";
  std::vector<std::vector<char>> Binaries(4);
  std::vector<std::string> Logs(4);
  std::vector<int> Compiled(4, 0);
  std::vector<std::thread> Threads;
  for (int I = 0; I < 4; ++I)
    Threads.emplace_back([&, I] {
      Compiled[I] = Compiler.compile(
          Source, "threads", Arch, {"WEFT_BLOCK_X=" + std::to_string(64 << I)},
          Binaries[I], Logs[I]);
    });
  for (std::thread &T : Threads)
    T.join();
  for (int I = 0; I < 4; ++I) {
    EXPECT_TRUE(Compiled[I]) << Logs[I];
    EXPECT_GT(Binaries[I].size(), 100u);
    for (int J = 0; J < I; ++J)
      EXPECT_NE(Binaries[I], Binaries[J]) << "variants " << I << ", " << J;
  }
}

TEST_P(RuntimeCompilerTest, DefinesReachTheKernel) {
  std::vector<char> Cubin;
  std::string Log;
  const char *Source = "#include <weft/device.h>\n"
                       "#if WEFT_BLOCK_X != 512\n#error wrong block\n#endif\n"
                       "WEFT_KERNEL(k, WEFT_BLOCK_X)(int x) {}\n";
  EXPECT_TRUE(Compiler.compile(Source, "defines", Arch, {"WEFT_BLOCK_X=512"},
                               Cubin, Log))
      << Log;
  EXPECT_FALSE(Compiler.compile(Source, "defines", Arch, {"WEFT_BLOCK_X=256"},
                                Cubin, Log));
}

// WEFT_STRICT_FP=1: no contraction into fused multiply-adds; the code the
// compiler makes of a * b + c changes accordingly.
TEST_P(RuntimeCompilerTest, StrictFloatingPointTurnsContractionOff) {
  const std::vector<std::string> Options =
      Compiler.options(Arch, {"WEFT_STRICT_FP=1"});
  const char *Off = Compiler.name() == std::string("NVRTC")
                        ? "--fmad=false"
                        : "-ffp-contract=off";
  EXPECT_NE(std::find(Options.begin(), Options.end(), Off), Options.end());
  const std::vector<std::string> Default = Compiler.options(Arch, {});
  EXPECT_EQ(std::find(Default.begin(), Default.end(), Off), Default.end());
  std::vector<char> Fused, Strict;
  std::string Log;
  const char *Source = "#include <weft/device.h>\n"
                       "WEFT_KERNEL(k, 64)(weft::dspan<float> y, float a) {\n"
                       "  y[0] = a * y.ld(1) + y.ld(2);\n}\n";
  ASSERT_TRUE(Compiler.compile(Source, "fma", Arch, {}, Fused, Log)) << Log;
  ASSERT_TRUE(
      Compiler.compile(Source, "fma", Arch, {"WEFT_STRICT_FP=1"}, Strict, Log))
      << Log;
  EXPECT_NE(Fused, Strict);
}

// NVRTC's log carries ptxas's report of what each kernel uses; the
// runtime and weft-nvrtc print it.
TEST_P(RuntimeCompilerTest, ReportsWhatTheKernelUses) {
  if (Compiler.name() != std::string("NVRTC"))
    GTEST_SKIP() << "hipRTC's log carries no resource report (the HIP "
                    "backend asks hipFuncGetAttribute instead)";
  std::vector<char> Cubin;
  std::string Log;
  const char *Source =
      "#include <weft/device.h>\n"
      "WEFT_KERNEL(staged, 256)(weft::dspan<float> y) {\n"
      "  WEFT_SHARED weft::shared_array<float, 1024> t;\n"
      "  t[weft::thread_idx(0)] = y.ld(weft::thread_idx(0));\n"
      "  weft::barrier();\n"
      "  y[weft::thread_idx(0)] = t.ld(1023 - weft::thread_idx(0));\n}\n";
  ASSERT_TRUE(Compiler.compile(Source, "staged", Arch, {}, Cubin, Log)) << Log;
  std::optional<weft::rt::KernelResources> R =
      weft::rt::parsePtxasLog(Log, "staged");
  ASSERT_TRUE(R) << Log;
  EXPECT_GT(R->Registers, 0);
  EXPECT_EQ(R->SharedBytes, 4096);
  EXPECT_EQ(R->SpillStoreBytes, 0);
  EXPECT_FALSE(weft::rt::parsePtxasLog(Log, "stage")) << "a prefix is not it";
}

INSTANTIATE_TEST_SUITE_P(
    Compilers, RuntimeCompilerTest,
    testing::Values(Target{RuntimeCompiler::Kind::Nvrtc, "sm_90"},
                    Target{RuntimeCompiler::Kind::Hiprtc, "gfx90a"}),
    [](const testing::TestParamInfo<Target> &I) {
      return std::string(
          I.param.Kind == RuntimeCompiler::Kind::Nvrtc ? "Nvrtc" : "Hiprtc");
    });

// ptxas reports function by function; each report goes to its own kernel.
TEST(KernelResources, EachFunctionsReportIsItsOwn) {
  const std::string Log =
      "ptxas info    : Compiling entry function 'k2' for 'sm_90'\n"
      "ptxas info    : Function properties for k2\n"
      "ptxas         .     24 bytes stack frame, 16 bytes spill stores, 8 "
      "bytes spill loads\n"
      "ptxas info    : Used 255 registers, used 1 barriers, 8448 bytes smem\n"
      "ptxas info    : Compiling entry function 'k' for 'sm_90'\n"
      "ptxas info    : Function properties for k\n"
      "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes "
      "spill loads\n"
      "ptxas info    : Used 10 registers\n";
  std::optional<weft::rt::KernelResources> K2 =
      weft::rt::parsePtxasLog(Log, "k2");
  ASSERT_TRUE(K2);
  EXPECT_EQ(K2->Registers, 255);
  EXPECT_EQ(K2->SharedBytes, 8448);
  EXPECT_EQ(K2->LocalBytes, 24);
  EXPECT_EQ(K2->SpillStoreBytes, 16);
  EXPECT_EQ(K2->SpillLoadBytes, 8);
  std::optional<weft::rt::KernelResources> K =
      weft::rt::parsePtxasLog(Log, "k");
  ASSERT_TRUE(K);
  EXPECT_EQ(K->Registers, 10);
  EXPECT_EQ(K->SharedBytes, 0);
  EXPECT_EQ(weft::rt::describe(*K2),
            "255 registers, 8448 bytes shared, 24 bytes local (16 bytes of "
            "spill stores, 8 of spill loads)");
}

} // namespace
