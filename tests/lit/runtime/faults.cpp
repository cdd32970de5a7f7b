// A failure at any stage of a launch (compile, allocate, copy-in, launch,
// synchronize) gives one warning line and the host loop, with the data
// intact: a read-write update is not applied twice, a reduction not counted
// twice.
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim %t.exe > %t.sim 2> %t.sim.err
// RUN: count 0 < %t.sim.err
// RUN: diff %t.host %t.sim
// RUN: for f in compile allocate copy-in launch synchronize; do env WEFT_BACKEND=sim WEFT_TEST_FAULT=$f %t.exe > %t.$f 2> %t.$f.err && diff %t.host %t.$f && grep -c 'weft: warning' %t.$f.err | grep -qx 3 && grep -q "injected fault (WEFT_TEST_FAULT=$f); the loop runs on the host" %t.$f.err || exit 1; done
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

void update(std::span<float> Y, std::span<const float> X) {
#pragma weft parallel for
  for (std::size_t I = 0; I < Y.size(); ++I)
    Y[I] = 2 * Y[I] + X[I];
}

double sum(std::span<const float> Y) {
  double S = 10;
#pragma weft parallel for reduction(+: S)
  for (std::size_t I = 0; I < Y.size(); ++I)
    S += Y[I];
  return S;
}

void window(std::span<const float> In, std::span<float> Out, int W) {
#pragma weft parallel for
  for (std::size_t I = 0; I < Out.size(); ++I) {
    std::vector<float> Buf(W);
    for (int K = 0; K < W; ++K)
      Buf[K] = In[(I + K) % In.size()];
    float M = Buf[0];
    for (int K = 1; K < W; ++K)
      M = Buf[K] > M ? Buf[K] : M;
    Out[I] = M;
  }
}

int main() {
  std::vector<float> Y(1000), X(1000), Out(1000);
  for (int I = 0; I < 1000; ++I) {
    Y[I] = static_cast<float>(I % 13);
    X[I] = static_cast<float>(I % 5);
  }
  for (int R = 0; R < 3; ++R)
    update(Y, X);
  window(Y, Out, 7);
  std::printf("%.3f %.3f %.3f\n", sum(Y), Y[999], Out[500]);
}
