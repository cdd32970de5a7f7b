// KernelShape.h: which mappings the kernel generator can build, and the
// shape of the kernel it builds for one: how the outermost level is walked,
// how each level's threads combine their reductions and wait for each
// other. The mapping search asks these rules which candidates are legal;
// the kernel plan and the emitter take the shape from here, so that none
// of them restates another's decisions.
#ifndef WEFT_PLUGIN_PLAN_KERNELSHAPE_H
#define WEFT_PLUGIN_PLAN_KERNELSHAPE_H

#include "ir/NestIR.h"
#include "map/Mapping.h"

#include <optional>
#include <vector>

namespace weft::plan {

/// How an inner level on threads combines its reductions across them.
enum class Combine {
  None,         // no reductions, or the level runs in one thread
  Warp,         // one warp along x: shuffles
  Block,        // the block is the level's one group: a shared-memory tree
  Axis,         // one group among several along one axis of the block
  SplitPartials // Split(k): a partial per block, a second kernel combines
};

struct DepthShape {
  int Axis = -1; // 0, 1, 2 for x, y, z; -1: in the thread
  unsigned Block = 1;
  /// How the depth's reductions combine (None where it has none).
  Combine How = Combine::None;
  /// The depth's group of threads is the whole block, or one warp.
  bool WholeBlock = false, OneWarp = false;
};

struct KernelShape {
  std::vector<DepthShape> Depths;
  unsigned Block[3] = {1, 1, 1};
  /// Blocks walk the outermost level together, each thread active where
  /// its iteration is in range (weft_in0): a level one in combines along
  /// one axis of a block holding several outermost iterations.
  bool UniformOuter = false;
  /// Split(k) of depth 1: a second, combining kernel finishes each
  /// outermost iteration.
  bool SplitInner = false;
  /// Both levels of a register-tileable nest over the grid, n0 x n1
  /// outputs a thread (analysis/RegisterTile).
  bool RegisterTiled = false;
  unsigned threads() const { return Block[0] * Block[1] * Block[2]; }
};

/// What the rules need to know of a nest, computed once for all the
/// candidates of its search.
class ShapeRules {
public:
  explicit ShapeRules(const ir::Nest &N);

  /// The kernel's shape under Levels (one per depth), or nullopt when the
  /// generator cannot build that mapping.
  std::optional<KernelShape>
  shape(const std::vector<map::LevelMapping> &Levels) const;

private:
  struct DepthFacts {
    bool Reduces = false;
    /// Every level at this depth holds only pure scalar declarations and
    /// nested parallel loops: a deeper level may then spread over blocks.
    bool Perfect = true;
    /// A per-iteration array of a shallower level is filled here or
    /// deeper: the level stays in its thread (such arrays are private).
    bool FillsOuterArray = false;
    /// A level here has a statement that writes data and gives its
    /// thread a value (writesDataAndValue): no level inside it spreads
    /// over threads.
    bool WritesDataAndValue = false;
  };
  std::vector<DepthFacts> Depths;
  /// Depth 1's reductions may be split over blocks, their partials
  /// combined by a second kernel that reruns the outermost body around it.
  bool SplitCombinable = false;
  /// Depth 1's reductions may combine across the threads along its
  /// dimension while the block holds several outermost iterations.
  bool GroupReducible = false;
  /// Its loop can be register-tiled (analysis/RegisterTile).
  bool RegisterTileable = false;
  unsigned WarpSize = 32;
};

/// The search restricted to what the generator builds (rules for N kept
/// alive by the returned input), its reuse score counting the windows the
/// generator would stage (N must outlive the input).
map::MappingInput buildableOnly(const ir::Nest &N, map::MappingInput In);

} // namespace weft::plan

#endif
