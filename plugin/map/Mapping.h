// Mapping.h: how each nest level maps onto the GPU's threads (Lee et al.,
// "Locality-Aware Mapping of Nested Parallel Patterns on GPUs", MICRO 2014):
// per level a logical dimension, a block size and a degree of parallelism,
// chosen by a search under hard constraints, scored by soft ones.
#ifndef WEFT_PLUGIN_MAP_MAPPING_H
#define WEFT_PLUGIN_MAP_MAPPING_H

#include "ir/NestIR.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace weft::map {

/// None: the level runs as a loop inside one thread of its enclosing levels.
enum class Dimension { X, Y, Z, None };

/// Span(1): one index per thread. Span(n): n per thread (coarsening).
/// Span(all): the block's threads stride over the whole extent.
/// Split(k): k blocks share the extent; their partial results are combined.
struct Parallelism {
  enum KindType { Span, SpanAll, Split } Kind = Span;
  unsigned N = 1; // n of Span(n), k of Split(k)
  bool operator==(const Parallelism &O) const {
    return Kind == O.Kind && (Kind == SpanAll || N == O.N);
  }
};

struct LevelMapping {
  Dimension Dim = Dimension::X;
  unsigned BlockSize = 1;
  Parallelism Dop;
  /// Why, one line per constraint that decided it.
  std::vector<std::string> Reasons;
  bool sequential() const { return Dim == Dimension::None; }
};

/// What the search knows of the device. The defaults are an H100 SXM: 132
/// SMs of 2048 resident threads in at most 32 resident blocks.
/// Iterations of the loop a register tile's shared-memory tiles hold, and
/// the shared memory those tiles may take in their two buffers (the next
/// tile stored while this one is read): a 128 x 128 block tile of floats
/// fits, as do two blocks an SM of 64 KiB.
constexpr unsigned RegisterTileWidth = 8;
constexpr std::uint64_t RegisterTileSharedBytes = 32 * 1024;

struct DeviceModel {
  unsigned WarpSize = 32;
  unsigned MaxThreadsPerBlock = 1024;
  std::uint64_t ConcurrentThreads = 132 * 2048;
  unsigned Multiprocessors = 132;
  unsigned MaxBlocksPerMultiprocessor = 32;
  std::uint64_t SharedMemoryPerBlock = 48 * 1024;
  std::uint64_t RegistersPerMultiprocessor = 64 * 1024;
  std::uint64_t MaxGridYZ = 65535;
};

/// The soft constraints' contributions to a candidate's score.
struct Score {
  double Coalescing = 0, Parallelism = 0, Reduction = 0, Divergence = 0,
         Reuse = 0;
  double total() const {
    return Coalescing + Parallelism + Reduction + Divergence + Reuse;
  }
};

struct Candidate {
  std::vector<LevelMapping> Levels; // one per nest depth
  Score Value;
  std::uint64_t Threads = 0; // the degree of parallelism: threads launched
};

struct NestMapping {
  /// One per nest depth (sibling levels at one depth share it). Empty when
  /// Error is set.
  std::vector<LevelMapping> Levels;
  /// The best candidates, best first, for the runtime to choose among once
  /// it knows the real extents.
  std::vector<Candidate> Alternatives;
  std::string Strategy = "auto";
  /// Extents the search had to assume.
  std::vector<std::string> Assumptions;
  /// Why no mapping satisfies the forced clauses, when none does; the
  /// depth whose clause it names (-1: the nest's), and what to change.
  std::string Error;
  int ErrorDepth = -1;
  std::string ErrorHint;
};

/// Soft-constraint weights, multiplied by how often the code they concern
/// runs (Lee et al. use 10 for coalescing and 5 for preferring parallelism).
/// Reuse (not in Lee et al.) counts reads that shared-memory tiles serve:
/// a read shared by s threads of a block costs global memory 1/s of the
/// time, and staging is what a blocked algorithm needs (Futhark's lud).
struct Weights {
  double Coalescing = 10, Parallelism = 5, Reduction = 3, Divergence = 2,
         Reuse = 10;
};

struct MappingInput {
  DeviceModel Device;
  Weights Weight;
  /// Known or assumed values of captured scalars ("rows") and span sizes
  /// ("size(m)"); an extent that depends on anything else is DefaultExtent.
  std::map<std::string, std::int64_t> Symbols;
  std::int64_t DefaultExtent = 1024;
  unsigned KeepTop = 4;
  /// Which candidates the kernel generator can build (plan::ShapeRules);
  /// unset, every one the hard constraints allow is scored. When set, the
  /// reuse score counts the tiles the generator would make.
  std::function<bool(const std::vector<LevelMapping> &)> Buildable;
  /// Where set, the reads a candidate's shared-memory windows serve
  /// (halo tiles: memory/StagingPlan's windowShare), which the reuse
  /// score counts beside the tiles.
  std::function<double(const std::vector<LevelMapping> &)> WindowShare;
};

/// Searches the whole space under the hard constraints and returns the best
/// mapping, honouring strategy(...) and the per-level clauses.
NestMapping chooseMapping(const ir::Nest &N, const MappingInput &In = {});

/// The fixed baselines of the paper, for a nest of Depths levels:
/// "1d" (the outermost level parallel, the rest serial), "thread_block"
/// (the outermost level over blocks, the next over a block's threads) and
/// "warp" (the outermost over warps, the next over a warp's lanes).
std::vector<LevelMapping> baseline(const std::string &Strategy, unsigned Depths,
                                   const DeviceModel &D);

const char *spelling(Dimension D);
std::string spelling(const Parallelism &P);
/// "dim x, block 32, Span(all)" or "sequential".
std::string describe(const LevelMapping &L);

} // namespace weft::map

#endif
