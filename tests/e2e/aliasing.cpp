// Spans that share their data: one vector passed twice, overlapping parts of
// one array, a region holding part of what a loop uses.
#include <weft/weft.hpp>

#include <cstdio>
#include <span>
#include <vector>

// Each writes its own elements of what may be one vector.
void byParity(std::span<float> Evens, std::span<float> Odds) {
  const int N = static_cast<int>(Evens.size()) / 2;
#pragma weft parallel for
  for (int I = 0; I < N; ++I) {
    Evens[2 * I] = Evens[2 * I] + 1.0f;
    Odds[2 * I + 1] = Odds[2 * I + 1] * 2.0f;
  }
}

// Low's upper part is High's lower part; each writes inside it.
void thirds(std::span<float> Low, std::span<float> High, int M) {
#pragma weft parallel for
  for (int I = 0; I < M; ++I) {
    Low[M + I] = Low[I] + 0.5f;   // the shared third
    High[M + I] = High[I] * 3.0f; // High's upper third reads the shared one
  }
}

// An element written through one name and read back through the other in the
// same iteration.
void readBack(std::span<float> Out, std::span<const float> In) {
#pragma weft parallel for
  for (std::size_t I = 0; I < Out.size(); ++I) {
    Out[I] = static_cast<float>(I);
    Out[I] += In[I];
  }
}

static double sum(const std::vector<float> &V) {
  double S = 0;
  for (std::size_t I = 0; I < V.size(); ++I)
    S += V[I] * static_cast<double>(I % 7 + 1);
  return S;
}

int main() {
  std::vector<float> V(1000);
  for (std::size_t I = 0; I < V.size(); ++I)
    V[I] = static_cast<float>(I % 13);
  byParity(V, V);
  std::printf("by parity: %.1f\n", sum(V));

  const int M = 300;
  std::vector<float> W(3 * M);
  for (std::size_t I = 0; I < W.size(); ++I)
    W[I] = static_cast<float>(I % 11);
  thirds(std::span<float>(W).first(2 * M), std::span<float>(W).subspan(M), M);
  std::printf("thirds: %.1f\n", sum(W));

  readBack(V, V);
  std::printf("read back: %.1f\n", sum(V));

  // A region holding the first half; the loop uses all of it.
  {
    weft::region Half{std::span<float>(W).first(W.size() / 2)};
    byParity(std::span<float>(W).first(W.size() / 2),
             std::span<float>(W).first(W.size() / 2));
    byParity(W, W);
    std::printf("region: %.1f\n", sum(W));
  }
  std::printf("after region: %.1f\n", sum(W));
  // A region holding two overlapping parts.
  {
    weft::region Parts{std::span<float>(W).first(2 * M),
                       std::span<float>(W).subspan(M)};
    thirds(std::span<float>(W).first(2 * M), std::span<float>(W).subspan(M), M);
    byParity(W, W);
  }
  std::printf("overlapping region: %.1f\n", sum(W));
}
