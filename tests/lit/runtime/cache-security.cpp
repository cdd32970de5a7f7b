// The kernel cache on the simulator, as another user might attack it: a
// cache root anyone can write is not used (one warning; the kernels still
// run, compiled in a private folder for this run), and a cached object
// replaced by a link to someone else's library is not loaded (it is
// compiled again). A clean cache is used on the second run.
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: %clangxx -shared -fPIC -DPLANTED %s -o %t.planted.so
//
// A root writable by others.
// RUN: rm -rf %t.open && mkdir %t.open && chmod 777 %t.open
// RUN: env WEFT_BACKEND=sim WEFT_CACHE_DIR=%t.open WEFT_VERBOSE=1 %t.exe > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=OPEN < %t.err
// RUN: grep -c warning %t.err | grep -qx 1
// RUN: test ! -e %t.open/sim
// OPEN: weft: warning: the kernel cache is not used: {{.*}}.open is writable by others or not yours; kernels are compiled for this run only
// OPEN: 1 calls on sim, 0 on the host
//
// A backend folder that is a link.
// RUN: rm -rf %t.linked %t.elsewhere && mkdir -m 700 %t.linked %t.elsewhere
// RUN: ln -s %t.elsewhere %t.linked/sim
// RUN: env WEFT_BACKEND=sim WEFT_CACHE_DIR=%t.linked WEFT_VERBOSE=1 %t.exe 2>&1 | FileCheck %s --check-prefix=LINKED
// LINKED: weft: warning: the kernel cache is not used: {{.*}}.linked/sim is a symbolic link
// LINKED: 1 calls on sim, 0 on the host
//
// A cached object swapped for a link to a planted library.
// RUN: rm -rf %t.cache && mkdir -m 700 %t.cache
// RUN: env WEFT_BACKEND=sim WEFT_CACHE_DIR=%t.cache %t.exe > %t.first 2>&1
// RUN: for so in %t.cache/sim/*.so; do rm "$so"; ln -s %t.planted.so "$so"; done
// RUN: env WEFT_BACKEND=sim WEFT_CACHE_DIR=%t.cache WEFT_VERBOSE=1 %t.exe > %t.second 2>&1
// RUN: FileCheck %s --check-prefix=SWAPPED --implicit-check-not=PLANTED --implicit-check-not=warning < %t.second
// RUN: test ! -L %t.cache/sim/$(cd %t.cache/sim && ls *.so | head -n 1)
// SWAPPED: 1 calls on sim, 0 on the host
#ifdef PLANTED
#include <cstdio>
__attribute__((constructor)) static void planted() {
  std::fprintf(stderr, "PLANTED library loaded\n");
}
#else
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

int main() {
  std::vector<float> V(100, 1.0f);
  std::span<float> S(V);
#pragma weft parallel for
  for (int I = 0; I < 100; ++I)
    S[I] *= 3;
  std::printf("%g\n", V[99]);
}
#endif
