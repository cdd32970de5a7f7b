// BackendSelection.h: the backend marked loops run on, chosen once per
// process from WEFT_BACKEND and what this machine has.
#ifndef WEFT_RUNTIME_POLICY_BACKENDSELECTION_H
#define WEFT_RUNTIME_POLICY_BACKENDSELECTION_H

#include "core/Backend.h"

#include <memory>

namespace weft::rt {

/// Sets the fault policy too. Null: the loops run on the host (auto found
/// no GPU, host was asked for, or the backend asked for cannot run; the
/// last is a fault, said once).
std::unique_ptr<Backend> selectBackend();

} // namespace weft::rt

#endif
