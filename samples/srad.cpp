// srad: speckle-reducing anisotropic diffusion of an ultrasound image
// (Rodinia's SRAD): per iteration, the statistics of a region of interest
// (a reduction), each pixel's diffusion coefficient, then the update.
#include "Harness.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace {

struct Image {
  int Rows, Cols;
  std::vector<float> Pixels;
};

void diffuse(Image &Img, int Iterations, float Lambda, int RoiRows,
             int RoiCols) {
  const int Rows = Img.Rows, Cols = Img.Cols;
  const int Size = Rows * Cols;
  std::vector<float> &J = Img.Pixels;
  std::vector<float> North(Size), South(Size), West(Size), East(Size),
      Coeff(Size);
#pragma weft region(J, North, South, West, East, Coeff)
  for (int Iter = 0; Iter < Iterations; ++Iter) {
    float Sum = 0, SumSquares = 0;
#pragma weft parallel for reduction(+ : Sum, SumSquares)
    for (int R = 0; R < RoiRows; ++R) {
      for (int C = 0; C < RoiCols; ++C) {
        float V = J[R * Cols + C];
        Sum += V;
        SumSquares += V * V;
      }
    }
    float Mean = Sum / (RoiRows * RoiCols);
    float Variance = SumSquares / (RoiRows * RoiCols) - Mean * Mean;
    float Q0Squared = Variance / (Mean * Mean);

#pragma weft parallel for
    for (int R = 0; R < Rows; ++R) {
#pragma weft parallel for
      for (int C = 0; C < Cols; ++C) {
        int K = R * Cols + C;
        int Up = R > 0 ? R - 1 : 0, Down = R + 1 < Rows ? R + 1 : Rows - 1;
        int Left = C > 0 ? C - 1 : 0, Right = C + 1 < Cols ? C + 1 : Cols - 1;
        float Here = J[K];
        North[K] = J[Up * Cols + C] - Here;
        South[K] = J[Down * Cols + C] - Here;
        West[K] = J[R * Cols + Left] - Here;
        East[K] = J[R * Cols + Right] - Here;
        float Gradient2 = (North[K] * North[K] + South[K] * South[K] +
                           West[K] * West[K] + East[K] * East[K]) /
                          (Here * Here);
        float Laplacian = (North[K] + South[K] + West[K] + East[K]) / Here;
        float Num = 0.5f * Gradient2 - (1.0f / 16.0f) * Laplacian * Laplacian;
        float Den = 1 + 0.25f * Laplacian;
        float QSquared = Num / (Den * Den);
        Den = (QSquared - Q0Squared) / (Q0Squared * (1 + Q0Squared));
        Coeff[K] = std::clamp(1.0f / (1.0f + Den), 0.0f, 1.0f);
      }
    }

#pragma weft parallel for
    for (int R = 0; R < Rows; ++R) {
#pragma weft parallel for
      for (int C = 0; C < Cols; ++C) {
        int K = R * Cols + C;
        int Down = R + 1 < Rows ? R + 1 : Rows - 1;
        int Right = C + 1 < Cols ? C + 1 : Cols - 1;
        float D = Coeff[K] * North[K] + Coeff[Down * Cols + C] * South[K] +
                  Coeff[K] * West[K] + Coeff[R * Cols + Right] * East[K];
        J[K] = J[K] + 0.25f * Lambda * D;
      }
    }
  }
}

} // namespace

int main(int Argc, char **Argv) {
  sample::Options Opts = sample::parseOptions(Argc, Argv);
  const int Rows = Opts.Small ? 64 : 2048, Cols = Opts.Small ? 48 : 2048;
  const int Iterations = Opts.Small ? 3 : 100;
  std::vector<float> Speckled(static_cast<std::size_t>(Rows) * Cols);
  sample::Random Rng(5);
  for (int R = 0; R < Rows; ++R)
    for (int C = 0; C < Cols; ++C) {
      // Rings, as tissue in an ultrasound image, under multiplicative noise.
      float Ring = 0.5f + 0.4f * std::sin(0.05f * std::hypot(R - Rows / 2.0f,
                                                             C - Cols / 3.0f));
      Speckled[R * Cols + C] = std::exp(Ring * Rng.uniform(0.7f, 1.3f));
    }
  Image Img;
  double Ms = sample::fastestMilliseconds(Opts, [&] {
    Img = {Rows, Cols, Speckled};
    diffuse(Img, Iterations, 0.5f, Rows / 4, Cols / 4);
  });
  return sample::finish(Opts, "srad",
                        std::to_string(Rows) + "x" + std::to_string(Cols) +
                            " image, " + std::to_string(Iterations) +
                            " iterations",
                        Ms, Img.Pixels, 1e-3);
}
