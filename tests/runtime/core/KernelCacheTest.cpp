// KernelCacheTest.cpp: the on-disk kernel cache: round trips, corruption
// detected, the directories' permissions from the root down, links and
// swaps that must not get another file loaded, a full disk, and a second run
// compiling nothing.
#include "core/KernelCache.h"
#include "backends/BackendTable.h"
#include "core/Backend.h"
#include "core/LaunchBounds.h"
#include "tune/TuningStore.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

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
  ASSERT_TRUE(Cache.store("k", "key", Binary, Why)) << Why;
  EXPECT_EQ(Cache.load("k", "key"), Binary);
  EXPECT_FALSE(Cache.load("k", "another key")); // another compiler, arch...
}

std::string entryPath(const KernelCache &Cache, const char *Name,
                      const char *Key) {
  return Cache.directory() + "/" + Cache.fileName(Name, Key);
}

TEST_F(KernelCacheTest, CorruptEntryIsRebuilt) {
  KernelCache Cache("cuda");
  std::string Why;
  Cache.store("k", "key", std::vector<char>(100, 'x'), Why);
  {
    std::fstream F(entryPath(Cache, "k", "key"),
                   std::ios::in | std::ios::out | std::ios::binary);
    F.seekp(60);
    F.put('y');
  }
  EXPECT_FALSE(Cache.load("k", "key"));
  // Truncated, as a crash mid-write would leave a file written in place.
  Cache.store("k", "key", std::vector<char>(100, 'x'), Why);
  ASSERT_EQ(::truncate(entryPath(Cache, "k", "key").c_str(), 90), 0);
  EXPECT_FALSE(Cache.load("k", "key"));
  Cache.store("k", "key", std::vector<char>(100, 'x'), Why);
  EXPECT_TRUE(Cache.load("k", "key"));
}

TEST_F(KernelCacheTest, SubfolderWritableByOthersIsRefused) {
  KernelCache Cache("cuda");
  std::string Why;
  ASSERT_TRUE(Cache.ready(Why));
  ::chmod(Cache.directory().c_str(), 0777);
  KernelCache Again("cuda");
  EXPECT_FALSE(Again.ready(Why));
  EXPECT_NE(Why.find(Again.directory() + " is writable by others"),
            std::string::npos)
      << Why;
  EXPECT_FALSE(Again.store("k", "key", {'a'}, Why));
  EXPECT_FALSE(Again.load("k", "key"));
}

// Another user could replace the backend's folder in a root they can
// write: the root is checked too.
TEST_F(KernelCacheTest, RootWritableByOthersIsRefused) {
  ASSERT_EQ(::mkdir(Root.c_str(), 0777), 0);
  ::chmod(Root.c_str(), 0777);
  KernelCache Cache("sim");
  std::string Why;
  EXPECT_FALSE(Cache.ready(Why));
  EXPECT_NE(Why.find(Root + " is writable by others"), std::string::npos)
      << Why;
  ::chmod(Root.c_str(), 0700);
  KernelCache Private("sim");
  EXPECT_TRUE(Private.ready(Why)) << Why;
}

TEST_F(KernelCacheTest, SubfolderThatIsALinkIsRefused) {
  ASSERT_EQ(::mkdir(Root.c_str(), 0700), 0);
  const std::string Elsewhere = Root + "-elsewhere";
  std::system(("rm -rf " + Elsewhere).c_str());
  ASSERT_EQ(::mkdir(Elsewhere.c_str(), 0700), 0);
  ASSERT_EQ(::symlink(Elsewhere.c_str(), (Root + "/cuda").c_str()), 0);
  KernelCache Cache("cuda");
  std::string Why;
  EXPECT_FALSE(Cache.ready(Why));
  EXPECT_NE(Why.find("is a symbolic link"), std::string::npos) << Why;
}

// Between the check and the load, the folder's path is made to name
// another folder holding a planted entry: the cache still reads the folder
// it checked.
TEST_F(KernelCacheTest, FolderSwappedAfterTheCheckIsNotRead) {
  KernelCache Cache("cuda");
  std::string Why;
  ASSERT_TRUE(Cache.store("k", "key", {'g', 'o', 'o', 'd'}, Why)) << Why;
  const std::string Moved = Root + "/cuda-moved";
  ASSERT_EQ(::rename(Cache.directory().c_str(), Moved.c_str()), 0);
  KernelCache Planter("cuda"); // the "attacker": a new folder at the path
  ASSERT_TRUE(Planter.store("k", "key", {'e', 'v', 'i', 'l'}, Why)) << Why;
  EXPECT_EQ(Cache.load("k", "key"), (std::vector<char>{'g', 'o', 'o', 'd'}));
  // Stores go to the checked folder too.
  ASSERT_TRUE(Cache.store("k2", "key", {'x'}, Why));
  struct stat St;
  EXPECT_EQ(::stat((Moved + "/" + Cache.fileName("k2", "key")).c_str(), &St),
            0);
}

// An entry that is a link to a file elsewhere is not followed.
TEST_F(KernelCacheTest, EntryThatIsALinkIsNotFollowed) {
  KernelCache Cache("cuda");
  std::string Why;
  ASSERT_TRUE(Cache.store("k", "key", {'o', 'k'}, Why));
  KernelCache Other("hip");
  ASSERT_TRUE(Other.store("k", "key", {'o', 'k'}, Why));
  // Same name, same content: only the link differs.
  const std::string Entry = entryPath(Cache, "k", "key");
  ASSERT_EQ(::unlink(Entry.c_str()), 0);
  ASSERT_EQ(::symlink(entryPath(Other, "k", "key").c_str(), Entry.c_str()), 0);
  EXPECT_FALSE(Cache.load("k", "key"));
}

/// In a child whose files may not grow past 64 bytes: stores, prints why
/// it could not, and exits 0 if it could not.
[[noreturn]] void storeOnAFullDisk(KernelCache &Cache) {
  std::signal(SIGXFSZ, SIG_IGN);
  rlimit Limit;
  ::getrlimit(RLIMIT_FSIZE, &Limit);
  const rlimit Full = {64, Limit.rlim_max};
  ::setrlimit(RLIMIT_FSIZE, &Full);
  std::string Problem;
  const bool Stored =
      Cache.store("k", "key", std::vector<char>(4096, 'x'), Problem);
  ::setrlimit(RLIMIT_FSIZE, &Limit); // gtest keeps stderr in a file
  std::fprintf(stderr, "%s\n", Problem.c_str());
  std::exit(Stored ? 1 : 0);
}

// In a child whose files may not grow past 64 bytes (a full disk, as far
// as write() tells): the store fails with the reason and leaves nothing.
TEST_F(KernelCacheTest, FullDiskStoresNothing) {
  KernelCache Cache("cuda");
  std::string Why;
  ASSERT_TRUE(Cache.ready(Why));
  // Forked, not re-executed: the child uses this cache, as it is.
  const std::string Style = GTEST_FLAG_GET(death_test_style);
  GTEST_FLAG_SET(death_test_style, "fast");
  EXPECT_EXIT(storeOnAFullDisk(Cache), testing::ExitedWithCode(0),
              "cannot write .*: File too large");
  GTEST_FLAG_SET(death_test_style, Style);
  EXPECT_FALSE(Cache.load("k", "key"));
  // No temporary file left behind either.
  const std::string Listing = Root + "-listing";
  std::system(("ls -A " + Cache.directory() + " > " + Listing).c_str());
  std::ifstream In(Listing);
  std::string Line;
  EXPECT_FALSE(std::getline(In, Line)) << Line;
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

namespace {

TunedEntry tunedEntry(const std::string &Bucket) {
  TunedEntry E;
  E.KernelHash = "00112233445566ff";
  E.Device = "NVIDIA H100 80GB HBM3 (sm_90, 132 multiprocessors)";
  E.Bucket = Bucket;
  E.Location = "a.cpp:3:5";
  E.Kernel = "weft_a_L3_0";
  E.Mapping = 1;
  E.Values = {128, 4};
  E.Seconds = 1e-4;
  E.MappedSeconds = 2e-4;
  E.Tried = 20;
  return E;
}

// Tuned results live beside the kernels under the same rules: found by
// their whole key, listed, a corrupt or renamed entry ignored, nothing kept
// or read where others could write.
TEST_F(KernelCacheTest, TunedResultsUnderTheCacheRules) {
  std::string Why;
  {
    TuningStore Store;
    ASSERT_TRUE(Store.ready(Why)) << Why;
    ASSERT_TRUE(Store.save(tunedEntry("11"), Why)) << Why;
    ASSERT_TRUE(Store.save(tunedEntry("12"), Why)) << Why;
    std::optional<TunedEntry> E =
        Store.find("00112233445566ff", tunedEntry("11").Device, "11");
    ASSERT_TRUE(E);
    EXPECT_EQ(E->Values, (std::vector<unsigned>{128, 4}));
    EXPECT_FALSE(Store.find("00112233445566ff", "another GPU", "11"));
    EXPECT_EQ(Store.all().size(), 2u);
  }
  // An entry renamed to another key's file is not that key's.
  const std::string Dir = Root + "/tuning/";
  KernelCache Cache("tuning");
  ASSERT_TRUE(Cache.ready(Why));
  const std::string Eleven = Cache.fileName("tuned", tunedEntry("11").key());
  const std::string Twelve = Cache.fileName("tuned", tunedEntry("12").key());
  ASSERT_EQ(std::rename((Dir + Eleven).c_str(), (Dir + Twelve).c_str()), 0);
  {
    TuningStore Store;
    EXPECT_FALSE(Store.find("00112233445566ff", tunedEntry("12").Device, "12"));
    EXPECT_TRUE(Store.all().empty());
  }
  // Writable by others: not used at all.
  ASSERT_EQ(::chmod(Root.c_str(), 0777), 0);
  TuningStore Open;
  EXPECT_FALSE(Open.ready(Why));
  EXPECT_NE(Why.find("writable by others"), std::string::npos) << Why;
  EXPECT_FALSE(Open.save(tunedEntry("13"), Why));
  EXPECT_TRUE(Open.all().empty());
  ::chmod(Root.c_str(), 0700);
}

} // namespace
