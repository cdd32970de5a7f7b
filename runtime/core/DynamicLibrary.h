// DynamicLibrary.h: dlopen with a list of candidate names, so that programs
// carry no link-time dependency on CUDA or HIP.
#ifndef WEFT_RUNTIME_CORE_DYNAMICLIBRARY_H
#define WEFT_RUNTIME_CORE_DYNAMICLIBRARY_H

#include <initializer_list>
#include <string>
#include <vector>

namespace weft::rt {

class DynamicLibrary {
public:
  DynamicLibrary() = default;
  DynamicLibrary(const DynamicLibrary &) = delete;
  DynamicLibrary &operator=(const DynamicLibrary &) = delete;
  ~DynamicLibrary();

  /// Tries each candidate in order; on failure Error lists what was tried.
  bool open(const std::vector<std::string> &Candidates, std::string &Error);
  bool isOpen() const { return Handle != nullptr; }
  const std::string &path() const { return Path; }

  /// Resolves Name into Fn; false if it is missing.
  template <class Fn> bool get(const char *Name, Fn &Out) const {
    Out = reinterpret_cast<Fn>(symbol(Name));
    return Out != nullptr;
  }

private:
  void *symbol(const char *Name) const;
  void *Handle = nullptr;
  std::string Path;
};

} // namespace weft::rt

#endif
