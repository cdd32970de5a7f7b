// KernelImages.h: a loop's kernels compiled when the program is built
// (-fplugin-arg-weft-offload-arch): each kernel's text through the compilers
// the runtime uses (weft-nvrtc, weft-hiprtc), its images appended to the
// loop's source in base64 and named by the kernel's image lines.
#ifndef WEFT_PLUGIN_EMIT_KERNELIMAGES_H
#define WEFT_PLUGIN_EMIT_KERNELIMAGES_H

#include "contract/Descriptor.h"

#include <set>
#include <string>
#include <vector>

namespace weft::emit {

struct ImageTargets {
  /// sm_XX (a cubin each, and PTX for the newest), gfxNNN (a code object).
  std::vector<std::string> Archs;
  /// Where weft-nvrtc and weft-hiprtc are.
  std::string ToolDir;
};

/// Whether Arch is one offload-arch takes ("sm_90", "gfx90a").
bool isOffloadArch(const std::string &Arch);

/// Adds the images of Kernels for T.Archs to Source (making each kernel's
/// text explicit first). What could not be built goes into Problems, a line
/// each (a compiler not installed here, a compile that failed): those
/// kernels compile when the program runs.
void addKernelImages(const ImageTargets &T,
                     std::vector<contract::KernelInfo> &Kernels,
                     std::string &Source, std::set<std::string> &Problems);

} // namespace weft::emit

#endif
