// An n-body step: a span of a particle struct, a helper function taking and
// returning structs, and an inner parallel level reducing three components.
// RUN: %weftxx -fsyntax-only -fplugin-arg-weft-dump-ir %s | FileCheck %s
// RUN: rm -rf %t.k && %weftxx -c %s -o %t.o -fplugin-arg-weft-emit-dir=%t.k
// RUN: cat %t.k/*.cu | FileCheck %s --check-prefix=KERNEL
// RUN: %weftxx %s -DWITH_MAIN -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
#include <weft/weft.hpp>

#include <cmath>

struct Particle {
  float x, y, z, m;
};
struct Vec3 {
  float x, y, z;
};
struct Step {
  float dt, softening;
};

inline Vec3 pull(const Particle &a, const Particle &b, float soft) {
  Vec3 d{b.x - a.x, b.y - a.y, b.z - a.z};
  float r2 = d.x * d.x + d.y * d.y + d.z * d.z + soft;
  float s = b.m / (r2 * std::sqrt(r2));
  return {d.x * s, d.y * s, d.z * s};
}

void step(std::span<const Particle> in, std::span<Particle> out,
          std::span<Vec3> velocity, Step st) {
#pragma weft parallel for
  for (std::size_t i = 0; i < in.size(); ++i) {
    const Particle p = in[i];
    float fx = 0, fy = 0, fz = 0;
#pragma weft parallel for reduction(+: fx, fy, fz)
    for (std::size_t j = 0; j < in.size(); ++j) {
      Vec3 f = pull(p, in[j], st.softening);
      fx += f.x;
      fy += f.y;
      fz += f.z;
    }
    Vec3 &v = velocity[i];
    v.x += st.dt * fx;
    v.y += st.dt * fy;
    v.z += st.dt * fz;
    out[i] = Particle{p.x + st.dt * v.x, p.y + st.dt * v.y, p.z + st.dt * v.z,
                      p.m};
  }
}
// CHECK: nest at {{.*}}nbody.cpp:35:3
// CHECK-NEXT: param 0 in: read span of const weft_st_Particle_[[P:[0-9a-f]+]]
// CHECK-NEXT: param 1 st: scalar of weft_st_Step_{{[0-9a-f]+}}
// CHECK-NEXT: param 2 velocity: read-written span of weft_st_Vec3_[[V:[0-9a-f]+]]
// CHECK-NEXT: param 3 out: written span of weft_st_Particle_[[P]]
// CHECK-NEXT: struct weft_st_Particle_[[P]] (Particle, 16 bytes): float x; float y; float z; float m;
// CHECK-NEXT: struct weft_st_Vec3_[[V]] (Vec3, 12 bytes): float x; float y; float z;
// CHECK-NEXT: struct weft_st_Step_{{[0-9a-f]+}} (Step, 8 bytes): float dt; float softening;
// CHECK-NEXT: function weft_fn_pull_{{[0-9a-f]+}} (pull): weft_st_Vec3_[[V]](const weft_st_Particle_[[P]]& a, const weft_st_Particle_[[P]]& b, float soft)
// CHECK-NEXT: decl weft_st_Vec3_[[V]] d = weft_st_Vec3_[[V]]{(b.x - a.x), (b.y - a.y), (b.z - a.z)}
// CHECK: return weft_st_Vec3_[[V]]{(d.x * s), (d.y * s), (d.z * s)}
// CHECK: decl const weft_st_Particle_[[P]] p = $in[i]
// CHECK: level 1 at {{.*}}: unsigned long j in [unsigned long(0), size($in)) step 1, reduction(+: fx), reduction(+: fy), reduction(+: fz)
// CHECK-NEXT: decl weft_st_Vec3_[[V]] f = weft_fn_pull_{{[0-9a-f]+}}(p, $in[j], $st.softening)
// CHECK: decl weft_st_Vec3_[[V]]& v = $velocity[i]
// CHECK-NEXT: (v.x += ($st.dt * fx))
// CHECK: ($out[i] = weft_st_Particle_[[P]]{(p.x + ($st.dt * v.x)), (p.y + ($st.dt * v.y)), (p.z + ($st.dt * v.z)), p.m})

// KERNEL: struct weft_st_Particle_{{[0-9a-f]+}} { // Particle
// KERNEL-NEXT: float x;
// KERNEL: WEFT_KERNEL(weft_nbody_L35_{{[0-9a-f]+}}, WEFT_BLOCK_THREADS)
// KERNEL-NEXT: (weft::dspan<const weft_st_Particle_{{[0-9a-f]+}}> in, weft_st_Step_{{[0-9a-f]+}} st,

#ifdef WITH_MAIN
#include <cstdio>
#include <vector>
int main() {
  const int N = 96;
  std::vector<Particle> A(N), B(N);
  std::vector<Vec3> V(N, Vec3{0, 0, 0});
  for (int I = 0; I < N; ++I)
    A[I] = {std::cos(0.3f * I) * I, std::sin(0.2f * I) * I, 0.1f * I,
            1.0f + (I % 3)};
  for (int T = 0; T < 3; ++T) {
    step(A, B, V, Step{0.01f, 0.5f});
    std::swap(A, B);
  }
  double S = 0;
  for (int I = 0; I < N; ++I)
    S += A[I].x + 2 * A[I].y + 3 * A[I].z + V[I].x;
  std::printf("%.6g\n", S);
}
#endif
