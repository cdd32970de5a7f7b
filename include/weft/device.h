// device.h: the prelude every generated kernel is written against. It maps
// thread indices, barriers, shared memory, atomics and math to CUDA (NVRTC),
// HIP (hipRTC) or the CPU (the simulator), so one kernel text serves all three.
// It must compile without any system header under NVRTC and hipRTC.
// In sections (weft/device/): which dialect, then each dialect's own
// definitions (dialect.h lists what each must define), then what all
// dialects share, written once. Kernels get it as one text with the sections
// written in (runtime/CMakeLists.txt), as installed.
#ifndef WEFT_DEVICE_H
#define WEFT_DEVICE_H

// In this order: a section uses only what those before it define.
// clang-format off
#include "device/dialect.h"
#include "device/types.h"
#include "device/sim.h"
#include "device/cuda.h"
#include "device/hip.h"
#include "device/gpu.h"
#include "device/clang-builtins.h"
#include "device/span.h"
#include "device/math.h"
#include "device/complex.h"
#include "device/grid.h"
#include "device/reduce.h"
#include "device/staging.h"
// clang-format on

#endif // WEFT_DEVICE_H
