// gpu.h: what device.h's two GPU dialects (CUDA and HIP) define alike: the
// simulator's checker hooks and iteration marks as nothing, and the tiles'
// plain reads. Part of weft/device.h, after cuda.h and hip.h.
#if !defined(WEFT_DIALECT_SIM)
// No checker on a GPU: the simulator's hooks are nothing here.
#define WEFT_SIM_SPAN_ACCESS(I, Write) ((void)0)
#define WEFT_SIM_SHARED_ACCESS(Address, Write) ((void)0)
#define WEFT_SIM_ONLY(...)
#define WEFT_SPAN_READ(Span, I, Value) (Value)
#define WEFT_SPAN_READ_IF(Cond, Span, I, Value) (Value)
#define WEFT_CALL_SITE
#define WEFT_AT_CALL_SITE
#define WEFT_UNROLL _Pragma("unroll")

namespace weft {

// The simulator's marks of where an iteration starts (its checker's epochs).
WEFT_DEVICE void begin_iteration(index_t) {}
WEFT_DEVICE void inner_level(bool) {}
WEFT_DEVICE void begin_inner_iteration(index_t) {}
WEFT_DEVICE void resume_iteration(index_t, index_t) {}

} // namespace weft
#endif
