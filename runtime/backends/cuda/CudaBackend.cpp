// CudaBackend.cpp: the NVIDIA backend: the CUDA driver API (libcuda.so.1)
// and NVRTC, both loaded at run time.
#include "core/DeviceChoice.h"
#include "core/DynamicLibrary.h"
#include "cuda/DriverApi.h"
#include "gpu/GpuBackend.h"

namespace weft::rt {
namespace {

class CudaBackend final : public GpuBackend {
public:
  CudaBackend() : GpuBackend(RuntimeCompiler::Kind::Nvrtc, "cuda") {}

  bool init(std::string &Reason) {
    if (!Driver.open({"libcuda.so.1", "libcuda.so"}, Reason))
      return false;
    if (!Api.load(Driver)) {
      Reason = Driver.path() + " lacks a CUDA driver entry point";
      return false;
    }
    int Count = 0;
    if (!check(Api.Init(0), "cuInit", Reason) ||
        !check(Api.DeviceGetCount(&Count), "cuDeviceGetCount", Reason))
      return false;
    if (Count == 0) {
      Reason = "no CUDA device";
      return false;
    }
    const DeviceChoice Chosen = chooseDevice(Count);
    Props.Choice = Chosen.Why;
    int Major = 0, Minor = 0, Sms = 0, MaxThreads = 0, Warp = 0;
    if (!check(Api.DeviceGet(&Device, Chosen.Index), "cuDeviceGet", Reason) ||
        !check(
            Api.DeviceGetAttribute(
                &Major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, Device),
            "cuDeviceGetAttribute", Reason) ||
        !check(
            Api.DeviceGetAttribute(
                &Minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, Device),
            "cuDeviceGetAttribute", Reason) ||
        !check(Api.DeviceGetAttribute(
                   &Sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, Device),
               "cuDeviceGetAttribute", Reason) ||
        !check(Api.DeviceGetAttribute(&MaxThreads,
                                      CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                                      Device),
               "cuDeviceGetAttribute", Reason) ||
        !check(Api.DeviceGetAttribute(&Warp, CU_DEVICE_ATTRIBUTE_WARP_SIZE,
                                      Device),
               "cuDeviceGetAttribute", Reason) ||
        !check(Api.PrimaryCtxRetain(&Context, Device),
               "cuDevicePrimaryCtxRetain", Reason))
      return false;
    int PerMultiprocessor = 0;
    if (!check(Api.DeviceGetAttribute(
                   &PerMultiprocessor,
                   CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, Device),
               "cuDeviceGetAttribute", Reason))
      return false;
    for (int A = 0; A < 3; ++A) {
      int Blocks = 0;
      if (!check(Api.DeviceGetAttribute(
                     &Blocks, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X + A, Device),
                 "cuDeviceGetAttribute", Reason))
        return false;
      Props.MaxGrid[A] = static_cast<unsigned>(Blocks);
    }
    Props.MaxThreadsPerMultiprocessor =
        static_cast<unsigned>(PerMultiprocessor);
    Props.Architecture = "sm_" + std::to_string(Major * 10 + Minor);
    char Name[256] = {};
    if (Api.DeviceGetName &&
        Api.DeviceGetName(Name, sizeof Name - 1, Device) == 0)
      Props.Name = Name;
    Props.MultiprocessorCount = static_cast<unsigned>(Sms);
    Props.MaxThreadsPerBlock = static_cast<unsigned>(MaxThreads);
    Props.WarpSize = static_cast<unsigned>(Warp);
    // Two transfers a clock (DDR and HBM alike), over the bus's width.
    int MemoryKilohertz = 0, BusBits = 0;
    if (Api.DeviceGetAttribute(&MemoryKilohertz,
                               CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE,
                               Device) == 0 &&
        Api.DeviceGetAttribute(
            &BusBits, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, Device) == 0)
      Props.MemoryBytesPerSecond = 2.0 * MemoryKilohertz * 1e3 * BusBits / 8;
    return loadCompiler(Reason);
  }

  const char *name() const override { return "cuda"; }

  Status deviceAllocate(std::size_t Bytes, DevicePtr &Ptr) override {
    if (Status S = current(); !S.empty())
      return S;
    CUdeviceptr P = 0;
    Status S = status(Api.MemAlloc(&P, Bytes), "cuMemAlloc");
    Ptr = P;
    return S;
  }
  void deviceRelease(DevicePtr Ptr) override {
    if (current().empty())
      Api.MemFree(Ptr);
  }
  Status copyToDevice(DevicePtr Dst, const void *Src,
                      std::size_t Bytes) override {
    if (Status S = current(); !S.empty())
      return S;
    return status(Api.MemcpyHtoD(Dst, Src, Bytes), "cuMemcpyHtoD");
  }
  Status copyToHost(void *Dst, DevicePtr Src, std::size_t Bytes) override {
    if (Status S = current(); !S.empty())
      return S;
    return status(Api.MemcpyDtoH(Dst, Src, Bytes), "cuMemcpyDtoH");
  }
  Status launch(KernelHandle Kernel, const unsigned Grid[3],
                const unsigned Block[3], void **Params) override {
    if (Status S = current(); !S.empty())
      return S;
    return status(Api.LaunchKernel(Kernel, Grid[0], Grid[1], Grid[2], Block[0],
                                   Block[1], Block[2], 0, nullptr, Params,
                                   nullptr),
                  "cuLaunchKernel");
  }
  Status synchronize() override {
    if (Status S = current(); !S.empty())
      return S;
    return status(Api.CtxSynchronize(), "cuCtxSynchronize");
  }

private:
  bool hasEvents() const override { return Api.hasEvents(); }
  Status createEvent(void *&Event) override {
    return status(Api.EventCreate(&Event, 0), "cuEventCreate");
  }
  Status recordEvent(void *Event) override {
    return status(Api.EventRecord(Event, nullptr), "cuEventRecord");
  }
  Status queryEvent(void *Event, bool &Done) override {
    const CUresult R = Api.EventQuery(Event);
    Done = R == 0;
    return R == CUDA_ERROR_NOT_READY ? Status() : status(R, "cuEventQuery");
  }
  Status elapsedBetween(void *From, void *To, float &Milliseconds) override {
    return status(Api.EventElapsedTime(&Milliseconds, From, To),
                  "cuEventElapsedTime");
  }
  Status makeCurrent() override {
    return status(Api.CtxSetCurrent(Context), "cuCtxSetCurrent");
  }
  Status loadFunction(const std::vector<char> &Binary, const std::string &Name,
                      KernelHandle &Handle) override {
    CUmodule Module = nullptr;
    CUfunction Function = nullptr;
    if (Status S = status(Api.ModuleLoadData(&Module, Binary.data()),
                          "cuModuleLoadData");
        !S.empty())
      return S;
    if (Status S =
            status(Api.ModuleGetFunction(&Function, Module, Name.c_str()),
                   "cuModuleGetFunction");
        !S.empty())
      return S;
    Handle = Function;
    return {};
  }
  std::optional<KernelResources>
  functionResources(KernelHandle Handle) override {
    if (!Api.FuncGetAttribute)
      return std::nullopt;
    return driverResources([&](int *Value, int Attribute) {
      return Api.FuncGetAttribute(Value, Attribute,
                                  static_cast<CUfunction>(Handle));
    });
  }
  bool copy2D(DevicePtr Device, void *Host, const RowBlock &Block,
              bool ToDevice) override {
    if (!Api.Memcpy2D)
      return false;
    CudaMemcpy2D Copy;
    Copy.SrcPitch = Copy.DstPitch = Block.PitchBytes;
    Copy.WidthInBytes = Block.RowBytes;
    Copy.Height = Block.Rows;
    if (ToDevice) {
      Copy.SrcMemoryType = CU_MEMORYTYPE_HOST;
      Copy.SrcHost = Host;
      Copy.DstMemoryType = CU_MEMORYTYPE_DEVICE;
      Copy.DstDevice = Device;
    } else {
      Copy.SrcMemoryType = CU_MEMORYTYPE_DEVICE;
      Copy.SrcDevice = Device;
      Copy.DstMemoryType = CU_MEMORYTYPE_HOST;
      Copy.DstHost = Host;
    }
    return Api.Memcpy2D(&Copy) == 0;
  }
  Status status(CUresult R, const char *What) const {
    if (R == 0)
      return {};
    const char *Text = nullptr;
    if (Api.GetErrorString)
      Api.GetErrorString(R, &Text);
    return std::string(What) + ": " + (Text ? Text : "error ") +
           (Text ? "" : std::to_string(R));
  }
  bool check(CUresult R, const char *What, std::string &Reason) const {
    Reason = status(R, What);
    return Reason.empty();
  }

  DynamicLibrary Driver;
  DriverApi Api{};
  CUdevice Device = 0;
  CUcontext Context = nullptr;
};

} // namespace

std::unique_ptr<Backend> createCudaBackend(std::string &Reason) {
  auto B = std::make_unique<CudaBackend>();
  if (!B->init(Reason))
    return nullptr;
  return B;
}

} // namespace weft::rt
