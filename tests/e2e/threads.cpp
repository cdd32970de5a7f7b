// Marked loops launched from several host threads at once: each thread's
// results must be its own, whatever the backend.
#include <weft/weft.hpp>

#include <cstdio>
#include <thread>
#include <vector>

void step(std::span<float> v, float k) {
#pragma weft parallel for
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = v[i] * 0.5f + k * static_cast<float>(i % 17);
}

double norm(std::span<const float> v) {
  double s = 0;
#pragma weft parallel for reduction(+ : s)
  for (std::size_t i = 0; i < v.size(); ++i)
    s += v[i] * v[i];
  return s;
}

int main() {
  const int Threads = 4;
  std::vector<std::vector<float>> Data(Threads, std::vector<float>(5000, 1.0f));
  std::vector<double> Norms(Threads);
  std::vector<std::thread> Pool;
  for (int T = 0; T < Threads; ++T)
    Pool.emplace_back([&, T] {
      for (int R = 0; R < 15; ++R)
        step(Data[T], static_cast<float>(T + 1));
      Norms[T] = norm(Data[T]);
    });
  for (std::thread &T : Pool)
    T.join();
  for (int T = 0; T < Threads; ++T)
    std::printf("thread %d: %.6f\n", T, Norms[T]);
  return 0;
}
