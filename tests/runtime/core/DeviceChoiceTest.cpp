// DeviceChoiceTest.cpp: the device a process takes: WEFT_DEVICE, else an
// MPI launcher's local rank modulo the devices, else the first.
#include "core/DeviceChoice.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

using namespace weft::rt;

namespace {

DeviceChoice choose(int Count, const std::map<std::string, std::string> &Env) {
  return chooseDevice(Count, [&](const char *Name) -> const char * {
    auto It = Env.find(Name);
    return It == Env.end() ? nullptr : It->second.c_str();
  });
}

TEST(DeviceChoice, FirstDeviceOutsideAJob) {
  const DeviceChoice C = choose(4, {});
  EXPECT_EQ(C.Index, 0);
  EXPECT_EQ(C.Why, "device 0 of 4");
}

TEST(DeviceChoice, EachLaunchersLocalRankModuloTheDevices) {
  for (const char *Variable :
       {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
        "MV2_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID", "PMIX_LOCAL_RANK",
        "PALS_LOCAL_RANKID", "FLUX_TASK_LOCAL_ID"}) {
    const DeviceChoice C = choose(2, {{Variable, "3"}});
    EXPECT_EQ(C.Index, 1) << Variable;
    EXPECT_EQ(C.Why, std::string("device 1 of 2 (") + Variable +
                         "=3, modulo the devices)");
  }
  // Ranks sharing one device all take it.
  EXPECT_EQ(choose(1, {{"SLURM_LOCALID", "5"}}).Index, 0);
}

TEST(DeviceChoice, WeftDeviceComesFirst) {
  const DeviceChoice C =
      choose(4, {{"WEFT_DEVICE", "2"}, {"OMPI_COMM_WORLD_LOCAL_RANK", "1"}});
  EXPECT_EQ(C.Index, 2);
  EXPECT_EQ(C.Why, "device 2 of 4 (WEFT_DEVICE=2)");
}

TEST(DeviceChoice, AWeftDeviceThatNamesNoneIsLeftOut) {
  // Out of range or not a number: a warning, then the local rank decides.
  for (const char *Bad : {"4", "-1", "one", ""}) {
    const DeviceChoice C =
        choose(4, {{"WEFT_DEVICE", Bad}, {"OMPI_COMM_WORLD_LOCAL_RANK", "1"}});
    EXPECT_EQ(C.Index, 1) << Bad;
  }
  EXPECT_EQ(choose(2, {{"SLURM_LOCALID", "x"}}).Index, 0)
      << "a local rank that is no number";
}

} // namespace
