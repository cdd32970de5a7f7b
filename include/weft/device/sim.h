// sim.h: device.h's simulator dialect: a kernel compiled for the CPU by the
// host compiler, each GPU thread a fiber, its barriers, warp exchanges and
// (checked) accesses calls into the simulator. Part of weft/device.h.
#if defined(WEFT_DIALECT_SIM)
// No <atomic> or <cmath>: parsing them is most of the time a simulator
// kernel takes to compile; GCC's builtins do the same work.
#include <cstdint>
#define WEFT_DEVICE inline
#define WEFT_KERNEL(Name, MaxThreads) extern "C" void Name
#define WEFT_KERNEL_BLOCKS(Name, MaxThreads, MinBlocks) extern "C" void Name
#define WEFT_SHARED static thread_local

namespace weft {

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
/// Statements only the simulator runs: its checks of where an element
/// read from shared memory or registers comes from.
#define WEFT_SIM_ONLY(...) __VA_ARGS__

/// Span's element I read from shared memory, as Value (a tile; staged::ld
/// and window::ld do the same): the simulator still checks I against the span,
/// so that a read past its end is reported as the loop without shared memory
/// would be, and its checker records the read; a GPU reads Value alone.
#define WEFT_SPAN_READ(Span, I, Value)                                         \
  ((Span).check_read((weft::index_t)(I)), (Value))
/// The same where Cond holds (a register tile's output in range: those past
/// the edge compute on unused values, their subscripts unchecked).
#define WEFT_SPAN_READ_IF(Cond, Span, I, Value)                                \
  ((Cond) ? (Span).check_read((weft::index_t)(I)) : (void)0, (Value))

/// A helper that waits at barriers takes its call site in the simulator,
/// so that the checker names the kernel's line rather than this header's.
#define WEFT_CALL_SITE , unsigned Site = __builtin_LINE()
#define WEFT_AT_CALL_SITE Site
// The host compiler may not know the GPU compilers' unroll pragma.
#define WEFT_UNROLL

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
/// Integers' minimum and maximum in one atomic step.
template <bool Min, class T> inline void atomic_min_max_integer(T *A, T V) {
  if constexpr (Min)
    atomic_min(A, V);
  else
    atomic_max(A, V);
}

/// A run of elements that load_run reads as one (the host compiler keeps
/// its aliasing rules).
template <class Run, class E> inline Run load_whole_run(const E *From) {
  Run R;
  __builtin_memcpy(&R, From, sizeof R);
  return R;
}

// Math (math.h's list): GCC's builtins, as <cmath> would call them.
#define WEFT_MATH1(Name)                                                       \
  WEFT_DEVICE float Name(float X) { return __builtin_##Name##f(X); }           \
  WEFT_DEVICE double Name(double X) { return __builtin_##Name(X); }
#define WEFT_MATH2(Name)                                                       \
  WEFT_DEVICE float Name(float X, float Y) {                                   \
    return __builtin_##Name##f(X, Y);                                          \
  }                                                                            \
  WEFT_DEVICE double Name(double X, double Y) { return __builtin_##Name(X, Y); }
#define WEFT_EXACT1(Name) WEFT_MATH1(Name)
#define WEFT_EXACT2(Name) WEFT_MATH2(Name)

/// An assert(...) of the loop's body that does not hold: the simulator
/// reports it.
WEFT_DEVICE int assertion_failed() {
  sim_hook_table.AssertionFailed();
  return 0;
}

/// The simulator's check of a slice's access: element W of the slice
/// (Anchor + W * Stride, W in [Lo, Lo + Count)) is span element I.
WEFT_DEVICE void check_slice_element(index_t Anchor, index_t Stride, index_t Lo,
                                     index_t Count, index_t W, index_t I) {
  if (!((size_type)(W - Lo) < (size_type)Count) || Anchor + W * Stride != I)
    __builtin_trap(); // weft's slice does not hold element I
}
/// And of a window's: (R, C) of the window (Rows x Cols elements, (r, c)
/// at Lo + r * RowStride + c * ColStride) is span element I.
WEFT_DEVICE void check_window_element(index_t Lo, index_t Rows, index_t Cols,
                                      index_t RowStride, index_t ColStride,
                                      index_t R, index_t C, index_t I) {
  if (!((size_type)R < (size_type)Rows && (size_type)C < (size_type)Cols) ||
      Lo + R * RowStride + C * ColStride != I)
    __builtin_trap(); // weft's sizing of the window is wrong
}
/// And of a resident block's: (R, C) of the block (rows [RowLo, RowLo +
/// Rows), columns [ColLo, ColLo + Cols) of a matrix Stride wide) is span
/// element I.
WEFT_DEVICE void check_block_element(index_t RowLo, index_t Rows, index_t ColLo,
                                     index_t Cols, index_t Stride, index_t R,
                                     index_t C, index_t I) {
  if (!((size_type)(R - RowLo) < (size_type)Rows) ||
      !((size_type)(C - ColLo) < (size_type)Cols) || R * Stride + C != I)
    __builtin_trap(); // weft's block does not hold element I
}

} // namespace weft
#endif // WEFT_DIALECT_SIM
