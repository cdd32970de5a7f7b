// Runtime.h: the process-wide state behind weft::detail::launchKernel: the
// chosen backend and the per-loop-site records.
#ifndef WEFT_RUNTIME_CORE_RUNTIME_H
#define WEFT_RUNTIME_CORE_RUNTIME_H

#include "core/Backend.h"
#include "core/Descriptor.h"

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace weft::rt {

enum class BackendChoice { Auto, Cuda, Hip, Sim, Host };

/// Reads WEFT_BACKEND; an unknown value warns and means auto.
BackendChoice backendChoiceFromEnvironment();

/// A marked loop as the runtime knows it, keyed by its descriptor's address.
struct LoopSite {
  KernelInfo Kernel;
  KernelHandle Handle = nullptr;
  /// Set after a failure: the host loop runs from then on, without more
  /// warnings.
  bool Disabled = false;
};

class Runtime {
public:
  static Runtime &get();

  /// Runs the kernel; false when the host loop must run.
  bool launch(const char *Descriptor, const char *Source,
              const detail::LaunchArg *Args, std::size_t NumArgs);

  /// The backend in use, or null for the host loop.
  Backend *backend() const { return Active.get(); }

private:
  Runtime();
  Status run(LoopSite &Site, const char *Source, const detail::LaunchArg *Args,
             std::size_t NumArgs);

  std::mutex Lock; // Serializes launches; see README's runtime section.
  std::unique_ptr<Backend> Active;
  std::unordered_map<const char *, std::unique_ptr<LoopSite>> Sites;
};

} // namespace weft::rt

#endif
