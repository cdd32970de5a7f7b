// The rewrite: the marked loop becomes
// `if (!weft::detail::launch(descriptor, source, captures...)) <loop>`.
// RUN: %weftxx -fsyntax-only -Xclang -ast-dump -Xclang -ast-dump-filter=scale %s | FileCheck %s
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
// CHECK: StringLiteral {{.*}} "weft 1\nkernel weft_ast_dump_L[[@LINE-8]]_{{[0-9a-f]+}}\nloc {{.*}}ast-dump.cpp:[[@LINE-8]]:3\nparam inout f32 v\nparam scalar f32 f\nlevel (lit 0) (size 0) 1 lt\nblock 256\n"
// CHECK: StringLiteral {{.*}} "// weft kernel for the loop at
// CHECK: DeclRefExpr {{.*}} 'v' 'std::span<float>'
// CHECK: DeclRefExpr {{.*}} 'f' 'float'
// The original loop stays as the fallback.
// CHECK: ForStmt
