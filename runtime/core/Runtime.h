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
#include <vector>

namespace weft::rt {

enum class BackendChoice { Auto, Cuda, Hip, Sim, Host };

/// Reads WEFT_BACKEND; an unknown value warns and means auto.
BackendChoice backendChoiceFromEnvironment();

/// A marked loop as the runtime knows it, keyed by its descriptor's address.
struct LoopSite {
  KernelInfo Kernel;
  KernelHandle Handle = nullptr;
  KernelHandle CombineHandle = nullptr; // Split(k) of depth 1 only
  /// Run-time tuning of the block size along Kernel.Tune.Axis: each
  /// variant is timed over a few launches, then the fastest is kept.
  struct Variant {
    unsigned Block = 0;
    KernelHandle Handle = nullptr;
    double Seconds = 0; // the fastest of its timed launches
    unsigned Timed = 0;
  };
  std::vector<Variant> Variants;
  int Chosen = -1; // index into Variants once tuned
  unsigned Launches = 0;
  /// Set after a failure: the host loop runs from then on, without more
  /// warnings.
  bool Disabled = false;
  /// The loop's other mappings, for other sizes (Kernel.Choice says which);
  /// each with its own text when the source holds several.
  std::vector<std::unique_ptr<LoopSite>> Alternatives;
  std::string Text;
  unsigned LastMapping = ~0u; // to say when the sizes change the mapping
};

class Runtime {
public:
  static Runtime &get();

  /// Runs the kernel; false when the host loop must run.
  bool launch(const char *Descriptor, const char *Source,
              const detail::LaunchArg *Args, std::size_t NumArgs);

  /// The backend in use, or null for the host loop.
  Backend *backend() const { return Active.get(); }

  // Regions (weft::region): host ranges kept resident on the device.
  void *enterRegion(const detail::ResidentRange *Ranges, std::size_t Count);
  void exitRegion(void *Region);
  void updateRegion(const void *Data, std::size_t Bytes, bool ToDevice);

  std::uint64_t BytesToDevice = 0, BytesToHost = 0;

private:
  Runtime();
  /// The site of a descriptor seen for the first time: its kernels parsed,
  /// or disabled (with a warning) when the descriptor is malformed.
  std::unique_ptr<LoopSite> makeSite(const char *Descriptor,
                                     const char *Source);
  /// The site's mapping for this launch's sizes: the site or an alternative.
  LoopSite &chooseMapped(LoopSite &Site, const detail::LaunchArg *Args,
                         std::size_t NumArgs);
  Status run(LoopSite &Site, const char *Source, const detail::LaunchArg *Args,
             std::size_t NumArgs);
  /// The block-size variant this launch uses while the site is tuned (null:
  /// the mapped one), compiled on first use.
  Status chooseVariant(LoopSite &Site, const char *Source,
                       LoopSite::Variant *&Out);

  struct Resident {
    char *Host;
    std::size_t Bytes;
    DevicePtr Device;
    void *Region;
  };
  /// The resident range holding [Data, Data + Bytes), if any.
  Resident *findResident(const void *Data, std::size_t Bytes);
  /// After a failure: every resident range back to the host, released; the
  /// host loops carry on with current data.
  void evictAll();
  Status toDevice(DevicePtr Dst, const void *Src, std::size_t Bytes);
  Status toHost(void *Dst, DevicePtr Src, std::size_t Bytes);

  std::mutex Lock; // Serializes launches; see README's runtime section.
  std::unique_ptr<Backend> Active;
  std::unordered_map<const char *, std::unique_ptr<LoopSite>> Sites;
  std::vector<Resident> Residents;
};

} // namespace weft::rt

#endif
