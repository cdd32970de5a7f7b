// BackendSelection.h: the backend marked loops run on, chosen once per
// process from WEFT_BACKEND and what this machine has.
#ifndef WEFT_RUNTIME_POLICY_BACKENDSELECTION_H
#define WEFT_RUNTIME_POLICY_BACKENDSELECTION_H

#include "core/Backend.h"

#include <memory>
#include <string>

namespace weft::rt {

/// Sets the fault policy too. Null: the loops run on the host (auto found
/// no GPU, host was asked for, or the backend asked for cannot run; the
/// last is a fault, said once).
/// Null when marked loops run on the host, with why in HostReason.
std::unique_ptr<Backend> selectBackend(std::string &HostReason);

} // namespace weft::rt

#endif
