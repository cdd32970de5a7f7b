// KernelCacheTest.cpp: the on-disk kernel cache: round trips, corruption
// detected, the directory's permissions, and a second run compiling nothing.
#include "core/KernelCache.h"
#include "core/Backend.h"
#include "launch/LaunchBounds.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sys/stat.h>

using namespace weft::rt;

namespace {

class KernelCacheTest : public testing::Test {
protected:
  void SetUp() override {
    Root = testing::TempDir() + "weft-cache-" +
           testing::UnitTest::GetInstance()->current_test_info()->name();
    std::system(("rm -rf " + Root).c_str());
    setenv("WEFT_CACHE_DIR", Root.c_str(), 1);
  }
  std::string Root;
};

TEST_F(KernelCacheTest, RoundTripAndPrivateDirectory) {
  KernelCache Cache("cuda");
  std::string Why;
  ASSERT_TRUE(Cache.ready(Why)) << Why;
  struct stat St;
  ASSERT_EQ(::stat(Cache.directory().c_str(), &St), 0);
  EXPECT_EQ(St.st_mode & 0777, 0700u);
  EXPECT_FALSE(Cache.load("k", "key"));
  const std::vector<char> Binary = {'\x7f', 'E', 'L', 'F', 0, 1, 2};
  Cache.store("k", "key", Binary);
  EXPECT_EQ(Cache.load("k", "key"), Binary);
  EXPECT_FALSE(Cache.load("k", "another key")); // another compiler, arch...
}

TEST_F(KernelCacheTest, CorruptEntryIsRebuilt) {
  KernelCache Cache("cuda");
  Cache.store("k", "key", std::vector<char>(100, 'x'));
  {
    std::fstream F(Cache.path("k", "key"),
                   std::ios::in | std::ios::out | std::ios::binary);
    F.seekp(60);
    F.put('y');
  }
  EXPECT_FALSE(Cache.load("k", "key"));
  Cache.store("k", "key", std::vector<char>(100, 'x'));
  EXPECT_TRUE(Cache.load("k", "key"));
}

TEST_F(KernelCacheTest, DirectoryWritableByOthersIsRefused) {
  KernelCache Cache("cuda");
  std::string Why;
  ASSERT_TRUE(Cache.ready(Why));
  ::chmod(Cache.directory().c_str(), 0777);
  KernelCache Again("cuda");
  EXPECT_FALSE(Again.ready(Why));
  EXPECT_NE(Why.find("writable by others"), std::string::npos) << Why;
  Again.store("k", "key", {'a'});
  EXPECT_FALSE(Again.load("k", "key"));
}

/// In a child process: compiles and runs one kernel on the simulator.
[[noreturn]] void simLaunch(const char *Cxx) {
  if (Cxx)
    setenv("WEFT_SIM_CXX", Cxx, 1);
  std::string Reason;
  std::unique_ptr<Backend> Sim = createSimBackend(Reason);
  KernelInfo K;
  K.Name = "weft_cache_probe";
  KernelHandle H = nullptr;
  Status S =
      Sim ? Sim->getKernel(K,
                           "#include <weft/device.h>\n"
                           "WEFT_KERNEL(weft_cache_probe, 32)(int x) {}\n",
                           {}, K.Name, H)
          : Reason;
  std::exit(S.empty() ? 0 : 1);
}

TEST_F(KernelCacheTest, SecondRunCompilesNothing) {
  // Forked children (not re-executed ones, which would rerun SetUp and wipe
  // the cache); this process has no runtime state to inherit.
  const std::string Style = GTEST_FLAG_GET(death_test_style);
  GTEST_FLAG_SET(death_test_style, "fast");
  // A compiler that logs each call, then compiles.
  const std::string Log = Root + "-calls.log", Cxx = Root + "-cxx.sh";
  std::remove(Log.c_str());
  std::ofstream(Cxx) << "#!/bin/sh\necho call >> " << Log << "\nexec "
                     << WEFT_HOST_CXX << " \"$@\"\n";
  ::chmod(Cxx.c_str(), 0755);
  auto Calls = [&] {
    std::ifstream In(Log);
    int N = 0;
    for (std::string Line; std::getline(In, Line);)
      ++N;
    return N;
  };
  EXPECT_EXIT(simLaunch(Cxx.c_str()), testing::ExitedWithCode(0), "");
  EXPECT_EQ(Calls(), 1);
  EXPECT_EXIT(simLaunch(Cxx.c_str()), testing::ExitedWithCode(0), "");
  EXPECT_EQ(Calls(), 1) << "the second run compiled again";
  // Without the cache it compiles again; a failing compiler then fails.
  std::system(("rm -rf " + Root).c_str());
  EXPECT_EXIT(simLaunch("/bin/false"), testing::ExitedWithCode(1), "");
  GTEST_FLAG_SET(death_test_style, Style);
}

} // namespace
