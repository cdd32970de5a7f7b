// KernelPlan.h: everything the emitter prints for one mapping of a nest,
// decided before a line is printed: the kernel's shape, what moves between
// host and device, what is staged or tiled in shared memory, the shared
// arrays and per-thread buffers the kernel declares, what the runtime may
// tune, and the claims it checks at launch.
#ifndef WEFT_PLUGIN_PLAN_KERNELPLAN_H
#define WEFT_PLUGIN_PLAN_KERNELPLAN_H

#include "analysis/RegisterSlice.h"
#include "analysis/RegisterTile.h"
#include "analysis/ResidentBlock.h"
#include "analysis/ScalarReplacement.h"
#include "analysis/ThreadSlice.h"
#include "analysis/UnrolledSteps.h"
#include "analysis/WindowTile.h"
#include "contract/Descriptor.h"
#include "ir/NestIR.h"
#include "map/Mapping.h"
#include "memory/StagingPlan.h"
#include "memory/TilingPlan.h"
#include "memory/TransferPlan.h"
#include "plan/KernelShape.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace weft::plan {

/// How the kernel walks the outermost level's iterations.
enum class OuterWalk {
  GlobalX,      // over the grid's x threads (global_id_x)
  Grid,         // over blocks and threads along another axis
  BlockStride,  // Span(all): the block's threads stride over all of it
  Uniform,      // blocks walk it together, threads active where in range
  RegisterTiles // blocks walk both levels' tiles together (RegisterTile)
};

/// Register tiling: each thread computes TM x TN outputs, the block
/// BM x BN (BM = its threads along the outer level's axis times TM), the
/// loop walked WEFT_TILE iterations at a time through shared memory, each
/// iteration reading a fragment of each tile into registers.
struct RegisterTilePlan {
  unsigned TM = 1, TN = 1;
  std::vector<const ir::Stmt *> Accumulators; // arrays [TM][TN]
  std::vector<std::size_t> Registers;         // of Registers, arrays [TM][TN]
  std::vector<unsigned> VectorWidth;    // per tile, ir::RegisterTileable's
  std::vector<const ir::Expr *> Factor; // per tile, likewise
  std::vector<const ir::Expr *> ScaledProducts;
};

/// A kernel-scope shared-memory array.
struct SharedArray {
  std::string Element; // its element type's spelling
  std::string Count;   // elements: an expression of the kernel's macros
  std::string Name;
  /// Its bytes over the tuning space's parameters, for the runtime to check
  /// a configuration against the device's shared memory.
  contract::BoundExpr Bytes;
};

/// A per-iteration array of run-time size: a slice per grid thread of a
/// buffer the runtime allocates for the launch.
struct ThreadBuffer {
  const ir::Stmt *Decl = nullptr; // the array's declaration in the nest
  std::string Element;            // its element type's spelling
  unsigned ElementBytes = 0;
  const ir::Expr *Extent = nullptr; // elements per thread (host-evaluable)
};

/// A span's elements a thread holds in shared memory for an iteration of
/// an innermost level (ir::ThreadSlice): WEFT_SLICEn of them at most, the
/// iteration taking the span in place where its slice is longer.
struct SlicePlan {
  ir::ThreadSlice Slice;
  std::string Capacity;            // WEFT_SLICEn's value, elements a thread
  std::int64_t MappedCapacity = 0; // its value at the mapped block size
  std::int64_t Budget = 0;         // bytes of a block's shared memory
  /// Held in the thread's registers where WEFT_UNROLL_STEPS is 1, its
  /// loops unrolled whole (ir::registerSlice); in shared memory where 0.
  bool Registers = false;
  /// Registers' writes kept to the iteration's end where this holds
  /// (ir::SliceUnrolling::Apart).
  std::optional<std::string> Apart;
};

/// Each thread computes WEFT_RM consecutive iterations of the tile's Rows
/// level (Rows as mapped, that level's Span(n)) with the window's loops
/// unrolled whole and run once for all of them (ir::WindowTile): the reads its
/// rows share load once, from the L1 cache, and stay in registers.
struct WindowPlan {
  ir::WindowTile Tile;
  unsigned Rows = 4;
};

/// A block of a matrix a sequential nest holds in shared memory for the
/// whole loop (ir::ResidentBlock): WEFT_RESIDENTn elements at most, the
/// loop taking the span in place where the block is larger.
struct ResidentPlan {
  ir::ResidentBlock Block;
  std::int64_t Capacity = 0; // WEFT_RESIDENTn's value
};

/// What a level's threads do after it, before the code that follows (a
/// level with stages also waits for the whole block where staged ranges
/// are compiled in: the next round's staging must not overwrite what
/// slower threads still read).
enum class Sync { None, Barrier, Warp };

/// A level of the nest under the plan.
struct LevelPlan {
  int Axis = -1; // -1: in the thread
  Combine How = Combine::None;
  Sync After = Sync::None;
  /// Per reduction of the level, the shared array it combines through
  /// (empty where it needs none).
  std::vector<std::string> Scratch;
  /// Stages (indices into KernelPlan::Stages) the block loads before it.
  std::vector<std::size_t> Stages;
};

struct KernelPlan {
  const ir::Nest *Nest = nullptr;
  map::NestMapping Mapping;
  KernelShape Shape;
  OuterWalk Outer = OuterWalk::GlobalX;
  std::vector<memory::Transfer> Transfers; // one per parameter
  std::vector<memory::Stage> Stages;
  /// Elements of shared memory per staged range or window (WEFT_STAGEn's
  /// value): exactly what it holds where its extents are constants (a
  /// window's columns follow its block's macro), else a share of what is
  /// left of 24 KiB; a range that does not fit is read in place.
  std::vector<std::string> StageCapacity;
  std::optional<memory::TiledLoop> Tiled;
  /// Span elements held in registers for the length of a loop.
  std::vector<ir::ReplacedElement> Registers;
  std::optional<RegisterTilePlan> RegisterTile;
  std::optional<WindowPlan> Window;
  std::vector<SlicePlan> Slices;
  std::vector<ResidentPlan> Residents;
  /// A sequential nest's loops unrolled whole where WEFT_UNROLL_STEPS is 1
  /// (the default; the tuning space offers 0), and a register slice's,
  /// with their trip counts (ir::unrolledSteps, ir::registerSlice).
  std::map<const ir::Stmt *, std::int64_t> UnrolledSteps;
  /// Counted loops inside those, printed counting from zero so that the
  /// GPU compiler finds their constant trip counts in each unrolled copy
  /// (ir::constantCountLoops).
  std::set<const ir::Stmt *> CountedFromZero;
  /// Those of both that unroll for a register slice: only in the slices'
  /// branch of the level's body.
  std::set<const ir::Stmt *> SliceLoops;
  /// Whole-block tiles whose level's threads compute WEFT_CM iterations
  /// each (ir::coarsenable): the tuning space offers 1, 2 and 4.
  bool Coarsened = false;
  std::map<const ir::Level *, LevelPlan> Levels;
  /// In declaration order: tiles, then per level its stages and reduction
  /// scratch, then the outermost reductions' partials, then the slices and
  /// resident blocks.
  std::vector<SharedArray> Shared;
  /// The shared array each outermost reduction combines its block through.
  std::vector<std::string> OuterScratch;
  std::vector<ThreadBuffer> Buffers;
  /// Split(k) of depth 1: the level whose partials a second kernel folds.
  const ir::Level *SplitLevel = nullptr;
  /// The configurations the runtime may try instead of the mapped one.
  contract::TuneInfo Tune;
  /// Per parameter: the "written everywhere" claim the runtime checks.
  std::vector<std::optional<memory::GridCoverage>> Coverage;

  const LevelPlan &level(const ir::Level &L) const { return Levels.at(&L); }
  /// The first level at a depth (siblings share its mapping).
  const ir::Level *firstAtDepth(unsigned Depth) const;
  /// Some window's rows follow the outermost level (memory::Stage's
  /// OuterRows): its blocks walk that level together.
  bool windowsFollowRows() const;
  /// The kernel holds copies of Param's elements across its accesses
  /// (staged, tiled, in registers, in a slice or a resident block): it is
  /// right only where no other parameter sharing that memory is written.
  bool keeps(unsigned Param) const;
};

/// The plan for one mapping of N, or nullopt (with Error) when the
/// generator cannot build it.
std::optional<KernelPlan>
planKernel(const ir::Nest &N, const map::NestMapping &M, std::string &Error);

} // namespace weft::plan

#endif
