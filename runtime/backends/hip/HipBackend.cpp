// HipBackend.cpp: the AMD backend: the HIP runtime (libamdhip64, ROCm 6 or
// 5) and hipRTC, both loaded at run time.
#include "core/DeviceChoice.h"
#include "core/DynamicLibrary.h"
#include "gpu/GpuBackend.h"

#include <algorithm>
#include <cstring>

namespace weft::rt {
namespace {

// The HIP runtime's types and constants, as hip_runtime_api.h defines them.
using hipError_t = int;
using hipModule_t = void *;
using hipFunction_t = void *;
using hipStream_t = void *;
using hipEvent_t = void *;
constexpr hipError_t hipErrorNotReady = 600;
constexpr int hipDeviceAttributeMaxThreadsPerBlock = 56;
constexpr int hipDeviceAttributeMultiprocessorCount = 63;
constexpr int hipDeviceAttributeWarpSize = 87;
constexpr int hipDeviceAttributeMaxGridDimX = 29; // then Y, Z
constexpr int hipDeviceAttributeMaxThreadsPerMultiProcessor = 57;
constexpr int hipDeviceAttributeMemoryBusWidth = 59;  // bits
constexpr int hipDeviceAttributeMemoryClockRate = 60; // kHz
constexpr int hipMemcpyHostToDevice = 1;
constexpr int hipMemcpyDeviceToHost = 2;

struct HipApi {
  hipError_t (*Init)(unsigned);
  hipError_t (*GetDeviceCount)(int *);
  hipError_t (*SetDevice)(int);
  hipError_t (*DeviceGetAttribute)(int *, int, int);
  hipError_t (*GetDeviceProperties)(void *, int);
  hipError_t (*DeviceSynchronize)();
  hipError_t (*ModuleLoadData)(hipModule_t *, const void *);
  hipError_t (*ModuleGetFunction)(hipFunction_t *, hipModule_t, const char *);
  hipError_t (*Malloc)(void **, std::size_t);
  hipError_t (*Free)(void *);
  hipError_t (*MemcpyHtoD)(void *, const void *, std::size_t);
  hipError_t (*MemcpyDtoH)(void *, void *, std::size_t);
  hipError_t (*ModuleLaunchKernel)(hipFunction_t, unsigned, unsigned, unsigned,
                                   unsigned, unsigned, unsigned, unsigned,
                                   hipStream_t, void **, void **);
  const char *(*GetErrorString)(hipError_t);
  /// Optional: only WEFT_VERBOSE's report of a kernel's resources uses it.
  hipError_t (*FuncGetAttribute)(int *, int, hipFunction_t) = nullptr;
  /// Optional: without it a block of rows is copied a row at a time.
  hipError_t (*Memcpy2D)(void *, std::size_t, const void *, std::size_t,
                         std::size_t, std::size_t, int) = nullptr;
  /// Optional: without them a timed launch waits for its kernel.
  hipError_t (*EventCreate)(hipEvent_t *) = nullptr;
  hipError_t (*EventRecord)(hipEvent_t, hipStream_t) = nullptr;
  hipError_t (*EventQuery)(hipEvent_t) = nullptr;
  hipError_t (*EventElapsedTime)(float *, hipEvent_t, hipEvent_t) = nullptr;

  bool hasEvents() const {
    return EventCreate && EventRecord && EventQuery && EventElapsedTime;
  }

  bool load(const DynamicLibrary &L) {
    L.get("hipFuncGetAttribute", FuncGetAttribute);
    L.get("hipEventCreate", EventCreate);
    L.get("hipEventRecord", EventRecord);
    L.get("hipEventQuery", EventQuery);
    L.get("hipEventElapsedTime", EventElapsedTime);
    L.get("hipMemcpy2D", Memcpy2D);
    // ROCm 6 renamed hipGetDeviceProperties for its new struct layout.
    if (!L.get("hipGetDevicePropertiesR0600", GetDeviceProperties) &&
        !L.get("hipGetDeviceProperties", GetDeviceProperties))
      return false;
    return L.get("hipInit", Init) &&
           L.get("hipGetDeviceCount", GetDeviceCount) &&
           L.get("hipSetDevice", SetDevice) &&
           L.get("hipDeviceGetAttribute", DeviceGetAttribute) &&
           L.get("hipDeviceSynchronize", DeviceSynchronize) &&
           L.get("hipModuleLoadData", ModuleLoadData) &&
           L.get("hipModuleGetFunction", ModuleGetFunction) &&
           L.get("hipMalloc", Malloc) && L.get("hipFree", Free) &&
           L.get("hipMemcpyHtoD", MemcpyHtoD) &&
           L.get("hipMemcpyDtoH", MemcpyDtoH) &&
           L.get("hipModuleLaunchKernel", ModuleLaunchKernel) &&
           L.get("hipGetErrorString", GetErrorString);
  }
};

/// The device's gfx target ("gfx90a") from hipDeviceProp_t, whose layout
/// differs between ROCm versions: its gcnArchName is found by content.
std::string gfxTarget(const char *Props, std::size_t Size) {
  for (std::size_t I = 0; I + 4 < Size; ++I)
    if (!std::strncmp(Props + I, "gfx", 3) && Props[I + 3] >= '0' &&
        Props[I + 3] <= '9' && (I == 0 || Props[I - 1] == '\0')) {
      std::string Name(Props + I, strnlen(Props + I, Size - I));
      return Name.substr(0, Name.find(':')); // drop ":sramecc+:xnack-"
    }
  return {};
}

class HipBackend final : public GpuBackend {
public:
  HipBackend() : GpuBackend(RuntimeCompiler::Kind::Hiprtc, "hip") {}

  bool init(std::string &Reason) {
    if (!Runtime.open({"libamdhip64.so.6", "libamdhip64.so.5", "libamdhip64.so",
                       "/opt/rocm/lib/libamdhip64.so"},
                      Reason))
      return false;
    if (!Api.load(Runtime)) {
      Reason = Runtime.path() + " lacks a HIP entry point";
      return false;
    }
    int Count = 0;
    if (!check(Api.Init(0), "hipInit", Reason) ||
        !check(Api.GetDeviceCount(&Count), "hipGetDeviceCount", Reason))
      return false;
    if (Count == 0) {
      Reason = "no AMD GPU";
      return false;
    }
    const DeviceChoice Chosen = chooseDevice(Count);
    Ordinal = Chosen.Index;
    Props.Choice = Chosen.Why;
    int Sms = 0, MaxThreads = 0, Warp = 0, PerMultiprocessor = 0;
    if (!check(Api.SetDevice(Ordinal), "hipSetDevice", Reason) ||
        !check(Api.DeviceGetAttribute(
                   &Sms, hipDeviceAttributeMultiprocessorCount, Ordinal),
               "hipDeviceGetAttribute", Reason) ||
        !check(Api.DeviceGetAttribute(
                   &MaxThreads, hipDeviceAttributeMaxThreadsPerBlock, Ordinal),
               "hipDeviceGetAttribute", Reason) ||
        !check(
            Api.DeviceGetAttribute(&Warp, hipDeviceAttributeWarpSize, Ordinal),
            "hipDeviceGetAttribute", Reason) ||
        !check(Api.DeviceGetAttribute(
                   &PerMultiprocessor,
                   hipDeviceAttributeMaxThreadsPerMultiProcessor, Ordinal),
               "hipDeviceGetAttribute", Reason))
      return false;
    for (int A = 0; A < 3; ++A) {
      int Blocks = 0;
      if (!check(Api.DeviceGetAttribute(
                     &Blocks, hipDeviceAttributeMaxGridDimX + A, Ordinal),
                 "hipDeviceGetAttribute", Reason))
        return false;
      Props.MaxGrid[A] = static_cast<unsigned>(Blocks);
    }
    std::vector<char> Properties(8192, 0); // larger than any ROCm's struct
    if (!check(Api.GetDeviceProperties(Properties.data(), Ordinal),
               "hipGetDeviceProperties", Reason))
      return false;
    Props.Architecture = gfxTarget(Properties.data(), Properties.size());
    if (Props.Architecture.empty()) {
      Reason = "cannot tell the AMD GPU's gfx target";
      return false;
    }
    Props.MultiprocessorCount = static_cast<unsigned>(Sms);
    Props.MaxThreadsPerBlock = static_cast<unsigned>(MaxThreads);
    // hipDeviceProp_t begins with the device's name, char[256], in every
    // layout; AMD's GPUs take 64 KiB of static shared memory.
    Props.Name.assign(Properties.data(),
                      strnlen(Properties.data(),
                              std::min<std::size_t>(256, Properties.size())));
    Props.MaxSharedPerBlock = 64 * 1024;
    Props.WarpSize = static_cast<unsigned>(Warp);
    Props.MaxThreadsPerMultiprocessor =
        static_cast<unsigned>(PerMultiprocessor);
    int MemoryKilohertz = 0, BusBits = 0;
    if (Api.DeviceGetAttribute(&MemoryKilohertz,
                               hipDeviceAttributeMemoryClockRate,
                               Ordinal) == 0 &&
        Api.DeviceGetAttribute(&BusBits, hipDeviceAttributeMemoryBusWidth,
                               Ordinal) == 0)
      Props.MemoryBytesPerSecond = 2.0 * MemoryKilohertz * 1e3 * BusBits / 8;
    return loadCompiler(Reason);
  }

  const char *name() const override { return "hip"; }

  Status deviceAllocate(std::size_t Bytes, DevicePtr &Ptr) override {
    if (Status S = current(); !S.empty())
      return S;
    void *P = nullptr;
    Status S = status(Api.Malloc(&P, Bytes), "hipMalloc");
    Ptr = reinterpret_cast<DevicePtr>(P);
    return S;
  }
  void deviceRelease(DevicePtr Ptr) override {
    if (current().empty())
      Api.Free(reinterpret_cast<void *>(Ptr));
  }
  Status copyToDevice(DevicePtr Dst, const void *Src,
                      std::size_t Bytes) override {
    if (Status S = current(); !S.empty())
      return S;
    return status(Api.MemcpyHtoD(reinterpret_cast<void *>(Dst), Src, Bytes),
                  "hipMemcpyHtoD");
  }
  Status copyToHost(void *Dst, DevicePtr Src, std::size_t Bytes) override {
    if (Status S = current(); !S.empty())
      return S;
    return status(Api.MemcpyDtoH(Dst, reinterpret_cast<void *>(Src), Bytes),
                  "hipMemcpyDtoH");
  }
  Status launch(KernelHandle Kernel, const unsigned Grid[3],
                const unsigned Block[3], void **Params) override {
    if (Status S = current(); !S.empty())
      return S;
    return status(Api.ModuleLaunchKernel(Kernel, Grid[0], Grid[1], Grid[2],
                                         Block[0], Block[1], Block[2], 0,
                                         nullptr, Params, nullptr),
                  "hipModuleLaunchKernel");
  }
  Status synchronize() override {
    if (Status S = current(); !S.empty())
      return S;
    return status(Api.DeviceSynchronize(), "hipDeviceSynchronize");
  }

private:
  bool hasEvents() const override { return Api.hasEvents(); }
  Status createEvent(void *&Event) override {
    return status(Api.EventCreate(&Event), "hipEventCreate");
  }
  Status recordEvent(void *Event) override {
    return status(Api.EventRecord(Event, nullptr), "hipEventRecord");
  }
  Status queryEvent(void *Event, bool &Done) override {
    const hipError_t R = Api.EventQuery(Event);
    Done = R == 0;
    return R == hipErrorNotReady ? Status() : status(R, "hipEventQuery");
  }
  Status elapsedBetween(void *From, void *To, float &Milliseconds) override {
    return status(Api.EventElapsedTime(&Milliseconds, From, To),
                  "hipEventElapsedTime");
  }
  Status makeCurrent() override {
    return status(Api.SetDevice(Ordinal), "hipSetDevice");
  }
  Status loadFunction(const std::vector<char> &Binary, const std::string &Name,
                      KernelHandle &Handle) override {
    hipModule_t Module = nullptr;
    if (Status S = status(Api.ModuleLoadData(&Module, Binary.data()),
                          "hipModuleLoadData");
        !S.empty())
      return S;
    return status(Api.ModuleGetFunction(&Handle, Module, Name.c_str()),
                  "hipModuleGetFunction");
  }
  std::optional<KernelResources>
  functionResources(KernelHandle Handle) override {
    if (!Api.FuncGetAttribute)
      return std::nullopt;
    return driverResources([&](int *Value, int Attribute) {
      return Api.FuncGetAttribute(Value, Attribute, Handle);
    });
  }
  bool copy2D(DevicePtr Device, void *Host, const RowBlock &Block,
              bool ToDevice) override {
    void *DevicePointer = reinterpret_cast<void *>(Device);
    return Api.Memcpy2D &&
           Api.Memcpy2D(ToDevice ? DevicePointer : Host, Block.PitchBytes,
                        ToDevice ? Host : DevicePointer, Block.PitchBytes,
                        Block.RowBytes, Block.Rows,
                        ToDevice ? hipMemcpyHostToDevice
                                 : hipMemcpyDeviceToHost) == 0;
  }
  Status status(hipError_t R, const char *What) const {
    if (R == 0)
      return {};
    const char *Text = Api.GetErrorString ? Api.GetErrorString(R) : nullptr;
    return std::string(What) + ": " +
           (Text ? std::string(Text) : "error " + std::to_string(R));
  }
  bool check(hipError_t R, const char *What, std::string &Reason) const {
    Reason = status(R, What);
    return Reason.empty();
  }

  DynamicLibrary Runtime;
  HipApi Api{};
  int Ordinal = 0; // the device this process took (core/DeviceChoice.h)
};

} // namespace

std::unique_ptr<Backend> createHipBackend(std::string &Reason) {
  auto B = std::make_unique<HipBackend>();
  if (!B->init(Reason))
    return nullptr;
  return B;
}

} // namespace weft::rt
