// BodyPrinter.h: prints a nest's statements and expressions as kernel text
// under a kernel plan: each level's loop over its share of the iterations,
// the reductions combined across threads, staged and tiled reads. Without a
// plan it prints device functions, as written.
#ifndef WEFT_PLUGIN_EMIT_BODYPRINTER_H
#define WEFT_PLUGIN_EMIT_BODYPRINTER_H

#include "ir/NestIR.h"
#include "plan/KernelPlan.h"

#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace weft::emit {

/// A kernel parameter's declaration: weft::dspan<const T> name, or T name.
std::string paramDecl(const ir::Nest &N, const ir::Param &P);
/// device.h's name for a reduction operator: weft::reduce_add, ...
std::string reduceOp(ir::ReductionOp Op);
/// "X", "Y", "Z": the macros' suffixes (WEFT_BLOCK_X, ...).
extern const char *const AxisName[3];

class BodyPrinter {
public:
  /// The main kernel, or the combining kernel of a Split(k) nest: one
  /// thread per outermost iteration on x, the split level's partials folded
  /// in where the level was.
  enum class Phase { Kernel, Combine };

  BodyPrinter(const ir::Nest &N, std::ostringstream &OS,
              const plan::KernelPlan *Plan = nullptr,
              Phase Mode = Phase::Kernel);

  /// E as kernel text.
  std::string expr(const ir::Expr &E);
  /// Prints S, indented by Depth steps of two spaces.
  void stmt(const ir::Stmt &S, int Depth);
  /// A register-tiled nest: blocks walk both levels' block tiles together,
  /// each thread computing its TM x TN outputs (RegisterTile.cpp).
  void registerTiles(int Indent);
  /// The outermost level's body where each thread runs its iterations
  /// alone (no tiles the whole block reads), up to a split level.
  void outerBody(int Indent);
  /// A level's body in a nest with tiles the whole block reads: every
  /// thread of the block walks it (the block loads each tile together),
  /// its statements guarded where the thread is out of range, InRange
  /// false; above the tiled level, its declarations and the next level
  /// (TiledLoop.cpp).
  void walkedBody(const ir::Level &L, int Indent, const std::string &InRange);
  /// The tiled level's body where each thread computes WEFT_CM of its
  /// iterations (plan Coarsened), inside a walk whose blocks step by
  /// WEFT_CM blocks: the thread's declarations before the loop as arrays,
  /// one element an iteration, each tile walked once for all of them.
  /// Above: the levels around in range (empty at the root).
  void coarsenedBody(const ir::Level &L, int Indent, const std::string &Above);
  /// The loop of a window tile's rows level at Depth on Axis: each thread's
  /// WEFT_RM consecutive iterations from weft_fDepth, the grid striding
  /// over the rest (WindowRows.cpp).
  static std::string windowWalk(unsigned Depth, int Axis,
                                const std::string &Pad);

private:
  // ---- Inner levels (InnerLevel.cpp) ---------------------------------------

  /// An inner level: in-thread, or spread over its dimension's threads,
  /// with its reductions combined across them.
  void level(const ir::Level &L, const std::string &Pad);
  /// A level that runs in its thread, as written.
  void inThreadLevel(const ir::Level &L, const std::string &Pad);
  /// The threads along the level's dimension hold partial values: each
  /// gets the combined result.
  void combineReductions(const ir::Level &L, const plan::LevelPlan &LP,
                         const std::string &In);
  static std::string loopStart(const map::LevelMapping &LM, int Axis);
  static std::string loopStride(const map::LevelMapping &LM, int Axis);
  /// A marked level's weft_loD, weft_hiD and weft_countD (its iterations),
  /// each bound behind InRange ("!weft_in0 ? 0 : ": none out of range).
  void levelRange(const ir::Level &L, const std::string &In,
                  const std::string &InRange = "");

  // ---- Tiles (TiledLoop.cpp) -----------------------------------------------

  std::string axis(unsigned Depth) const;
  std::string block(unsigned Depth) const;
  /// Where a thread finds element k of its tile: row tiles (along the
  /// outer index) are [outer thread][k], padded to WEFT_TILE + 1; column
  /// tiles [k][inner thread], padded to the block's width + 1; a whole
  /// block's tiles [k].
  std::string tileRead(std::size_t T);
  /// A whole-block tile's element for the loop's iteration K (from the
  /// tile's start), in its record's array where it has one.
  std::string wholeBlockRead(std::size_t T, const std::string &K) const;
  /// The inner level of a tiled nest: blocks walk it together (so that all
  /// their threads reach the tiles' barriers), each thread active where its
  /// indices are in range.
  void tiledLevel(const ir::Level &L, const std::string &Pad);
  /// `{ lo, hi, count; for (blocks of the level's dimension) { t; weft_inD
  /// (and Above, where not empty); the index;`: a level that the block's
  /// threads walk together, every one reaching its barriers.
  /// GuardIteration: the checker's iteration only where in range.
  /// Coarsened: blocks step by WEFT_CM blocks, the threads' indices left
  /// to coarsenedBody.
  void openBlockWalk(const ir::Level &L, const std::string &Pad,
                     const std::string &Above, bool GuardIteration,
                     bool Coarsened = false);
  /// For each of the thread's WEFT_CM iterations of the coarsened level in
  /// range: its index and the checker's iteration, then Print's code at
  /// the indent it is given.
  void eachCoarsenedIteration(const std::string &Pad,
                              const std::function<void(int)> &Print);
  /// The checker's call that starts the coarsened level's iteration
  /// weft_tD (its outermost or one-in level), or empty.
  std::string coarsenedCheckerIteration() const;
  /// weft_tD and the level's index for iteration weft_u of the thread.
  void coarsenedIndex(const std::string &Pad);
  void closeBlockWalk(const ir::Level &L, const std::string &Pad);
  /// An inner level above or holding a loop of tiles the whole block
  /// reads, or the outer level of a tiled pair below the root: blocks walk
  /// it together, as tiledLevel, each thread in range where it is here and
  /// in the levels around.
  void walkedLevel(const ir::Level &L, const std::string &Pad);
  /// for (k = lo; k < hi; ++k) as tiles of WEFT_TILE iterations: the block
  /// loads each tile, waits, computes on it, and waits again before the
  /// next load.
  void tiledLoop(const std::string &Pad, int Indent);

  // ---- Register tiles (RegisterTile.cpp) -----------------------------------

  /// Which of the thread's outputs eachOutput visits: all of them (in the
  /// loop, where outputs out of range compute on zeros), those in range (as
  /// that output's iterations for the simulator's checker), or those in
  /// range with a separate unguarded copy for a block tile wholly in range.
  enum class Outputs { All, InRange, InRangeFullTileFirst };
  /// The thread's outputs one by one (r, c unrolled), each with its
  /// indices declared.
  void eachOutput(const std::string &Pad, Outputs Which,
                  const std::function<void(const std::string &)> &Print);
  void eachOutputLoop(const std::string &Pad, bool Guarded, bool Record,
                      const std::function<void(const std::string &)> &Print);
  /// Each thread's share of each tile's WEFT_TILE iterations from weft_kn:
  /// the registers (runs of WEFT_VECn elements, WEFT_UNITSn of them) that
  /// hold it, its loads from global memory (128-bit where the run allows),
  /// and its stores into buffer Buffer (0 or 1) of the tile.
  void declareNextTiles(const std::string &Pad);
  void fetchRegisterTiles(const std::string &Pad);
  void storeRegisterTiles(const std::string &Pad, const std::string &Buffer);
  /// weft_e, the first element of unit weft_q of tile T, and its place in
  /// the tile (weft_m, weft_kk or weft_kk, weft_n).
  void unitPosition(const std::string &Pad, std::size_t T);
  /// One iteration of the loop for all the thread's outputs: a fragment of
  /// each tile, then the body for each output.
  void registerTileStep(const std::string &Pad);

  // ---- Staging (StagedRanges.cpp) ------------------------------------------

  /// The block loads each range or window staged for this level into
  /// shared memory (when it fits), then waits for all of it.
  void stage(const plan::LevelPlan &LP, const std::string &In);
  /// Read E of stage I: from shared memory where the element is there.
  std::string stagedRead(const ir::Expr &E, std::size_t I);
  /// Level L's body, and where windows were staged for it, its body again
  /// for threads in the block's first round of the level (every window
  /// read then in its window, read unchecked) before the checked one.
  void windowedBody(const ir::Level &L, const plan::LevelPlan &LP, int Indent);
  /// (weft::index_t)(f1) * ... * Value.
  std::string product(const std::vector<const ir::Expr *> &Factors,
                      const std::string &Value);

  /// `if (Condition) {` the statements Before, the body Print prints with
  /// Flag set, the statements After `} else {` the body as written `}`:
  /// a body whose copy for the fast case reads shared memory.
  void eitherWay(int Indent, const std::string &Condition,
                 const std::vector<std::string> &Before,
                 const std::vector<std::string> &After, bool &Flag,
                 const std::function<void(int)> &Print);
  /// The block's wait after staging or reading staged ranges, compiled in
  /// only with them (WEFT_STAGED_RANGES, off by default).
  void stagedBarrier(const std::string &In);

  // ---- Window tiles (WindowRows.cpp) ---------------------------------------

  /// A window tile's rows level below the root: each thread's WEFT_RM
  /// consecutive iterations from weft_fD (their rows come in the inner
  /// level's body: windowRows).
  void windowLevel(const ir::Level &L, const std::string &Pad);
  /// The inner level's body for the thread's WEFT_RM rows from weft_fD
  /// (plan::WindowPlan): where all are in range, each row's statements
  /// before the window's loops, the loops unrolled with each step's body
  /// for every row, then each row's statements after; else the body as
  /// written for each row in range.
  void windowRows(const ir::Level &L, int Indent);
  /// The rows level's index for the thread's row weft_u, and the checker's
  /// iteration.
  void windowRow(const ir::Level &L, const std::string &Pad);

  // ---- Thread slices (ThreadSlices.cpp) ------------------------------------

  /// Level L's body, where slices were planned for it: each thread loads
  /// its slices and runs the body on them where they fit, else the body as
  /// written; Print prints a body at the indent it is given.
  void slicedBody(const ir::Level &L, int Indent,
                  const std::function<void(int)> &Print);
  /// A read of a slice's element, and an assignment to one (stored to the
  /// span as well).
  std::string sliceRead(const ir::Expr &E);
  std::string sliceWrite(const ir::Expr &Assignment);
  /// W of a slice's use: its loop index plus its shift.
  std::string sliceCoordinate(const ir::Expr &Element) const;

  // ---- Resident blocks (ResidentBlocks.cpp) --------------------------------

  /// A sequential nest's body, where blocks of a matrix were planned to be
  /// held for its loop: the block loads them together where they fit, runs
  /// the body on them and stores them back; else the body as written.
  void residentBody(int Indent, const std::function<void(int)> &Print);
  /// A read of a resident block's element, and an assignment to one.
  std::string residentRead(const ir::Expr &E);
  std::string residentWrite(const ir::Expr &Assignment);

  // ---- Split(k) (SplitReduction.cpp) ---------------------------------------

  /// The block's partial of each reduction, combined over its threads,
  /// written once to its slot.
  void splitPartials(const ir::Level &L, const plan::LevelPlan &LP,
                     const std::string &In);
  /// In the combining kernel, in place of the split level: its partials,
  /// folded in block order (the same result on every run).
  void combineSplit(const ir::Level &L, const std::string &Pad);

  // ---- Statements (BodyPrinter.cpp) ----------------------------------------

  void body(const ir::Level &L, int Indent);
  /// "thread_idx(k) == 0" for every dimension of a level deeper than the
  /// current one; empty when there is none.
  std::string leaderGuard() const;
  static const ir::Expr &rootOf(const ir::Expr &E);
  bool sharedTarget(const ir::Expr &E) const;
  bool writesSharedState(const ir::Expr &E) const;
  /// Every thread of the block works on the same iterations of the levels
  /// down to this one: a barrier here is one all of them reach.
  bool blockShared() const;
  /// The deeper levels' threads are one warp along x (a row's reduction
  /// over its lanes): a warp's wait here is one all of them reach.
  bool warpShared() const;
  /// A write (made by the leader) to an element the nest may also read.
  bool readsBack(const ir::Expr &Write) const;
  /// A per-iteration array: of constant size, in the thread's own memory;
  /// of run-time size, the thread's slice of a buffer the runtime allocates
  /// for the whole grid, interleaved (element j of thread g at
  /// [g + j * threads]) so that neighbouring threads touch neighbouring
  /// addresses. A thread runs its iterations one after another, so one
  /// slice serves them all, whichever level owns the array.
  void array(const ir::Stmt &S, const std::string &Pad);
  std::string decl(const ir::Stmt &S);
  /// A counted loop of plan::KernelPlan::CountedFromZero: a counter from
  /// zero to Upper - Lower, the index Lower plus it.
  void countedFromZero(const ir::Stmt &S, int Indent);
  /// Whether Loop, one of the plan's unrolled or counted from zero, is so
  /// in the branch being printed.
  bool unrollsHere(const ir::Stmt &Loop) const;
  /// A sub-statement; blocks print as they are, others one level deeper.
  void nested(const ir::Stmt &S, int Depth);
  /// Before a loop: its registers declared, loaded where Guard holds (or
  /// always); after it: stored back where Guard holds.
  void loadRegisters(const ir::Stmt &Loop, const std::string &Pad,
                     const std::string &Guard = "");
  void storeRegisters(const ir::Stmt &Loop, const std::string &Pad,
                      const std::string &Guard = "");

  const ir::Nest &N;
  std::ostringstream &OS;
  const plan::KernelPlan *Plan; // null for device functions
  Phase Mode;
  std::vector<int> Axis; // per depth: 0, 1, 2 for x, y, z; -1 in-thread
  unsigned Depth = 0;    // of the level whose body is being printed
  std::set<std::string> SpanAliases; // references bound to span elements
  /// The reduction variables combined across threads (of levels spread
  /// over the block): a thread's replicas along deeper levels' dimensions
  /// must not each add to them. Those of in-thread levels are each
  /// thread's own, the whole result in every replica.
  std::set<std::string> ReductionVars;
  std::map<const ir::Expr *, std::size_t> StagedReads, TileReads;
  /// Printing the copy of a body whose window reads are all in their
  /// windows (windowedBody).
  bool InWindows = false;
  /// A register tile's products of a tile read and the tile's factor
  /// (plan::RegisterTilePlan::Factor): their tile's fragment.
  std::map<const ir::Expr *, std::size_t> ScaledProducts;
  std::map<const ir::Stmt *, std::size_t> BufferOf; // declaration -> buffer
  /// Span elements held in registers: the accesses each replaces, and the
  /// registers each loop holds.
  std::map<const ir::Expr *, std::size_t> RegisterOf;
  std::map<const ir::Stmt *, std::vector<std::size_t>> LoopRegisters;
  /// Loops whose registers the caller loads and stores (a tiled loop).
  std::set<const ir::Stmt *> RegistersHandled;
  /// Printing a register tile's per-output code: tile reads are fragments,
  /// the tile's accumulators and registers arrays [weft_r][weft_c].
  bool InRegisterTile = false;
  /// The coarsened level being printed (coarsenedBody), else null.
  const ir::Level *Coarse = nullptr;
  std::set<std::size_t> PerOutputRegisters;
  /// A slice's uses: the slice and the use (plan::KernelPlan::Slices).
  std::map<const ir::Expr *, std::pair<std::size_t, std::size_t>> SliceUses;
  /// Printing the copy of a body whose slices are in shared memory.
  bool InSlices = false;
  /// A resident block's uses: the block and the use (plan's Residents).
  std::map<const ir::Expr *, std::pair<std::size_t, std::size_t>> ResidentUses;
  /// Printing the copy of a body whose resident blocks are in shared memory.
  bool InResidents = false;
  /// Loops counted from zero printed so far: their counters' numbers.
  unsigned ZeroCounted = 0;
  /// Locals printed as something else (the tiled loop's index in a load).
  std::map<std::string, std::string> Renamed;
};

} // namespace weft::emit

#endif
