// hotspot: a chip's temperature over time from its power map (Rodinia's
// HotSpot): a five-point stencil with clamped edges, stepped in a region.
#include "Harness.h"

#include <string>
#include <utility>
#include <vector>

namespace {

// The chip's physics, as in Rodinia's HotSpot.
constexpr float MaxPowerDensity = 3.0e6f;
constexpr float Precision = 0.001f;
constexpr float SpecificHeatSi = 1.75e6f;
constexpr float ConductivitySi = 100;
constexpr float FactorChip = 0.5f;
constexpr float ChipThickness = 0.0005f;
constexpr float ChipHeight = 0.016f;
constexpr float ChipWidth = 0.016f;
constexpr float AmbientTemperature = 80.0f;

// One time step: Result from Temp, each cell from itself, its four
// neighbours (the edge's own value where there is none) and its power.
void step(const std::vector<float> &Temp, const std::vector<float> &Power,
          std::vector<float> &Result, int Rows, int Cols, float Cap, float Rx,
          float Ry, float Rz, float Dt) {
#pragma weft parallel for
  for (int R = 0; R < Rows; ++R) {
#pragma weft parallel for
    for (int C = 0; C < Cols; ++C) {
      int North = R > 0 ? R - 1 : R;
      int South = R + 1 < Rows ? R + 1 : R;
      int West = C > 0 ? C - 1 : C;
      int East = C + 1 < Cols ? C + 1 : C;
      float Here = Temp[R * Cols + C];
      float Delta =
          (Dt / Cap) *
          (Power[R * Cols + C] +
           (Temp[South * Cols + C] + Temp[North * Cols + C] - 2.0f * Here) /
               Ry +
           (Temp[R * Cols + East] + Temp[R * Cols + West] - 2.0f * Here) / Rx +
           (AmbientTemperature - Here) / Rz);
      Result[R * Cols + C] = Here + Delta;
    }
  }
}

void simulate(std::vector<float> &Temp, const std::vector<float> &Power,
              int Rows, int Cols, int Steps) {
  float GridHeight = ChipHeight / Rows;
  float GridWidth = ChipWidth / Cols;
  float Cap =
      FactorChip * SpecificHeatSi * ChipThickness * GridWidth * GridHeight;
  float Rx = GridWidth / (2.0f * ConductivitySi * ChipThickness * GridHeight);
  float Ry = GridHeight / (2.0f * ConductivitySi * ChipThickness * GridWidth);
  float Rz = ChipThickness / (ConductivitySi * GridHeight * GridWidth);
  float MaxSlope =
      MaxPowerDensity / (FactorChip * ChipThickness * SpecificHeatSi);
  float Dt = Precision / MaxSlope;

  std::vector<float> Result(Temp.size());
#pragma weft region(Temp, Power, Result)
  for (int S = 0; S < Steps; ++S) {
    step(Temp, Power, Result, Rows, Cols, Cap, Rx, Ry, Rz, Dt);
    std::swap(Temp, Result);
  }
}

} // namespace

int main(int Argc, char **Argv) {
  sample::Options Opts = sample::parseOptions(Argc, Argv);
  const int Size = Opts.Small ? 64 : 1024, Steps = Opts.Small ? 5 : 200;
  std::vector<float> Initial(Size * Size), Power(Size * Size);
  sample::Random Rng(7);
  for (int I = 0; I < Size * Size; ++I) {
    Initial[I] = Rng.uniform(323.0f, 343.0f);
    // A few hot units on a cool die.
    int R = I / Size, C = I % Size;
    bool Unit = (R / (Size / 8) + C / (Size / 8)) % 3 == 0;
    Power[I] = Rng.uniform(0.0f, Unit ? 2.0e-3f : 2.0e-4f);
  }
  std::vector<float> Temp;
  double Ms = sample::fastestMilliseconds(Opts, [&] {
    Temp = Initial;
    simulate(Temp, Power, Size, Size, Steps);
  });
  return sample::finish(Opts, "hotspot",
                        std::to_string(Size) + "x" + std::to_string(Size) +
                            " grid, " + std::to_string(Steps) + " steps",
                        Ms, Temp, 1e-4);
}
