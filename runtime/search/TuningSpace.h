// TuningSpace.h: a loop's tuning space as KTT states one: every mapping the
// plugin emitted for it, each with its parameters' values, less the
// configurations the device cannot run (threads or shared memory per
// block). Configurations are numbered; searchers and recordings use them.
#ifndef WEFT_RUNTIME_SEARCH_TUNINGSPACE_H
#define WEFT_RUNTIME_SEARCH_TUNINGSPACE_H

#include "core/Backend.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace weft::rt {

/// A mapping (0: the loop's first kernel) and, per parameter of its
/// kernel, the index of its value.
struct Configuration {
  unsigned Mapping = 0;
  std::vector<unsigned> Choice;
  bool operator==(const Configuration &O) const {
    return Mapping == O.Mapping && Choice == O.Choice;
  }
};

class TuningSpace {
public:
  static constexpr std::size_t None = ~std::size_t(0);

  TuningSpace() = default;
  /// The configurations of Kernels (the loop's mappings in descriptor
  /// order) that Props can run, of the mappings Allowed says (all when
  /// empty).
  TuningSpace(std::vector<KernelInfo> Kernels, const DeviceProperties &Props,
              const std::vector<bool> &Allowed = {});

  std::size_t size() const { return Configs.size(); }
  const Configuration &operator[](std::size_t I) const { return Configs[I]; }
  const std::vector<KernelInfo> &kernels() const { return Kernels; }
  /// Mapping M's configuration as mapped (every parameter's first value);
  /// None when the device cannot run it or M takes no part.
  std::size_t mapped(unsigned M) const;
  std::size_t find(const Configuration &C) const;
  /// Configuration I's parameter values.
  std::vector<unsigned> values(std::size_t I) const;
  /// The index of the configuration of mapping M with these values; None
  /// when there is none.
  std::size_t findValues(unsigned M, const std::vector<unsigned> &Values) const;
  /// The configurations one step from I along one parameter (its next
  /// smaller or larger value), in parameter order.
  std::vector<std::size_t> neighbours(std::size_t I) const;
  /// "mapping 1: WEFT_BLOCK_X=128 WEFT_TILE=32"
  std::string describe(std::size_t I) const;
  /// The macros configuration I defines ("WEFT_TILE=32"): every parameter
  /// but k of Split(k), which only the launch sets.
  std::vector<std::string> defines(std::size_t I) const;
  /// The static shared memory configuration I needs, as its descriptor
  /// states it (none when it states nothing).
  std::optional<std::int64_t> sharedBytes(std::size_t I) const;
  /// The mapping's descriptor under configuration I: its block sizes and
  /// Span(n) as the configuration sets them.
  KernelInfo apply(std::size_t I) const;

private:
  bool fits(const KernelInfo &K, const std::vector<unsigned> &Choice,
            const DeviceProperties &Props) const;
  std::vector<std::string> settings(std::size_t I, bool LaunchOnly) const;
  static std::optional<std::int64_t>
  shared(const KernelInfo &K, const std::vector<unsigned> &Choice);
  std::vector<KernelInfo> Kernels;
  std::vector<Configuration> Configs;
  /// Per mapping, its mapped configuration's index (asked at every launch).
  std::vector<std::size_t> Mapped;
};

/// K as the kernel text compiles under Defines (WEFT_KERNEL_DEFINES's
/// words): a parameter the user set to a number keeps that value alone, and
/// a Span(n) one sizes the grid by it (WEFT_RM=1 launches as many blocks as
/// one row a thread needs, not a quarter of them).
void applyDefines(KernelInfo &K, const std::vector<std::string> &Defines);

} // namespace weft::rt

#endif
