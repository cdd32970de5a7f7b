// RuntimeCompiler.h: NVRTC or hipRTC, loaded at run time: they share one API
// shape (prefix nvrtc/hiprtc), so one class drives both. Compiles kernel text
// for one architecture. Used by the GPU backends and the weft-nvrtc and
// weft-hiprtc test tools.
#ifndef WEFT_RUNTIME_BACKENDS_GPU_RUNTIMECOMPILER_H
#define WEFT_RUNTIME_BACKENDS_GPU_RUNTIMECOMPILER_H

#include "core/DynamicLibrary.h"

#include <atomic>
#include <mutex>
#include <string>
#include <vector>

namespace weft::rt {

class RuntimeCompiler {
public:
  enum class Kind { Nvrtc, Hiprtc };
  explicit RuntimeCompiler(Kind K) : Which(K) {}

  /// NVRTC: libnvrtc.so.13, then .12, from the loader path, $CUDA_HOME/lib64
  /// and /usr/local/cuda/lib64. hipRTC: libhiprtc.so (ROCm 6), else the one
  /// inside libamdhip64.so.5 (ROCm 5). False (and Error) when none loads.
  bool load(std::string &Error);
  const std::string &libraryPath() const { return Library.path(); }
  const char *name() const; // "NVRTC", "hipRTC"
  /// "13.0", once loaded.
  std::string version() const;

  /// The compiler's options for Arch and Defines. No fast math: results
  /// follow IEEE arithmetic; the define WEFT_STRICT_FP=1 also turns off
  /// the contraction of a * b + c into one fused multiply-add, so that each
  /// operation rounds as on the host.
  std::vector<std::string>
  options(const std::string &Arch,
          const std::vector<std::string> &Defines) const;

  /// Compiles Source (which includes <weft/device.h>) for Arch ("sm_90",
  /// "gfx90a") into the device's binary. On failure returns false with the
  /// compiler's log in Log; on success Log holds what the compiler reported
  /// (NVRTC: ptxas's resource use, see KernelResources).
  bool compile(const std::string &Source, const std::string &Name,
               const std::string &Arch, const std::vector<std::string> &Defines,
               std::vector<char> &Binary, std::string &Log) const {
    return compileTo(Source, Name, Arch, Defines, Binary, Log, false);
  }
  /// A compile has run in this process (its libraries all loaded: NVRTC
  /// loads its builtins at the first compile).
  bool hasCompiled() const { return Compiled.load(std::memory_order_acquire); }
  /// NVRTC's PTX for Source instead (what weft-nvrtc --ptx prints: where
  /// the tests check which loads a kernel makes); false from hipRTC.
  bool ptx(const std::string &Source, const std::string &Name,
           const std::string &Arch, const std::vector<std::string> &Defines,
           std::string &Ptx, std::string &Log) const;

private:
  bool compileTo(const std::string &Source, const std::string &Name,
                 const std::string &Arch,
                 const std::vector<std::string> &Defines,
                 std::vector<char> &Code, std::string &Log, bool Ptx) const;

  using Program = void *;
  Kind Which;
  /// One compile at a time: hipRTC documents no thread safety, and the
  /// tuner's background compiles meet the program's thread's here.
  mutable std::mutex CompileLock;
  mutable std::atomic<bool> Compiled{false};
  DynamicLibrary Library;
  int (*CreateProgram)(Program *, const char *, const char *, int,
                       const char *const *, const char *const *) = nullptr;
  int (*CompileProgram)(Program, int, const char *const *) = nullptr;
  int (*DestroyProgram)(Program *) = nullptr;
  int (*GetLogSize)(Program, std::size_t *) = nullptr;
  int (*GetLog)(Program, char *) = nullptr;
  int (*GetCodeSize)(Program, std::size_t *) = nullptr;
  int (*GetCode)(Program, char *) = nullptr;
  int (*GetPtxSize)(Program, std::size_t *) = nullptr; // NVRTC only
  int (*GetPtx)(Program, char *) = nullptr;
  int (*Version)(int *, int *) = nullptr;
  const char *(*GetErrorString)(int) = nullptr;
};

} // namespace weft::rt

#endif
