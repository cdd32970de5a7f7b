// IrQueries.cpp: small questions about nest IR shared by the stages.
#include "ir/IrQueries.h"

namespace weft::ir {

const Expr &stripCasts(const Expr &E) {
  return E.Kind == Expr::Cast ? stripCasts(*E.Operands[0]) : E;
}

bool assigns(const Expr &E) {
  return (E.Kind == Expr::Binary && E.Text.back() == '=' && E.Text != "==" &&
          E.Text != "!=" && E.Text != "<=" && E.Text != ">=") ||
         ((E.Kind == Expr::Unary || E.Kind == Expr::Postfix) &&
          (E.Text == "++" || E.Text == "--"));
}

/// Writes local Name anywhere in E.
bool writesLocal(const Expr &E, const std::string &Name) {
  if (assigns(E)) {
    const Expr &T = stripCasts(*E.Operands[0]);
    if (T.Kind == Expr::Local && T.Text == Name)
      return true;
  }
  for (const ExprPtr &O : E.Operands)
    if (writesLocal(*O, Name))
      return true;
  return false;
}
bool writesLocal(const Stmt &S, const std::string &Name) {
  for (const ExprPtr &E : S.Exprs)
    if (E && writesLocal(*E, Name))
      return true;
  for (const StmtPtr &C : S.Children)
    if (C && writesLocal(*C, Name))
      return true;
  if (S.Kind == Stmt::ParallelFor)
    for (const StmtPtr &C : S.Nested->Body)
      if (writesLocal(*C, Name))
        return true;
  return false;
}

/// Every name declared anywhere inside a level's body.
void declaredNames(const Stmt &S, std::set<std::string> &Names) {
  if (S.Kind == Stmt::Decl)
    Names.insert(S.Name);
  for (const StmtPtr &C : S.Children)
    if (C)
      declaredNames(*C, Names);
  if (S.Kind == Stmt::ParallelFor) {
    Names.insert(S.Nested->IndexName);
    for (const StmtPtr &C : S.Nested->Body)
      declaredNames(*C, Names);
  }
}

bool touchesSpan(const Expr &E) {
  if (E.Kind == Expr::SpanElement)
    return true;
  for (const ExprPtr &O : E.Operands)
    if (touchesSpan(*O))
      return true;
  return false;
}

} // namespace weft::ir
