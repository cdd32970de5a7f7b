// kmeans: Lloyd's k-means clustering (Rodinia's kmeans): each point to its
// nearest center in parallel, counting the points that moved; the centers'
// sums and sizes accumulated in parallel too (Rodinia does that on the
// host), each point adding into its cluster's elements.
#include "Harness.h"

#include <cfloat>
#include <string>
#include <vector>

namespace {

// The squared distance of two points, as Rodinia's euclid_dist_2 computes
// it (weft compiles it into the loop that calls it).
float squaredDistance(const float *A, const float *B, int Features) {
  float Distance = 0;
  for (int F = 0; F < Features; ++F) {
    float Diff = A[F] - B[F];
    Distance += Diff * Diff;
  }
  return Distance;
}

// Sets each point's cluster to its nearest center's; returns how many
// points changed cluster.
int assignClusters(const std::vector<float> &Points,
                   const std::vector<float> &Centers,
                   std::vector<int> &Membership, int NumPoints, int Features,
                   int K) {
  int Changed = 0;
#pragma weft parallel for reduction(+ : Changed)
  for (int P = 0; P < NumPoints; ++P) {
    int Nearest = 0;
    float NearestDistance = FLT_MAX;
    for (int C = 0; C < K; ++C) {
      float Distance = squaredDistance(&Points[P * Features],
                                       &Centers[C * Features], Features);
      if (Distance < NearestDistance) {
        NearestDistance = Distance;
        Nearest = C;
      }
    }
    if (Membership[P] != Nearest) {
      Changed += 1;
      Membership[P] = Nearest;
    }
  }
  return Changed;
}

// Lloyd's iterations until fewer than a thousandth of the points move.
std::vector<float> cluster(const std::vector<float> &Points, int NumPoints,
                           int Features, int K, int MaxIterations) {
  std::vector<float> Centers(Points.begin(), Points.begin() + K * Features);
  std::vector<int> Membership(NumPoints, -1);
  for (int Iter = 0; Iter < MaxIterations; ++Iter) {
    int Changed =
        assignClusters(Points, Centers, Membership, NumPoints, Features, K);
    std::vector<float> Sums(K * Features, 0.0f);
    std::vector<int> Sizes(K, 0);
#pragma weft parallel for reduction(+ : Sums, Sizes)
    for (int P = 0; P < NumPoints; ++P) {
      ++Sizes[Membership[P]];
      for (int F = 0; F < Features; ++F)
        Sums[Membership[P] * Features + F] += Points[P * Features + F];
    }
    for (int C = 0; C < K; ++C)
      if (Sizes[C])
        for (int F = 0; F < Features; ++F)
          Centers[C * Features + F] = Sums[C * Features + F] / Sizes[C];
    if (Changed * 1000 < NumPoints)
      break;
  }
  return Centers;
}

} // namespace

int main(int Argc, char **Argv) {
  sample::Options Opts = sample::parseOptions(Argc, Argv);
  const int NumPoints = Opts.Small ? 2000 : 500000, Features = 34, K = 5;
  // Points scattered around K hidden centers (Rodinia's inputs have 34
  // features).
  sample::Random Rng(13);
  std::vector<float> Hidden(K * Features);
  for (float &H : Hidden)
    H = Rng.uniform(0.0f, 10.0f);
  std::vector<float> Points(static_cast<std::size_t>(NumPoints) * Features);
  for (int P = 0; P < NumPoints; ++P) {
    int Around = Rng.below(K);
    for (int F = 0; F < Features; ++F)
      Points[P * Features + F] =
          Hidden[Around * Features + F] + Rng.uniform(-3.0f, 3.0f);
  }
  std::vector<float> Centers;
  double Ms = sample::fastestMilliseconds(
      Opts, [&] { Centers = cluster(Points, NumPoints, Features, K, 50); });
  return sample::finish(Opts, "kmeans",
                        std::to_string(NumPoints) + " points, " +
                            std::to_string(Features) + " features, " +
                            std::to_string(K) + " clusters",
                        Ms, Centers, 1e-3);
}
