// Methods of the structs a marked loop uses: const and mutating ones, on
// locals and on span elements, calling each other (through `this` and
// `*this`), returning structs, static ones and those of class templates;
// and lambdas declared in the loop body, and branch hints.
#include <weft/weft.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

struct Vec3 {
  float x, y, z;
  float dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
  float norm() const { return std::sqrt(dot(*this)); }
  void scale(float s) {
    x *= s;
    y *= s;
    z *= s;
  }
  Vec3 plus(Vec3 o) const { return {x + o.x, y + o.y, z + o.z}; }
  static Vec3 axis(int k) {
    return {k == 0 ? 1.0f : 0.0f, k == 1 ? 1.0f : 0.0f, k == 2 ? 1.0f : 0.0f};
  }
};

template <class T> struct Interval {
  T lo, hi;
  T width() const { return hi - lo; }
  bool contains(T v) const { return lo <= v && v < hi; }
  void widen(T by) {
    lo -= by;
    hi += by;
  }
};

void normalize(std::span<Vec3> v, std::span<float> len) {
#pragma weft parallel for
  for (std::size_t i = 0; i < v.size(); ++i) {
    Vec3 p = v[i];
    len[i] = p.norm();
    p.scale(1.0f / (len[i] + 1.0f));
    v[i] = p.plus(Vec3::axis(static_cast<int>(i % 3)));
    v[i].scale(2.0f);
  }
}

void classify(std::span<const double> x, std::span<Interval<double>> bins,
              std::span<int> which) {
#pragma weft parallel for
  for (std::size_t i = 0; i < x.size(); ++i) {
    int found = -1;
    for (std::size_t b = 0; b < bins.size(); ++b) {
      Interval<double> wide = bins[b];
      wide.widen(0.5 * wide.width());
      if (found < 0 && wide.contains(x[i]))
        found = static_cast<int>(b);
    }
    which[i] = found;
  }
}

void hinted(std::span<const float> x, std::span<float> y) {
#pragma weft parallel for
  for (std::size_t i = 0; i < x.size(); ++i) {
    auto sq = [](float v) { return v * v; };
    const auto twice = [](auto v) { return v + v; };
    if (__builtin_expect(x[i] > 2.0f, 0))
      y[i] = sq(x[i]) + twice(1.0f);
    else
      y[i] = twice(sq(x[i]));
  }
}

int main() {
  std::vector<Vec3> V(1000);
  std::vector<float> Len(1000);
  for (int I = 0; I < 1000; ++I)
    V[I] = {float(I % 7), float(I % 5) - 2, 0.25f * (I % 3)};
  normalize(V, Len);
  double T = 0;
  for (int I = 0; I < 1000; ++I)
    T += V[I].x + V[I].y * 2 + V[I].z * 3 + Len[I];
  std::printf("normalize: %.4f\n", T);

  std::vector<double> X(500);
  for (int I = 0; I < 500; ++I)
    X[I] = (I * 37 % 101) * 0.1;
  std::vector<Interval<double>> Bins = {{0, 2}, {2, 4.5}, {4.5, 7}, {7, 9}};
  std::vector<int> Which(500);
  classify(X, Bins, Which);
  long S = 0;
  for (int I = 0; I < 500; ++I)
    S += (Which[I] + 1) * (I % 7);
  std::printf("classify: %ld\n", S);

  std::vector<float> H(300), Hy(300);
  for (int I = 0; I < 300; ++I)
    H[I] = (I % 9) * 0.5f;
  hinted(H, Hy);
  double U = 0;
  for (int I = 0; I < 300; ++I)
    U += Hy[I] * (I % 4);
  std::printf("hinted: %.3f\n", U);
}
