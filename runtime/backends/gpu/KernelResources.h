// KernelResources.h: what a compiled kernel holds per thread and per block
// (registers, shared memory, local memory and spills), as ptxas reports it
// at compile time and as the driver reports it for a loaded kernel.
// WEFT_VERBOSE, weft-nvrtc and the benchmarks print it: it decides how many
// blocks share an SM, and spills mean a register tile too large for the device.
#ifndef WEFT_RUNTIME_BACKENDS_GPU_KERNELRESOURCES_H
#define WEFT_RUNTIME_BACKENDS_GPU_KERNELRESOURCES_H

#include <optional>
#include <string>

namespace weft::rt {

struct KernelResources {
  int Registers = 0;         // per thread
  long SharedBytes = 0;      // static shared memory per block
  long LocalBytes = 0;       // per thread: stack frame and spills
  long SpillStoreBytes = -1; // -1: not reported (the driver does not say)
  long SpillLoadBytes = -1;
  int MaxThreadsPerBlock = 0; // what its registers allow; 0: not reported
};

/// The resources of Kernel from the log of NVRTC run with
/// --ptxas-options=-v ("ptxas info : Used 40 registers, ... 4096 bytes
/// smem"); none when the log does not describe Kernel.
std::optional<KernelResources> parsePtxasLog(const std::string &Log,
                                             const std::string &Kernel);

/// A loaded kernel's resources from its driver: Get(&Value, Attribute)
/// calls cuFuncGetAttribute or hipFuncGetAttribute, whose attributes share
/// their numbers (static shared memory 1, local memory 3, registers 4) and
/// which return 0 on success (the most threads a block may have, 0, too);
/// none when a query fails.
template <class GetFn>
std::optional<KernelResources> driverResources(GetFn &&Get) {
  int Registers = 0, Shared = 0, Local = 0;
  if (Get(&Registers, 4) || Get(&Shared, 1) || Get(&Local, 3))
    return std::nullopt;
  KernelResources R;
  R.Registers = Registers;
  R.SharedBytes = Shared;
  R.LocalBytes = Local;
  if (int Threads = 0; !Get(&Threads, 0))
    R.MaxThreadsPerBlock = Threads;
  return R;
}

/// "40 registers, 4096 bytes shared, 0 bytes local (0 spilled)".
std::string describe(const KernelResources &R);

} // namespace weft::rt

#endif
