// BackendSelection.cpp: auto takes CUDA, then HIP, then the host; a backend
// asked for by name that cannot run is a fault.
#include "policy/BackendSelection.h"

#include "core/Diagnostics.h"
#include "policy/Environment.h"

namespace weft::rt {

std::unique_ptr<Backend> selectBackend(std::string &HostReason) {
  const BackendChoice Choice = backendChoiceFromEnvironment();
  chooseFaultPolicy(Choice);
  std::string Reason;
  std::unique_ptr<Backend> Active;
  switch (Choice) {
  case BackendChoice::Host:
    HostReason = "WEFT_BACKEND=host";
    note("backend: host (" + HostReason + ")");
    return nullptr;
  case BackendChoice::Auto: {
    Active = createCudaBackend(Reason);
    std::string HipReason;
    if (!Active)
      Active = createHipBackend(HipReason);
    if (!Active) {
      HostReason = "no CUDA device: " + Reason + "; no AMD GPU: " + HipReason;
      note("backend: host (" + HostReason + ")");
      return nullptr;
    }
    break;
  }
  case BackendChoice::Cuda:
  case BackendChoice::Hip:
  case BackendChoice::Sim: {
    // Asked for by name: if it cannot run, say why once.
    const char *Name = Choice == BackendChoice::Cuda  ? "cuda"
                       : Choice == BackendChoice::Hip ? "hip"
                                                      : "sim";
    const char *What = Choice == BackendChoice::Cuda  ? "CUDA"
                       : Choice == BackendChoice::Hip ? "HIP"
                                                      : "the simulator";
    Active = Choice == BackendChoice::Cuda  ? createCudaBackend(Reason)
             : Choice == BackendChoice::Hip ? createHipBackend(Reason)
                                            : createSimBackend(Reason);
    if (!Active) {
      HostReason = std::string("WEFT_BACKEND=") + Name + ", but " + What +
                   " is unavailable (" + Reason + ")";
      fault(HostReason, "marked loops run on the host");
      return nullptr;
    }
    break;
  }
  }
  note(std::string("backend: ") + Active->name() + " (" +
       Active->properties().Architecture + ")");
  return Active;
}

} // namespace weft::rt
