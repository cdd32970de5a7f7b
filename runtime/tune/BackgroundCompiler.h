// BackgroundCompiler.h: one thread that compiles tuning variants while the
// program's own thread goes on launching the kernels already built.
#ifndef WEFT_RUNTIME_TUNE_BACKGROUNDCOMPILER_H
#define WEFT_RUNTIME_TUNE_BACKGROUNDCOMPILER_H

#include "core/Backend.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

namespace weft::rt {

class BackgroundCompiler {
public:
  /// A compile submitted: Result and Seconds may be read once done().
  class Job {
  public:
    bool done() const { return Done.load(std::memory_order_acquire); }
    Status Result;
    double Seconds = 0; // what the compile took, on the background thread

  private:
    friend class BackgroundCompiler;
    std::atomic<bool> Done{false};
  };
  using Work = std::function<Status()>;

  BackgroundCompiler() = default;
  /// stop()s.
  ~BackgroundCompiler();
  BackgroundCompiler(const BackgroundCompiler &) = delete;
  BackgroundCompiler &operator=(const BackgroundCompiler &) = delete;

  /// Runs Compile on the background thread (started on first use), after
  /// the compiles submitted before it; after stop(), never.
  std::shared_ptr<const Job> submit(Work Compile);
  /// Waits for the compile under way; those not yet started never start.
  /// Called for every compiler as the program exits, before the destructors
  /// of the libraries loaded until its thread started (NVRTC's builtins,
  /// loaded by the first compile, among them): a compile must not be
  /// inside NVRTC then.
  void stop();
  /// Compiles submitted and not yet done.
  std::size_t pending() const;

private:
  void run();
  mutable std::mutex Lock;
  std::condition_variable Wake;
  std::deque<std::pair<std::shared_ptr<Job>, Work>> Queue;
  std::size_t Running = 0;
  bool Stopping = false;
  std::thread Worker;
};

} // namespace weft::rt

#endif
