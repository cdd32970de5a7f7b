// Histograms and scatter updates as old C code writes them, marked with
// array reductions: a byte histogram through a raw pointer, a 2-D
// histogram in a C array, per-bin sums, minima and maxima in vectors, a
// bit set, and k-means-style centre sums with a sequential feature loop.
// Values keep every result exact in any order of the updates (integers,
// sums of halves well below 2^24), so the output is compared byte for byte.
// e2e also: cxx17 -std=c++17
#include <weft/weft.hpp>

#include <algorithm>
#include <cstdio>
#include <vector>

static int Joint[8][8];

void byteHistogram(const unsigned char *Bytes, long N, long *Counts) {
#pragma weft parallel for reduction(+: Counts) extent(Bytes: N) extent(Counts: 256)
  for (long I = 0; I < N; ++I)
    Counts[Bytes[I]]++;
}

void jointHistogram(const std::vector<int> &X, const std::vector<int> &Y) {
#pragma weft parallel for reduction(+ : Joint)
  for (int I = 0; I < (int)X.size(); ++I)
    Joint[X[I] & 7][Y[I] & 7] += 1;
}

void perBin(const std::vector<int> &Keys, const std::vector<float> &Values,
            std::vector<float> &Sums, std::vector<float> &Lows,
            std::vector<float> &Highs, std::vector<unsigned> &Seen) {
  const int Bins = (int)Sums.size();
#pragma weft parallel for reduction(+: Sums) reduction(min: Lows) \
    reduction(max: Highs) reduction(|: Seen)
  for (int I = 0; I < (int)Keys.size(); ++I) {
    const int B = Keys[I] % Bins;
    Sums[B] += Values[I];
    Lows[B] = std::min(Lows[B], Values[I]);
    Highs[B] = std::max(Highs[B], Values[I]);
    Seen[I / 32] |= 1u << (I % 32);
  }
}

void centreSums(const std::vector<double> &Points, const std::vector<int> &Of,
                int Features, std::vector<double> &Sums,
                std::vector<int> &Sizes) {
#pragma weft parallel for reduction(+ : Sums, Sizes)
  for (int P = 0; P < (int)Of.size(); ++P) {
    ++Sizes[Of[P]];
    for (int F = 0; F < Features; ++F)
      Sums[Of[P] * Features + F] += Points[P * Features + F];
  }
}

int main() {
  for (int N : {1, 100, 5000, 70001}) {
    std::vector<unsigned char> Bytes(N);
    std::vector<int> X(N), Y(N), Keys(N);
    std::vector<float> Values(N);
    for (int I = 0; I < N; ++I) {
      Bytes[I] = (unsigned char)((I * 2654435761u) >> 24);
      X[I] = (I * 7) ^ (I >> 3);
      Y[I] = I / 3;
      Keys[I] = (I * 131) % 997;
      Values[I] = (float)((I * 37) % 201 - 100) * 0.5f;
    }
    long Counts[256] = {0};
    byteHistogram(Bytes.data(), N, Counts);
    for (auto &Row : Joint)
      for (int &C : Row)
        C = 0;
    jointHistogram(X, Y);
    std::vector<float> Sums(13, 0.0f), Lows(13, 1e30f), Highs(13, -1e30f);
    std::vector<unsigned> Seen((N + 31) / 32, 0);
    perBin(Keys, Values, Sums, Lows, Highs, Seen);
    const int Features = 3, K = 4;
    std::vector<double> Points(N * Features);
    std::vector<int> Of(N);
    for (int I = 0; I < N * Features; ++I)
      Points[I] = (I % 11) * 0.25;
    for (int P = 0; P < N; ++P)
      Of[P] = (P * 5 + P / 7) % K;
    std::vector<double> CentreSums(K * Features, 0.0);
    std::vector<int> Sizes(K, 0);
    centreSums(Points, Of, Features, CentreSums, Sizes);

    std::printf("n = %d\nbytes:", N);
    for (long C : Counts)
      std::printf(" %ld", C);
    std::printf("\njoint:");
    for (auto &Row : Joint)
      for (int C : Row)
        std::printf(" %d", C);
    std::printf("\nbins:");
    for (int B = 0; B < 13; ++B)
      std::printf(" %g/%g/%g", Sums[B], Lows[B], Highs[B]);
    unsigned Bits = 0;
    for (unsigned S : Seen)
      Bits += __builtin_popcount(S);
    std::printf("\nseen: %u of %d\ncentres:", Bits, N);
    for (int C = 0; C < K; ++C)
      std::printf(" %d:%g,%g,%g", Sizes[C], CentreSums[C * Features],
                  CentreSums[C * Features + 1], CentreSums[C * Features + 2]);
    std::printf("\n");
  }
}
