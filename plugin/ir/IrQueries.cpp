// IrQueries.cpp: small questions about nest IR shared by the stages.
#include "ir/IrQueries.h"

#include <cstdlib>

namespace weft::ir {

const Expr &stripCasts(const Expr &E) {
  return E.Kind == Expr::Cast ? stripCasts(*E.Operands[0]) : E;
}

bool assigns(const Expr &E) {
  return E.Kind == Expr::Combine ||
         (E.Kind == Expr::Binary && E.Text.back() == '=' && E.Text != "==" &&
          E.Text != "!=" && E.Text != "<=" && E.Text != ">=") ||
         ((E.Kind == Expr::Unary || E.Kind == Expr::Postfix) &&
          (E.Text == "++" || E.Text == "--"));
}

const Expr &writtenRoot(const Expr &E) {
  const Expr *T = &stripCasts(E);
  while (T->Kind == Expr::Member)
    T = &stripCasts(*T->Operands[0]);
  return *T;
}

const Expr *writtenElement(const Expr &E) {
  if (E.Kind == Expr::Combine)
    return E.Operands[0].get();
  return E.Kind == Expr::SpanElement && E.writes() ? &E : nullptr;
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

std::optional<CountedLoop> countedLoop(const Stmt &S) {
  if (S.Kind != Stmt::For)
    return std::nullopt;
  const Stmt *Init = S.Children[0].get();
  if (!Init || Init->Kind != Stmt::Decl || !Init->Exprs[0] ||
      Init->ArrayExtent || Init->VarType.IsReference || !S.Exprs[0] ||
      !S.Exprs[1])
    return std::nullopt;
  const std::string &K = Init->Name;
  const Expr &Cond = *S.Exprs[0], &Step = *S.Exprs[1];
  auto IsIndex = [&](const Expr &E) {
    const Expr &V = stripCasts(E);
    return V.Kind == Expr::Local && V.Text == K;
  };
  if (Cond.Kind != Expr::Binary || Cond.Text != "<" ||
      !IsIndex(*Cond.Operands[0]))
    return std::nullopt;
  const bool Increment =
      ((Step.Kind == Expr::Unary || Step.Kind == Expr::Postfix) &&
       Step.Text == "++") ||
      (Step.Kind == Expr::Binary && Step.Text == "+=" &&
       integerValue(stripCasts(*Step.Operands[1])) == 1);
  if (!Increment || !IsIndex(*Step.Operands[0]) ||
      writesLocal(*S.Children[1], K))
    return std::nullopt;
  return CountedLoop{K, Init->VarType.Scalar, Init->Exprs[0].get(),
                     Cond.Operands[1].get()};
}

bool isLocalNamed(const Expr &E, const std::string &Name) {
  const Expr &V = stripCasts(E);
  return V.Kind == Expr::Local && V.Text == Name;
}

ExprPtr castTo(ExprPtr E, ScalarKind T) {
  if (E->Type == T)
    return E;
  auto C = std::make_unique<Expr>();
  C->Kind = Expr::Cast;
  C->Type = T;
  C->Operands.push_back(std::move(E));
  return C;
}

bool mayWriteLocal(const Stmt &S, const std::string &Name,
                   const std::vector<Function> &Functions) {
  if (writesLocal(S, Name))
    return true;
  auto Lends = [&](const Expr &X) {
    if (X.Kind == Expr::Unary && X.Text == "&" &&
        isLocalNamed(*X.Operands[0], Name))
      return true;
    if (X.Kind != Expr::Call)
      return false;
    for (const Function &F : Functions) {
      if (F.Name != X.Text)
        continue;
      for (std::size_t I = 0; I < X.Operands.size() && I < F.Params.size(); ++I)
        if (F.Params[I].second.IsReference && !F.Params[I].second.IsConst &&
            isLocalNamed(*X.Operands[I], Name))
          return true;
    }
    return false;
  };
  // (Nested levels too, and references bound to it.)
  std::function<bool(const Stmt &)> Walk = [&](const Stmt &X) {
    if (X.Kind == Stmt::Decl && X.VarType.IsReference && !X.VarType.IsConst &&
        X.Exprs[0] && isLocalNamed(*X.Exprs[0], Name))
      return true;
    for (const ExprPtr &E : X.Exprs)
      if (E && anyExpression(*E, Lends))
        return true;
    for (const StmtPtr &C : X.Children)
      if (C && Walk(*C))
        return true;
    if (X.Nested)
      for (const StmtPtr &C : X.Nested->Body)
        if (Walk(*C))
          return true;
    return false;
  };
  return Walk(S);
}

std::vector<StmtPtr> *blockStatements(Stmt &S) {
  Stmt *B = &S;
  while (B->Kind == Stmt::Block && B->Children.size() == 1 &&
         B->Children[0]->Kind == Stmt::Block)
    B = B->Children[0].get();
  return B->Kind == Stmt::Block ? &B->Children : nullptr;
}

ExprPtr cloneExpr(const Expr &E) {
  auto C = std::make_unique<Expr>();
  C->Kind = E.Kind;
  C->Type = E.Type;
  C->Struct = E.Struct;
  C->Text = E.Text;
  C->ParamIndex = E.ParamIndex;
  C->Use = E.Use;
  C->Origin = E.Origin;
  for (const ExprPtr &O : E.Operands)
    C->Operands.push_back(cloneExpr(*O));
  return C;
}

bool sameExpr(const Expr &A, const Expr &B) {
  if (A.Kind != B.Kind || A.Type != B.Type || A.Struct != B.Struct ||
      A.Text != B.Text || A.ParamIndex != B.ParamIndex ||
      A.Operands.size() != B.Operands.size())
    return false;
  for (std::size_t I = 0; I < A.Operands.size(); ++I)
    if (!sameExpr(*A.Operands[I], *B.Operands[I]))
      return false;
  return true;
}

bool reduces(const Level &L) {
  return !L.Reductions.empty() || !L.ArrayReductions.empty();
}

bool gridUniform(const Expr &E) {
  if (assigns(E) || E.Kind == Expr::Local || E.Kind == Expr::LocalElement ||
      E.Kind == Expr::SpanElement || E.Kind == Expr::Call)
    return false;
  for (const ExprPtr &O : E.Operands)
    if (!gridUniform(*O))
      return false;
  return true;
}

bool readsOnly(const Expr &E, const std::set<std::string> &Allowed) {
  return !anyExpression(E, [&](const Expr &X) {
    return (X.Kind == Expr::Local && !Allowed.count(X.Text)) ||
           X.Kind == Expr::SpanElement || X.Kind == Expr::LocalElement ||
           X.Kind == Expr::Call || assigns(X);
  });
}

unsigned elementBytes(const Nest &N, const Param &P) {
  return P.Struct >= 0 ? N.Structs[P.Struct].Size : byteSize(P.Element);
}

bool touchesSpan(const Expr &E) {
  return anyExpression(
      E, [](const Expr &X) { return X.Kind == Expr::SpanElement; });
}

bool anyExpression(const Expr &E, const std::function<bool(const Expr &)> &F) {
  if (F(E))
    return true;
  for (const ExprPtr &O : E.Operands)
    if (anyExpression(*O, F))
      return true;
  return false;
}

bool anyStatement(const Stmt &S, const std::function<bool(const Stmt &)> &F) {
  if (F(S))
    return true;
  for (const StmtPtr &C : S.Children)
    if (C && anyStatement(*C, F))
      return true;
  return false;
}

bool straightLine(const std::vector<StmtPtr> &Body, unsigned MaxStatements) {
  unsigned Count = 0;
  auto Branchy = [&](const Stmt &S) {
    ++Count;
    switch (S.Kind) {
    case Stmt::Block:
    case Stmt::Decl:
    case Stmt::ExprStmt:
    case Stmt::If:
      for (const ExprPtr &E : S.Exprs)
        if (E && anyExpression(*E, [](const Expr &X) {
              return X.Kind == Expr::Call && X.Text.rfind("weft::", 0) != 0;
            }))
          return true;
      return false;
    default:
      return true;
    }
  };
  for (const StmtPtr &S : Body)
    if (S && anyStatement(*S, Branchy))
      return false;
  return Count <= MaxStatements;
}

bool holdsLevels(const Stmt &S) {
  return anyStatement(
      S, [](const Stmt &X) { return X.Kind == Stmt::ParallelFor; });
}

std::optional<RowsSubscript> rowsSubscript(const Nest &N, unsigned Param,
                                           const Expr &Subscript) {
  const Expr &Sum = stripCasts(Subscript);
  if (!N.Params[Param].RowsApart || Sum.Kind != Expr::Binary ||
      Sum.Text != "+" || Sum.Operands.size() != 2)
    return std::nullopt;
  const Expr &Start = stripCasts(*Sum.Operands[0]);
  if (Start.Kind == Expr::SpanElement &&
      N.Params[Start.ParamIndex].RowOffsetsOf == static_cast<int>(Param))
    return RowsSubscript{Start.Operands[0].get(), Sum.Operands[1].get()};
  // Rows of one length (a nest recognized for uniform rows, or rows held
  // as pointers): row * columns.
  if (Start.Kind == Expr::Binary && Start.Text == "*" &&
      Start.Operands.size() == 2) {
    const Expr &Columns = stripCasts(*Start.Operands[1]);
    if (Columns.Kind == Expr::ParamRef &&
        (N.Params[Columns.ParamIndex].CommonRowLengthOf ==
             static_cast<int>(Param) ||
         N.Params[Columns.ParamIndex].StatedRowLengthOf ==
             static_cast<int>(Param)))
      return RowsSubscript{Start.Operands[0].get(), Sum.Operands[1].get()};
  }
  return std::nullopt;
}

bool anyExpression(const Stmt &S, const std::function<bool(const Expr &)> &F) {
  return anyStatement(S, [&](const Stmt &X) {
    for (const ExprPtr &E : X.Exprs)
      if (E && anyExpression(*E, F))
        return true;
    return false;
  });
}

} // namespace weft::ir
