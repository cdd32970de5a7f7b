// BackendSelection.cpp: auto takes the first backend of the table that runs
// here (CUDA, then HIP), else the host; a backend asked for by name that
// cannot run is a fault.
#include "policy/BackendSelection.h"

#include "core/Diagnostics.h"
#include "policy/Environment.h"

namespace weft::rt {

std::unique_ptr<Backend> selectBackend(std::string &HostReason) {
  const BackendChoice Choice = backendChoiceFromEnvironment();
  chooseFaultPolicy(Choice);
  if (Choice.Host) {
    HostReason = "WEFT_BACKEND=host";
    note("backend: host (" + HostReason + ")");
    return nullptr;
  }
  std::string Reason;
  std::unique_ptr<Backend> Active;
  if (const BackendEntry *Named = Choice.Named) {
    // Asked for by name: if it cannot run, say why once.
    if (!(Active = Named->Create(Reason))) {
      HostReason = std::string("WEFT_BACKEND=") + Named->Word + ", but " +
                   Named->Title + " is unavailable (" + Reason + ")";
      fault(HostReason, "marked loops run on the host");
      return nullptr;
    }
  } else {
    std::string Missing;
    for (const BackendEntry &E : backendTable()) {
      if (!E.AutoFinds)
        continue;
      if ((Active = E.Create(Reason)))
        break;
      Missing += std::string(Missing.empty() ? "" : "; ") + "no " +
                 E.AutoFinds + ": " + Reason;
      Reason.clear();
    }
    if (!Active) {
      HostReason = Missing;
      note("backend: host (" + HostReason + ")");
      return nullptr;
    }
  }
  const DeviceProperties &Props = Active->properties();
  note(std::string("backend: ") + Active->name() + " (" + Props.Architecture +
       (Props.Choice.empty() ? "" : ", " + Props.Choice) + ")");
  return Active;
}

} // namespace weft::rt
