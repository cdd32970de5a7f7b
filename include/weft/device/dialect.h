// dialect.h: which of device.h's three dialects a kernel is compiled in:
// CUDA (NVRTC), HIP (hipRTC, or clang without any header) or the CPU (the
// simulator). Part of weft/device.h, which includes it first.
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

// What every dialect defines (the two GPU dialects, what they define alike,
// in gpu.h), for the sections after them:
//   WEFT_DEVICE, WEFT_KERNEL, WEFT_KERNEL_BLOCKS, WEFT_SHARED   keywords
//   WEFT_SIM_SPAN_ACCESS, WEFT_SIM_SHARED_ACCESS, WEFT_SIM_ONLY  the checker
//   WEFT_SPAN_READ, WEFT_SPAN_READ_IF                            tiles' reads
//   WEFT_CALL_SITE, WEFT_AT_CALL_SITE, WEFT_UNROLL
//   WEFT_MATH1, WEFT_MATH2, WEFT_EXACT1, WEFT_EXACT2             math.h's list
// and in namespace weft: thread_idx, block_idx, block_dim, grid_dim,
// barrier, the iteration marks (begin_iteration, inner_level,
// begin_inner_iteration, resume_iteration), warp_sync, warp_size, lane_id,
// shfl, shfl_down, shfl_xor, all, any, ballot, the atomic_* functions,
// atomic_min_max_integer, fma, assertion_failed, infinity_f, infinity_d,
// float_bits, bits_float, double_bits, bits_double and load_whole_run.
