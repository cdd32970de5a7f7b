// LaunchRanges.cpp: NVTX through its header-only API (it loads a profiler's
// injection library itself, where one is named), roctx through its library.
#include "core/LaunchRanges.h"

#include <cstring>
#include <dlfcn.h>
#include <initializer_list>

#if WEFT_HAVE_NVTX
#include <nvtx3/nvToolsExt.h>
#endif

namespace weft::rt {

LaunchRanges::LaunchRanges(const char *Backend) {
  if (!Backend || std::strcmp(Backend, "hip") != 0)
    return;
  for (const char *Name :
       {"libroctx64.so", "libroctx64.so.4", "/opt/rocm/lib/libroctx64.so"})
    if (void *Library = ::dlopen(Name, RTLD_NOW | RTLD_LOCAL)) {
      RoctxPush = reinterpret_cast<int (*)(const char *)>(
          ::dlsym(Library, "roctxRangePushA"));
      RoctxPop = reinterpret_cast<int (*)()>(::dlsym(Library, "roctxRangePop"));
      if (RoctxPush && RoctxPop)
        return;
      RoctxPush = nullptr;
      RoctxPop = nullptr;
    }
}

void LaunchRanges::push(const char *Name) const {
#if WEFT_HAVE_NVTX
  nvtxRangePushA(Name);
#endif
  if (RoctxPush)
    RoctxPush(Name);
}

void LaunchRanges::pop() const {
#if WEFT_HAVE_NVTX
  nvtxRangePop();
#endif
  if (RoctxPop)
    RoctxPop();
}

} // namespace weft::rt
