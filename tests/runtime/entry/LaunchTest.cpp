// LaunchTest.cpp: backend selection and the fault policies: by default
// launchKernel returns false (the host loop runs) with at most one warning
// line and the data untouched; an explicitly named GPU backend or
// WEFT_ON_FAULT=error stops the program with one error line instead.
#include "weft/abi.h"

#include "core/DynamicLibrary.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <unistd.h>

using weft::detail::LaunchArg;
using weft::detail::launchKernel;

namespace {

const char *const Descriptor = "weft 8\nkernel weft_test_k\nloc t.cpp:1:1\n"
                               "param inout f32 y\n"
                               "level (lit 0) (size 0) 1 lt\n";
const char *const Source = "#include <weft/device.h>\n"
                           "WEFT_KERNEL(weft_test_k, 256)"
                           "(weft::dspan<float> y, weft::index_t lo, "
                           "weft::index_t n) {}\n";

bool cudaDriverPresent() {
  weft::rt::DynamicLibrary L;
  std::string Error;
  return L.open({"libcuda.so.1"}, Error);
}

TEST(Launch, HostBackendRunsTheLoop) {
  // The test's environment sets WEFT_BACKEND=host.
  float Y[4] = {1, 2, 3, 4};
  LaunchArg Args[] = {{Y, 4, sizeof(float)}};
  EXPECT_FALSE(launchKernel(Descriptor, Source, Args, 1));
  EXPECT_EQ(Y[3], 4.0f);
}

/// The runtime chooses its backend once per process: each death test runs
/// in a freshly started copy of this binary ("threadsafe" style).
class LaunchEnvironment : public testing::Environment {
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};
const testing::Environment *const Registered =
    testing::AddGlobalTestEnvironment(new LaunchEnvironment);

/// Runs in a child process: launches twice under Backend and exits 0 when
/// both fell back and the data is untouched.
[[noreturn]] void launchTwiceUnder(const char *Backend) {
  setenv("WEFT_BACKEND", Backend, 1);
  float Y[4] = {1, 2, 3, 4};
  LaunchArg Args[] = {{Y, 4, sizeof(float)}};
  bool First = launchKernel(Descriptor, Source, Args, 1);
  bool Second = launchKernel(Descriptor, Source, Args, 1);
  std::exit(!First && !Second && Y[3] == 4.0f ? 0 : 1);
}

TEST(Launch, ExplicitCudaWithoutDriverIsAnError) {
  if (cudaDriverPresent())
    GTEST_SKIP() << "a CUDA driver is installed: no fault to report";
  EXPECT_EXIT(launchTwiceUnder("cuda"), testing::ExitedWithCode(1),
              "^weft: error: WEFT_BACKEND=cuda, but CUDA is unavailable "
              "\\(cannot load any of libcuda.so.1, libcuda.so\\) "
              "\\(WEFT_BACKEND=cuda makes this an error; "
              "WEFT_ON_FAULT=fallback runs the loop on the host instead\\)\n$");
}

[[noreturn]] void cudaWithFallback() {
  setenv("WEFT_ON_FAULT", "fallback", 1);
  launchTwiceUnder("cuda");
}

TEST(Launch, ExplicitCudaWithFallbackPolicyWarnsOnceAndFallsBack) {
  if (cudaDriverPresent())
    GTEST_SKIP() << "a CUDA driver is installed: the fallback is not taken";
  EXPECT_EXIT(cudaWithFallback(), testing::ExitedWithCode(0),
              "^weft: warning: WEFT_BACKEND=cuda, but CUDA is unavailable "
              "\\(cannot load any of libcuda.so.1, libcuda.so\\); marked "
              "loops run on the host\n$");
}

TEST(Launch, AutoWithoutGpuIsSilent) {
  if (cudaDriverPresent())
    GTEST_SKIP() << "a CUDA driver is installed";
  EXPECT_EXIT(launchTwiceUnder("auto"), testing::ExitedWithCode(0), "^$");
}

TEST(Launch, UnknownBackendWarns) {
  if (cudaDriverPresent())
    GTEST_SKIP() << "a CUDA driver is installed: auto would use it";
  EXPECT_EXIT(launchTwiceUnder("quantum"), testing::ExitedWithCode(0),
              "weft: warning: WEFT_BACKEND='quantum' is not one of auto, "
              "cuda, hip, sim, host; using auto");
}

} // namespace

namespace {

[[noreturn]] void simWithBrokenCompiler() {
  setenv("WEFT_SIM_CXX", "/bin/false", 1);
  launchTwiceUnder("sim");
}

TEST(Launch, SimCompileFailureWarnsOnceAndKeepsTheData) {
  EXPECT_EXIT(simWithBrokenCompiler(), testing::ExitedWithCode(0),
              "^weft: warning: t.cpp:1:1: kernel weft_test_k on sim failed: "
              "the host compiler failed on [^ ]+\\.cpp \\(its messages are in "
              "[^ ]+\\.log\\); the loop runs on the host\n$");
}

[[noreturn]] void simWithBrokenCompilerAndErrorPolicy() {
  setenv("WEFT_ON_FAULT", "error", 1);
  simWithBrokenCompiler();
}

TEST(Launch, ErrorPolicyStopsAtTheFirstFault) {
  EXPECT_EXIT(simWithBrokenCompilerAndErrorPolicy(), testing::ExitedWithCode(1),
              "^weft: error: t.cpp:1:1: kernel weft_test_k on sim failed: "
              "the host compiler failed on [^ ]+\\.cpp \\(its messages are in "
              "[^ ]+\\.log\\) \\(WEFT_ON_FAULT=error\\)\n$");
}

} // namespace

namespace {

TEST(Launch, ExplicitHipWithoutGpuIsAnError) {
  if (::access("/dev/kfd", F_OK) == 0)
    GTEST_SKIP() << "an AMD GPU driver is present: no fault to report";
  // Whether libamdhip64 is installed or not, the reason is named.
  EXPECT_EXIT(launchTwiceUnder("hip"), testing::ExitedWithCode(1),
              "^weft: error: WEFT_BACKEND=hip, but HIP is unavailable "
              "\\([^\n]+\\) \\(WEFT_BACKEND=hip makes this an error; "
              "WEFT_ON_FAULT=fallback runs the loop on the host instead\\)\n$");
}

} // namespace
