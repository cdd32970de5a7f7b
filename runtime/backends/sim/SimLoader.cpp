// SimLoader.cpp: loads the simulator (libweft-sim.so, beside libweft.so) only
// when WEFT_BACKEND=sim, so that its dependencies (Boost.Context, a host
// compiler) are never needed by programs that do not use it.
#include "core/Backend.h"
#include "core/DynamicLibrary.h"

#include <dlfcn.h>

namespace weft::rt {

std::unique_ptr<Backend> createSimBackend(std::string &Reason) {
  Dl_info Info;
  std::string Dir;
  if (::dladdr(reinterpret_cast<void *>(&createSimBackend), &Info) &&
      Info.dli_fname) {
    Dir = Info.dli_fname;
    Dir = Dir.substr(0, Dir.find_last_of('/') + 1);
  }
  static DynamicLibrary Library; // Stays loaded: kernels point into it.
  if (!Library.isOpen() &&
      !Library.open({Dir + "libweft-sim.so", "libweft-sim.so"}, Reason))
    return nullptr;
  Backend *(*Create)() = nullptr;
  if (!Library.get("weft_sim_create_backend", Create)) {
    Reason = Library.path() + " lacks weft_sim_create_backend";
    return nullptr;
  }
  return std::unique_ptr<Backend>(Create());
}

} // namespace weft::rt
