// DriverApi.h: the CUDA driver API entry points weft uses, resolved from
// libcuda.so.1 at run time (no CUDA header or library at build time).
#ifndef WEFT_RUNTIME_BACKENDS_CUDA_DRIVERAPI_H
#define WEFT_RUNTIME_BACKENDS_CUDA_DRIVERAPI_H

#include "core/DynamicLibrary.h"

#include <cstddef>

namespace weft::rt {

// The driver API's types and constants, as cuda.h defines them.
using CUresult = int;
using CUdevice = int;
using CUcontext = void *;
using CUmodule = void *;
using CUfunction = void *;
using CUstream = void *;
using CUevent = void *;
constexpr CUresult CUDA_ERROR_NOT_READY = 600;
using CUdeviceptr = unsigned long long;
constexpr int CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1;
constexpr int CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR = 39;
constexpr int CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36;       // kHz
constexpr int CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37; // bits
constexpr int CU_MEMORYTYPE_HOST = 1;
constexpr int CU_MEMORYTYPE_DEVICE = 2;

/// CUDA_MEMCPY2D (the _v2 layout, size_t fields); CUmemorytype is an enum.
struct CudaMemcpy2D {
  std::size_t SrcXInBytes = 0, SrcY = 0;
  int SrcMemoryType = 0;
  const void *SrcHost = nullptr;
  CUdeviceptr SrcDevice = 0;
  void *SrcArray = nullptr;
  std::size_t SrcPitch = 0;
  std::size_t DstXInBytes = 0, DstY = 0;
  int DstMemoryType = 0;
  void *DstHost = nullptr;
  CUdeviceptr DstDevice = 0;
  void *DstArray = nullptr;
  std::size_t DstPitch = 0;
  std::size_t WidthInBytes = 0, Height = 0;
};

struct DriverApi {
  CUresult (*Init)(unsigned);
  CUresult (*DeviceGetCount)(int *);
  CUresult (*DeviceGet)(CUdevice *, int);
  CUresult (*DeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*PrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*CtxSetCurrent)(CUcontext);
  CUresult (*CtxSynchronize)();
  CUresult (*ModuleLoadData)(CUmodule *, const void *);
  CUresult (*ModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*MemAlloc)(CUdeviceptr *, std::size_t);
  CUresult (*MemFree)(CUdeviceptr);
  CUresult (*MemcpyHtoD)(CUdeviceptr, const void *, std::size_t);
  CUresult (*MemcpyDtoH)(void *, CUdeviceptr, std::size_t);
  CUresult (*MemcpyDtoD)(CUdeviceptr, CUdeviceptr, std::size_t);
  CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                           unsigned, unsigned, unsigned, CUstream, void **,
                           void **);
  CUresult (*GetErrorString)(CUresult, const char **);
  /// Optional: only WEFT_VERBOSE's report of a kernel's resources uses it.
  CUresult (*FuncGetAttribute)(int *, int, CUfunction) = nullptr;
  CUresult (*DeviceGetName)(char *, int, CUdevice) = nullptr;
  /// Optional: without it a block of rows is copied a row at a time.
  CUresult (*Memcpy2D)(const CudaMemcpy2D *) = nullptr;
  /// Optional: without them a timed launch waits for its kernel.
  CUresult (*EventCreate)(CUevent *, unsigned) = nullptr;
  CUresult (*EventRecord)(CUevent, CUstream) = nullptr;
  CUresult (*EventQuery)(CUevent) = nullptr;
  CUresult (*EventElapsedTime)(float *, CUevent, CUevent) = nullptr;

  bool hasEvents() const {
    return EventCreate && EventRecord && EventQuery && EventElapsedTime;
  }

  bool load(const DynamicLibrary &L) {
    L.get("cuFuncGetAttribute", FuncGetAttribute);
    L.get("cuEventCreate", EventCreate);
    L.get("cuEventRecord", EventRecord);
    L.get("cuEventQuery", EventQuery);
    L.get("cuEventElapsedTime", EventElapsedTime);
    L.get("cuDeviceGetName", DeviceGetName);
    L.get("cuMemcpy2D_v2", Memcpy2D);
    // The _v2 names are the current ABI of these entry points.
    return L.get("cuInit", Init) && L.get("cuDeviceGetCount", DeviceGetCount) &&
           L.get("cuDeviceGet", DeviceGet) &&
           L.get("cuDeviceGetAttribute", DeviceGetAttribute) &&
           L.get("cuDevicePrimaryCtxRetain", PrimaryCtxRetain) &&
           L.get("cuCtxSetCurrent", CtxSetCurrent) &&
           L.get("cuCtxSynchronize", CtxSynchronize) &&
           L.get("cuModuleLoadData", ModuleLoadData) &&
           L.get("cuModuleGetFunction", ModuleGetFunction) &&
           L.get("cuMemAlloc_v2", MemAlloc) && L.get("cuMemFree_v2", MemFree) &&
           L.get("cuMemcpyHtoD_v2", MemcpyHtoD) &&
           L.get("cuMemcpyDtoH_v2", MemcpyDtoH) &&
           L.get("cuMemcpyDtoD_v2", MemcpyDtoD) &&
           L.get("cuLaunchKernel", LaunchKernel) &&
           L.get("cuGetErrorString", GetErrorString);
  }
};

} // namespace weft::rt

#endif
