// Nvrtc.h: NVRTC loaded at run time; compiles kernel text to a cubin for one
// architecture. Used by the CUDA backend and by the weft-nvrtc test tool.
#ifndef WEFT_RUNTIME_CUDA_NVRTC_H
#define WEFT_RUNTIME_CUDA_NVRTC_H

#include "core/DynamicLibrary.h"

#include <string>
#include <vector>

namespace weft::rt {

class Nvrtc {
public:
  /// Loads libnvrtc (13, then 12) from the loader path, $CUDA_HOME/lib64 and
  /// /usr/local/cuda/lib64. False (and Error) when none loads.
  bool load(std::string &Error);
  const std::string &libraryPath() const { return Library.path(); }
  /// "13.0", once loaded.
  std::string version() const;

  /// Compiles Source (which includes <weft/device.h>) for Arch ("sm_90").
  /// On failure returns false with the compiler's log in Log.
  bool compile(const std::string &Source, const std::string &Name,
               const std::string &Arch, const std::vector<std::string> &Defines,
               std::vector<char> &Cubin, std::string &Log) const;

private:
  using Program = void *;
  DynamicLibrary Library;
  int (*CreateProgram)(Program *, const char *, const char *, int,
                       const char *const *, const char *const *) = nullptr;
  int (*CompileProgram)(Program, int, const char *const *) = nullptr;
  int (*DestroyProgram)(Program *) = nullptr;
  int (*GetLogSize)(Program, std::size_t *) = nullptr;
  int (*GetLog)(Program, char *) = nullptr;
  int (*GetCubinSize)(Program, std::size_t *) = nullptr;
  int (*GetCubin)(Program, char *) = nullptr;
  int (*Version)(int *, int *) = nullptr;
  const char *(*GetErrorString)(int) = nullptr;
};

} // namespace weft::rt

#endif
