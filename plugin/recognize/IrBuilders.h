// IrBuilders.h: the nest IR's nodes as the recognizer builds them: a node
// of a kind, a conversion, an arithmetic operation.
#ifndef WEFT_PLUGIN_RECOGNIZE_IRBUILDERS_H
#define WEFT_PLUGIN_RECOGNIZE_IRBUILDERS_H

#include "ir/NestIR.h"

#include <memory>
#include <string>

namespace weft::recognize {

/// A node of kind K, of type T.
inline ir::ExprPtr make(ir::Expr::KindType K, ir::ScalarKind T,
                        std::string Text = "") {
  auto E = std::make_unique<ir::Expr>();
  E->Kind = K;
  E->Type = T;
  E->Text = std::move(Text);
  return E;
}

/// A statement of kind K, its parts to fill.
inline ir::StmtPtr statement(ir::Stmt::KindType K) {
  auto S = std::make_unique<ir::Stmt>();
  S->Kind = K;
  return S;
}

/// E converted to Type: by default a 64-bit index, as the host's address
/// arithmetic is.
inline ir::ExprPtr converted(ir::ExprPtr E,
                             ir::ScalarKind Type = ir::ScalarKind::Long) {
  auto C = make(ir::Expr::Cast, Type);
  C->Operands.push_back(std::move(E));
  return C;
}
/// L Op R (an arithmetic operator), of Type.
inline ir::ExprPtr operation(const char *Op, ir::ExprPtr L, ir::ExprPtr R,
                             ir::ScalarKind Type = ir::ScalarKind::Long) {
  auto B = make(ir::Expr::Binary, Type, Op);
  B->Operands.push_back(std::move(L));
  B->Operands.push_back(std::move(R));
  return B;
}

} // namespace weft::recognize

#endif
