// PrebuiltImages.h: which image built with the program (offload-arch) a
// device takes: its architecture's own, else, on NVIDIA, the PTX of the
// newest architecture not newer than the device's (the driver compiles it).
#ifndef WEFT_RUNTIME_BACKENDS_GPU_PREBUILTIMAGES_H
#define WEFT_RUNTIME_BACKENDS_GPU_PREBUILTIMAGES_H

#include "core/Kernel.h"

#include <string>
#include <vector>

namespace weft::rt {

/// K's image for a device of Arch ("sm_90", "gfx90a"), or null.
const contract::ImageInfo *imageFor(const KernelInfo &K,
                                    const std::string &Arch);

/// What the driver loads of Image: its bytes, PTX ended by a NUL.
std::vector<char> imageBinary(const contract::ImageInfo &Image);

} // namespace weft::rt

#endif
