// GridExecutor.cpp: the fiber scheduler of a block, the hooks kernels call
// (barrier, warp operations, checked accesses) and the checker's shadow state.
#include "sim/GridExecutor.h"

#include <boost/context/fiber.hpp>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <set>
#include <unordered_map>

namespace weft::rt::sim {
namespace ctx = boost::context;

namespace {

constexpr std::size_t StackSize = 256 * 1024;
constexpr std::uint32_t ManyReaders = 0xffffffffu;
constexpr std::uint64_t BufferMagic = 0x7765667473696d21ull; // "weftsim!"

// ---- Device buffers and their shadow -------------------------------------

/// Who accessed a span element: the outermost iteration (plus one; 0 none;
/// ManyOuter for readers of several), and within it the phase (entries
/// into and exits from loops one level in) and that loop's iteration (plus
/// one; 0 outside it; ManyInner for readers of several).
struct Accessor {
  std::uint32_t Outer = 0, Phase = 0;
  std::uint64_t Inner = 0;
};
constexpr std::uint32_t ManyOuter = 0xffffffffu;
constexpr std::uint64_t ManyInner = ~0ull;

struct ShadowCell {
  Accessor Writer, Reader;
};

struct alignas(64) BufferHeader {
  std::uint64_t Magic;
  std::size_t Bytes;
  std::mutex ShadowLock;
  std::atomic<ShadowCell *> Shadow{nullptr};
  std::size_t ShadowExtent = 0;
};

/// A cell is read and updated under one of these, chosen by its address.
std::mutex ShadowStripes[256];

/// Live device buffers: their shadows are per launch (a resident buffer read
/// in one launch may have been written in the previous one).
std::mutex LiveLock;
std::set<BufferHeader *> &liveBuffers() {
  static std::set<BufferHeader *> Live;
  return Live;
}

void resetShadows() {
  std::lock_guard<std::mutex> Guard(LiveLock);
  for (BufferHeader *H : liveBuffers()) {
    delete[] H->Shadow.load();
    H->Shadow.store(nullptr);
  }
}

BufferHeader *headerOf(const void *Data) {
  auto *H = reinterpret_cast<BufferHeader *>(
      const_cast<char *>(static_cast<const char *>(Data)) -
      sizeof(BufferHeader));
  return H->Magic == BufferMagic ? H : nullptr;
}

// ---- Stacks -----------------------------------------------------------------

/// Fiber stacks, reused across blocks: allocating one per fiber would cost
/// more than most kernels' bodies.
struct StackPool {
  std::vector<void *> Free;
  ~StackPool() {
    for (void *P : Free)
      std::free(P);
  }
};
struct PooledStack {
  StackPool *Pool;
  ctx::stack_context allocate() {
    void *P;
    if (Pool->Free.empty()) {
      P = std::malloc(StackSize);
      if (!P)
        throw std::bad_alloc();
    } else {
      P = Pool->Free.back();
      Pool->Free.pop_back();
    }
    ctx::stack_context SC;
    SC.size = StackSize;
    SC.sp = static_cast<char *>(P) + StackSize;
    return SC;
  }
  void deallocate(ctx::stack_context &SC) {
    Pool->Free.push_back(static_cast<char *>(SC.sp) - SC.size);
  }
};

// ---- A block in flight
// --------------------------------------------------------

enum class LaneStatus { Runnable, AtBarrier, AtWarpOp, Done };

struct Lane {
  weft::sim_thread_state State{};
  ctx::fiber Fiber, Scheduler;
  LaneStatus Status = LaneStatus::Runnable;
  unsigned BarrierSite = 0;
  std::uint64_t WaitGeneration = 0;
  unsigned Linear = 0;
};

struct Warp {
  std::vector<std::uint64_t> Values, Results;
  std::vector<bool> Arrived;
  unsigned ArrivedCount = 0, Active = 0;
  int Op = 0;
  std::vector<unsigned> Args;
  std::uint64_t Generation = 0;
};

struct SharedShadowEntry {
  std::uint32_t Writer = 0, Reader = 0; // lane + 1; Reader may be ManyReaders
};

class Block;
thread_local Block *CurrentBlock = nullptr;

/// Reports what a kernel did wrong where it did it and ends the program:
/// the checker's findings ("sim checker: ..."), or the kernel's own
/// failed assertion (Checker false).
[[noreturn]] void finding(const char *Kind, const std::string &Detail,
                          bool Checker = true);

class Block {
public:
  const LaunchRequest *Request = nullptr;
  std::vector<Lane> Lanes;
  std::vector<Warp> Warps;
  Lane *Current = nullptr;
  unsigned BlockIdx[3] = {0, 0, 0};
  std::unordered_map<const void *, SharedShadowEntry> SharedShadow;
  StackPool Stacks;
  weft::sim_thread_state **Slot = nullptr;

  void run(const LaunchRequest &R, std::uint64_t Linear) {
    Request = &R;
    BlockIdx[0] = static_cast<unsigned>(Linear % R.Grid[0]);
    BlockIdx[1] = static_cast<unsigned>(Linear / R.Grid[0] % R.Grid[1]);
    BlockIdx[2] = static_cast<unsigned>(Linear / R.Grid[0] / R.Grid[1]);
    const unsigned N = R.Block[0] * R.Block[1] * R.Block[2];
    const unsigned W = R.WarpSize;
    Lanes.clear();
    Lanes.resize(N); // Fibers keep references to their lane: no reallocation.
    Warps.assign((N + W - 1) / W, Warp{});
    for (Warp &Wp : Warps) {
      Wp.Values.assign(W, 0);
      Wp.Results.assign(W, 0);
      Wp.Arrived.assign(W, false);
      Wp.Args.assign(W, 0);
    }
    SharedShadow.clear();
    Slot = R.Kernel->CurrentSlot();
    for (unsigned T = 0; T < N; ++T) {
      Lane &L = Lanes[T];
      L.Linear = T;
      weft::sim_thread_state &S = L.State;
      S.ThreadIdx[0] = T % R.Block[0];
      S.ThreadIdx[1] = T / R.Block[0] % R.Block[1];
      S.ThreadIdx[2] = T / R.Block[0] / R.Block[1];
      for (int D = 0; D < 3; ++D) {
        S.BlockIdx[D] = BlockIdx[D];
        S.BlockDim[D] = R.Block[D];
        S.GridDim[D] = R.Grid[D];
      }
      S.Lane = T % W;
      S.WarpSize = W;
      ++Warps[T / W].Active;
      L.Fiber = ctx::fiber(std::allocator_arg, PooledStack{&Stacks},
                           [this, &L](ctx::fiber &&Sched) {
                             L.Scheduler = std::move(Sched);
                             Request->Kernel->Entry(Request->Params);
                             exitLane(L);
                             return std::move(L.Scheduler);
                           });
    }
    schedule();
  }

  /// Suspends the current lane and returns to the scheduler.
  void yield() {
    Lane &L = *Current;
    L.Scheduler = std::move(L.Scheduler).resume();
  }

  void barrier(unsigned Site) {
    Current->Status = LaneStatus::AtBarrier;
    Current->BarrierSite = Site;
    yield();
  }

  std::uint64_t warpOp(std::uint64_t Value, int Op, unsigned Arg) {
    Lane &L = *Current;
    Warp &Wp = Warps[L.Linear / Request->WarpSize];
    const unsigned Me = L.State.Lane;
    Wp.Values[Me] = Value;
    Wp.Args[Me] = Arg;
    Wp.Op = Op;
    Wp.Arrived[Me] = true;
    ++Wp.ArrivedCount;
    const std::uint64_t Generation = Wp.Generation;
    if (Wp.ArrivedCount == Wp.Active) {
      completeWarpOp(Wp);
    } else {
      L.Status = LaneStatus::AtWarpOp;
      L.WaitGeneration = Generation;
      yield();
    }
    return Wp.Results[Me];
  }

  void sharedAccess(const void *Address, bool Write) {
    SharedShadowEntry &E = SharedShadow[Address];
    const std::uint32_t Me = Current->Linear + 1;
    auto Thread = [&](std::uint32_t Id) { return describeThread(Id - 1); };
    if (E.Writer && E.Writer != Me)
      finding("shared-memory race",
              "thread " + Thread(Me) + (Write ? " writes" : " reads") +
                  " shared memory that thread " + Thread(E.Writer) +
                  " wrote with no barrier in between");
    if (Write && E.Reader && E.Reader != Me)
      finding("shared-memory race",
              "thread " + Thread(Me) + " writes shared memory that " +
                  (E.Reader == ManyReaders ? std::string("other threads")
                                           : "thread " + Thread(E.Reader)) +
                  " read with no barrier in between");
    if (Write)
      E.Writer = Me;
    else
      E.Reader = E.Reader == 0 || E.Reader == Me ? Me : ManyReaders;
  }

  std::string describeThread(unsigned Linear) const {
    const weft::sim_thread_state &S = Lanes[Linear].State;
    return "(" + std::to_string(S.ThreadIdx[0]) + "," +
           std::to_string(S.ThreadIdx[1]) + "," +
           std::to_string(S.ThreadIdx[2]) + ")";
  }

private:
  void exitLane(Lane &L) {
    L.Status = LaneStatus::Done;
    Warp &Wp = Warps[L.Linear / Request->WarpSize];
    --Wp.Active;
    if (Wp.ArrivedCount > 0 && Wp.ArrivedCount == Wp.Active)
      completeWarpOp(Wp);
  }

  void completeWarpOp(Warp &Wp) {
    const unsigned W = Request->WarpSize;
    std::uint64_t Ballot = 0;
    bool All = true, Any = false;
    for (unsigned I = 0; I < W; ++I)
      if (Wp.Arrived[I]) {
        const bool P = Wp.Values[I] != 0;
        Ballot |= static_cast<std::uint64_t>(P) << I;
        All = All && P;
        Any = Any || P;
      }
    for (unsigned I = 0; I < W; ++I) {
      if (!Wp.Arrived[I])
        continue;
      unsigned Src = I;
      switch (Wp.Op) {
      case weft::SimShfl:
        Src = Wp.Args[I] % W;
        break;
      case weft::SimShflDown:
        Src = I + Wp.Args[I] < W ? I + Wp.Args[I] : I;
        break;
      case weft::SimShflXor:
        Src = (I ^ Wp.Args[I]) % W;
        break;
      case weft::SimAll:
        Wp.Results[I] = All;
        continue;
      case weft::SimAny:
        Wp.Results[I] = Any;
        continue;
      case weft::SimBallot:
        Wp.Results[I] = Ballot;
        continue;
      case weft::SimSync:
        Wp.Results[I] = 0;
        continue;
      }
      // A lane that has exited has no value to give: a lane reads its own.
      Wp.Results[I] = Wp.Arrived[Src] ? Wp.Values[Src] : Wp.Values[I];
    }
    Wp.Arrived.assign(W, false);
    Wp.ArrivedCount = 0;
    ++Wp.Generation;
  }

  void resume(Lane &L) {
    Current = &L;
    *Slot = &L.State;
    L.Fiber = std::move(L.Fiber).resume();
    Current = nullptr;
  }

  void schedule() {
    while (true) {
      unsigned Done = 0, AtBarrier = 0, Runnable = 0;
      for (std::size_t I = 0; I < Lanes.size(); ++I) {
        Lane &L = Lanes[Request->Reverse ? Lanes.size() - 1 - I : I];
        if (L.Status == LaneStatus::AtWarpOp &&
            Warps[L.Linear / Request->WarpSize].Generation != L.WaitGeneration)
          L.Status = LaneStatus::Runnable;
        if (L.Status == LaneStatus::Runnable) {
          ++Runnable;
          resume(L);
        }
      }
      for (const Lane &L : Lanes) {
        Done += L.Status == LaneStatus::Done;
        AtBarrier += L.Status == LaneStatus::AtBarrier;
      }
      if (Done == Lanes.size())
        return;
      bool Waiting = false;
      for (const Lane &L : Lanes)
        Waiting = Waiting || (L.Status == LaneStatus::AtWarpOp &&
                              Warps[L.Linear / Request->WarpSize].Generation ==
                                  L.WaitGeneration);
      if (AtBarrier + Done < Lanes.size()) {
        if (!Runnable && !releaseWideWarpSyncs())
          warpDivergence(); // no lane ran, none can: a hang on a GPU
        continue;           // Some lane can still run.
      }
      if (Waiting || AtBarrier == 0)
        continue;
      releaseBarrier(Done);
    }
  }

  /// A warp wider than 32 (an AMD wavefront) is no group of weft's: its
  /// warp_sync (HIP's wave_barrier) lets the lanes that reach it pass,
  /// whatever the others wait at. True where one passed.
  bool releaseWideWarpSyncs() {
    if (Request->WarpSize <= 32)
      return false;
    bool Released = false;
    for (Warp &Wp : Warps)
      if (Wp.ArrivedCount > 0 && Wp.Op == weft::SimSync) {
        completeWarpOp(Wp);
        Released = true;
      }
    return Released;
  }

  /// Lanes wait at a warp operation that others of their warp never
  /// reach (they wait at a barrier).
  [[noreturn]] void warpDivergence() {
    const unsigned W = Request->WarpSize;
    for (const Lane &L : Lanes) {
      if (L.Status != LaneStatus::AtWarpOp)
        continue;
      for (const Lane &Other : Lanes)
        if (Other.Linear / W == L.Linear / W &&
            Other.Status == LaneStatus::AtBarrier) {
          Current = const_cast<Lane *>(&L);
          finding("warp divergence",
                  "thread " + describeThread(L.Linear) +
                      " waits at a warp operation that thread " +
                      describeThread(Other.Linear) + " of its " +
                      std::to_string(W) +
                      "-wide warp never reaches: it waits at the barrier on "
                      "line " +
                      std::to_string(Other.BarrierSite));
        }
    }
    finding("warp divergence", "the block's threads wait at warp operations "
                               "and barriers that none of them can pass");
  }

  void releaseBarrier(unsigned Done) {
    const Lane *First = nullptr;
    for (const Lane &L : Lanes) {
      if (L.Status != LaneStatus::AtBarrier)
        continue;
      if (Done) {
        const Lane *Exited = nullptr;
        for (const Lane &E : Lanes)
          if (E.Status == LaneStatus::Done)
            Exited = &E;
        Current = const_cast<Lane *>(&L);
        finding("barrier divergence", "thread " + describeThread(L.Linear) +
                                          " waits at the barrier on line " +
                                          std::to_string(L.BarrierSite) +
                                          " that thread " +
                                          describeThread(Exited->Linear) +
                                          " never reaches: it has returned");
      }
      if (First && First->BarrierSite != L.BarrierSite) {
        Current = const_cast<Lane *>(&L);
        finding("barrier divergence",
                "thread " + describeThread(First->Linear) +
                    " waits at the barrier on line " +
                    std::to_string(First->BarrierSite) + ", thread " +
                    describeThread(L.Linear) + " at the one on line " +
                    std::to_string(L.BarrierSite));
      }
      First = First ? First : &L;
    }
    for (Lane &L : Lanes)
      if (L.Status == LaneStatus::AtBarrier)
        L.Status = LaneStatus::Runnable;
    SharedShadow.clear(); // A new phase: accesses before it are ordered.
  }
};

std::mutex FindingLock;

[[noreturn]] void finding(const char *Kind, const std::string &Detail,
                          bool Checker) {
  std::lock_guard<std::mutex> Guard(FindingLock); // Held until exit.
  const Block *B = CurrentBlock;
  std::string Where;
  if (B && B->Request) {
    const SimKernel &K = *B->Request->Kernel;
    Where = " in kernel " + K.Name + " (loop at " + K.Location + "), block (" +
            std::to_string(B->BlockIdx[0]) + "," +
            std::to_string(B->BlockIdx[1]) + "," +
            std::to_string(B->BlockIdx[2]) + ")";
    if (B->Current)
      Where += " thread " + B->describeThread(B->Current->Linear);
  }
  std::fprintf(stderr, "weft: error: %s%s%s: %s\n",
               Checker ? "sim checker: " : "", Kind, Where.c_str(),
               Detail.c_str());
  std::fflush(stderr);
  std::_Exit(3);
}

// ---- The hooks kernels call
// ---------------------------------------------------

void hookBarrier(unsigned Site) { CurrentBlock->barrier(Site); }

/// The kernel parameter holding Data, or "" where none does.
std::string spanParamName(const void *Data) {
  const LaunchRequest *R = CurrentBlock ? CurrentBlock->Request : nullptr;
  if (R)
    for (std::size_t I = 0; I < R->Kernel->ParamNames.size(); ++I)
      if (R->Kernel->ParamIsSpan[I] &&
          *static_cast<void **>(R->Params[I]) == Data)
        return R->Kernel->ParamNames[I];
  return "";
}

std::string spanName(const void *Data) {
  const std::string Name = spanParamName(Data);
  return Name.empty() ? "a span" : "span '" + Name + "'";
}

void hookSpanAccess(const void *Data, weft::index_t I, weft::size_type Extent,
                    int Write) {
  if (I < 0 || static_cast<weft::size_type>(I) >= Extent)
    finding("out-of-bounds access",
            std::string(Write ? "writes" : "reads") + " element " +
                std::to_string(I) + " of " + spanName(Data) + ", which has " +
                std::to_string(Extent) + " elements");
  if (Write == 2)
    return; // an array reduction's atomic update: any order is the loop's
  Lane *L = CurrentBlock->Current;
  const std::uint64_t Iteration = L->State.Iteration;
  BufferHeader *H = headerOf(Data);
  if (!Iteration || !H)
    return; // Not inside a loop iteration, or not device memory.
  ShadowCell *Shadow = H->Shadow.load(std::memory_order_acquire);
  if (!Shadow) {
    std::lock_guard<std::mutex> Guard(H->ShadowLock);
    Shadow = H->Shadow.load();
    if (!Shadow) {
      Shadow = new ShadowCell[Extent]();
      H->ShadowExtent = Extent;
      H->Shadow.store(Shadow, std::memory_order_release);
    }
  }
  if (static_cast<weft::size_type>(I) >= H->ShadowExtent)
    return;
  ShadowCell &Cell = Shadow[I];
  const Accessor Me{static_cast<std::uint32_t>(Iteration), L->State.Phase,
                    L->State.Inner};
  // Whether A and B may run in either order under the loops' claims:
  // different outermost iterations, or different iterations of one loop
  // one level in (code before and after such a loop is ordered with it).
  auto Concurrent = [](const Accessor &A, const Accessor &B) {
    if (A.Outer != B.Outer)
      return true;
    return A.Phase == B.Phase && A.Inner != B.Inner && A.Inner && B.Inner;
  };
  auto Name = [](const Accessor &A, const Accessor &Other) {
    if (A.Outer == ManyOuter)
      return std::string("other iterations");
    if (A.Outer != Other.Outer)
      return "iteration " + std::to_string(A.Outer - 1);
    if (A.Inner == ManyInner)
      return std::string("other iterations of the loop one level in");
    return "iteration " + std::to_string(A.Inner - 1) +
           " of the loop one level in (outermost iteration " +
           std::to_string(A.Outer - 1) + ")";
  };
  auto Conflict = [&](const Accessor &Other, const char *Verb,
                      const char *OtherVerb) {
    const bool Inner = Other.Outer == Me.Outer;
    finding(
        Inner ? "inner loop iterations are not independent"
              : "loop iterations are not independent",
        Name(Me, Other) + " " + Verb + " element " + std::to_string(I) +
            " of " + spanName(Data) + ", which " + Name(Other, Me) + " " +
            OtherVerb + "; the " + (Inner ? "inner loop" : "loop") +
            " is marked parallel, so their order is undefined" +
            (Write && std::string(OtherVerb) == "writes"
                 ? "; where each adds into it (a histogram), name the "
                   "array in the mark: reduction(+: " +
                       (spanParamName(Data).empty() ? std::string("the array")
                                                    : spanParamName(Data)) +
                       ")"
                 : ""));
  };
  std::lock_guard<std::mutex> Guard(
      ShadowStripes[(reinterpret_cast<std::uintptr_t>(&Cell) >> 5) % 256]);
  if (Cell.Writer.Outer && Concurrent(Me, Cell.Writer))
    Conflict(Cell.Writer, Write ? "writes" : "reads", "writes");
  if (Write) {
    if (Cell.Reader.Outer && Concurrent(Me, Cell.Reader))
      Conflict(Cell.Reader, "writes", "read");
    Cell.Writer = Me;
    return;
  }
  Accessor &R = Cell.Reader;
  if (!R.Outer || (R.Outer == Me.Outer && R.Phase < Me.Phase))
    R = Me; // reads of earlier phases are ordered before what follows
  else if (R.Outer != Me.Outer)
    R.Outer = ManyOuter;
  else if (R.Phase == Me.Phase && R.Inner != Me.Inner)
    R.Inner = ManyInner;
}

void hookSharedAccess(const void *Address, int Write) {
  CurrentBlock->sharedAccess(Address, Write != 0);
}

unsigned long long hookWarp(unsigned long long Value, int Op, unsigned Arg) {
  return CurrentBlock->warpOp(Value, Op, Arg);
}

} // namespace

void *allocateBuffer(std::size_t Bytes) {
  void *Raw = std::aligned_alloc(
      alignof(BufferHeader), sizeof(BufferHeader) + ((Bytes + 63) / 64) * 64);
  if (!Raw)
    return nullptr;
  auto *H = new (Raw) BufferHeader();
  H->Magic = BufferMagic;
  H->Bytes = Bytes;
  std::lock_guard<std::mutex> Guard(LiveLock);
  liveBuffers().insert(H);
  return static_cast<char *>(Raw) + sizeof(BufferHeader);
}

void releaseBuffer(void *Data) {
  BufferHeader *H = headerOf(Data);
  if (!H)
    return;
  {
    std::lock_guard<std::mutex> Guard(LiveLock);
    liveBuffers().erase(H);
  }
  delete[] H->Shadow.load();
  H->Magic = 0;
  H->~BufferHeader();
  std::free(H);
}

void hookAssertionFailed() {
  finding("assertion failed", "an assert(...) of the loop's body does not hold",
          false);
}

void installHooks(weft::sim_hooks &Table) {
  Table.AssertionFailed = hookAssertionFailed;
  Table.Barrier = hookBarrier;
  Table.SpanAccess = hookSpanAccess;
  Table.SharedAccess = hookSharedAccess;
  Table.Warp = hookWarp;
}

// ---- The pool ---------------------------------------------------------------

GridExecutor::GridExecutor(unsigned Threads) {
  for (unsigned I = 1; I < Threads; ++I)
    Workers.emplace_back([this] { workerLoop(); });
}

GridExecutor::~GridExecutor() {
  {
    std::lock_guard<std::mutex> Guard(Lock);
    Stopping = true;
  }
  Wake.notify_all();
  for (std::thread &T : Workers)
    T.join();
}

void GridExecutor::drain(const LaunchRequest &R) {
  thread_local Block Runner;
  CurrentBlock = &Runner;
  const std::uint64_t Total =
      static_cast<std::uint64_t>(R.Grid[0]) * R.Grid[1] * R.Grid[2];
  for (std::uint64_t B = NextBlock++; B < Total; B = NextBlock++) {
    Runner.run(R, B);
    ++BlocksRun;
  }
  Runner.Request = nullptr;
  CurrentBlock = nullptr;
}

void GridExecutor::workerLoop() {
  std::uint64_t Seen = 0;
  while (true) {
    const LaunchRequest *R;
    {
      std::unique_lock<std::mutex> Guard(Lock);
      Wake.wait(Guard, [&] { return Stopping || Generation != Seen; });
      if (Stopping)
        return;
      Seen = Generation;
      R = Current;
      if (!R)
        continue; // Woke after that launch had finished.
      ++Busy;
    }
    drain(*R);
    {
      std::lock_guard<std::mutex> Guard(Lock);
      --Busy;
    }
    Finished.notify_all();
  }
}

std::uint64_t GridExecutor::run(const LaunchRequest &R) {
  if (R.Check)
    resetShadows();
  {
    std::lock_guard<std::mutex> Guard(Lock);
    Current = &R;
    NextBlock = 0;
    BlocksRun = 0;
    ++Generation;
  }
  Wake.notify_all();
  drain(R);
  std::unique_lock<std::mutex> Guard(Lock);
  // Workers that woke late find no block left and return at once.
  Finished.wait(Guard, [&] { return Busy == 0; });
  Current = nullptr;
  return BlocksRun;
}

} // namespace weft::rt::sim
