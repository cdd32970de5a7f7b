// TransferPlan.h: which captured spans move between host and device, and in
// which direction, decided from how the nest uses them.
#ifndef WEFT_PLUGIN_MEMORY_TRANSFERPLAN_H
#define WEFT_PLUGIN_MEMORY_TRANSFERPLAN_H

#include "ir/NestIR.h"

#include <vector>

namespace weft::memory {

enum class Transfer { In, Out, InOut, ByValue };

/// The descriptor's word for it: in, out, inout, scalar.
const char *descriptorWord(Transfer T);

/// One entry per parameter of the nest.
std::vector<Transfer> planTransfers(const ir::Nest &N);

} // namespace weft::memory

#endif
