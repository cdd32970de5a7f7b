// device.h: the prelude every generated kernel is written against. It maps
// thread indices, barriers, shared memory, atomics and math to CUDA (NVRTC),
// HIP (hipRTC) or the CPU (the simulator), so one kernel text serves all three.
// It must compile without any system header under NVRTC and hipRTC.
#ifndef WEFT_DEVICE_H
#define WEFT_DEVICE_H

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define WEFT_DIALECT_CUDA 1
#elif defined(__HIP__) || defined(__HIPCC_RTC__) || defined(__HIP_DEVICE_COMPILE__)
#define WEFT_DIALECT_HIP 1
#else
#define WEFT_DIALECT_SIM 1
#endif

#if defined(WEFT_DIALECT_CUDA) || defined(WEFT_DIALECT_HIP)
#define WEFT_DEVICE __device__ __forceinline__
#define WEFT_KERNEL(Name, MaxThreads)                                          \
  extern "C" __global__ void __launch_bounds__(MaxThreads) Name
#define WEFT_SHARED __shared__
#else
#include <cmath>
#include <cstdint>
#define WEFT_DEVICE inline
#define WEFT_KERNEL(Name, MaxThreads) extern "C" void Name
#define WEFT_SHARED static thread_local
#endif

namespace weft {

typedef long long index_t;
typedef unsigned long long size_type;

/// A captured std::span inside a kernel. The host passes {pointer, extent};
/// the layout is part of the runtime's launch ABI.
template <class T> struct dspan {
  T *Data;
  size_type Extent;
  WEFT_DEVICE T &operator[](index_t I) const { return Data[I]; }
  WEFT_DEVICE size_type size() const { return Extent; }
  WEFT_DEVICE T *data() const { return Data; }
};

#if defined(WEFT_DIALECT_CUDA) || defined(WEFT_DIALECT_HIP)
WEFT_DEVICE index_t global_id_x() {
  return (index_t)blockIdx.x * blockDim.x + threadIdx.x;
}
WEFT_DEVICE index_t global_size_x() { return (index_t)gridDim.x * blockDim.x; }
WEFT_DEVICE void barrier() { __syncthreads(); }
#else
/// The simulator sets these for the thread (fiber) it runs.
struct sim_thread_state {
  unsigned ThreadIdx[3], BlockIdx[3], BlockDim[3], GridDim[3];
};
extern thread_local sim_thread_state *sim_current;
inline index_t global_id_x() {
  return (index_t)sim_current->BlockIdx[0] * sim_current->BlockDim[0] +
         sim_current->ThreadIdx[0];
}
inline index_t global_size_x() {
  return (index_t)sim_current->GridDim[0] * sim_current->BlockDim[0];
}
#endif

// Math: the plugin maps std::sqrt, ::sqrtf, ... to weft::sqrt, with one
// overload per floating type, as in <cmath>.
#if defined(WEFT_DIALECT_SIM)
#define WEFT_MATH1(Name)                                                       \
  WEFT_DEVICE float Name(float X) { return std::Name(X); }                     \
  WEFT_DEVICE double Name(double X) { return std::Name(X); }
#define WEFT_MATH2(Name)                                                       \
  WEFT_DEVICE float Name(float X, float Y) { return std::Name(X, Y); }         \
  WEFT_DEVICE double Name(double X, double Y) { return std::Name(X, Y); }
#define WEFT_MATH3(Name)                                                       \
  WEFT_DEVICE float Name(float X, float Y, float Z) { return std::Name(X, Y, Z); } \
  WEFT_DEVICE double Name(double X, double Y, double Z) {                      \
    return std::Name(X, Y, Z);                                                 \
  }
#else
#define WEFT_MATH1(Name)                                                       \
  WEFT_DEVICE float Name(float X) { return ::Name##f(X); }                     \
  WEFT_DEVICE double Name(double X) { return ::Name(X); }
#define WEFT_MATH2(Name)                                                       \
  WEFT_DEVICE float Name(float X, float Y) { return ::Name##f(X, Y); }         \
  WEFT_DEVICE double Name(double X, double Y) { return ::Name(X, Y); }
#define WEFT_MATH3(Name)                                                       \
  WEFT_DEVICE float Name(float X, float Y, float Z) {                          \
    return ::Name##f(X, Y, Z);                                                 \
  }                                                                            \
  WEFT_DEVICE double Name(double X, double Y, double Z) {                      \
    return ::Name(X, Y, Z);                                                    \
  }
#endif
WEFT_MATH1(sqrt) WEFT_MATH1(cbrt) WEFT_MATH1(exp) WEFT_MATH1(exp2)
WEFT_MATH1(expm1) WEFT_MATH1(log) WEFT_MATH1(log2) WEFT_MATH1(log10)
WEFT_MATH1(log1p) WEFT_MATH1(sin) WEFT_MATH1(cos) WEFT_MATH1(tan)
WEFT_MATH1(asin) WEFT_MATH1(acos) WEFT_MATH1(atan) WEFT_MATH1(sinh)
WEFT_MATH1(cosh) WEFT_MATH1(tanh) WEFT_MATH1(asinh) WEFT_MATH1(acosh)
WEFT_MATH1(atanh) WEFT_MATH1(erf) WEFT_MATH1(erfc) WEFT_MATH1(tgamma)
WEFT_MATH1(lgamma) WEFT_MATH1(fabs) WEFT_MATH1(floor) WEFT_MATH1(ceil)
WEFT_MATH1(round) WEFT_MATH1(trunc)
WEFT_MATH2(pow) WEFT_MATH2(atan2) WEFT_MATH2(fmod) WEFT_MATH2(fmin)
WEFT_MATH2(fmax) WEFT_MATH2(hypot) WEFT_MATH2(copysign)
WEFT_MATH3(fma)
#undef WEFT_MATH1
#undef WEFT_MATH2
#undef WEFT_MATH3

// std::abs, std::min, std::max and std::clamp as <cmath>/<algorithm> define
// them for arithmetic types.
WEFT_DEVICE float abs(float X) { return fabs(X); }
WEFT_DEVICE double abs(double X) { return fabs(X); }
WEFT_DEVICE int abs(int X) { return X < 0 ? -X : X; }
WEFT_DEVICE long abs(long X) { return X < 0 ? -X : X; }
WEFT_DEVICE long long abs(long long X) { return X < 0 ? -X : X; }
template <class T> WEFT_DEVICE const T &min(const T &A, const T &B) {
  return B < A ? B : A;
}
template <class T> WEFT_DEVICE const T &max(const T &A, const T &B) {
  return A < B ? B : A;
}
template <class T>
WEFT_DEVICE const T &clamp(const T &V, const T &Lo, const T &Hi) {
  return V < Lo ? Lo : (Hi < V ? Hi : V);
}

} // namespace weft

#endif // WEFT_DEVICE_H
