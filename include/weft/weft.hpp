// weft.hpp: what a program that marks loops with `#pragma weft parallel for`
// includes. Without the plugin it changes nothing: the loops run serially.
#ifndef WEFT_WEFT_HPP
#define WEFT_WEFT_HPP

#include "weft/abi.h"

#include <cstddef>
#include <span>
#include <type_traits>

namespace weft {
namespace detail {

template <class T, std::size_t Extent>
constexpr LaunchArg makeLaunchArg(const std::span<T, Extent> &S) {
  return {S.data(), S.size(), sizeof(T)};
}
template <class T> constexpr LaunchArg makeLaunchArg(const T &Scalar) {
  static_assert(std::is_trivially_copyable_v<T>,
                "weft captures scalars by value");
  return {&Scalar, 1, sizeof(T)};
}

/// The plugin replaces each marked loop by `if (!launch(...)) <loop>`.
/// constexpr so that the loop still runs during constant evaluation.
template <class... Args>
constexpr bool launch(const char *Descriptor, const char *Source,
                      Args &&...Captures) {
  if (std::is_constant_evaluated())
    return false;
  const LaunchArg ArgArray[sizeof...(Args) + 1] = {makeLaunchArg(Captures)...,
                                                   LaunchArg{nullptr, 0, 0}};
  return launchKernel(Descriptor, Source, ArgArray, sizeof...(Args));
}

} // namespace detail

/// Keeps spans resident on the device while it lives: marked loops in its
/// scope use the device copies, without copying them in or out. Host code in
/// between sees the host copies: update_host and update_device move data
/// when it must. Leaving the scope copies everything back. Without a GPU (or
/// without the plugin) it does nothing.
///
///   weft::region R(grid, next);
///   for (int t = 0; t < steps; ++t) { stencil(grid, next); std::swap(...); }
class region {
public:
  template <class... Ts, std::size_t... Es>
  explicit region(std::span<Ts, Es>... Spans) {
    const detail::ResidentRange Ranges[sizeof...(Ts) + 1] = {
        detail::ResidentRange{
            const_cast<void *>(static_cast<const void *>(Spans.data())),
            Spans.size_bytes()}...,
        detail::ResidentRange{nullptr, 0}};
    if (&detail::regionEnter) // null without the runtime (abi.h)
      Handle = detail::regionEnter(Ranges, sizeof...(Ts));
  }
  ~region() {
    if (Handle)
      detail::regionExit(Handle);
  }
  region(const region &) = delete;
  region &operator=(const region &) = delete;

  template <class T, std::size_t E> void update_device(std::span<T, E> S) {
    if (Handle)
      detail::regionUpdate(Handle, S.data(), S.size_bytes(), true);
  }
  template <class T, std::size_t E> void update_host(std::span<T, E> S) {
    if (Handle)
      detail::regionUpdate(Handle, S.data(), S.size_bytes(), false);
  }

private:
  void *Handle = nullptr;
};

/// Waits until the marked loops launched so far have finished on the
/// device. Inside a region a launch whose data is all resident returns as
/// soon as its kernel is enqueued; what the host reads (a region's end,
/// update_host, a reduction's value) waits by itself. Useful before timing
/// a region's loops with a host clock; a no-op without a GPU.
inline void synchronize() {
  if (&detail::synchronizeLaunches)
    detail::synchronizeLaunches();
}

} // namespace weft

#endif // WEFT_WEFT_HPP
