// LoopHeader.cpp: an unmarked loop's header read as a level's, and the level
// that runs its iterations.
#include "ir/LoopHeader.h"

#include "ir/IrQueries.h"

#include <algorithm>
#include <set>

namespace weft::ir {
namespace {

bool isUnsigned(ScalarKind K) {
  switch (K) {
  case ScalarKind::Bool:
  case ScalarKind::UChar:
  case ScalarKind::UShort:
  case ScalarKind::UInt:
  case ScalarKind::ULong:
  case ScalarKind::ULongLong:
    return true;
  default:
    return false;
  }
}

bool isIntegerType(ScalarKind K) {
  return K != ScalarKind::Bool && K != ScalarKind::Key128 && !isFloating(K);
}

/// The operands of a chain of commas, in order.
void commaParts(const Expr &E, std::vector<const Expr *> &Out) {
  if (E.Kind == Expr::Binary && E.Text == ",") {
    commaParts(*E.Operands[0], Out);
    commaParts(*E.Operands[1], Out);
    return;
  }
  Out.push_back(&E);
}

/// A step of a local: `++v`, `v--`, `v += c`, `v = v - c`. By is null for
/// a step of one.
struct LocalStep {
  std::string Name;
  const Expr *By = nullptr;
  bool Back = false;
};

std::optional<LocalStep> localStep(const Expr &E) {
  if ((E.Kind == Expr::Unary || E.Kind == Expr::Postfix) &&
      (E.Text == "++" || E.Text == "--")) {
    const Expr &V = stripCasts(*E.Operands[0]);
    if (V.Kind != Expr::Local)
      return std::nullopt;
    return LocalStep{V.Text, nullptr, E.Text == "--"};
  }
  if (E.Kind != Expr::Binary)
    return std::nullopt;
  const Expr &V = stripCasts(*E.Operands[0]);
  if (V.Kind != Expr::Local)
    return std::nullopt;
  if (E.Text == "+=" || E.Text == "-=")
    return LocalStep{V.Text, E.Operands[1].get(), E.Text == "-="};
  const Expr &Sum = stripCasts(*E.Operands[1]);
  if (E.Text == "=" && Sum.Kind == Expr::Binary &&
      (Sum.Text == "+" || Sum.Text == "-") &&
      isLocalNamed(*Sum.Operands[0], V.Text))
    return LocalStep{V.Text, Sum.Operands[1].get(), Sum.Text == "-"};
  return std::nullopt;
}

bool readsAny(const Expr &E, const std::set<std::string> &Names) {
  return anyExpression(E, [&](const Expr &X) {
    return (X.Kind == Expr::Local || X.Kind == Expr::LocalElement) &&
           Names.count(X.Text);
  });
}

ExprPtr node(Expr::KindType K, ScalarKind T, std::string Text) {
  auto E = std::make_unique<Expr>();
  E->Kind = K;
  E->Type = T;
  E->Text = std::move(Text);
  return E;
}

ExprPtr binary(const char *Op, ExprPtr A, ExprPtr B, ScalarKind T) {
  ExprPtr E = node(Expr::Binary, T, Op);
  E->Operands.push_back(std::move(A));
  E->Operands.push_back(std::move(B));
  return E;
}

ExprPtr literal(std::int64_t V, ScalarKind T) {
  return node(Expr::IntLiteral, T, std::to_string(V));
}

} // namespace

std::vector<const Expr *> LoopHeader::reads() const {
  std::vector<const Expr *> Out = {Lower, Upper};
  for (const Beside &B : Besides) {
    Out.push_back(B.Decl->Exprs[0].get());
    if (B.By)
      Out.push_back(B.By);
  }
  return Out;
}

namespace {

/// The header's variables: the For's own declarations, or those of the
/// Block that holds them and the For (Declared); or, where AssignedIndex,
/// a variable declared before that the header assigns (C's `for (i = 0;
/// ...)`, Assigned: `i = start`). Loop: the For. False for other forms.
bool headerVariables(const Stmt &S, bool AssignedIndex, const Stmt *&Loop,
                     std::vector<const Stmt *> &Declared,
                     const Expr *&Assigned) {
  Loop = &S;
  if (S.Kind == Stmt::Block) {
    if (S.Children.size() < 2 || !S.Children.back() ||
        S.Children.back()->Kind != Stmt::For || S.Children.back()->Children[0])
      return false;
    Loop = S.Children.back().get();
    for (std::size_t I = 0; I + 1 < S.Children.size(); ++I)
      Declared.push_back(S.Children[I].get());
    return true;
  }
  if (S.Kind != Stmt::For || !S.Children[0])
    return false;
  if (S.Children[0]->Kind != Stmt::ExprStmt || !AssignedIndex) {
    Declared.push_back(S.Children[0].get());
    return true;
  }
  const Expr *Set = S.Children[0]->Exprs[0].get();
  if (!Set || Set->Kind != Expr::Binary || Set->Text != "=" ||
      Set->Operands[0]->Kind != Expr::Local ||
      !isIntegerType(Set->Operands[0]->Type))
    return false;
  Assigned = Set;
  return true;
}

} // namespace

std::optional<LoopHeader> loopHeader(const Stmt &S,
                                     const std::vector<Function> &Functions,
                                     bool AssignedIndex) {
  const Stmt *Loop = nullptr;
  std::vector<const Stmt *> Declared;
  const Expr *Assigned = nullptr; // `i = start`
  if (!headerVariables(S, AssignedIndex, Loop, Declared, Assigned))
    return std::nullopt;
  if (Loop->Kind != Stmt::For || !Loop->Exprs[0] || !Loop->Exprs[1])
    return std::nullopt;
  std::set<std::string> Names;
  for (const Stmt *D : Declared) {
    if (D->Kind != Stmt::Decl || !D->Exprs[0] || D->ArrayExtent ||
        D->VarType.IsReference || D->VarType.Struct >= 0 ||
        !isIntegerType(D->VarType.Scalar) || !Names.insert(D->Name).second)
      return std::nullopt;
  }
  if (Assigned)
    Names.insert(Assigned->Operands[0]->Text);
  // Each value is the same whichever variable the header sets first.
  for (const Stmt *D : Declared)
    if (readsAny(*D->Exprs[0], Names))
      return std::nullopt;
  if (Assigned && readsAny(*Assigned->Operands[1], Names))
    return std::nullopt;

  // The condition names the index: `i < n`, `n > i`, `i >= 0`, ...
  const Expr &Cond = *Loop->Exprs[0];
  static const std::set<std::string> Comparisons = {"<", "<=", "!=", ">", ">="};
  if (Cond.Kind != Expr::Binary || !Comparisons.count(Cond.Text))
    return std::nullopt;
  const Stmt *IndexDecl = nullptr;
  const Expr *Bound = nullptr;
  std::string Op = Cond.Text;
  std::vector<std::string> Candidates;
  for (const Stmt *D : Declared)
    Candidates.push_back(D->Name);
  if (Assigned)
    Candidates.push_back(Assigned->Operands[0]->Text);
  std::string Index;
  for (const std::string &Name : Candidates)
    if (isLocalNamed(*Cond.Operands[0], Name)) {
      Index = Name;
      Bound = Cond.Operands[1].get();
    } else if (isLocalNamed(*Cond.Operands[1], Name) && Index.empty()) {
      Index = Name;
      Bound = Cond.Operands[0].get();
      // `n > i` is `i < n`.
      Op = Op == "<"    ? ">"
           : Op == "<=" ? ">="
           : Op == ">"  ? "<"
           : Op == ">=" ? "<="
                        : Op;
    }
  if (Index.empty())
    return std::nullopt;
  for (const Stmt *D : Declared)
    if (D->Name == Index)
      IndexDecl = D;
  LoopHeader H;
  H.Loop = Loop;
  H.Index = Index;
  H.IndexType =
      IndexDecl ? IndexDecl->VarType.Scalar : Assigned->Operands[0]->Type;

  // The increment: the index's step, and one step or none of each other
  // variable.
  std::vector<const Expr *> Steps;
  commaParts(*Loop->Exprs[1], Steps);
  std::optional<LocalStep> IndexStep;
  std::vector<LocalStep> Others;
  for (const Expr *E : Steps) {
    std::optional<LocalStep> Step = localStep(*E);
    if (!Step || !Names.count(Step->Name))
      return std::nullopt;
    if (Step->Name == H.Index) {
      if (IndexStep)
        return std::nullopt;
      IndexStep = Step;
      continue;
    }
    if (std::any_of(Others.begin(), Others.end(),
                    [&](const LocalStep &O) { return O.Name == Step->Name; }))
      return std::nullopt;
    Others.push_back(*Step);
  }
  if (!IndexStep)
    return std::nullopt;
  std::optional<std::int64_t> By =
      IndexStep->By ? integerValue(stripCasts(*IndexStep->By))
                    : std::optional<std::int64_t>(1);
  if (!By || *By <= 0)
    return std::nullopt;
  H.Step = *By;
  H.CountsDown = IndexStep->Back;

  // The bound: an expression, or a variable the header sets once (its
  // value).
  const Stmt &Body = *Loop->Children[1];
  if (Assigned && mayWriteLocal(Body, Index, Functions))
    return std::nullopt;
  for (const Stmt *D : Declared) {
    if (mayWriteLocal(Body, D->Name, Functions))
      return std::nullopt;
    if (D == IndexDecl)
      continue;
    LoopHeader::Beside B{D};
    for (const LocalStep &O : Others)
      if (O.Name == D->Name) {
        B.Steps = true;
        B.By = O.By;
        B.Back = O.Back;
      }
    if (B.By && readsAny(*B.By, Names))
      return std::nullopt;
    if (!B.Steps && isLocalNamed(*Bound, D->Name))
      Bound = D->Exprs[0].get();
    H.Besides.push_back(B);
  }
  if (readsAny(*Bound, Names))
    return std::nullopt;
  const Expr *Start =
      IndexDecl ? IndexDecl->Exprs[0].get() : Assigned->Operands[1].get();
  if (!H.CountsDown) {
    // Up by Step while below the bound (`!=` stops there only by steps of
    // one).
    if (Op != "<" && Op != "<=" && !(Op == "!=" && H.Step == 1))
      return std::nullopt;
    H.Lower = Start;
    H.Upper = Bound;
    H.Inclusive = Op == "<=";
    return H;
  }
  // Down while at or above the bound (`i >= lo` of an unsigned i may never
  // end, at 0, and by more than one it may pass 0 and wrap around; `!=` is
  // left to the loops that count up).
  if ((Op != ">=" && Op != ">") ||
      (isUnsigned(H.IndexType) && (Op == ">=" || H.Step > 1)))
    return std::nullopt;
  H.Lower = Bound;
  H.PastLower = Op == ">";
  H.Upper = Start;
  H.Inclusive = true;
  return H;
}

std::unique_ptr<Level> levelOf(Stmt &S, const LoopHeader &H, unsigned Depth) {
  Stmt &Loop = S.Kind == Stmt::Block ? *S.Children.back() : S;
  auto Made = std::make_unique<Level>();
  Made->IndexName = H.Index;
  Made->IndexType = H.IndexType;
  // The least index the condition allows (one past a strict bound)...
  const ScalarKind T = H.Lower->Type;
  auto Least = [&] {
    ExprPtr E = cloneExpr(*H.Lower);
    return H.PastLower ? binary("+", std::move(E), literal(1, T), T)
                       : std::move(E);
  };
  Made->Lower = Least();
  // ... and counted down by c, the last the loop reaches: lo + ((start -
  // lo) % c + c) % c (above the start where it is below lo: no iteration).
  if (H.CountsDown && H.Step > 1) {
    auto C = [&] { return literal(H.Step, T); };
    ExprPtr Past =
        binary("%", binary("-", cloneExpr(*H.Upper), Least(), T), C(), T);
    Past = binary("%", binary("+", std::move(Past), C(), T), C(), T);
    Made->Lower = binary("+", std::move(Made->Lower), std::move(Past), T);
  }
  Made->Upper = cloneExpr(*H.Upper);
  Made->Inclusive = H.Inclusive;
  Made->CountsDown = H.CountsDown;
  Made->Step = H.Step;
  Made->Location = Loop.Location;
  Made->Shown = Loop.Name;
  Made->Depth = Depth;
  // The iterations before this one: (i - start) / step, counted down
  // start - i.
  auto Before = [&] {
    ExprPtr Index = node(Expr::Local, H.IndexType, H.Index);
    ExprPtr Start = cloneExpr(H.CountsDown ? *H.Upper : *H.Lower);
    ExprPtr Done =
        H.CountsDown
            ? binary("-", std::move(Start), std::move(Index), H.IndexType)
            : binary("-", std::move(Index), std::move(Start), H.IndexType);
    return H.Step == 1 ? std::move(Done)
                       : binary("/", std::move(Done),
                                literal(H.Step, H.IndexType), H.IndexType);
  };
  for (const LoopHeader::Beside &B : H.Besides) {
    auto D = std::make_unique<Stmt>();
    D->Kind = Stmt::Decl;
    D->Name = B.Decl->Name;
    D->VarType = B.Decl->VarType;
    const ScalarKind T = D->VarType.Scalar;
    ExprPtr Value = cloneExpr(*B.Decl->Exprs[0]);
    if (B.Steps) {
      ExprPtr Moved =
          B.By ? binary("*", castTo(Before(), T), cloneExpr(*B.By), T)
               : castTo(Before(), T);
      Value = binary(B.Back ? "-" : "+", std::move(Value), std::move(Moved), T);
    }
    D->Exprs.push_back(std::move(Value));
    Made->Body.push_back(std::move(D));
  }
  if (std::vector<StmtPtr> *Within = blockStatements(*Loop.Children[1]))
    for (StmtPtr &C : *Within)
      Made->Body.push_back(std::move(C));
  else
    Made->Body.push_back(std::move(Loop.Children[1]));
  return Made;
}

} // namespace weft::ir
