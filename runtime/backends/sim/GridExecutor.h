// GridExecutor.h: runs a kernel's grid on the CPU as a GPU would: blocks on
// a pool of host threads, the threads of a block as fibers, so that
// barriers, shared memory and warp operations behave as on the device; with
// the checker on, it also watches for the bugs a GPU would hide.
#ifndef WEFT_RUNTIME_BACKENDS_SIM_GRIDEXECUTOR_H
#define WEFT_RUNTIME_BACKENDS_SIM_GRIDEXECUTOR_H

#include "weft/device.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace weft::rt::sim {

/// A kernel loaded from its shared object.
struct SimKernel {
  std::string Name, Location;
  std::vector<std::string> ParamNames;
  std::vector<bool> ParamIsSpan;
  void (*Entry)(void **Params) = nullptr;
  weft::sim_thread_state **(*CurrentSlot)() = nullptr;
};

struct LaunchRequest {
  const SimKernel *Kernel;
  unsigned Grid[3], Block[3];
  void **Params;
  bool Check;
  unsigned WarpSize;
  /// The threads of a block run, between barriers, last first: a read that
  /// a missing barrier leaves racing with another thread's write then sees
  /// the value a GPU may give it, not the one thread order happens to give.
  bool Reverse = false;
};

class GridExecutor {
public:
  explicit GridExecutor(unsigned Threads);
  ~GridExecutor();
  GridExecutor(const GridExecutor &) = delete;
  GridExecutor &operator=(const GridExecutor &) = delete;

  /// Runs every block of the grid; returns when all have finished, with the
  /// number of blocks run. A checker finding ends the process with an error
  /// message.
  std::uint64_t run(const LaunchRequest &Request);
  unsigned threads() const { return static_cast<unsigned>(Workers.size()) + 1; }

private:
  void workerLoop();
  void drain(const LaunchRequest &Request);

  std::vector<std::thread> Workers;
  std::mutex Lock;
  std::condition_variable Wake, Finished;
  const LaunchRequest *Current = nullptr;
  std::uint64_t Generation = 0;
  unsigned Busy = 0;
  bool Stopping = false;
  std::atomic<std::uint64_t> NextBlock{0}, BlocksRun{0};
};

/// Device memory of the simulator: host memory with a header in front that
/// holds the checker's shadow state.
void *allocateBuffer(std::size_t Bytes);
void releaseBuffer(void *Data);

/// Installs the simulator's hooks into a loaded kernel's hook table.
void installHooks(weft::sim_hooks &Table);

} // namespace weft::rt::sim

#endif
