// KernelEmitter.h: turns a nest, its mapping and its transfer plan into the
// kernel's source text (written against <weft/device.h>, tuning parameters as
// macros) and the descriptor the runtime reads beside it.
#ifndef WEFT_PLUGIN_EMIT_KERNELEMITTER_H
#define WEFT_PLUGIN_EMIT_KERNELEMITTER_H

#include "contract/Descriptor.h"
#include "ir/NestIR.h"
#include "map/Mapping.h"
#include "memory/StagingPlan.h"
#include "memory/TilingPlan.h"
#include "memory/TransferPlan.h"

#include <string>

namespace weft::emit {

struct EmittedKernel {
  std::string Name;               // unique across files and instantiations
  std::string Source;             // the kernel text
  contract::KernelInfo Descriptor; // what the runtime launches it by
};

EmittedKernel emitKernel(const ir::Nest &N, const map::NestMapping &M,
                         const std::vector<memory::Transfer> &Transfers,
                         const std::vector<memory::Stage> &Stages = {},
                         const memory::TiledLoop *Tiled = nullptr);

} // namespace weft::emit

#endif
