// KernelEmitter.h: prints a kernel plan as the kernel's source text (written
// against <weft/device.h>, tuning parameters as macros) and the descriptor
// the runtime reads beside it.
#ifndef WEFT_PLUGIN_EMIT_KERNELEMITTER_H
#define WEFT_PLUGIN_EMIT_KERNELEMITTER_H

#include "contract/Descriptor.h"
#include "plan/KernelPlan.h"

#include <string>

namespace weft::emit {

struct EmittedKernel {
  std::string Name;                // unique across files and instantiations
  std::string Source;              // the kernel text
  contract::KernelInfo Descriptor; // what the runtime launches it by
};

EmittedKernel emitKernel(const plan::KernelPlan &P);

} // namespace weft::emit

#endif
