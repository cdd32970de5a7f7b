// cuda-device-api.h: the part of CUDA's device API that weft/device.h's CUDA
// dialect calls, declared as NVRTC declares it (CUDA Programming Guide:
// built-in variables, warp shuffle and vote functions, atomic functions,
// the math library), for clang to compile kernels as CUDA where neither
// NVRTC nor a CUDA toolkit is installed. The overloads are CUDA's own, so
// a call NVRTC would not take (an atomicMin of long, say) fails here too.
#define __CUDACC_RTC__ 1
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
// threadIdx, blockIdx, blockDim, gridDim: clang's own, as its CUDA headers
// define them (no CUDA header needed).
#include <__clang_cuda_builtin_vars.h>

#define WEFT_CUDA_SHUFFLES(T)                                                  \
  __device__ T __shfl_sync(unsigned, T, int, int = 32);                        \
  __device__ T __shfl_down_sync(unsigned, T, unsigned, int = 32);              \
  __device__ T __shfl_xor_sync(unsigned, T, int, int = 32);
WEFT_CUDA_SHUFFLES(int)
WEFT_CUDA_SHUFFLES(unsigned)
WEFT_CUDA_SHUFFLES(long)
WEFT_CUDA_SHUFFLES(unsigned long)
WEFT_CUDA_SHUFFLES(long long)
WEFT_CUDA_SHUFFLES(unsigned long long)
WEFT_CUDA_SHUFFLES(float)
WEFT_CUDA_SHUFFLES(double)
#undef WEFT_CUDA_SHUFFLES
__device__ void __syncwarp(unsigned = 0xffffffffu);
__device__ int __all_sync(unsigned, int);
__device__ int __any_sync(unsigned, int);
__device__ unsigned __ballot_sync(unsigned, int);
__device__ void __trap();
__device__ float __int_as_float(int);
__device__ int __float_as_int(float);
__device__ float __uint_as_float(unsigned);
__device__ unsigned __float_as_uint(float);
__device__ double __longlong_as_double(long long);
__device__ long long __double_as_longlong(double);

#define WEFT_CUDA_ATOMIC(Name, T) __device__ T Name(T *, T);
#define WEFT_CUDA_ATOMIC_WORDS(Name)                                           \
  WEFT_CUDA_ATOMIC(Name, int)                                                  \
  WEFT_CUDA_ATOMIC(Name, unsigned)                                             \
  WEFT_CUDA_ATOMIC(Name, unsigned long long)
WEFT_CUDA_ATOMIC_WORDS(atomicAdd)
WEFT_CUDA_ATOMIC(atomicAdd, float)
WEFT_CUDA_ATOMIC(atomicAdd, double)
WEFT_CUDA_ATOMIC_WORDS(atomicMin)
WEFT_CUDA_ATOMIC(atomicMin, long long)
WEFT_CUDA_ATOMIC_WORDS(atomicMax)
WEFT_CUDA_ATOMIC(atomicMax, long long)
WEFT_CUDA_ATOMIC_WORDS(atomicExch)
WEFT_CUDA_ATOMIC(atomicExch, float)
WEFT_CUDA_ATOMIC_WORDS(atomicAnd)
WEFT_CUDA_ATOMIC_WORDS(atomicOr)
WEFT_CUDA_ATOMIC_WORDS(atomicXor)
#undef WEFT_CUDA_ATOMIC_WORDS
#undef WEFT_CUDA_ATOMIC
__device__ int atomicCAS(int *, int, int);
__device__ unsigned atomicCAS(unsigned *, unsigned, unsigned);
__device__ unsigned long long atomicCAS(unsigned long long *,
                                        unsigned long long, unsigned long long);

#define WEFT_CUDA_MATH1(Name)                                                  \
  extern "C" __device__ float Name##f(float);                                  \
  extern "C" __device__ double Name(double);
#define WEFT_CUDA_MATH2(Name)                                                  \
  extern "C" __device__ float Name##f(float, float);                           \
  extern "C" __device__ double Name(double, double);
// clang-format off
WEFT_CUDA_MATH1(sqrt) WEFT_CUDA_MATH1(fabs) WEFT_CUDA_MATH1(floor)
WEFT_CUDA_MATH1(ceil) WEFT_CUDA_MATH1(round) WEFT_CUDA_MATH1(trunc)
WEFT_CUDA_MATH1(rint) WEFT_CUDA_MATH1(nearbyint) WEFT_CUDA_MATH1(cbrt)
WEFT_CUDA_MATH1(exp) WEFT_CUDA_MATH1(exp2) WEFT_CUDA_MATH1(expm1)
WEFT_CUDA_MATH1(log) WEFT_CUDA_MATH1(log2) WEFT_CUDA_MATH1(log10)
WEFT_CUDA_MATH1(log1p) WEFT_CUDA_MATH1(sin) WEFT_CUDA_MATH1(cos)
WEFT_CUDA_MATH1(tan) WEFT_CUDA_MATH1(asin) WEFT_CUDA_MATH1(acos)
WEFT_CUDA_MATH1(atan) WEFT_CUDA_MATH1(sinh) WEFT_CUDA_MATH1(cosh)
WEFT_CUDA_MATH1(tanh) WEFT_CUDA_MATH1(asinh) WEFT_CUDA_MATH1(acosh)
WEFT_CUDA_MATH1(atanh) WEFT_CUDA_MATH1(erf) WEFT_CUDA_MATH1(erfc)
WEFT_CUDA_MATH1(tgamma) WEFT_CUDA_MATH1(lgamma)
WEFT_CUDA_MATH2(fmin) WEFT_CUDA_MATH2(fmax) WEFT_CUDA_MATH2(copysign)
WEFT_CUDA_MATH2(pow) WEFT_CUDA_MATH2(atan2) WEFT_CUDA_MATH2(fmod)
WEFT_CUDA_MATH2(hypot) WEFT_CUDA_MATH2(fdim) WEFT_CUDA_MATH2(remainder)
// clang-format on
#undef WEFT_CUDA_MATH1
#undef WEFT_CUDA_MATH2
                                                    extern "C" __device__
    float fmaf(float, float, float);
extern "C" __device__ double fma(double, double, double);
