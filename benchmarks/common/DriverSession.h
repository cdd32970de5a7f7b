// DriverSession.h: the CUDA driver by hand, for the benchmarks' baselines
// (a raw cuLaunchKernel, hand-written kernels): the device's context, an
// NVRTC compile with the options weft's own kernels get, buffers and
// launches. Header-only; uses the runtime's driver table and NVRTC loader.
#ifndef WEFT_BENCHMARKS_COMMON_DRIVERSESSION_H
#define WEFT_BENCHMARKS_COMMON_DRIVERSESSION_H

#include "core/DynamicLibrary.h"
#include "cuda/DriverApi.h"
#include "gpu/RuntimeCompiler.h"

#include <string>
#include <vector>

namespace weft::bench {

using namespace weft::rt;

class DriverSession {
public:
  /// Empty when the driver and a device are there; else why not.
  std::string open() {
    std::string Error;
    if (!Driver.open({"libcuda.so.1"}, Error) || !Api.load(Driver))
      return "no CUDA driver (" + Error + ")";
    int Devices = 0, Major = 0, Minor = 0;
    CUdevice Device = 0;
    CUcontext Context = nullptr;
    if (Api.Init(0) || Api.DeviceGetCount(&Devices) || Devices == 0 ||
        Api.DeviceGet(&Device, 0) ||
        Api.DeviceGetAttribute(
            &Major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, Device) ||
        Api.DeviceGetAttribute(
            &Minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, Device) ||
        Api.PrimaryCtxRetain(&Context, Device) || Api.CtxSetCurrent(Context))
      return "no CUDA device";
    Arch = "sm_" + std::to_string(Major) + std::to_string(Minor);
    this->Device = Device;
    return {};
  }

  /// How a wait for the device waits in this process (the primary
  /// context's scheduling flags), put back to the driver's default where
  /// something else set it: LLVM's OpenMP offload runtime sets blocking
  /// waits on a primary context it finds inactive, and every variant's
  /// launch-and-synchronize then pays for the thread's wake-up. Empty
  /// where it was the default (or the driver cannot say); else what it
  /// was, and whether putting it back failed.
  std::string defaultScheduling() {
    using GetStateFn = CUresult (*)(CUdevice, unsigned *, int *);
    using SetFlagsFn = CUresult (*)(CUdevice, unsigned);
    GetStateFn GetState = nullptr;
    SetFlagsFn SetFlags = nullptr;
    unsigned Flags = 0;
    int Active = 0;
    if (!Driver.get("cuDevicePrimaryCtxGetState", GetState) ||
        !Driver.get("cuDevicePrimaryCtxSetFlags_v2", SetFlags) ||
        GetState(Device, &Flags, &Active))
      return {};
    constexpr unsigned SchedMask = 0x7, BlockingSync = 0x4, Yield = 0x2,
                       Spin = 0x1;
    const unsigned Sched = Flags & SchedMask;
    if (Sched == 0)
      return {};
    const std::string Was = Sched == BlockingSync ? "blocking sync"
                            : Sched == Yield      ? "yield"
                            : Sched == Spin       ? "spin"
                                                  : std::to_string(Sched);
    if (SetFlags(Device, Flags & ~SchedMask))
      return Was + " (putting back the default failed)";
    return Was;
  }

  /// Compiles Text with NVRTC for Arch (the device's, or "sm_90" to check a
  /// text without a GPU) and, with a device open, loads it. Empty on
  /// success; else the compiler's log.
  std::string compile(const std::string &Text, const std::string &Name,
                      const std::string &ForArch = "") {
    RuntimeCompiler Compiler(RuntimeCompiler::Kind::Nvrtc);
    std::vector<char> Binary;
    std::string Error, Log;
    if (!Compiler.load(Error))
      return "no NVRTC (" + Error + ")";
    if (!Compiler.compile(Text, Name, ForArch.empty() ? Arch : ForArch, {},
                          Binary, Log))
      return "NVRTC: " + Log;
    if (!ForArch.empty())
      return {};
    if (Api.ModuleLoadData(&Module, Binary.data()))
      return "loading " + Name + " failed";
    return {};
  }

  CUfunction function(const char *Name) {
    CUfunction F = nullptr;
    return Api.ModuleGetFunction(&F, Module, Name) ? nullptr : F;
  }

  CUdeviceptr upload(const void *Data, std::size_t Bytes) {
    CUdeviceptr P = 0;
    if (Api.MemAlloc(&P, Bytes ? Bytes : 1))
      return 0;
    Owned.push_back(P);
    if (Data && Api.MemcpyHtoD(P, Data, Bytes))
      return 0;
    return P;
  }
  bool download(void *Data, CUdeviceptr P, std::size_t Bytes) {
    return !Api.MemcpyDtoH(Data, P, Bytes);
  }

  bool launch(CUfunction F, unsigned GridX, unsigned GridY, unsigned BlockX,
              unsigned BlockY, void **Params, unsigned GridZ = 1) {
    return !Api.LaunchKernel(F, GridX, GridY, GridZ, BlockX, BlockY, 1, 0,
                             nullptr, Params, nullptr);
  }
  bool synchronize() { return !Api.CtxSynchronize(); }
  bool copy(CUdeviceptr To, CUdeviceptr From, std::size_t Bytes) {
    return !Api.MemcpyDtoD(To, From, Bytes);
  }

  ~DriverSession() {
    for (CUdeviceptr P : Owned)
      Api.MemFree(P);
  }

  DriverApi Api{};
  std::string Arch;

private:
  DynamicLibrary Driver;
  CUdevice Device = 0;
  CUmodule Module = nullptr;
  std::vector<CUdeviceptr> Owned;
};

} // namespace weft::bench

#endif
