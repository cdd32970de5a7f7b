// Mappings for the sizes met at run time: a nest whose bounds are captured
// sizes is mapped again for a grid of those sizes, each distinct mapping
// becomes a kernel (a remark says which sizes it serves), and each launch
// takes the mapping chosen for the sizes nearest its own (WEFT_VERBOSE says
// which, when it changes); the results are the host's.
// RUN: rm -rf %t.k && %weftxx %s -o %t.exe -fplugin-arg-weft-emit-dir=%t.k -fplugin-arg-weft-remarks %weft_link 2> %t.remarks
// RUN: FileCheck --check-prefix=REMARK %s < %t.remarks
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 WEFT_VERBOSE=1 %t.exe > %t.sim 2> %t.err
// RUN: diff %t.host %t.sim
// RUN: FileCheck --check-prefix=CHOICE %s < %t.err
// RUN: sed -n 's/.*, kernel //p' %t.err | sort -u | count 2
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

// REMARK: mapping-choice.cpp:[[@LINE+11]]:3: remark: weft: level 0 (r): {{.*}}the extent of level 0 (r) is assumed to be 1024
// REMARK: mapping-choice.cpp:[[@LINE+10]]:3: remark: weft: mapping 1 of [[N:[2-8]]], for sizes near rows = {{[0-9]+}}, cols = {{[0-9]+}}{{.*}}; level 0: {{.*}}; level 1: {{.*}}; kernel weft_mapping_choice_L[[@LINE+10]]_{{[0-9a-f]+}}
// Short rows take another mapping than long ones (two kernels run), and
// the same one again when they come back.
// CHOICE: mapping-choice.cpp:[[@LINE+7]]:3: sizes (16384, 16): mapping [[SHORT:[0-7]]] of [[M:[2-8]]], kernel [[K:weft_mapping_choice_L[0-9]+_[0-9a-f]+]]
// CHOICE: sizes (16, 16384): mapping {{[0-7]}} of [[M]], kernel
// CHOICE: sizes (16384, 16): mapping [[SHORT]] of [[M]], kernel [[K]]{{$}}
// CHOICE-NOT: sizes
void sumRows(std::span<const float> m, std::span<float> out, int rows,
             int cols) {
#pragma weft parallel for
  for (int r = 0; r < rows; ++r) {
    float s = 0;
#pragma weft parallel for reduction(+ : s)
    for (int c = 0; c < cols; ++c)
      s += m[r * cols + c];
    out[r] = s;
  }
}

int main() {
  const int Shapes[][2] = {{16384, 16}, {16, 16384}, {16384, 16}};
  for (const auto &S : Shapes) {
    std::vector<float> M(S[0] * S[1]), Out(S[0]);
    for (std::size_t I = 0; I < M.size(); ++I)
      M[I] = static_cast<float>(I % 13) * 0.25f;
    sumRows(M, Out, S[0], S[1]);
    double Total = 0;
    for (float V : Out)
      Total += V;
    std::printf("%d x %d: %.2f %.2f\n", S[0], S[1], Out[0], Total);
  }
}
