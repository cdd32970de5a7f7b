// Value-initialization in templates (T{} for scalars and structs, a struct
// initializer that leaves fields out), sizeof, and a range-for over a span of
// structs.
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

struct Point {
  float X, Y;
  int Tag;
};

template <class T> void reset(std::span<T> S) {
#pragma weft parallel for
  for (std::size_t I = 0; I < S.size(); ++I)
    S[I] = T{};
}

void stamp(std::span<Point> Ps) {
#pragma weft parallel for
  for (auto &P : Ps) {
    P.X += static_cast<float>(sizeof(Point)) * 0.5f;
    P.Tag = int{7};
  }
}

void seed(std::span<Point> Ps) {
#pragma weft parallel for
  for (std::size_t I = 0; I < Ps.size(); ++I)
    Ps[I] = Point{static_cast<float>(I)}; // Y and Tag are zero
}

int main() {
  std::vector<Point> Ps(300, Point{1, 2, 3});
  std::vector<int> Ints(300, 5);
  reset(std::span<int>(Ints));
  seed(Ps);
  stamp(Ps);
  double S = 0;
  for (const Point &P : Ps)
    S += P.X + 10 * P.Y + 100 * P.Tag;
  reset(std::span<Point>(Ps));
  for (const Point &P : Ps)
    S += P.X + P.Y + P.Tag;
  for (int V : Ints)
    S += V;
  std::printf("values: %.3f\n", S);
  return 0;
}
