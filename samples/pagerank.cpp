// pagerank: PageRank by power iteration on a generated power-law graph
// (the GAP benchmark suite's pull form): each vertex sums its in-neighbours'
// shares over compressed in-edges; a reduction measures the change.
#include "Harness.h"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace {

struct Graph {
  int Vertices;
  std::vector<int> InStart; // Vertices + 1 offsets into InFrom
  std::vector<int> InFrom;  // the source of each in-edge
  std::vector<int> OutDegree;
};

// A power-law graph: each vertex links to a few others, most often to the
// low-numbered ones (as the web's popular pages), never to itself.
Graph generate(int Vertices, int AverageDegree) {
  sample::Random Rng(29);
  std::vector<std::vector<int>> In(Vertices);
  Graph G{Vertices, {0}, {}, std::vector<int>(Vertices, 0)};
  for (int V = 0; V < Vertices; ++V) {
    int Degree = 1 + Rng.below(2 * AverageDegree - 1);
    for (int E = 0; E < Degree; ++E) {
      float U = Rng.uniform(0.0f, 1.0f);
      int To = static_cast<int>(Vertices * U * U * U);
      if (To == V)
        To = (V + 1) % Vertices;
      In[To].push_back(V);
      ++G.OutDegree[V];
    }
  }
  for (int V = 0; V < Vertices; ++V) {
    G.InFrom.insert(G.InFrom.end(), In[V].begin(), In[V].end());
    G.InStart.push_back(static_cast<int>(G.InFrom.size()));
  }
  return G;
}

// Iterations of the power method; returns the ranks.
std::vector<float> pageRank(const Graph &G, int Iterations,
                            std::vector<float> &Changes) {
  const float Damping = 0.85f;
  const float Base = (1.0f - Damping) / G.Vertices;
  std::vector<float> Rank(G.Vertices, 1.0f / G.Vertices), Next(G.Vertices);
#pragma weft region(G.InStart, G.InFrom, G.OutDegree, Rank, Next)
  for (int Iter = 0; Iter < Iterations; ++Iter) {
    // In double: two million terms summed one by one in float drift by
    // 1e-4 of the total, a tree of partial sums (the GPU's) far less.
    double Change = 0;
#pragma weft parallel for reduction(+ : Change)
    for (int V = 0; V < G.Vertices; ++V) {
      float Sum = 0;
      for (int E = G.InStart[V]; E < G.InStart[V + 1]; ++E) {
        int U = G.InFrom[E];
        Sum += Rank[U] / G.OutDegree[U];
      }
      float NewRank = Base + Damping * Sum;
      Change += std::fabs(NewRank - Rank[V]);
      Next[V] = NewRank;
    }
    std::swap(Rank, Next);
    Changes.push_back(Change);
  }
  return Rank;
}

} // namespace

int main(int Argc, char **Argv) {
  sample::Options Opts = sample::parseOptions(Argc, Argv);
  const int Vertices = Opts.Small ? 5000 : 2000000, Iterations = 20;
  const Graph G = generate(Vertices, 8);
  std::vector<float> Rank, Changes;
  double Ms = sample::fastestMilliseconds(Opts, [&] {
    Changes.clear();
    Rank = pageRank(G, Iterations, Changes);
  });
  Rank.insert(Rank.end(), Changes.begin(), Changes.end());
  return sample::finish(Opts, "pagerank",
                        std::to_string(Vertices) + " vertices, " +
                            std::to_string(G.InFrom.size()) + " edges, " +
                            std::to_string(Iterations) + " iterations",
                        Ms, Rank, 1e-4);
}
