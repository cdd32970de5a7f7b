// main.cpp: the nw sample (samples/nw.cpp, compiled here with the plugin)
// beside the same loop over anti-diagonals marked `#pragma weft sequential
// for` instead of a region: one launch, one block of threads and a barrier
// a diagonal, against a launch a diagonal. The same score matrix, the
// fastest of three runs after a first that compiles, the results compared.
// Usage: nw [N ...]   (default sizes 1024 2048 4096)

// The sample as it is, its main renamed: align() is what is measured.
#define main nwSampleMain
#include "../../samples/nw.cpp"
#undef main

#include <chrono>
#include <cstdio>

namespace {

using Clock = std::chrono::steady_clock;

// The sample's align with its loop over anti-diagonals in one block.
void alignSequential(const std::vector<int> &Ref, std::vector<int> &Score,
                     int N, int Penalty) {
  const int Width = N + 1;
#pragma weft sequential for
  for (int D = 2; D <= 2 * N; ++D) {
    int First = std::max(1, D - N), Last = std::min(N, D - 1);
#pragma weft parallel for
    for (int I = First; I <= Last; ++I) {
      int J = D - I;
      int Diagonal = Score[(I - 1) * Width + J - 1] + Ref[I * Width + J];
      int Up = Score[(I - 1) * Width + J] - Penalty;
      int Left = Score[I * Width + J - 1] - Penalty;
      Score[I * Width + J] = std::max(Diagonal, std::max(Up, Left));
    }
  }
}

using Align = void (*)(const std::vector<int> &, std::vector<int> &, int,
                       int);

} // namespace

int main(int Argc, char **Argv) {
  std::vector<int> Sizes;
  for (int I = 1; I < Argc; ++I)
    Sizes.push_back(std::atoi(Argv[I]));
  if (Sizes.empty())
    Sizes = {1024, 2048, 4096};
  std::printf("nw: weft on '%s', the sample (a launch an anti-diagonal) "
              "against one sequential launch, fastest of 3 runs\n",
              weft::backendName());
  const int Penalty = 10;
  int Status = 0;
  for (int N : Sizes) {
    const int Width = N + 1;
    sample::Random Rng(3);
    std::vector<int> First(N + 1), Second(N + 1);
    for (int I = 1; I <= N; ++I) {
      First[I] = Rng.below(24);
      Second[I] = Rng.below(24);
    }
    std::vector<int> Ref(static_cast<std::size_t>(Width) * Width, 0);
    for (int I = 1; I <= N; ++I)
      for (int J = 1; J <= N; ++J)
        Ref[I * Width + J] = similarity(First[I], Second[J]);
    auto Time = [&](Align Run, std::vector<int> &Score) {
      double Ms = 1e300;
      for (int Round = 0; Round < 4; ++Round) { // the first compiles
        Score.assign(Ref.size(), 0);
        for (int I = 0; I <= N; ++I)
          Score[I * Width] = Score[I] = -I * Penalty;
        const auto Start = Clock::now();
        Run(Ref, Score, N, Penalty);
        weft::synchronize();
        const double Took =
            std::chrono::duration<double, std::milli>(Clock::now() - Start)
                .count();
        if (Round)
          Ms = std::min(Ms, Took);
      }
      return Ms;
    };
    std::vector<int> Launches, Sequential;
    const double LaunchesMs = Time(align, Launches);
    const double SequentialMs = Time(alignSequential, Sequential);
    const bool Same = Launches == Sequential;
    std::printf("nw %d: a launch an anti-diagonal %.3f ms, one sequential "
                "launch %.3f ms (%.2fx); results %s\n",
                N, LaunchesMs, SequentialMs, LaunchesMs / SequentialMs,
                Same ? "match" : "WRONG");
    Status |= !Same;
  }
  return Status;
}
