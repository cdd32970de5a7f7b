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

/// The name of data the loop only reads that N's kernel would write (an
/// element written or combined into), or empty: the generator never adds a
/// write the loop does not make, and the plugin says so as an error where
/// it would, rather than a kernel that fails at run time or a silent write.
std::string writtenReadOnlyData(const ir::Nest &N);

} // namespace weft::emit

#endif
