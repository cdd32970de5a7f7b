// DynamicLibrary.cpp: dlopen/dlsym behind DynamicLibrary.
#include "core/DynamicLibrary.h"

#include <dlfcn.h>

namespace weft::rt {

DynamicLibrary::~DynamicLibrary() {
  // Driver libraries keep threads and atexit handlers: never unload them.
}

bool DynamicLibrary::open(const std::vector<std::string> &Candidates,
                          std::string &Error) {
  std::string Tried;
  for (const std::string &Name : Candidates) {
    if (void *H = ::dlopen(Name.c_str(), RTLD_NOW | RTLD_LOCAL)) {
      Handle = H;
      Path = Name;
      return true;
    }
    Tried += Tried.empty() ? Name : ", " + Name;
  }
  Error = "cannot load any of " + Tried;
  return false;
}

void *DynamicLibrary::symbol(const char *Name) const {
  return Handle ? ::dlsym(Handle, Name) : nullptr;
}

} // namespace weft::rt
