// pathfinder: the cheapest path from the top row of a grid of weights to
// the bottom, moving down or diagonally down (Rodinia's PathFinder): dynamic
// programming a row at a time, each row's cells in parallel.
#include "Harness.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace {

// The cost of the cheapest path to each cell of the last row.
void cheapestPaths(const std::vector<int> &Wall, std::vector<int> &Cost,
                   int Rows, int Cols) {
  std::vector<int> Next(Cols);
  Cost.assign(Wall.begin(), Wall.begin() + Cols);
#pragma weft region(Wall, Cost, Next)
  for (int T = 1; T < Rows; ++T) {
#pragma weft parallel for
    for (int C = 0; C < Cols; ++C) {
      int Best = Cost[C];
      if (C > 0)
        Best = std::min(Best, Cost[C - 1]);
      if (C + 1 < Cols)
        Best = std::min(Best, Cost[C + 1]);
      Next[C] = Wall[T * Cols + C] + Best;
    }
    std::swap(Cost, Next);
  }
}

} // namespace

int main(int Argc, char **Argv) {
  sample::Options Opts = sample::parseOptions(Argc, Argv);
  const int Rows = Opts.Small ? 20 : 1000, Cols = Opts.Small ? 1000 : 100000;
  std::vector<int> Wall(static_cast<std::size_t>(Rows) * Cols);
  sample::Random Rng(11);
  for (int &W : Wall)
    W = Rng.below(10);
  std::vector<int> Cost;
  double Ms = sample::fastestMilliseconds(
      Opts, [&] { cheapestPaths(Wall, Cost, Rows, Cols); });
  return sample::finish(
      Opts, "pathfinder",
      std::to_string(Rows) + " rows of " + std::to_string(Cols), Ms, Cost);
}
