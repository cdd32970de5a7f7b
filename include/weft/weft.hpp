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
} // namespace weft

#endif // WEFT_WEFT_HPP
