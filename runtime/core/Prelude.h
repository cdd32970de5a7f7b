// Prelude.h: include/weft/device.h's text, embedded at build time, for the
// runtime compilers (NVRTC, hipRTC) that cannot read it from disk.
#ifndef WEFT_RUNTIME_CORE_PRELUDE_H
#define WEFT_RUNTIME_CORE_PRELUDE_H

namespace weft::rt {
extern const char *const DevicePreludeName; // "weft/device.h"
extern const char *const DevicePreludeText;
} // namespace weft::rt

#endif
