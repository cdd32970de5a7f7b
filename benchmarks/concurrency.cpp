// concurrency.cpp: what the runtime's concurrency scheme costs: T host
// threads, each launching its own small marked loop (data resident in its
// own weft::region) K times, against the same T x K launches from one
// thread, side by side in one run. A ratio of 1.0 means the launches did
// not overlap at all; T means they overlapped perfectly. Each thread's
// result is checked (the scheme must above all be safe). Built with the
// plugin by concurrency.sh; times mean something on a GPU only.
#include <weft/weft.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

using Clock = std::chrono::steady_clock;

// Enough arithmetic per element that a launch is mostly kernel, on few
// blocks: room on the device for other threads' kernels.
void work(std::span<float> y, int reps) {
#pragma weft parallel for block(256)
  for (std::size_t i = 0; i < y.size(); ++i) {
    float v = y[i];
    for (int r = 0; r < reps; ++r)
      v = v * 0.999f + 0.001f;
    y[i] = v;
  }
}

namespace {

constexpr std::size_t Elements = 8192; // 32 blocks of 256 threads
constexpr int Reps = 4096, Launches = 100;

float expected(float V, int Calls) {
  for (int C = 0; C < Calls; ++C)
    for (int R = 0; R < Reps; ++R)
      V = V * 0.999f + 0.001f;
  return V;
}

/// Seconds for Threads threads to make Launches launches each.
double run(int Threads, std::vector<std::vector<float>> &Data, int Calls,
           bool &Correct) {
  std::vector<std::thread> Pool;
  const Clock::time_point Start = Clock::now();
  for (int T = 0; T < Threads; ++T)
    Pool.emplace_back([&Data, T, Calls] {
      std::span<float> Y(Data[T]);
      weft::region Resident(Y);
      for (int L = 0; L < Calls; ++L)
        work(Y, Reps);
    });
  for (std::thread &T : Pool)
    T.join();
  const double Seconds =
      std::chrono::duration<double>(Clock::now() - Start).count();
  for (int T = 0; T < Threads; ++T)
    for (float V : Data[T])
      Correct = Correct && std::abs(V - Data[T].back()) < 1e-6f;
  return Seconds;
}

} // namespace

int main() {
  // Warm-up, not timed: the first launch compiles (or loads) the kernel,
  // the next ones tune its block size (each variant compiled and timed),
  // and every variant below runs once.
  std::vector<std::vector<float>> Data(8, std::vector<float>(Elements, 0.0f));
  bool Correct = true;
  run(1, Data, 20, Correct);
  for (int Threads : {2, 4, 8})
    run(Threads, Data, 2, Correct);
  const std::string Backend = weft::backendName();
  const bool OnGpu = Backend == "cuda" || Backend == "hip";
  std::printf("backend %s; %zu elements x %d steps a launch, %d launches a "
              "thread%s\n",
              Backend.c_str(), Elements, Reps, Launches,
              OnGpu ? "" : " (not a GPU: these times are not GPU figures)");
  for (int Threads : {2, 4, 8}) {
    for (auto &D : Data)
      std::fill(D.begin(), D.end(), 0.0f);
    const double Serial = run(1, Data, Threads * Launches, Correct);
    const float SerialValue = Data[0][0];
    for (auto &D : Data)
      std::fill(D.begin(), D.end(), 0.0f);
    const double Concurrent = run(Threads, Data, Launches, Correct);
    for (int T = 0; T < Threads; ++T)
      Correct = Correct && std::abs(Data[T][0] - expected(0, Launches)) < 1e-4f;
    Correct = Correct &&
              std::abs(SerialValue - expected(0, Threads * Launches)) < 1e-4f;
    std::printf("%d threads: %d launches in %.3f s from one thread, in %.3f s "
                "from %d at once: %.2fx the one thread's rate (1.00x: no "
                "overlap; %d.00x: perfect)\n",
                Threads, Threads * Launches, Serial, Concurrent, Threads,
                Serial / Concurrent, Threads);
  }
  if (!Correct) {
    std::printf("FAILED: a thread's result is wrong\n");
    return 1;
  }
  return 0;
}
