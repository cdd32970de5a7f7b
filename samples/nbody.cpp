// nbody: gravitational n-body simulation (the CUDA SDK's nbody, all pairs):
// each body's acceleration from every other, then a leapfrog step. Bodies
// are held as old C++ code holds them, a std::vector of std::array.
#include "Harness.h"

#include <array>
#include <cmath>
#include <string>
#include <vector>

namespace {

using Body = std::array<float, 4>; // x, y, z, mass

void accelerate(const std::vector<Body> &Bodies, std::vector<float> &Acc, int N,
                float Softening) {
#pragma weft parallel for
  for (int I = 0; I < N; ++I) {
    float Ax = 0, Ay = 0, Az = 0;
    for (int J = 0; J < N; ++J) {
      float Dx = Bodies[J][0] - Bodies[I][0];
      float Dy = Bodies[J][1] - Bodies[I][1];
      float Dz = Bodies[J][2] - Bodies[I][2];
      float Distance2 = Dx * Dx + Dy * Dy + Dz * Dz + Softening;
      float Inverse = 1.0f / std::sqrt(Distance2);
      float Strength = Bodies[J][3] * Inverse * Inverse * Inverse;
      Ax += Dx * Strength;
      Ay += Dy * Strength;
      Az += Dz * Strength;
    }
    Acc[3 * I] = Ax;
    Acc[3 * I + 1] = Ay;
    Acc[3 * I + 2] = Az;
  }
}

void advance(std::vector<Body> &Bodies, std::vector<float> &Velocity,
             const std::vector<float> &Acc, int N, float Dt) {
#pragma weft parallel for
  for (int I = 0; I < N; ++I) {
    for (int D = 0; D < 3; ++D) {
      Velocity[3 * I + D] += Acc[3 * I + D] * Dt;
      Bodies[I][D] += Velocity[3 * I + D] * Dt;
    }
  }
}

void simulate(std::vector<Body> &Bodies, std::vector<float> &Velocity,
              int Steps) {
  const int N = static_cast<int>(Bodies.size());
  std::vector<float> Acc(3 * N);
#pragma weft region(Bodies, Velocity, Acc)
  for (int S = 0; S < Steps; ++S) {
    accelerate(Bodies, Acc, N, 0.01f);
    advance(Bodies, Velocity, Acc, N, 0.001f);
  }
}

} // namespace

int main(int Argc, char **Argv) {
  sample::Options Opts = sample::parseOptions(Argc, Argv);
  const int N = Opts.Small ? 300 : 16384, Steps = Opts.Small ? 2 : 4;
  // A disc of bodies around a heavy centre.
  sample::Random Rng(31);
  std::vector<Body> Start(N);
  std::vector<float> StartVelocity(3 * N);
  for (int I = 0; I < N; ++I) {
    float Angle = Rng.uniform(0.0f, 6.2831853f),
          Radius = Rng.uniform(0.5f, 8.0f);
    Start[I] = {Radius * std::cos(Angle), Radius * std::sin(Angle),
                Rng.uniform(-0.2f, 0.2f), Rng.uniform(0.5f, 1.5f)};
    StartVelocity[3 * I] = -std::sin(Angle) / std::sqrt(Radius);
    StartVelocity[3 * I + 1] = std::cos(Angle) / std::sqrt(Radius);
  }
  Start[0] = {0, 0, 0, 1000.0f};
  std::vector<Body> Bodies;
  std::vector<float> Velocity;
  double Ms = sample::fastestMilliseconds(Opts, [&] {
    Bodies = Start;
    Velocity = StartVelocity;
    simulate(Bodies, Velocity, Steps);
  });
  std::vector<float> Result;
  for (const Body &B : Bodies)
    Result.insert(Result.end(), B.begin(), B.begin() + 3);
  double Interactions = static_cast<double>(N) * N * Steps;
  return sample::finish(
      Opts, "nbody",
      std::to_string(N) + " bodies, " + std::to_string(Steps) + " steps, " +
          std::to_string(Interactions * 20 / Ms / 1e6).substr(0, 6) +
          " GFLOP/s at 20 flops an interaction",
      Ms, Result, 1e-3);
}
