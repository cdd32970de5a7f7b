// KernelEmitter.h: turns a nest, its mapping and its transfer plan into the
// kernel's source text (written against <weft/device.h>, tuning parameters as
// macros) and the descriptor the runtime reads beside it.
#ifndef WEFT_PLUGIN_EMIT_KERNELEMITTER_H
#define WEFT_PLUGIN_EMIT_KERNELEMITTER_H

#include "ir/NestIR.h"
#include "map/Mapping.h"
#include "memory/StagingPlan.h"
#include "memory/TilingPlan.h"
#include "memory/TransferPlan.h"

#include <string>

namespace weft::emit {

struct EmittedKernel {
  std::string Name;       // unique across files and instantiations
  std::string Source;     // the kernel text
  std::string Descriptor; // runtime/core/Descriptor.h's format
};

EmittedKernel emitKernel(const ir::Nest &N, const map::NestMapping &M,
                         const std::vector<memory::Transfer> &Transfers,
                         const std::vector<memory::Stage> &Stages = {},
                         const memory::TiledLoop *Tiled = nullptr);

/// A prefix S-expression of a loop bound over the kernel's parameters, or
/// empty when the bound is not of that form (the recognizer prevents that).
std::string boundExpression(const ir::Expr &E);

} // namespace weft::emit

#endif
