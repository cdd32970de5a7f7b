// Mentions.h: whether a statement names a variable, for the stages that ask
// it of Clang's AST (the OpenMP marks, liveness).
#ifndef WEFT_PLUGIN_SUPPORT_MENTIONS_H
#define WEFT_PLUGIN_SUPPORT_MENTIONS_H

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

namespace weft {

/// Whether S names V anywhere, the body of a captured statement (an OpenMP
/// directive's) included.
inline bool mentions(const clang::Stmt *S, const clang::VarDecl *V) {
  if (!S)
    return false;
  if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(S))
    return Ref->getDecl() == V;
  if (const auto *Captured = llvm::dyn_cast<clang::CapturedStmt>(S))
    return mentions(Captured->getCapturedStmt(), V);
  for (const clang::Stmt *C : S->children())
    if (mentions(C, V))
      return true;
  return false;
}

} // namespace weft

#endif
