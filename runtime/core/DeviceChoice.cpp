// DeviceChoice.cpp: WEFT_DEVICE, then the launchers' local ranks.
#include "core/DeviceChoice.h"

#include "core/Diagnostics.h"

#include <cstdlib>

namespace weft::rt {

namespace {

/// A non-negative integer, or -1.
int ordinal(const char *Text) {
  if (!Text || !*Text)
    return -1;
  char *End = nullptr;
  const long V = std::strtol(Text, &End, 10);
  return *End || V < 0 || V > 1 << 20 ? -1 : static_cast<int>(V);
}

/// What each launcher sets to the rank's number among those on its node:
/// Open MPI, MPICH and Intel MPI (through Hydra), MVAPICH, Slurm's srun,
/// PMIx-based launchers, Cray's PALS, Flux.
const char *const LocalRankVariables[] = {"OMPI_COMM_WORLD_LOCAL_RANK",
                                          "MPI_LOCALRANKID",
                                          "MV2_COMM_WORLD_LOCAL_RANK",
                                          "SLURM_LOCALID",
                                          "PMIX_LOCAL_RANK",
                                          "PALS_LOCAL_RANKID",
                                          "FLUX_TASK_LOCAL_ID"};

} // namespace

DeviceChoice
chooseDevice(int Count,
             const std::function<const char *(const char *)> &Getenv) {
  const std::string Of = " of " + std::to_string(Count);
  if (const char *Named = Getenv("WEFT_DEVICE")) {
    const int Index = ordinal(Named);
    if (Index >= 0 && Index < Count)
      return {Index, "device " + std::to_string(Index) + Of +
                         " (WEFT_DEVICE=" + Named + ")"};
    warn(std::string("WEFT_DEVICE=") + Named + " names no device (" +
         std::to_string(Count) + " visible, numbered from 0); it is left out");
  }
  for (const char *Variable : LocalRankVariables) {
    const int Rank = ordinal(Getenv(Variable));
    if (Rank < 0)
      continue;
    const int Index = Rank % Count;
    return {Index, "device " + std::to_string(Index) + Of + " (" + Variable +
                       "=" + std::to_string(Rank) + ", modulo the devices)"};
  }
  return {0, "device 0" + Of};
}

DeviceChoice chooseDevice(int Count) {
  return chooseDevice(Count,
                      [](const char *Name) { return std::getenv(Name); });
}

} // namespace weft::rt
