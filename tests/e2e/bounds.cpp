// Loop-bound forms and their edge cases: the trip count the runtime
// computes must match the loop's own, empty ranges included.
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

void interior(std::span<const int> In, std::span<int> Out) {
#pragma weft parallel for
  for (std::size_t I = 1; I + 1 < In.size(); ++I)
    Out[I] = In[I - 1] + In[I + 1];
}

void inclusive(std::span<int> V, int Lo, int Hi) {
#pragma weft parallel for
  for (int I = Lo; I <= Hi; I += 3)
    V[I] += I;
}

void reversedCondition(std::span<long> V, long N) {
#pragma weft parallel for
  for (long I = 0; N > I; I++)
    V[static_cast<std::size_t>(I)] = I * I - N;
}

void unsignedIndex(std::span<unsigned char> V) {
#pragma weft parallel for
  for (unsigned I = 2; I < V.size() - 2; ++I)
    V[I] = static_cast<unsigned char>(V[I] ^ 0x5a);
}

void print(const char *Name, const auto &V) {
  long long Sum = 0, Weighted = 0;
  for (std::size_t I = 0; I < V.size(); ++I) {
    Sum += V[I];
    Weighted += static_cast<long long>(I % 13) * V[I];
  }
  std::printf("%s: %zu %lld %lld\n", Name, V.size(), Sum, Weighted);
}

int main() {
  for (std::size_t N : {0u, 1u, 2u, 3u, 1000u}) {
    std::vector<int> In(N), Out(N, -1);
    for (std::size_t I = 0; I < N; ++I)
      In[I] = static_cast<int>(I * 7 % 11);
    interior(In, Out);
    print("interior", Out);
  }
  std::vector<int> V(100, 1);
  inclusive(V, 5, 99);
  inclusive(V, 50, 10); // empty
  inclusive(V, -0, 0);
  print("inclusive", V);
  std::vector<long> L(64, 0);
  reversedCondition(L, 64);
  reversedCondition(L, -3); // empty
  print("reversed", L);
  std::vector<unsigned char> B(300);
  for (std::size_t I = 0; I < B.size(); ++I)
    B[I] = static_cast<unsigned char>(I);
  unsignedIndex(B);
  print("unsigned", B);
  return 0;
}
