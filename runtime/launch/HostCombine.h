// HostCombine.h: the last step of a reduction over the outermost level: the
// blocks' partial values combined on the host, in block order (so a mapping
// gives the same floating-point result on every run), then into the
// program's variable.
#ifndef WEFT_RUNTIME_LAUNCH_HOSTCOMBINE_H
#define WEFT_RUNTIME_LAUNCH_HOSTCOMBINE_H

#include "core/Kernel.h"

namespace weft::rt {

/// Target = Target op (Partials[0] op ... op Partials[Count - 1]).
bool combineIntoTarget(ReduceOp Op, ScalarType Type, const void *Partials,
                       std::size_t Count, void *Target, std::string &Error);

} // namespace weft::rt

#endif
