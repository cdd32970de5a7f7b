// switch in a loop body (break leaves the switch) and in a device function
// (return from its cases).
#include <cstdio>
#include <vector>
#include <weft/weft.hpp>
enum Op { Add = 1, Mul = 2, Neg = 3 };
int classify(int v) {
  switch (v % 4) {
  case 0:
    return 10;
  case 1:
  case 2:
    return 20;
  default:
    return 30;
  }
}
void apply(std::span<const int> ops, std::span<float> y) {
#pragma weft parallel for
  for (std::size_t i = 0; i < y.size(); ++i) {
    switch (ops[i]) {
    case Add:
      y[i] += 1;
      break;
    case Mul:
      y[i] *= 3;
      break;
    case Neg: {
      float t = -y[i];
      y[i] = t;
    } break;
    default:
      y[i] = static_cast<float>(classify(ops[i]));
    }
  }
}
int main() {
  std::vector<int> Ops(500);
  std::vector<float> Y(500);
  for (int i = 0; i < 500; ++i) {
    Ops[i] = i % 6;
    Y[i] = i * 0.5f;
  }
  apply(Ops, Y);
  double s = 0;
  for (float v : Y)
    s += v;
  std::printf("%.3f\n", s);
}
