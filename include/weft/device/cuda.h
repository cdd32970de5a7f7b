// cuda.h: device.h's CUDA dialect, as NVRTC compiles it: thread indices,
// barriers, warp exchanges, atomics and math from CUDA's device API.
// Part of weft/device.h.
#if defined(WEFT_DIALECT_CUDA)
#define WEFT_DEVICE __device__ __forceinline__
#define WEFT_KERNEL(Name, MaxThreads)                                          \
  extern "C" __global__ void __launch_bounds__(MaxThreads) Name
// At least MinBlocks blocks an SM: the compiler caps registers to fit them.
#define WEFT_KERNEL_BLOCKS(Name, MaxThreads, MinBlocks)                        \
  extern "C" __global__ void __launch_bounds__(MaxThreads, MinBlocks) Name
#define WEFT_SHARED __shared__

namespace weft {

WEFT_DEVICE unsigned thread_idx(int D) {
  return D == 0 ? threadIdx.x : D == 1 ? threadIdx.y : threadIdx.z;
}
WEFT_DEVICE unsigned block_idx(int D) {
  return D == 0 ? blockIdx.x : D == 1 ? blockIdx.y : blockIdx.z;
}
WEFT_DEVICE unsigned block_dim(int D) {
  return D == 0 ? blockDim.x : D == 1 ? blockDim.y : blockDim.z;
}
WEFT_DEVICE unsigned grid_dim(int D) {
  return D == 0 ? gridDim.x : D == 1 ? gridDim.y : gridDim.z;
}
WEFT_DEVICE void barrier() { __syncthreads(); }
WEFT_DEVICE void warp_sync() { __syncwarp(); }
WEFT_DEVICE unsigned warp_size() { return 32; }
WEFT_DEVICE unsigned lane_id() { return threadIdx.x & 31; }
template <class T> WEFT_DEVICE T shfl(T V, unsigned Src) {
  return __shfl_sync(0xffffffffu, V, Src);
}
template <class T> WEFT_DEVICE T shfl_down(T V, unsigned Delta) {
  return __shfl_down_sync(0xffffffffu, V, Delta);
}
template <class T> WEFT_DEVICE T shfl_xor(T V, unsigned Mask) {
  return __shfl_xor_sync(0xffffffffu, V, Mask);
}
WEFT_DEVICE bool all(bool P) { return __all_sync(0xffffffffu, P); }
WEFT_DEVICE bool any(bool P) { return __any_sync(0xffffffffu, P); }
WEFT_DEVICE unsigned long long ballot(bool P) {
  return __ballot_sync(0xffffffffu, P);
}
template <class T> WEFT_DEVICE T atomic_add(T *A, T V) {
  return atomicAdd(A, V);
}
template <class T> WEFT_DEVICE T atomic_min(T *A, T V) {
  return atomicMin(A, V);
}
template <class T> WEFT_DEVICE T atomic_max(T *A, T V) {
  return atomicMax(A, V);
}
template <class T> WEFT_DEVICE T atomic_exch(T *A, T V) {
  return atomicExch(A, V);
}
template <class T> WEFT_DEVICE T atomic_and(T *A, T V) {
  return atomicAnd(A, V);
}
template <class T> WEFT_DEVICE T atomic_or(T *A, T V) { return atomicOr(A, V); }
template <class T> WEFT_DEVICE T atomic_xor(T *A, T V) {
  return atomicXor(A, V);
}
/// A read other threads' atomics may race with: any value it returns is
/// one the element held, which a compare-and-swap then checks.
template <class T> WEFT_DEVICE T atomic_load(T *A) { return *(volatile T *)A; }
template <class T> WEFT_DEVICE T atomic_cas(T *A, T Expected, T V) {
  return atomicCAS(A, Expected, V);
}
/// Integers' minimum and maximum in one atomic step: CUDA's atomicMin and
/// atomicMax take int, unsigned, long long and unsigned long long alone,
/// so an integer goes as the one of its size and signedness.
template <bool Min, class T>
WEFT_DEVICE void atomic_min_max_integer(T *A, T V) {
  typedef typename word_of<sizeof(T)>::type U;
  typedef typename word_of<sizeof(T)>::signed_type S;
  if constexpr ((T)-1 < (T)0) {
    if constexpr (Min)
      atomic_min((S *)A, (S)V);
    else
      atomic_max((S *)A, (S)V);
  } else if constexpr (Min) {
    atomic_min((U *)A, (U)V);
  } else {
    atomic_max((U *)A, (U)V);
  }
}

/// A run of elements that load_run reads as one (one 128-bit load, say).
template <class Run, class E> WEFT_DEVICE Run load_whole_run(const E *From) {
  return *reinterpret_cast<const Run *>(From);
}

// Math (math.h's list): CUDA's library, as <cmath> names it.
#define WEFT_MATH1(Name)                                                       \
  WEFT_DEVICE float Name(float X) { return ::Name##f(X); }                     \
  WEFT_DEVICE double Name(double X) { return ::Name(X); }
#define WEFT_MATH2(Name)                                                       \
  WEFT_DEVICE float Name(float X, float Y) { return ::Name##f(X, Y); }         \
  WEFT_DEVICE double Name(double X, double Y) { return ::Name(X, Y); }
#define WEFT_EXACT1(Name) WEFT_MATH1(Name)
#define WEFT_EXACT2(Name) WEFT_MATH2(Name)
WEFT_DEVICE float fma(float X, float Y, float Z) { return ::fmaf(X, Y, Z); }
WEFT_DEVICE double fma(double X, double Y, double Z) { return ::fma(X, Y, Z); }
WEFT_DEVICE float infinity_f() { return __int_as_float(0x7f800000); }
WEFT_DEVICE double infinity_d() {
  return __longlong_as_double(0x7ff0000000000000ll);
}
WEFT_DEVICE unsigned float_bits(float X) { return __float_as_uint(X); }
WEFT_DEVICE float bits_float(unsigned X) { return __uint_as_float(X); }
WEFT_DEVICE unsigned long long double_bits(double X) {
  return (unsigned long long)__double_as_longlong(X);
}
WEFT_DEVICE double bits_double(unsigned long long X) {
  return __longlong_as_double((long long)X);
}

/// An assert(...) of the loop's body that does not hold: the kernel stops,
/// the launch fails, and the runtime runs the loop on the host, where the
/// program's own assert reports it.
WEFT_DEVICE int assertion_failed() {
  __trap();
  return 0;
}

} // namespace weft
#endif // WEFT_DIALECT_CUDA
