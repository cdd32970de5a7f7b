// LoopProfileTest.cpp: the transfer ledger's attribution of copies to loop
// calls, and the advice WEFT_PROFILE draws from a loop's figures.
#include "core/LoopProfile.h"
#include "core/TransferLedger.h"

#include <gtest/gtest.h>

using namespace weft::rt;

namespace {

const char *const StepA = "loop a";
const char *const StepB = "loop b";

/// One call of Loop that copies What at Host in (and back where Back).
void call(TransferLedger &L, const char *Loop, const void *Host,
          std::uint64_t Bytes, const char *What, bool Back) {
  L.beginCall(Loop);
  L.copied(Host, Bytes, true, What);
  if (Back)
    L.copied(Host, Bytes, false, What);
  L.endCall();
}

TEST(TransferLedger, DataCopiedInTwoCallsIsRepeated) {
  TransferLedger L;
  int U = 0, V = 0;
  call(L, StepA, &U, 100, "'u'", true);
  EXPECT_TRUE(L.repeated(StepA).Names.empty()) << "one call repeats nothing";
  call(L, StepA, &U, 100, "'u'", true);
  call(L, StepA, &V, 40, "'v'", false);
  const TransferLedger::Repeated R = L.repeated(StepA);
  ASSERT_EQ(R.Names, std::vector<std::string>{"'u'"}) << "'v' went once";
  EXPECT_EQ(R.Calls, 2u);
  EXPECT_EQ(R.BytesPerCall, 200u) << "100 in and 100 back a call";
  EXPECT_TRUE(R.Between.empty());
}

TEST(TransferLedger, DataHandedBetweenLoopsThroughTheHost) {
  TransferLedger L;
  int U = 0;
  for (int Step = 0; Step < 2; ++Step) {
    call(L, StepA, &U, 64, "'u'", true);
    call(L, StepB, &U, 64, "'in'", false);
  }
  const TransferLedger::Repeated B = L.repeated(StepB);
  ASSERT_EQ(B.Names, std::vector<std::string>{"'in'"});
  EXPECT_EQ(B.Between, std::set<const char *>{StepA});
  // StepA copies it in after StepB, which did not copy it back.
  EXPECT_TRUE(L.repeated(StepA).Between.empty());
}

TEST(TransferLedger, CopiesOutsideLoopCallsOrOfNoDataAreLeftOut) {
  TransferLedger L;
  int U = 0;
  L.copied(&U, 8, true, "'u'"); // a region's own copy
  L.beginCall(StepA);
  L.copied(&U, 8, false, ""); // a reduction's partial results
  L.endCall();
  L.beginCall(StepA);
  L.copied(&U, 8, false, "");
  L.endCall();
  EXPECT_TRUE(L.repeated(StepA).Names.empty());
}

ProfiledLoop loop(unsigned DeviceRuns, double DeviceSeconds, unsigned HostTimed,
                  double HostSeconds) {
  ProfiledLoop P{};
  P.Calls = {"a.cpp:3:5", DeviceRuns, HostTimed, nullptr};
  P.Profile.DeviceSeconds = DeviceSeconds;
  P.Profile.HostLoopsTimed = HostTimed;
  P.Profile.HostLoopSeconds = HostSeconds;
  P.Profile.Function = "step";
  return P;
}

TEST(ProfileAdvice, HostFasterThanItsLaunches) {
  const std::vector<std::string> A = profileAdvice(loop(4, 4e-3, 1, 1e-5));
  ASSERT_EQ(A.size(), 1u);
  EXPECT_NE(A[0].find("runs faster on the host"), std::string::npos) << A[0];
  EXPECT_NE(A[0].find("10.0 us a call, its launches 1.00 ms"),
            std::string::npos)
      << A[0];
}

TEST(ProfileAdvice, NoneWhereTheLaunchesWinOrNothingCompares) {
  EXPECT_TRUE(profileAdvice(loop(4, 4e-3, 1, 5e-3)).empty());
  EXPECT_TRUE(profileAdvice(loop(4, 4e-3, 0, 0)).empty()) << "untimed";
  EXPECT_TRUE(profileAdvice(loop(0, 0, 1, 1e-6)).empty()) << "no launch";
}

TEST(ProfileAdvice, RegionForRepeatedCopiesNamesTheDataAndTheLoops) {
  ProfiledLoop P = loop(3, 3e-3, 0, 0);
  P.Repeated = {{"'u'", "'v'"}, 2048, 3, {"a.cpp:9:3"}};
  const std::vector<std::string> A = profileAdvice(P);
  ASSERT_EQ(A.size(), 1u);
  EXPECT_NE(A[0].find("its data 'u' and 'v' went to the device or back in 3 "
                      "of its calls (2.0 KiB a call), passing through the "
                      "host between it and the loop at a.cpp:9:3"),
            std::string::npos)
      << A[0];
  EXPECT_NE(A[0].find("around the calls of 'step' and those loops keeps them "
                      "on the device"),
            std::string::npos)
      << A[0];
}

TEST(ProfileJson, BandwidthWhereTheDeviceSaysItsPeak) {
  ProfiledLoop P = loop(1, 1e-3, 0, 0);
  P.Profile.KernelsTimed = 1;
  P.Profile.KernelSeconds = 1e-3;
  P.Profile.KernelBytes = 1000000000; // 1 GB in 1 ms: 1 TB/s
  ProfiledDevice Gpu{"cuda", true, 2e12};
  EXPECT_NE(profileJson(Gpu, {P}).find("\"bandwidth_fraction\": 0.5,"),
            std::string::npos)
      << profileJson(Gpu, {P});
  EXPECT_NE(profileTable(Gpu, {P}).find("; 50% of the memory bandwidth"),
            std::string::npos);
  ProfiledDevice Sim{"sim", false, 0};
  EXPECT_NE(profileJson(Sim, {P}).find("\"bandwidth_fraction\": null"),
            std::string::npos);
}

} // namespace
