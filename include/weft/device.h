// device.h: the prelude every generated kernel is written against. It maps
// thread indices, barriers, shared memory, atomics and math to CUDA (NVRTC),
// HIP (hipRTC) or the CPU (the simulator), so one kernel text serves all three.
// It must compile without any system header under NVRTC and hipRTC.
#ifndef WEFT_DEVICE_H
#define WEFT_DEVICE_H

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define WEFT_DIALECT_CUDA 1
#elif defined(__HIP__) || defined(__HIPCC_RTC__) ||                            \
    defined(__HIP_DEVICE_COMPILE__)
#define WEFT_DIALECT_HIP 1
#else
#define WEFT_DIALECT_SIM 1
#endif

// HIP without any header (clang -nogpuinc, for targets the installed HIP
// does not know, gfx942 say): the prelude speaks to clang's AMDGPU builtins.
#if defined(WEFT_DIALECT_HIP) && !defined(__HIPCC_RTC__) &&                    \
    !defined(__CLANG_HIP_RUNTIME_WRAPPER_H__) &&                               \
    !defined(HIP_INCLUDE_HIP_HIP_RUNTIME_H)
#define WEFT_HIP_BARE 1
#endif

#if defined(WEFT_HIP_BARE)
#define WEFT_DEVICE                                                            \
  __attribute__((device)) __attribute__((always_inline)) inline
#define WEFT_KERNEL(Name, MaxThreads)                                          \
  extern "C" __attribute__((global))                                           \
  __attribute__((amdgpu_flat_work_group_size(1, MaxThreads))) void Name
#define WEFT_KERNEL_BLOCKS(Name, MaxThreads, MinBlocks)                        \
  WEFT_KERNEL(Name, MaxThreads)
#define WEFT_SHARED __attribute__((shared))
#elif defined(WEFT_DIALECT_CUDA) || defined(WEFT_DIALECT_HIP)
#define WEFT_DEVICE __device__ __forceinline__
#define WEFT_KERNEL(Name, MaxThreads)                                          \
  extern "C" __global__ void __launch_bounds__(MaxThreads) Name
#if defined(WEFT_DIALECT_CUDA)
// At least MinBlocks blocks an SM: the compiler caps registers to fit them.
#define WEFT_KERNEL_BLOCKS(Name, MaxThreads, MinBlocks)                        \
  extern "C" __global__ void __launch_bounds__(MaxThreads, MinBlocks) Name
#else
// HIP's second bound counts waves per execution unit, not blocks.
#define WEFT_KERNEL_BLOCKS(Name, MaxThreads, MinBlocks)                        \
  WEFT_KERNEL(Name, MaxThreads)
#endif
#define WEFT_SHARED __shared__
#else
// No <atomic> or <cmath>: parsing them is most of the time a simulator
// kernel takes to compile; GCC's builtins do the same work.
#include <cstdint>
#define WEFT_DEVICE inline
#define WEFT_KERNEL(Name, MaxThreads) extern "C" void Name
#define WEFT_KERNEL_BLOCKS(Name, MaxThreads, MinBlocks) extern "C" void Name
#define WEFT_SHARED static thread_local
#endif

namespace weft {

typedef long long index_t;
typedef unsigned long long size_type;

#if defined(WEFT_DIALECT_SIM)
/// The simulator's view of the thread (fiber) running now.
struct sim_thread_state {
  unsigned ThreadIdx[3], BlockIdx[3], BlockDim[3], GridDim[3];
  unsigned long long Iteration; // the loop iteration plus one; 0: none yet
  unsigned Lane, WarpSize;
  /// Inside an outermost iteration: the iteration of the marked loop one
  /// level in, plus one (0: outside it), and how many times the thread
  /// entered or left such a loop (accesses of different phases are ordered).
  unsigned long long Inner;
  unsigned Phase;
};
enum sim_warp_op {
  SimShfl,
  SimShflDown,
  SimShflXor,
  SimAll,
  SimAny,
  SimBallot,
  SimSync // warp_sync: lanes wait for each other, nothing exchanged
};
/// Filled by the simulator after it loads the kernel.
struct sim_hooks {
  void (*Barrier)(unsigned Site);
  void (*SpanAccess)(const void *Data, index_t I, size_type Extent, int Write);
  void (*SharedAccess)(const void *Address, int Write);
  unsigned long long (*Warp)(unsigned long long Value, int Op, unsigned Arg);
  void (*AssertionFailed)();
};
extern thread_local sim_thread_state *sim_current;
extern sim_hooks sim_hook_table;
#if defined(WEFT_SIM_CHECK)
#define WEFT_SIM_SPAN_ACCESS(I, Write)                                         \
  sim_hook_table.SpanAccess(Data, I, Extent, Write)
#define WEFT_SIM_SHARED_ACCESS(Address, Write)                                 \
  sim_hook_table.SharedAccess(Address, Write)
#else
#define WEFT_SIM_SPAN_ACCESS(I, Write)                                         \
  ((I) < 0 || (size_type)(I) >= Extent                                         \
       ? sim_hook_table.SpanAccess(Data, I, Extent, Write)                     \
       : (void)0)
#define WEFT_SIM_SHARED_ACCESS(Address, Write) ((void)0)
#endif
#else
#define WEFT_SIM_SPAN_ACCESS(I, Write) ((void)0)
#define WEFT_SIM_SHARED_ACCESS(Address, Write) ((void)0)
#endif

/// A captured std::span inside a kernel. The host passes {pointer, extent};
/// the layout is part of the runtime's launch ABI. operator[] is an lvalue
/// access (a write, or a read and a write); ld() is a pure read. The
/// simulator's checker tells the two apart.
template <class T> struct is_const_element { static const int value = 0; };
template <class T> struct is_const_element<const T> {
  static const int value = 1;
};

template <class T> struct dspan {
  T *Data;
  size_type Extent;
  WEFT_DEVICE T &operator[](index_t I) const {
    WEFT_SIM_SPAN_ACCESS(I, !is_const_element<T>::value);
    return Data[I];
  }
  WEFT_DEVICE T ld(index_t I) const {
    WEFT_SIM_SPAN_ACCESS(I, 0);
    return Data[I];
  }
  /// Element I's address for an array reduction's atomic update: checked
  /// against the extent, but (Write 2) not as a conflict between iterations,
  /// whose updates combine in any order.
  WEFT_DEVICE T *at(index_t I) const {
    WEFT_SIM_SPAN_ACCESS(I, 2);
    return Data + I;
  }
  WEFT_DEVICE size_type size() const { return Extent; }
  WEFT_DEVICE T *data() const { return Data; }
  /// The simulator's check of a read that shared memory serves.
  WEFT_DEVICE void check_read(index_t I) const { WEFT_SIM_SPAN_ACCESS(I, 0); }
  /// And of a write.
  WEFT_DEVICE void check_write(index_t I) const { WEFT_SIM_SPAN_ACCESS(I, 1); }
};

/// Span's element I read from shared memory, as Value (a tile; staged::ld
/// and window::ld do the same): the simulator still checks I against the span,
/// so that a read past its end is reported as the loop without shared memory
/// would be, and its checker records the read; a GPU reads Value alone.
#if defined(WEFT_DIALECT_SIM)
#define WEFT_SPAN_READ(Span, I, Value)                                         \
  ((Span).check_read((weft::index_t)(I)), (Value))
#else
#define WEFT_SPAN_READ(Span, I, Value) (Value)
#endif
/// The same where Cond holds (a register tile's output in range: those past
/// the edge compute on unused values, their subscripts unchecked).
#if defined(WEFT_DIALECT_SIM)
#define WEFT_SPAN_READ_IF(Cond, Span, I, Value)                                \
  ((Cond) ? (Span).check_read((weft::index_t)(I)) : (void)0, (Value))
#else
#define WEFT_SPAN_READ_IF(Cond, Span, I, Value) (Value)
#endif

/// Elements I .. I + V - 1 of S into Out, those from Valid on as T(): one
/// V * sizeof(T)-byte load where all V are valid and the first is aligned
/// to it (a register tile's 128-bit loads), else one load per valid
/// element. The simulator takes the same path, each element checked: as
/// the current iteration's read (Access 0), or against the extent alone
/// (Access 2: a span the nest writes, whose reading iterations record
/// their own reads).
template <int V, class T, class E>
WEFT_DEVICE void load_run(T (&Out)[V], const dspan<E> &S, index_t I,
                          index_t Valid, int Access = 0) {
  // Aligned to the run where it is one load (V > 1: 4- and 8-byte
  // elements); a struct of any size otherwise.
  struct alignas(V > 1 ? V * sizeof(E) : alignof(E)) run {
    T Elements[V];
  };
  E *const Data = S.Data;
  const size_type Extent = S.Extent;
  (void)Extent;
  if (V > 1 && Valid >= V &&
      ((size_type)(Data + I) & (size_type)(V * sizeof(E) - 1)) == 0) {
    for (int J = 0; J < V; ++J)
      WEFT_SIM_SPAN_ACCESS(I + J, Access);
#if defined(WEFT_DIALECT_SIM)
    run R; // the host compiler keeps its aliasing rules
    __builtin_memcpy(&R, Data + I, sizeof R);
#else
    const run R = *reinterpret_cast<const run *>(Data + I);
#endif
    for (int J = 0; J < V; ++J)
      Out[J] = R.Elements[J];
    return;
  }
  for (int J = 0; J < V; ++J)
    Out[J] = J < Valid ? (T)(Access ? *S.at(I + J) : S.ld(I + J)) : T();
}

/// A per-iteration array in a buffer the runtime preallocated for all
/// iterations: element J at Base[J * Stride].
template <class T> struct strided {
  T *Base;
  index_t Stride;
  WEFT_DEVICE T &operator[](index_t J) const { return Base[J * Stride]; }
};

/// Shared memory: declare as `WEFT_SHARED weft::shared_array<T, N> Name;`.
/// 16-byte aligned, so that a register tile's fragments of four elements
/// load in one 128-bit instruction.
template <class T, unsigned N> struct shared_array {
  alignas(16) T Elements[N];
  WEFT_DEVICE T &operator[](index_t I) {
    WEFT_SIM_SHARED_ACCESS(&Elements[I], 1);
    return Elements[I];
  }
  WEFT_DEVICE T ld(index_t I) {
    WEFT_SIM_SHARED_ACCESS(&Elements[I], 0);
    return Elements[I];
  }
};

#if defined(WEFT_HIP_BARE)
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
WEFT_DEVICE void begin_iteration(index_t) {}
WEFT_DEVICE void inner_level(bool) {}
WEFT_DEVICE void begin_inner_iteration(index_t) {}
WEFT_DEVICE void resume_iteration(index_t, index_t) {}
WEFT_DEVICE void warp_sync() { __builtin_amdgcn_wave_barrier(); }
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
#elif defined(WEFT_DIALECT_CUDA) || defined(WEFT_DIALECT_HIP)
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
WEFT_DEVICE void begin_iteration(index_t) {}
WEFT_DEVICE void inner_level(bool) {}
WEFT_DEVICE void begin_inner_iteration(index_t) {}
WEFT_DEVICE void resume_iteration(index_t, index_t) {}
#if defined(WEFT_DIALECT_CUDA)
WEFT_DEVICE void warp_sync() { __syncwarp(); }
#else
WEFT_DEVICE void warp_sync() { __builtin_amdgcn_wave_barrier(); }
#endif
#if defined(WEFT_DIALECT_CUDA)
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
#else
inline unsigned thread_idx(int D) { return sim_current->ThreadIdx[D]; }
inline unsigned block_idx(int D) { return sim_current->BlockIdx[D]; }
inline unsigned block_dim(int D) { return sim_current->BlockDim[D]; }
inline unsigned grid_dim(int D) { return sim_current->GridDim[D]; }
/// The default argument records the call site, so that the checker can tell
/// threads waiting at different barriers apart.
inline void barrier(unsigned Site = __builtin_LINE()) {
  sim_hook_table.Barrier(Site);
}
inline void begin_iteration(index_t T) {
  sim_current->Iteration = (unsigned long long)T + 1;
  sim_current->Inner = 0;
  sim_current->Phase = 0;
}
/// Entering (true) or leaving a marked loop one level in: the checker then
/// tells its iterations apart, and orders what comes before and after.
inline void inner_level(bool) {
  ++sim_current->Phase;
  sim_current->Inner = 0;
}
inline void begin_inner_iteration(index_t T) {
  sim_current->Inner = (unsigned long long)T + 1;
}
/// Back inside iteration Outer of the outermost level and Inner of the
/// marked loop in it (its only statement), as the checker sees them: a
/// thread that runs several iterations of either together (a window tile)
/// moves among them.
inline void resume_iteration(index_t Outer, index_t Inner) {
  sim_current->Iteration = (unsigned long long)Outer + 1;
  sim_current->Phase = 1;
  sim_current->Inner = (unsigned long long)Inner + 1;
}
/// The lanes of the warp wait for each other (a vote nobody reads).
inline void warp_sync() { sim_hook_table.Warp(0, SimSync, 0); }
inline unsigned warp_size() { return sim_current->WarpSize; }
inline unsigned lane_id() { return sim_current->Lane; }
template <class T> inline unsigned long long sim_bits(T V) {
  static_assert(sizeof(T) <= 8, "warp exchanges carry up to 8 bytes");
  unsigned long long B = 0;
  __builtin_memcpy(&B, &V, sizeof V);
  return B;
}
template <class T> inline T sim_value(unsigned long long B) {
  T V;
  __builtin_memcpy(&V, &B, sizeof V);
  return V;
}
template <class T> inline T shfl(T V, unsigned Src) {
  return sim_value<T>(sim_hook_table.Warp(sim_bits(V), SimShfl, Src));
}
template <class T> inline T shfl_down(T V, unsigned Delta) {
  return sim_value<T>(sim_hook_table.Warp(sim_bits(V), SimShflDown, Delta));
}
template <class T> inline T shfl_xor(T V, unsigned Mask) {
  return sim_value<T>(sim_hook_table.Warp(sim_bits(V), SimShflXor, Mask));
}
inline bool all(bool P) { return sim_hook_table.Warp(P, SimAll, 0) != 0; }
inline bool any(bool P) { return sim_hook_table.Warp(P, SimAny, 0) != 0; }
inline unsigned long long ballot(bool P) {
  return sim_hook_table.Warp(P, SimBallot, 0);
}
// Sequentially consistent, as std::atomic_ref's members are. The
// compare-and-swap loops compare bytes, so they also serve floats.
template <class T> inline T atomic_add(T *A, T V) {
  return __atomic_fetch_add(A, V, __ATOMIC_SEQ_CST);
}
template <class T> inline T sim_atomic_add_float(T *A, T V) {
  T Old;
  __atomic_load(A, &Old, __ATOMIC_SEQ_CST);
  T New = Old + V;
  while (!__atomic_compare_exchange(A, &Old, &New, true, __ATOMIC_SEQ_CST,
                                    __ATOMIC_SEQ_CST))
    New = Old + V;
  return Old;
}
inline float atomic_add(float *A, float V) {
  return sim_atomic_add_float(A, V);
}
inline double atomic_add(double *A, double V) {
  return sim_atomic_add_float(A, V);
}
template <class T> inline T atomic_min(T *A, T V) {
  T Old;
  __atomic_load(A, &Old, __ATOMIC_SEQ_CST);
  while (V < Old &&
         !__atomic_compare_exchange(A, &Old, &V, true, __ATOMIC_SEQ_CST,
                                    __ATOMIC_SEQ_CST)) {
  }
  return Old;
}
template <class T> inline T atomic_max(T *A, T V) {
  T Old;
  __atomic_load(A, &Old, __ATOMIC_SEQ_CST);
  while (Old < V &&
         !__atomic_compare_exchange(A, &Old, &V, true, __ATOMIC_SEQ_CST,
                                    __ATOMIC_SEQ_CST)) {
  }
  return Old;
}
template <class T> inline T atomic_exch(T *A, T V) {
  T Old;
  __atomic_exchange(A, &V, &Old, __ATOMIC_SEQ_CST);
  return Old;
}
template <class T> inline T atomic_and(T *A, T V) {
  return __atomic_fetch_and(A, V, __ATOMIC_SEQ_CST);
}
template <class T> inline T atomic_or(T *A, T V) {
  return __atomic_fetch_or(A, V, __ATOMIC_SEQ_CST);
}
template <class T> inline T atomic_xor(T *A, T V) {
  return __atomic_fetch_xor(A, V, __ATOMIC_SEQ_CST);
}
template <class T> inline T atomic_load(T *A) {
  return __atomic_load_n(A, __ATOMIC_SEQ_CST);
}
template <class T> inline T atomic_cas(T *A, T Expected, T V) {
  __atomic_compare_exchange(A, &Expected, &V, false, __ATOMIC_SEQ_CST,
                            __ATOMIC_SEQ_CST);
  return Expected;
}
#endif

WEFT_DEVICE index_t global_id_x() {
  return (index_t)block_idx(0) * block_dim(0) + thread_idx(0);
}
WEFT_DEVICE index_t global_size_x() {
  return (index_t)grid_dim(0) * block_dim(0);
}

// Math: the plugin maps std::sqrt, ::sqrtf, ... to weft::sqrt, with one
// overload per floating type, as in <cmath>. WEFT_MATHn are library
// functions; WEFT_EXACTn are the ones every GPU does in instructions.
#if defined(WEFT_DIALECT_SIM)
#define WEFT_MATH1(Name)                                                       \
  WEFT_DEVICE float Name(float X) { return __builtin_##Name##f(X); }           \
  WEFT_DEVICE double Name(double X) { return __builtin_##Name(X); }
#define WEFT_MATH2(Name)                                                       \
  WEFT_DEVICE float Name(float X, float Y) {                                   \
    return __builtin_##Name##f(X, Y);                                          \
  }                                                                            \
  WEFT_DEVICE double Name(double X, double Y) { return __builtin_##Name(X, Y); }
#elif defined(WEFT_HIP_BARE)
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
#endif
#if !defined(WEFT_HIP_BARE)
#define WEFT_EXACT1(Name) WEFT_MATH1(Name)
#define WEFT_EXACT2(Name) WEFT_MATH2(Name)
#endif
#if defined(WEFT_DIALECT_SIM) || defined(WEFT_HIP_BARE)
WEFT_DEVICE float fma(float X, float Y, float Z) {
  return __builtin_fmaf(X, Y, Z);
}
WEFT_DEVICE double fma(double X, double Y, double Z) {
  return __builtin_fma(X, Y, Z);
}
#else
WEFT_DEVICE float fma(float X, float Y, float Z) { return ::fmaf(X, Y, Z); }
WEFT_DEVICE double fma(double X, double Y, double Z) { return ::fma(X, Y, Z); }
#endif
// clang-format off
WEFT_EXACT1(sqrt) WEFT_EXACT1(fabs) WEFT_EXACT1(floor) WEFT_EXACT1(ceil)
WEFT_EXACT1(round) WEFT_EXACT1(trunc) WEFT_EXACT1(rint) WEFT_EXACT1(nearbyint)
WEFT_EXACT2(fmin) WEFT_EXACT2(fmax) WEFT_EXACT2(copysign)
WEFT_MATH1(cbrt) WEFT_MATH1(exp) WEFT_MATH1(exp2) WEFT_MATH1(expm1)
WEFT_MATH1(log) WEFT_MATH1(log2) WEFT_MATH1(log10) WEFT_MATH1(log1p)
WEFT_MATH1(sin) WEFT_MATH1(cos) WEFT_MATH1(tan) WEFT_MATH1(asin)
WEFT_MATH1(acos) WEFT_MATH1(atan) WEFT_MATH1(sinh) WEFT_MATH1(cosh)
WEFT_MATH1(tanh) WEFT_MATH1(asinh) WEFT_MATH1(acosh) WEFT_MATH1(atanh)
WEFT_MATH1(erf) WEFT_MATH1(erfc) WEFT_MATH1(tgamma) WEFT_MATH1(lgamma)
WEFT_MATH2(pow) WEFT_MATH2(atan2) WEFT_MATH2(fmod) WEFT_MATH2(hypot)
WEFT_MATH2(fdim) WEFT_MATH2(remainder)
#undef WEFT_MATH1
#undef WEFT_MATH2
#undef WEFT_EXACT1
#undef WEFT_EXACT2

// std::abs, std::min, std::max and std::clamp as <cmath>/<algorithm> define
// them for arithmetic types. (Formatting stays off to here: the macro lines
// above end in no semicolon, which clang-format reads as one statement.)
WEFT_DEVICE float abs(float X) { return fabs(X); }
// clang-format on
WEFT_DEVICE double abs(double X) { return fabs(X); }
WEFT_DEVICE int abs(int X) { return X < 0 ? -X : X; }
WEFT_DEVICE long abs(long X) { return X < 0 ? -X : X; }
WEFT_DEVICE long long abs(long long X) { return X < 0 ? -X : X; }
// Rounding to an integer, and classification, as <cmath> defines them
// (no fast math anywhere, so a NaN compares unequal to itself).
WEFT_DEVICE long lround(float X) { return (long)round(X); }
WEFT_DEVICE long lround(double X) { return (long)round(X); }
WEFT_DEVICE long long llround(float X) { return (long long)round(X); }
WEFT_DEVICE long long llround(double X) { return (long long)round(X); }
WEFT_DEVICE long lrint(float X) { return (long)rint(X); }
WEFT_DEVICE long lrint(double X) { return (long)rint(X); }
WEFT_DEVICE long long llrint(float X) { return (long long)rint(X); }
WEFT_DEVICE long long llrint(double X) { return (long long)rint(X); }
template <class T> WEFT_DEVICE bool isnan(T X) { return X != X; }
template <class T> WEFT_DEVICE bool isfinite(T X) { return X - X == X - X; }
template <class T> WEFT_DEVICE bool isinf(T X) {
  return X == X && !isfinite(X);
}
template <class T> WEFT_DEVICE bool signbit(T X) {
  return copysign(1.0, (double)X) < 0;
}
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

/// An assert(...) of the loop's body that does not hold: the kernel stops
/// (on a GPU the launch fails, and the runtime runs the loop on the host,
/// where the program's own assert reports it; the simulator reports it).
#if defined(WEFT_DIALECT_SIM)
WEFT_DEVICE int assertion_failed() {
  sim_hook_table.AssertionFailed();
  return 0;
}
#elif defined(WEFT_DIALECT_CUDA)
WEFT_DEVICE int assertion_failed() {
  __trap();
  return 0;
}
#else
WEFT_DEVICE int assertion_failed() {
  __builtin_trap();
  return 0;
}
#endif

// ---- Complex numbers --------------------------------------------------------

/// std::complex<float> and std::complex<double> as the plugin maps them: the
/// same layout (the real part first), the operators and functions of
/// <complex>. Division scales as Smith's algorithm does (the host's library
/// may round the last bit differently).
template <class T> struct complex { T re, im; };
template <class T> WEFT_DEVICE complex<T> operator+(complex<T> A) { return A; }
template <class T> WEFT_DEVICE complex<T> operator-(complex<T> A) {
  return {-A.re, -A.im};
}
template <class T>
WEFT_DEVICE complex<T> operator+(complex<T> A, complex<T> B) {
  return {A.re + B.re, A.im + B.im};
}
template <class T>
WEFT_DEVICE complex<T> operator-(complex<T> A, complex<T> B) {
  return {A.re - B.re, A.im - B.im};
}
template <class T>
WEFT_DEVICE complex<T> operator*(complex<T> A, complex<T> B) {
  return {A.re * B.re - A.im * B.im, A.re * B.im + A.im * B.re};
}
template <class T>
WEFT_DEVICE complex<T> operator/(complex<T> A, complex<T> B) {
  if (fabs(B.re) >= fabs(B.im)) {
    const T R = B.im / B.re, D = B.re + B.im * R;
    return {(A.re + A.im * R) / D, (A.im - A.re * R) / D};
  }
  const T R = B.re / B.im, D = B.re * R + B.im;
  return {(A.re * R + A.im) / D, (A.im * R - A.re) / D};
}
// With a real operand on either side.
#define WEFT_COMPLEX_REAL(Op)                                                  \
  template <class T> WEFT_DEVICE complex<T> operator Op(complex<T> A, T B) {   \
    return A Op complex<T>{B, T(0)};                                           \
  }                                                                            \
  template <class T> WEFT_DEVICE complex<T> operator Op(T A, complex<T> B) {   \
    return complex<T>{A, T(0)} Op B;                                           \
  }                                                                            \
  template <class T>                                                           \
  WEFT_DEVICE complex<T> &operator Op##=(complex<T> &A, complex<T> B) {        \
    return A = A Op B;                                                         \
  }                                                                            \
  template <class T>                                                           \
  WEFT_DEVICE complex<T> &operator Op##=(complex<T> &A, T B) {                 \
    return A = A Op complex<T>{B, T(0)};                                       \
  }
WEFT_COMPLEX_REAL(+)
WEFT_COMPLEX_REAL(-)
WEFT_COMPLEX_REAL(/)
#undef WEFT_COMPLEX_REAL
// A real factor scales both parts (as <complex> does).
template <class T> WEFT_DEVICE complex<T> operator*(complex<T> A, T B) {
  return {A.re * B, A.im * B};
}
template <class T> WEFT_DEVICE complex<T> operator*(T A, complex<T> B) {
  return {A * B.re, A * B.im};
}
template <class T>
WEFT_DEVICE complex<T> &operator*=(complex<T> &A, complex<T> B) {
  return A = A * B;
}
template <class T> WEFT_DEVICE complex<T> &operator*=(complex<T> &A, T B) {
  return A = A * B;
}
template <class T> WEFT_DEVICE bool operator==(complex<T> A, complex<T> B) {
  return A.re == B.re && A.im == B.im;
}
template <class T> WEFT_DEVICE bool operator!=(complex<T> A, complex<T> B) {
  return !(A == B);
}
template <class T> WEFT_DEVICE T real(complex<T> Z) { return Z.re; }
template <class T> WEFT_DEVICE T imag(complex<T> Z) { return Z.im; }
template <class T> WEFT_DEVICE void set_real(complex<T> &Z, T V) { Z.re = V; }
template <class T> WEFT_DEVICE void set_imag(complex<T> &Z, T V) { Z.im = V; }
template <class T> WEFT_DEVICE T abs(complex<T> Z) { return hypot(Z.re, Z.im); }
template <class T> WEFT_DEVICE T arg(complex<T> Z) { return atan2(Z.im, Z.re); }
template <class T> WEFT_DEVICE T norm(complex<T> Z) {
  return Z.re * Z.re + Z.im * Z.im;
}
template <class T> WEFT_DEVICE complex<T> conj(complex<T> Z) {
  return {Z.re, -Z.im};
}
template <class T> WEFT_DEVICE complex<T> polar(T Rho, T Theta = T(0)) {
  return {Rho * cos(Theta), Rho * sin(Theta)};
}
template <class T> WEFT_DEVICE complex<T> exp(complex<T> Z) {
  return polar(exp(Z.re), Z.im);
}
template <class T> WEFT_DEVICE complex<T> log(complex<T> Z) {
  return {log(abs(Z)), arg(Z)};
}
template <class T> WEFT_DEVICE complex<T> sqrt(complex<T> Z) {
  if (Z.re == T(0) && Z.im == T(0))
    return {T(0), Z.im};
  const T Root = sqrt((fabs(Z.re) + abs(Z)) / T(2));
  if (Z.re >= T(0))
    return {Root, Z.im / (T(2) * Root)};
  return {fabs(Z.im) / (T(2) * Root), copysign(Root, Z.im)};
}
template <class T> WEFT_DEVICE complex<T> pow(complex<T> Z, complex<T> W) {
  return Z == complex<T>{T(0), T(0)} ? Z : exp(W * log(Z));
}
template <class T> WEFT_DEVICE complex<T> pow(complex<T> Z, T W) {
  return Z == complex<T>{T(0), T(0)} ? Z : exp(W * log(Z));
}
template <class T> WEFT_DEVICE complex<T> pow(T Z, complex<T> W) {
  return Z == T(0) ? complex<T>{T(0), T(0)} : exp(W * log(Z));
}
template <class T> WEFT_DEVICE complex<T> log10(complex<T> Z) {
  return log(Z) / T(2.30258509299404568401799145468436421);
}
template <class T> WEFT_DEVICE complex<T> sin(complex<T> Z) {
  return {sin(Z.re) * cosh(Z.im), cos(Z.re) * sinh(Z.im)};
}
template <class T> WEFT_DEVICE complex<T> cos(complex<T> Z) {
  return {cos(Z.re) * cosh(Z.im), -(sin(Z.re) * sinh(Z.im))};
}
template <class T> WEFT_DEVICE complex<T> tan(complex<T> Z) {
  return sin(Z) / cos(Z);
}
template <class T> WEFT_DEVICE complex<T> sinh(complex<T> Z) {
  return {sinh(Z.re) * cos(Z.im), cosh(Z.re) * sin(Z.im)};
}
template <class T> WEFT_DEVICE complex<T> cosh(complex<T> Z) {
  return {cosh(Z.re) * cos(Z.im), sinh(Z.re) * sin(Z.im)};
}
template <class T> WEFT_DEVICE complex<T> tanh(complex<T> Z) {
  return sinh(Z) / cosh(Z);
}

// ---- Reductions -------------------------------------------------------------

// The operators of contract/ReduceOps.def, in its order (the embedded and
// installed copies of this header have the list written in).
enum reduce_op {
#define WEFT_REDUCE_OP(Name, Device, Word, Clause, Identity, Kind, Combine) Device,
#include "../../contract/ReduceOps.def"
};

template <class T> struct numeric_limits {
  // Integers: two's complement.
  static WEFT_DEVICE T highest() {
    return (T)(T(-1) < T(0) ? ~((T)1 << (sizeof(T) * 8 - 1)) : ~T(0));
  }
  static WEFT_DEVICE T lowest() {
    return (T)(T(-1) < T(0) ? ((T)1 << (sizeof(T) * 8 - 1)) : T(0));
  }
};
#if defined(WEFT_DIALECT_SIM) || defined(WEFT_HIP_BARE)
WEFT_DEVICE float infinity_f() { return __builtin_huge_valf(); }
WEFT_DEVICE double infinity_d() { return __builtin_huge_val(); }
#else
WEFT_DEVICE float infinity_f() { return __int_as_float(0x7f800000); }
WEFT_DEVICE double infinity_d() {
  return __longlong_as_double(0x7ff0000000000000ll);
}
#endif
template <> struct numeric_limits<float> {
  static WEFT_DEVICE float highest() { return infinity_f(); }
  static WEFT_DEVICE float lowest() { return -infinity_f(); }
};
template <> struct numeric_limits<double> {
  static WEFT_DEVICE double highest() { return infinity_d(); }
  static WEFT_DEVICE double lowest() { return -infinity_d(); }
};
template <> struct numeric_limits<bool> {
  static WEFT_DEVICE bool highest() { return true; }
  static WEFT_DEVICE bool lowest() { return false; }
};

/// The key of an argmax or argmin over 64-bit values (see arg_key): the
/// value's order, then the index, compared as one 128-bit number. A struct
/// rather than __int128, which NVRTC takes only with --device-int128; it
/// crosses lanes as two 64-bit halves.
struct key128 {
  unsigned long long hi, lo;
};
WEFT_DEVICE bool operator<(key128 A, key128 B) {
  return A.hi < B.hi || (A.hi == B.hi && A.lo < B.lo);
}
WEFT_DEVICE bool operator==(key128 A, key128 B) {
  return A.hi == B.hi && A.lo == B.lo;
}
template <> struct numeric_limits<key128> {
  static WEFT_DEVICE key128 highest() { return {~0ull, ~0ull}; }
  static WEFT_DEVICE key128 lowest() { return {0ull, 0ull}; }
};
WEFT_DEVICE key128 shfl(key128 V, unsigned Src) {
  return {shfl(V.hi, Src), shfl(V.lo, Src)};
}
WEFT_DEVICE key128 shfl_down(key128 V, unsigned Delta) {
  return {shfl_down(V.hi, Delta), shfl_down(V.lo, Delta)};
}
WEFT_DEVICE key128 shfl_xor(key128 V, unsigned Mask) {
  return {shfl_xor(V.hi, Mask), shfl_xor(V.lo, Mask)};
}

// reduction(argmax: v, at) and argmin reduce one 64-bit key per element:
// the value's bits in an order that compares as the values do (high half)
// and its index (low half, inverted where the best key must pick the lowest
// of tied indices), so that the max (min) of the keys is the arg reduction.
#if defined(WEFT_DIALECT_SIM) || defined(WEFT_HIP_BARE)
WEFT_DEVICE unsigned float_bits(float X) {
  return __builtin_bit_cast(unsigned, X);
}
WEFT_DEVICE float bits_float(unsigned X) {
  return __builtin_bit_cast(float, X);
}
#else
WEFT_DEVICE unsigned float_bits(float X) { return __float_as_uint(X); }
WEFT_DEVICE float bits_float(unsigned X) { return __uint_as_float(X); }
#endif
#if defined(WEFT_DIALECT_SIM) || defined(WEFT_HIP_BARE)
WEFT_DEVICE unsigned long long double_bits(double X) {
  return __builtin_bit_cast(unsigned long long, X);
}
WEFT_DEVICE double bits_double(unsigned long long X) {
  return __builtin_bit_cast(double, X);
}
#else
WEFT_DEVICE unsigned long long double_bits(double X) {
  return (unsigned long long)__double_as_longlong(X);
}
WEFT_DEVICE double bits_double(unsigned long long X) {
  return __longlong_as_double((long long)X);
}
#endif
WEFT_DEVICE unsigned arg_order(float V) {
  const unsigned U = float_bits(V + 0.0f); // -0 is +0, as `>` sees them
  return (U & 0x80000000u) ? ~U : (U | 0x80000000u);
}
WEFT_DEVICE float arg_value(unsigned O, float) {
  return bits_float((O & 0x80000000u) ? (O & 0x7fffffffu) : ~O);
}
template <class T> WEFT_DEVICE unsigned arg_order(T V) { // integers <= 32 bits
  return T(-1) < T(0) ? (unsigned)(int)V ^ 0x80000000u : (unsigned)V;
}
template <class T> WEFT_DEVICE T arg_value(unsigned O, T) {
  return T(-1) < T(0) ? (T)(int)(O ^ 0x80000000u) : (T)O;
}
// Values of 64 bits (double, long, long long) take a key of two 64-bit
// halves: the value's order, then the index.
WEFT_DEVICE unsigned long long arg_order64(double V) {
  const unsigned long long U = double_bits(V + 0.0);
  return (U >> 63) ? ~U : (U | (1ull << 63));
}
WEFT_DEVICE double arg_value64(unsigned long long O, double) {
  return bits_double((O >> 63) ? (O & ~(1ull << 63)) : ~O);
}
template <class T> WEFT_DEVICE unsigned long long arg_order64(T V) {
  return T(-1) < T(0) ? (unsigned long long)(long long)V ^ (1ull << 63)
                      : (unsigned long long)V;
}
template <class T> WEFT_DEVICE T arg_value64(unsigned long long O, T) {
  return T(-1) < T(0) ? (T)(long long)(O ^ (1ull << 63)) : (T)O;
}
/// The key of value V at Index, for argmax (Max) or argmin, ties to the
/// first index (First: `x > v`) or the last (`x >= v`). A NaN never wins.
/// 64 bits for values of at most 32 bits, a key128 for wider ones.
template <bool Max, bool First, class T, class I>
WEFT_DEVICE auto arg_key(T V, I Index) {
  if constexpr (sizeof(T) > 4) {
    if (V != V)
      return Max ? key128{0ull, 0ull} : key128{~0ull, ~0ull};
    const unsigned long long Low =
        Max == First ? ~(unsigned long long)Index : (unsigned long long)Index;
    return key128{arg_order64(V), Low};
  } else {
    if (V != V)
      return Max ? 0ull : ~0ull;
    const unsigned Low = Max == First ? ~(unsigned)Index : (unsigned)Index;
    return ((unsigned long long)arg_order(V) << 32) | Low;
  }
}
// A reduced key's value, and its index bits as stored (see arg_key).
template <class T> WEFT_DEVICE T arg_best(unsigned long long Key, T V) {
  return arg_value((unsigned)(Key >> 32), V);
}
template <class T> WEFT_DEVICE T arg_best(key128 Key, T V) {
  return arg_value64(Key.hi, V);
}
WEFT_DEVICE unsigned arg_low(unsigned long long Key) { return (unsigned)Key; }
WEFT_DEVICE unsigned long long arg_low(key128 Key) { return Key.lo; }
/// An inner level's reduced key into V and At, where it beats V as the
/// loop's comparison says. A key nothing was reduced into (the identity of
/// max, or of min) changes nothing.
template <bool Max, bool First, class K, class T, class I>
WEFT_DEVICE void arg_finish(K Key, T &V, I &At) {
  if (Key == (Max ? numeric_limits<K>::lowest() : numeric_limits<K>::highest()))
    return;
  const T Best = arg_best(Key, V);
  const auto Low = Max == First ? ~arg_low(Key) : arg_low(Key);
  if (Max ? (First ? V < Best : !(Best < V))
          : (First ? Best < V : !(V < Best))) {
    V = Best;
    At = (I)Low;
  }
}

template <class T> WEFT_DEVICE T identity_Zero() { return T(0); }
template <class T> WEFT_DEVICE T identity_One() { return T(1); }
template <class T> WEFT_DEVICE T identity_AllOnes() { return T(~0ull); }
template <class T> WEFT_DEVICE T identity_Highest() {
  return numeric_limits<T>::highest();
}
template <class T> WEFT_DEVICE T identity_Lowest() {
  return numeric_limits<T>::lowest();
}

/// The value that leaves any other unchanged under Op.
template <int Op, class T> WEFT_DEVICE T identity() {
#define WEFT_REDUCE_OP(Name, Device, Word, Clause, Identity, Kind, Combine)    \
  if constexpr (Op == Device)                                                  \
    return identity_##Identity<T>();                                           \
  else
#include "../../contract/ReduceOps.def"
    return T(0);
}

template <int Op, class T> WEFT_DEVICE T combine(T A, T B) {
#define WEFT_REDUCE_OP(Name, Device, Word, Clause, Identity, Kind, Combine)    \
  if constexpr (Op == Device)                                                  \
    return (T)(Combine);                                                       \
  else
#include "../../contract/ReduceOps.def"
    return A;
}

// reduction(op: a) of an array: each update of an element is one atomic
// step. The GPUs add, take minima and maxima of integers, and and, or and
// xor words in one instruction (integers as the unsigned word of their size
// where only the bits matter); the rest loop on a compare-and-swap.
template <unsigned Bytes> struct word_of;
template <> struct word_of<4> {
  typedef unsigned type;
  typedef int signed_type;
};
template <> struct word_of<8> {
  typedef unsigned long long type;
  typedef long long signed_type;
};
template <class T> struct atomic_word {
  typedef typename word_of<sizeof(T)>::type type;
  static const bool floating = false;
  WEFT_DEVICE static type bits(T V) { return (type)V; }
  WEFT_DEVICE static T value(type W) { return (T)W; }
};
template <> struct atomic_word<float> {
  typedef unsigned type;
  static const bool floating = true;
  WEFT_DEVICE static type bits(float V) { return float_bits(V); }
  WEFT_DEVICE static float value(type W) { return bits_float(W); }
};
template <> struct atomic_word<double> {
  typedef unsigned long long type;
  static const bool floating = true;
  WEFT_DEVICE static type bits(double V) { return double_bits(V); }
  WEFT_DEVICE static double value(type W) { return bits_double(W); }
};

template <int Op, class T> WEFT_DEVICE void combine_by_cas(T *A, T V) {
  typedef atomic_word<T> Word;
  typename Word::type *W = (typename Word::type *)A;
  typename Word::type Old = atomic_load(W);
  while (true) {
    const typename Word::type New =
        Word::bits(combine<Op>(Word::value(Old), V));
    if (New == Old)
      return; // a minimum that is already smaller, say
    const typename Word::type Seen = atomic_cas(W, Old, New);
    if (Seen == Old)
      return;
    Old = Seen;
  }
}

template <int Op, class T> WEFT_DEVICE void combine_into(T *A, T V) {
  typedef atomic_word<T> Word;
  typedef typename word_of<sizeof(T)>::type U;
  typedef typename word_of<sizeof(T)>::signed_type S;
  if constexpr (Op == reduce_add && Word::floating)
    atomic_add(A, V);
  else if constexpr (Op == reduce_add)
    atomic_add((U *)A, (U)V);
  else if constexpr ((Op == reduce_min || Op == reduce_max) &&
                     !Word::floating) {
#if defined(WEFT_DIALECT_HIP)
    // HIP's headers have no atomicMin of long long; clang's builtin takes
    // every integer.
    if constexpr (Op == reduce_min)
      __hip_atomic_fetch_min(A, V, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
    else
      __hip_atomic_fetch_max(A, V, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
#else
    if constexpr ((T)-1 < (T)0) {
      if constexpr (Op == reduce_min)
        atomic_min((S *)A, (S)V);
      else
        atomic_max((S *)A, (S)V);
    } else if constexpr (Op == reduce_min) {
      atomic_min((U *)A, (U)V);
    } else {
      atomic_max((U *)A, (U)V);
    }
#endif
  } else if constexpr (Op == reduce_and)
    atomic_and((U *)A, (U)V);
  else if constexpr (Op == reduce_or)
    atomic_or((U *)A, (U)V);
  else if constexpr (Op == reduce_xor)
    atomic_xor((U *)A, (U)V);
  else
    combine_by_cas<Op>(A, V);
}

/// Every lane of a warp gets V combined over the warp's Width lanes
/// (a butterfly: every lane computes the same tree, so the same result).
template <int Op, class T> WEFT_DEVICE T warp_allreduce(T V, unsigned Width) {
  for (unsigned Offset = Width / 2; Offset > 0; Offset /= 2)
    V = combine<Op>(V, shfl_xor(V, Offset));
  return V;
}

/// A helper that waits at barriers takes its call site in the simulator,
/// so that the checker names the kernel's line rather than this header's.
#if defined(WEFT_DIALECT_SIM)
#define WEFT_CALL_SITE , unsigned Site = __builtin_LINE()
#define WEFT_AT_CALL_SITE Site
#else
#define WEFT_CALL_SITE
#define WEFT_AT_CALL_SITE
#endif

/// Every thread of the block gets V combined over the block's N threads,
/// through shared memory; all threads must call it.
template <int Op, class T, unsigned N>
WEFT_DEVICE T block_allreduce(T V, shared_array<T, N> &Scratch,
                              unsigned Thread WEFT_CALL_SITE) {
  Scratch[Thread] = V;
  barrier(WEFT_AT_CALL_SITE);
  for (unsigned Width = N / 2; Width > 0; Width /= 2) {
    if (Thread < Width)
      Scratch[Thread] =
          combine<Op>(Scratch.ld(Thread), Scratch.ld(Thread + Width));
    barrier(WEFT_AT_CALL_SITE);
  }
  const T R = Scratch.ld(0);
  barrier(WEFT_AT_CALL_SITE);
  return R;
}

// A loop the GPU compilers unroll (the simulator's compiler may not know
// the pragma).
#if defined(WEFT_DIALECT_SIM)
#define WEFT_UNROLL
#else
#define WEFT_UNROLL _Pragma("unroll")
#endif

/// Copies span elements into shared memory: for E = First, First + Step, ...
/// below Count, the span's element Place(E), where it lies inside the span,
/// to Buffer[Slot(E)]. A thread issues eight loads before it stores any, so
/// that it waits for memory once per eight elements: a load and its store
/// in one branch each wait a round trip to L2 (a 32 x 32 block on one warp:
/// 32 round trips of some 600 cycles, about 10 us, by estimate).
template <class T, unsigned N, class Span, class Place, class Slot>
WEFT_DEVICE void gather(shared_array<T, N> &Buffer, Span Source, index_t First,
                        index_t Step, index_t Count, Place PlaceOf,
                        Slot SlotOf) {
  constexpr int Batch = 8;
  for (index_t E0 = First; E0 < Count; E0 += Batch * Step) {
    T Values[Batch];
    bool Inside[Batch];
    WEFT_UNROLL
    for (int U = 0; U < Batch; ++U) {
      const index_t E = E0 + U * Step;
      const index_t G = E < Count ? PlaceOf(E) : -1;
      Inside[U] = G >= 0 && G < (index_t)Source.size();
      Values[U] = Inside[U] ? Source.data()[G] : T();
    }
    WEFT_UNROLL
    for (int U = 0; U < Batch; ++U)
      if (Inside[U])
        Buffer[SlotOf(E0 + U * Step)] = Values[U];
  }
}

/// Elements [Lo, Lo + Count) of a read-only span that the whole block reads:
/// loaded into shared memory together when staging is on and they fit,
/// read in place otherwise (the same choice in every thread of the block).
template <class T, unsigned Capacity, class Span> struct staged {
  shared_array<T, Capacity> &Buffer;
  Span Source;
  index_t Lo, Count;
  bool InShared;
  WEFT_DEVICE staged(shared_array<T, Capacity> &Buffer, Span Source, index_t Lo,
                     index_t Count, bool Enabled)
      : Buffer(Buffer), Source(Source), Lo(Lo), Count(Count),
        InShared(Enabled && Count > 0 && Count <= (index_t)Capacity) {}
  /// Every thread of the block calls it; a barrier must follow.
  WEFT_DEVICE void load(unsigned Thread, unsigned Threads) const {
    if (!InShared)
      return;
    // Only elements inside the span: the loop may never read the others.
    const index_t First = Lo;
    gather(
        Buffer, Source, Thread, Threads, Count,
        [=](index_t I) { return First + I; }, [](index_t I) { return I; });
  }
  /// Inside the range from shared memory; anything else from the span.
  WEFT_DEVICE T ld(index_t I) const {
#if defined(WEFT_DIALECT_SIM)
    Source.check_read(I); // as WEFT_SPAN_READ
#endif
    return InShared && I >= Lo && I - Lo < Count ? Buffer.ld(I - Lo)
                                                 : Source.ld(I);
  }
};

/// A window of a span (a halo tile): Rows x Cols elements, element (r, c)
/// at Lo + r * RowStride + c * ColStride, loaded by the block into shared
/// memory where it fits, enabled.
template <class T, unsigned Capacity, class Span> struct window {
  shared_array<T, Capacity> &Buffer;
  Span Source;
  index_t Lo, Rows, Cols, RowStride, ColStride;
  bool InShared;
  WEFT_DEVICE window(shared_array<T, Capacity> &Buffer, Span Source, index_t Lo,
                     index_t Rows, index_t Cols, index_t RowStride,
                     index_t ColStride, bool Enabled)
      : Buffer(Buffer), Source(Source), Lo(Lo), Rows(Rows), Cols(Cols),
        RowStride(RowStride), ColStride(ColStride),
        InShared(Enabled && Rows > 0 && Cols > 0 &&
                 Rows * Cols <= (index_t)Capacity) {}
  /// Every thread of the block calls it; a barrier must follow.
  WEFT_DEVICE void load(unsigned Thread, unsigned Threads) const {
    if (!InShared)
      return;
    // Only elements inside the span: the loop may never read the others.
    const index_t First = Lo, Width = Cols, Down = RowStride,
                  Across = ColStride;
    gather(
        Buffer, Source, Thread, Threads, Rows * Cols,
        [=](index_t I) {
          const index_t R = I / Width;
          return First + R * Down + (I - R * Width) * Across;
        },
        [](index_t I) { return I; });
  }
  /// Whether a thread Column columns past the window's first (the block's
  /// first round of the level: Column < Block) reads every element from
  /// the window (ld_in), as its sizing ensures.
  WEFT_DEVICE bool first_round(index_t Column, index_t Block) const {
    return InShared && (size_type)Column < (size_type)Block;
  }
  /// Element I of the span, which is (R, C) of the window, where
  /// first_round said the window holds it. The simulator checks that it
  /// does, and that (R, C) is element I.
  template <class Index>
  WEFT_DEVICE T ld_in(index_t R, index_t C, Index I) const {
#if defined(WEFT_DIALECT_SIM)
    Source.check_read(I());
    if (!((size_type)R < (size_type)Rows && (size_type)C < (size_type)Cols) ||
        Lo + R * RowStride + C * ColStride != I())
      __builtin_trap(); // weft's sizing of the window is wrong
#endif
    return Buffer.ld(R * Cols + C);
  }
  /// Element I of the span, which is (R, C) of the window: from shared
  /// memory where the window holds it (a later round of the level's
  /// iterations lies outside), else from the span.
  template <class Index> WEFT_DEVICE T ld(index_t R, index_t C, Index I) const {
#if defined(WEFT_DIALECT_SIM)
    Source.check_read(I()); // as WEFT_SPAN_READ
#endif
    if (InShared && (size_type)R < (size_type)Rows &&
        (size_type)C < (size_type)Cols)
      return Buffer.ld(R * Cols + C);
    return Source.ld(I());
  }
};

#if defined(WEFT_DIALECT_SIM)
/// The simulator's check of a slice's access: element W of the slice
/// (Anchor + W * Stride, W in [Lo, Lo + Count)) is span element I.
WEFT_DEVICE void check_slice_element(index_t Anchor, index_t Stride, index_t Lo,
                                     index_t Count, index_t W, index_t I) {
  if (!((size_type)(W - Lo) < (size_type)Count) || Anchor + W * Stride != I)
    __builtin_trap(); // weft's slice does not hold element I
}
#endif

/// The elements of a span that one thread alone works through in an
/// iteration (its column of a matrix, down a bounded loop over the rows):
/// element W of the span's Anchor + W * Stride, W in [Lo, Lo + Count),
/// held in the thread's column of a shared array (W - Lo at
/// [(W - Lo) * Threads + Thread]: a warp's threads in different banks), so
/// that a chain of reads after writes runs at shared memory's latency.
/// Writes go through to the span as well: the iteration's other reads of
/// the span, left in place, see them there. PerThread elements a thread fit.
template <class T, unsigned PerThread, unsigned Threads, class Span>
struct thread_slice {
  shared_array<T, PerThread * Threads> &Buffer;
  Span Source;
  index_t Anchor, Stride, Lo, Count;
  unsigned Thread;
  WEFT_DEVICE bool fits() const { return Count <= (index_t)PerThread; }
  /// The thread's elements from the span (those inside it: the loops may
  /// never reach the others), unrecorded by the simulator's checker: the
  /// iteration's reads record their own.
  WEFT_DEVICE void load() const {
    const index_t First = Anchor + Lo * Stride, Step = Stride;
    const unsigned Column = Thread;
    gather(
        Buffer, Source, 0, 1, Count,
        [=](index_t W) { return First + W * Step; },
        [=](index_t W) { return W * Threads + Column; });
  }
  /// Span element I, which is element W of the slice.
  template <class Index> WEFT_DEVICE T ld(index_t W, Index I) const {
#if defined(WEFT_DIALECT_SIM)
    Source.check_read(I());
    check(W, I());
#endif
    return Buffer.ld((W - Lo) * Threads + Thread);
  }
  /// Element W, for an assignment whose value through() stores to the
  /// span's element I as well.
  template <class Index> WEFT_DEVICE T &at(index_t W, Index I) const {
#if defined(WEFT_DIALECT_SIM)
    check(W, I());
#endif
    return Buffer[(W - Lo) * Threads + Thread];
  }
  WEFT_DEVICE T through(index_t I, T V) const {
    Source[I] = V;
    return V;
  }
  /// Nothing: every write went through (register_slice's may wait).
  WEFT_DEVICE void store() const {}

private:
#if defined(WEFT_DIALECT_SIM)
  WEFT_DEVICE void check(index_t W, index_t I) const {
    check_slice_element(Anchor, Stride, Lo, Count, W, I);
  }
#endif
};

/// A thread_slice held in the thread's registers: PerThread values, the
/// slice's length, each use naming a constant one once the loops along the
/// slice unroll whole (weft unrolls them where it chooses this), so that
/// the array never leaves registers. Its values (and which of them were
/// written) are the kernel's own, apart from the struct: the
/// span's stores must not seem to reach the struct's fields (which the
/// slots are computed from) for the GPU compiler to keep either in
/// registers (which of them were written: a mask, whose bits the unrolled
/// loops set to constants). Writes go through to the span at once, or where
/// Deferred (weft proved the iteration's other accesses of the span apart from
/// the slice, while Apart holds) at store(): no store then stands between the
/// loads of the unrolled loops, which the compiler may issue early.
template <class T, unsigned PerThread, class Span> struct register_slice {
  static_assert(PerThread <= 64, "a register slice's writes are 64 bits");
  T (&Values)[PerThread];
  unsigned long long &Written; // bit W: Values[W] written
  Span Source;
  index_t Anchor, Stride, Lo, Count;
  bool Deferred, Apart;
  WEFT_DEVICE bool fits() const {
    return Count <= (index_t)PerThread && (!Deferred || Apart);
  }
  /// The thread's elements inside the span, all loads issued together,
  /// unrecorded by the simulator's checker as thread_slice's.
  WEFT_DEVICE void load() const {
    const index_t First = Anchor + Lo * Stride;
    WEFT_UNROLL
    for (unsigned W = 0; W < PerThread; ++W) {
      const index_t G = First + (index_t)W * Stride;
      Values[W] = (index_t)W < Count && G >= 0 && G < (index_t)Source.size()
                      ? Source.data()[G]
                      : T();
    }
  }
  template <class Index> WEFT_DEVICE T ld(index_t W, Index I) const {
#if defined(WEFT_DIALECT_SIM)
    Source.check_read(I());
    check_slice_element(Anchor, Stride, Lo, Count, W, I());
#endif
    return Values[W - Lo];
  }
  template <class Index> WEFT_DEVICE T &at(index_t W, Index I) const {
#if defined(WEFT_DIALECT_SIM)
    check_slice_element(Anchor, Stride, Lo, Count, W, I());
#endif
    if (Deferred)
      Written |= 1ull << (W - Lo);
    return Values[W - Lo];
  }
  WEFT_DEVICE T through(index_t I, T V) const {
    if (!Deferred)
      Source[I] = V;
    return V;
  }
  /// The deferred writes, at the iteration's end.
  WEFT_DEVICE void store() const {
    if (!Deferred)
      return;
    WEFT_UNROLL
    for (unsigned W = 0; W < PerThread; ++W)
      if ((Written >> W) & 1u)
        Source[Anchor + (Lo + (index_t)W) * Stride] = Values[W];
  }
};

/// A block of a matrix that a sequential nest's block of threads holds in
/// shared memory for its whole loop: element (R, C) of the span's
/// R * Stride + C, R in [RowLo, RowLo + Rows), C in [ColLo, ColLo + Cols),
/// at [(R - RowLo) * pitch() + C - ColLo]. Loaded before the loop and stored
/// after it, every thread calling (a barrier between); the loop's reads and
/// writes find their element there. Capacity elements fit: Rows * pitch().
template <class T, unsigned Capacity, class Span> struct resident_block {
  shared_array<T, Capacity> &Buffer;
  Span Source;
  index_t Stride, RowLo, Rows, ColLo, Cols;
  /// An odd row pitch: a warp's threads down a column (lud's column of L)
  /// fall in 32 different banks, not all in one.
  WEFT_DEVICE index_t pitch() const { return Cols | 1; }
  /// Columns no wider than the stride: each element of the block is a
  /// different element of the span.
  WEFT_DEVICE bool fits() const {
    return Rows <= 0 || Cols <= 0 ||
           (Rows * pitch() <= (index_t)Capacity && Cols <= Stride);
  }
  /// The elements inside the span (the loop may never reach the others),
  /// unrecorded by the simulator's checker: the loop's reads record their
  /// own.
  WEFT_DEVICE void load(unsigned Thread, unsigned Threads) const {
    const resident_block &Block = *this;
    gather(
        Buffer, Source, Thread, Threads, Rows * Cols,
        [&](index_t E) { return Block.place(E); },
        [&](index_t E) { return Block.slot(E); });
  }
  /// Back to the span: the block's threads alone touch it meanwhile.
  WEFT_DEVICE void store(unsigned Thread, unsigned Threads) const {
    for (index_t E = Thread; E < Rows * Cols; E += Threads) {
      const index_t G = place(E);
      if (G >= 0 && G < (index_t)Source.size())
        Source.data()[G] = Buffer.ld(slot(E));
    }
  }
  /// Span element I, which is (R, C).
  template <class Index> WEFT_DEVICE T ld(index_t R, index_t C, Index I) const {
#if defined(WEFT_DIALECT_SIM)
    Source.check_read(I());
    check(R, C, I());
#endif
    return Buffer.ld((R - RowLo) * pitch() + C - ColLo);
  }
  template <class Index>
  WEFT_DEVICE T &at(index_t R, index_t C, Index I) const {
#if defined(WEFT_DIALECT_SIM)
    Source.check_write(I());
    check(R, C, I());
#endif
    return Buffer[(R - RowLo) * pitch() + C - ColLo];
  }

private:
  /// Element E of the block in row-major order: its place in the span and
  /// its slot in shared memory.
  WEFT_DEVICE index_t place(index_t E) const {
    const index_t R = E / Cols;
    return (RowLo + R) * Stride + ColLo + (E - R * Cols);
  }
  WEFT_DEVICE index_t slot(index_t E) const {
    const index_t R = E / Cols;
    return R * pitch() + (E - R * Cols);
  }
#if defined(WEFT_DIALECT_SIM)
  WEFT_DEVICE void check(index_t R, index_t C, index_t I) const {
    if (!((size_type)(R - RowLo) < (size_type)Rows) ||
        !((size_type)(C - ColLo) < (size_type)Cols) || R * Stride + C != I)
      __builtin_trap(); // weft's block does not hold element I
  }
#endif
};

WEFT_DEVICE unsigned linear_thread() {
  return thread_idx(0) +
         block_dim(0) * (thread_idx(1) + block_dim(1) * thread_idx(2));
}
/// Combines V across the Count threads along one axis of the block (a power
/// of two, Stride apart in linear_thread() order; Lane: the thread's index
/// along it), each group of them apart; every thread of the block calls it,
/// and each gets its group's result.
template <int Op, class T, unsigned N>
WEFT_DEVICE T axis_allreduce(T V, shared_array<T, N> &Scratch, unsigned Lane,
                             unsigned Stride, unsigned Count WEFT_CALL_SITE) {
  const unsigned Me = linear_thread();
  Scratch[Me] = V;
  barrier(WEFT_AT_CALL_SITE);
  for (unsigned Width = Count / 2; Width > 0; Width /= 2) {
    if (Lane < Width)
      Scratch[Me] =
          combine<Op>(Scratch.ld(Me), Scratch.ld(Me + Width * Stride));
    barrier(WEFT_AT_CALL_SITE);
  }
  const T R = Scratch.ld(Me - Lane * Stride);
  barrier(WEFT_AT_CALL_SITE);
  return R;
}

WEFT_DEVICE unsigned long long linear_block() {
  return block_idx(0) +
         (unsigned long long)grid_dim(0) *
             (block_idx(1) + (unsigned long long)grid_dim(1) * block_idx(2));
}
WEFT_DEVICE unsigned block_threads() {
  return block_dim(0) * block_dim(1) * block_dim(2);
}
/// The thread's index in the whole grid, x fastest.
WEFT_DEVICE index_t global_thread() {
  return (index_t)linear_block() * block_threads() + linear_thread();
}
WEFT_DEVICE index_t global_threads() {
  return (index_t)grid_dim(0) * grid_dim(1) * grid_dim(2) * block_threads();
}

} // namespace weft

#endif // WEFT_DEVICE_H
