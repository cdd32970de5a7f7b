// A register tile's loads from global memory are 128-bit where the tile's
// subscript runs along the row a block loads (a[i * n + k] along k,
// b[k * n + j] along j): NVRTC's PTX for the product holds 16-byte loads of
// floats (and of doubles); a column read with stride 2 is loaded an element
// at a time, so its kernel has fewer. (That results match on the simulator
// whatever the alignment is register-tiles.cpp's job.)
// REQUIRES: nvrtc
// RUN: rm -rf %t.f %t.d %t.s
// RUN: %weftxx -fsyntax-only -DFLOATS %s -fplugin-arg-weft-emit-dir=%t.f
// RUN: %weft_nvrtc --ptx %t.f/*.cu | FileCheck %s --check-prefix=FLOAT
// RUN: %weftxx -fsyntax-only -DDOUBLES %s -fplugin-arg-weft-emit-dir=%t.d
// RUN: %weft_nvrtc --ptx %t.d/*.cu | FileCheck %s --check-prefix=DOUBLE
// RUN: %weftxx -fsyntax-only -DSTRIDED %s -fplugin-arg-weft-emit-dir=%t.s
// RUN: cat %t.s/*.cu | FileCheck %s --check-prefix=STRIDED
// RUN: %weft_nvrtc --ptx %t.f/*.cu | grep -c 'ld.global.*v4.f32' > %t.f.count
// RUN: %weft_nvrtc --ptx %t.s/*.cu | grep -c 'ld.global.*v4.f32' > %t.s.count
// RUN: test "$(cat %t.s.count)" -gt 0
// RUN: test "$(cat %t.f.count)" -gt "$(cat %t.s.count)"
#include <weft/weft.hpp>

#if defined(FLOATS)
using T = float;
#define STRIDE 1
#elif defined(DOUBLES)
using T = double;
#define STRIDE 1
#else
using T = float;
#define STRIDE 2
#endif

// FLOAT: ld.global{{(\.nc)?}}.v4.f32
// FLOAT: NVRTC {{.*}}: 1 passed, 0 failed
// DOUBLE: ld.global{{(\.nc)?}}.v2.f64
// DOUBLE: NVRTC {{.*}}: 1 passed, 0 failed
// STRIDED: #define WEFT_VEC0 (WEFT_TILE % 4 == 0 ? 4 : 1)
// STRIDED: #define WEFT_VEC1 (WEFT_BN % 1 == 0 ? 1 : 1)
void product(std::span<const T> a, std::span<const T> b, std::span<T> c,
             int n) {
#pragma weft parallel for dim(y) block(16) span(8)
  for (int i = 0; i < n; ++i)
#pragma weft parallel for dim(x) block(16) span(4)
    for (int j = 0; j < n; ++j) {
      T s = 0;
      for (int k = 0; k < n; ++k)
        s += a[i * n + k] * b[k * n * STRIDE + STRIDE * j];
      c[i * n + j] = s;
    }
}
