// The rewrite: the marked loop becomes `if (!weft::detail::launch(
// descriptor, source, captures...)) { <loop> hostLoopEnded(descriptor); }`,
// each captured span passed as weft::detail::dataArg(span).
// RUN: %weftxx -fsyntax-only -Xclang -ast-dump -Xclang -ast-dump-filter=scale %s | FileCheck %s
// RUN: %weftxx %s -DWITH_MAIN -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe > %t.host
// RUN: env WEFT_BACKEND=sim WEFT_SIM_CHECK=1 %t.exe > %t.sim 2> %t.err
// RUN: count 0 < %t.err
// RUN: diff %t.host %t.sim
#include <weft/weft.hpp>

void scale(std::span<float> v, float f) {
#pragma weft parallel for
  for (int i = 0; i < (int)v.size(); ++i)
    v[i] *= f;
}
// CHECK: FunctionDecl {{.*}} scale 'void (std::span<float>, float)'
// CHECK: IfStmt
// CHECK-NEXT: UnaryOperator {{.*}} 'bool' prefix '!'
// CHECK-NEXT: CallExpr {{.*}} 'bool'
// CHECK: DeclRefExpr {{.*}} 'launch'
// CHECK: StringLiteral {{.*}} "weft 8\nkernel weft_ast_dump_L[[@LINE-8]]_{{[0-9a-f]+}}\nloc {{.*}}ast-dump.cpp:[[@LINE-8]]:3\nfunction scale\nparam inout f32 v\nparam scalar f32 f\nlevel (lit 0) (size 0) 1 lt\nmap 0 x 256 span 1\ntune WEFT_BLOCK_X x 256 32 64 128 512 1024\n"
// CHECK: StringLiteral {{.*}} "// weft kernel for the loop at
// Captured data goes through dataArg, read-only scalars through copyOf (the
// launch points at a copy, so the variable does not escape and the host
// loop keeps it in a register).
// CHECK: DeclRefExpr {{.*}} 'dataArg'
// CHECK: DeclRefExpr {{.*}} 'v' 'std::span<float>'
// CHECK: DeclRefExpr {{.*}} 'copyOf'
// CHECK: DeclRefExpr {{.*}} 'f' 'float'
// The original loop stays as the fallback, followed by the call that tells
// the runtime's profile it ended.
// CHECK: ForStmt
// CHECK: CallExpr {{.*}} 'void'
// CHECK: DeclRefExpr {{.*}} 'hostLoopEnded'
// CHECK-NEXT: ImplicitCastExpr
// CHECK-NEXT: StringLiteral {{.*}} "weft 8\nkernel weft_ast_dump_L

#ifdef WITH_MAIN
#include <cstdio>
int main() {
  float Data[100];
  for (int I = 0; I < 100; ++I)
    Data[I] = 0.25f * I;
  scale(Data, 3.0f);
  std::printf("%g %g\n", Data[1], Data[99]);
}
#endif
