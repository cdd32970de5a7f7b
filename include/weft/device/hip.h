// hip.h: device.h's HIP dialect: through clang's AMDGPU builtins, which
// hipRTC and clang without any header (WEFT_HIP_BARE) both know, and
// HIP's headers for warp exchanges and math where they are there.
// Part of weft/device.h.
#if defined(WEFT_DIALECT_HIP)
#if defined(WEFT_HIP_BARE)
#define WEFT_DEVICE                                                            \
  __attribute__((device)) __attribute__((always_inline)) inline
#define WEFT_KERNEL(Name, MaxThreads)                                          \
  extern "C" __attribute__((global))                                           \
  __attribute__((amdgpu_flat_work_group_size(1, MaxThreads))) void Name
#define WEFT_SHARED __attribute__((shared))
#else
#define WEFT_DEVICE __device__ __forceinline__
#define WEFT_KERNEL(Name, MaxThreads)                                          \
  extern "C" __global__ void __launch_bounds__(MaxThreads) Name
#define WEFT_SHARED __shared__
#endif
// HIP's second bound counts waves per execution unit, not blocks.
#define WEFT_KERNEL_BLOCKS(Name, MaxThreads, MinBlocks)                        \
  WEFT_KERNEL(Name, MaxThreads)

namespace weft {

WEFT_DEVICE unsigned thread_idx(int D) {
  return D == 0   ? __builtin_amdgcn_workitem_id_x()
         : D == 1 ? __builtin_amdgcn_workitem_id_y()
                  : __builtin_amdgcn_workitem_id_z();
}
WEFT_DEVICE unsigned block_idx(int D) {
  return D == 0   ? __builtin_amdgcn_workgroup_id_x()
         : D == 1 ? __builtin_amdgcn_workgroup_id_y()
                  : __builtin_amdgcn_workgroup_id_z();
}
WEFT_DEVICE unsigned block_dim(int D) {
  return D == 0   ? __builtin_amdgcn_workgroup_size_x()
         : D == 1 ? __builtin_amdgcn_workgroup_size_y()
                  : __builtin_amdgcn_workgroup_size_z();
}
// HIP launches whole blocks: the grid's work-items divide exactly.
WEFT_DEVICE unsigned grid_dim(int D) {
  return D == 0   ? __builtin_amdgcn_grid_size_x() / block_dim(0)
         : D == 1 ? __builtin_amdgcn_grid_size_y() / block_dim(1)
                  : __builtin_amdgcn_grid_size_z() / block_dim(2);
}
WEFT_DEVICE void barrier() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
WEFT_DEVICE void warp_sync() { __builtin_amdgcn_wave_barrier(); }
#if defined(WEFT_HIP_BARE)
// 64 on gfx9 (CDNA), 32 or 64 on gfx10 and later: known when the code
// object is made, not when the text is preprocessed.
WEFT_DEVICE unsigned warp_size() { return __builtin_amdgcn_wavefrontsize(); }
WEFT_DEVICE unsigned lane_id() {
  return __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
}
/// Lane Src's V, 32 bits at a time through ds_bpermute.
template <class T> WEFT_DEVICE T bpermute(T V, unsigned Src) {
  static_assert(sizeof(T) <= 8, "warp exchanges carry up to 8 bytes");
  int Words[2] = {0, 0};
  __builtin_memcpy(Words, &V, sizeof V);
  Words[0] = __builtin_amdgcn_ds_bpermute((int)(Src << 2), Words[0]);
  if (sizeof(T) > 4)
    Words[1] = __builtin_amdgcn_ds_bpermute((int)(Src << 2), Words[1]);
  T R;
  __builtin_memcpy(&R, Words, sizeof R);
  return R;
}
template <class T> WEFT_DEVICE T shfl(T V, unsigned Src) {
  return bpermute(V, Src % warp_size());
}
template <class T> WEFT_DEVICE T shfl_down(T V, unsigned Delta) {
  const unsigned Lane = lane_id();
  return bpermute(V, Lane + Delta < warp_size() ? Lane + Delta : Lane);
}
template <class T> WEFT_DEVICE T shfl_xor(T V, unsigned Mask) {
  const unsigned Lane = lane_id();
  return bpermute(V, (Lane ^ Mask) < warp_size() ? Lane ^ Mask : Lane);
}
WEFT_DEVICE unsigned long long ballot(bool P) {
  return __builtin_amdgcn_ballot_w64(P);
}
WEFT_DEVICE bool all(bool P) { return ballot(P) == ballot(true); }
WEFT_DEVICE bool any(bool P) { return ballot(P) != 0; }
#else
WEFT_DEVICE unsigned warp_size() { return warpSize; }
WEFT_DEVICE unsigned lane_id() { return threadIdx.x % warpSize; }
template <class T> WEFT_DEVICE T shfl(T V, unsigned Src) {
  return __shfl(V, (int)Src);
}
template <class T> WEFT_DEVICE T shfl_down(T V, unsigned Delta) {
  return __shfl_down(V, Delta);
}
template <class T> WEFT_DEVICE T shfl_xor(T V, unsigned Mask) {
  return __shfl_xor(V, (int)Mask);
}
WEFT_DEVICE bool all(bool P) { return __all(P); }
WEFT_DEVICE bool any(bool P) { return __any(P); }
WEFT_DEVICE unsigned long long ballot(bool P) { return __ballot(P); }
#endif
template <class T> WEFT_DEVICE T atomic_add(T *A, T V) {
  return __hip_atomic_fetch_add(A, V, __ATOMIC_RELAXED,
                                __HIP_MEMORY_SCOPE_AGENT);
}
template <class T> WEFT_DEVICE T atomic_min(T *A, T V) {
  return __hip_atomic_fetch_min(A, V, __ATOMIC_RELAXED,
                                __HIP_MEMORY_SCOPE_AGENT);
}
template <class T> WEFT_DEVICE T atomic_max(T *A, T V) {
  return __hip_atomic_fetch_max(A, V, __ATOMIC_RELAXED,
                                __HIP_MEMORY_SCOPE_AGENT);
}
template <class T> WEFT_DEVICE T atomic_exch(T *A, T V) {
  return __hip_atomic_exchange(A, V, __ATOMIC_RELAXED,
                               __HIP_MEMORY_SCOPE_AGENT);
}
template <class T> WEFT_DEVICE T atomic_and(T *A, T V) {
  return __hip_atomic_fetch_and(A, V, __ATOMIC_RELAXED,
                                __HIP_MEMORY_SCOPE_AGENT);
}
template <class T> WEFT_DEVICE T atomic_or(T *A, T V) {
  return __hip_atomic_fetch_or(A, V, __ATOMIC_RELAXED,
                               __HIP_MEMORY_SCOPE_AGENT);
}
template <class T> WEFT_DEVICE T atomic_xor(T *A, T V) {
  return __hip_atomic_fetch_xor(A, V, __ATOMIC_RELAXED,
                                __HIP_MEMORY_SCOPE_AGENT);
}
template <class T> WEFT_DEVICE T atomic_load(T *A) {
  return __hip_atomic_load(A, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
}
template <class T> WEFT_DEVICE T atomic_cas(T *A, T Expected, T V) {
  __hip_atomic_compare_exchange_strong(A, &Expected, V, __ATOMIC_RELAXED,
                                       __ATOMIC_RELAXED,
                                       __HIP_MEMORY_SCOPE_AGENT);
  return Expected;
}
/// Integers' minimum and maximum in one atomic step: clang's builtin takes
/// every integer (HIP's headers have no atomicMin of long long).
template <bool Min, class T>
WEFT_DEVICE void atomic_min_max_integer(T *A, T V) {
  if constexpr (Min)
    atomic_min(A, V);
  else
    atomic_max(A, V);
}

/// A run of elements that load_run reads as one (one 128-bit load, say).
template <class Run, class E> WEFT_DEVICE Run load_whole_run(const E *From) {
  return *reinterpret_cast<const Run *>(From);
}

// Math (math.h's list). WEFT_MATHn are library functions; WEFT_EXACTn are
// the ones every GPU does in instructions.
#if defined(WEFT_HIP_BARE)
// ROCm's device library (ocml), linked where the code object is made.
#define WEFT_MATH1(Name)                                                       \
  extern "C" __attribute__((device, const)) float __ocml_##Name##_f32(float);  \
  extern "C"                                                                   \
      __attribute__((device, const)) double __ocml_##Name##_f64(double);       \
  WEFT_DEVICE float Name(float X) { return __ocml_##Name##_f32(X); }           \
  WEFT_DEVICE double Name(double X) { return __ocml_##Name##_f64(X); }
#define WEFT_MATH2(Name)                                                       \
  extern "C"                                                                   \
      __attribute__((device, const)) float __ocml_##Name##_f32(float, float);  \
  extern "C" __attribute__((device, const)) double __ocml_##Name##_f64(        \
      double, double);                                                         \
  WEFT_DEVICE float Name(float X, float Y) {                                   \
    return __ocml_##Name##_f32(X, Y);                                          \
  }                                                                            \
  WEFT_DEVICE double Name(double X, double Y) {                                \
    return __ocml_##Name##_f64(X, Y);                                          \
  }
#define WEFT_EXACT1(Name)                                                      \
  WEFT_DEVICE float Name(float X) { return __builtin_##Name##f(X); }           \
  WEFT_DEVICE double Name(double X) { return __builtin_##Name(X); }
#define WEFT_EXACT2(Name)                                                      \
  WEFT_DEVICE float Name(float X, float Y) {                                   \
    return __builtin_##Name##f(X, Y);                                          \
  }                                                                            \
  WEFT_DEVICE double Name(double X, double Y) { return __builtin_##Name(X, Y); }
#else
#define WEFT_MATH1(Name)                                                       \
  WEFT_DEVICE float Name(float X) { return ::Name##f(X); }                     \
  WEFT_DEVICE double Name(double X) { return ::Name(X); }
#define WEFT_MATH2(Name)                                                       \
  WEFT_DEVICE float Name(float X, float Y) { return ::Name##f(X, Y); }         \
  WEFT_DEVICE double Name(double X, double Y) { return ::Name(X, Y); }
#define WEFT_EXACT1(Name) WEFT_MATH1(Name)
#define WEFT_EXACT2(Name) WEFT_MATH2(Name)
#endif

/// An assert(...) of the loop's body that does not hold: the kernel stops,
/// the launch fails, and the runtime runs the loop on the host, where the
/// program's own assert reports it.
WEFT_DEVICE int assertion_failed() {
  __builtin_trap();
  return 0;
}

} // namespace weft
#endif // WEFT_DIALECT_HIP
