// abi.h: the call between code the plugin generates and the runtime library.
// C++17, so that the runtime builds without C++20.
#ifndef WEFT_ABI_H
#define WEFT_ABI_H

#include <cstddef>

namespace weft {
namespace detail {

/// One captured variable as the runtime sees it: a span's elements, or a
/// scalar's bytes (count 1).
struct LaunchArg {
  const void *Data;
  std::size_t Count;
  std::size_t ElementSize;
};

/// Runs the kernel described by Descriptor (see runtime/core/Descriptor.h)
/// on the selected backend. Returns false when the host loop must run instead.
bool launchKernel(const char *Descriptor, const char *Source,
                  const LaunchArg *Args, std::size_t NumArgs) noexcept;

} // namespace detail

/// The backend marked loops run on: "cuda", or "host" (the loops as
/// written). Chosen once per process, from WEFT_BACKEND and what is present.
const char *backendName() noexcept;

} // namespace weft

#endif // WEFT_ABI_H
