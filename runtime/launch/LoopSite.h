// LoopSite.h: a marked loop as the runtime knows it, keyed by its
// descriptor's address: its kernels, the mappings it may choose among, its
// tuning state, and whether it fell back for good.
#ifndef WEFT_RUNTIME_LAUNCH_LOOPSITE_H
#define WEFT_RUNTIME_LAUNCH_LOOPSITE_H

#include "core/Backend.h"
#include "core/Kernel.h"
#include "launch/LaunchConfig.h"

#include <memory>
#include <string>
#include <vector>

namespace weft::rt {

class SiteTuning;

struct LoopSite {
  LoopSite();
  ~LoopSite();
  KernelInfo Kernel;
  KernelHandle Handle = nullptr;
  KernelHandle CombineHandle = nullptr; // Split(k) of depth 1 only
  /// Run-time tuning (tune/OnlineTuner), on the loop's first site only;
  /// for calls on rows held apart of differing lengths, a tuning of the
  /// kernels that read their offsets alone.
  std::unique_ptr<SiteTuning> Tuning, RaggedTuning;
  /// Set after a failure: the host loop runs from then on, without more
  /// warnings.
  bool Disabled = false;
  std::string DisabledWhy;
  /// Said once: calls whose arguments share memory the kernel must not
  /// share (launch/SharedMemory.h) run on the host.
  bool SaidSharedMemory = false;
  /// Said once: calls whose pointers the launch cannot size by their
  /// subscripts run on the host.
  bool SaidUnsized = false;
  /// The loop's other mappings, for other sizes (Kernel.Choice says which);
  /// each with its own text when the source holds several.
  std::vector<std::unique_ptr<LoopSite>> Alternatives;
  std::string Text;
  /// To say when the sizes change the mapping: for calls on rows of one
  /// length (or none), and for calls on rows of differing lengths.
  unsigned LastMapping[2] = {~0u, ~0u};
  LaunchConfig LastConfig; // to say when the geometry changes
};

} // namespace weft::rt

#endif
