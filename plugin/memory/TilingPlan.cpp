// TilingPlan.cpp: finds a sequential loop of a 2-D mapped nest whose reads
// can be staged tile by tile in shared memory.
#include "memory/TilingPlan.h"

#include "ir/IrQueries.h"

#include <cstdlib>
#include <set>

namespace weft::memory {
namespace {

/// Captures and literals only: the same value in every thread of the grid.
bool gridUniform(const ir::Expr &E) {
  if (ir::assigns(E) || E.Kind == ir::Expr::Local ||
      E.Kind == ir::Expr::LocalElement || E.Kind == ir::Expr::SpanElement ||
      E.Kind == ir::Expr::Call)
    return false;
  for (const ir::ExprPtr &O : E.Operands)
    if (!gridUniform(*O))
      return false;
  return true;
}

/// The locals E reads; false when it assigns or calls.
bool localsOf(const ir::Expr &E, std::set<std::string> &Names) {
  if (ir::assigns(E) || E.Kind == ir::Expr::Call ||
      E.Kind == ir::Expr::LocalElement || E.Kind == ir::Expr::SpanElement)
    return false;
  if (E.Kind == ir::Expr::Local)
    Names.insert(E.Text);
  for (const ir::ExprPtr &O : E.Operands)
    if (!localsOf(*O, Names))
      return false;
  return true;
}

bool hasBreakOrReturn(const ir::Stmt &S) {
  return ir::anyStatement(S, [](const ir::Stmt &X) {
    return X.Kind == ir::Stmt::Break || X.Kind == ir::Stmt::Return ||
           X.Kind == ir::Stmt::ParallelFor;
  });
}

/// A declaration of a scalar whose initializer touches no span: every
/// thread of the block may run it, in range or not.
bool safeDeclaration(const ir::Stmt &S) {
  return S.Kind == ir::Stmt::Decl && !S.ArrayExtent && !S.VarType.IsReference &&
         (!S.Exprs[0] ||
          (!ir::touchesSpan(*S.Exprs[0]) && !ir::assigns(*S.Exprs[0])));
}

class TileSearch {
public:
  TileSearch(const ir::Nest &N, TiledLoop &T,
             const std::set<std::string> &Outer,
             const std::set<std::string> &Inner)
      : N(N), T(T), Outer(Outer), Inner(Inner) {}

  void walk(const ir::Stmt &S) {
    for (const ir::ExprPtr &E : S.Exprs)
      if (E)
        visit(*E);
    for (const ir::StmtPtr &C : S.Children)
      if (C)
        walk(*C);
  }

private:
  void visit(const ir::Expr &E) {
    for (const ir::ExprPtr &O : E.Operands)
      visit(*O);
    if (E.Kind != ir::Expr::SpanElement || E.LValue ||
        N.Params[E.ParamIndex].Kind != ir::ParamKind::ReadSpan)
      return;
    bool HasIndex = false;
    std::set<std::string> Names;
    if (!split(*E.Operands[0], HasIndex, Names) || !HasIndex)
      return;
    bool UsesOuter = false, UsesInner = false;
    for (const std::string &Name : Names) {
      UsesOuter = UsesOuter || Outer.count(Name);
      UsesInner = UsesInner || Inner.count(Name);
      if (!Outer.count(Name) && !Inner.count(Name))
        return; // declared inside the loop: not known at the load
    }
    if (UsesOuter && UsesInner)
      return;
    const std::string Description =
        N.Params[E.ParamIndex].Name + "[" +
        ir::exprText(N, ir::stripCasts(*E.Operands[0])) + "]";
    for (Tile &Known : T.Tiles)
      if (Known.Description == Description) {
        Known.Reads.push_back(&E);
        return;
      }
    Tile Found;
    Found.Param = E.ParamIndex;
    Found.AlongOuter = !UsesInner;
    Found.Reads.push_back(&E);
    Found.Description = Description;
    T.Tiles.push_back(std::move(Found));
  }

  /// Sub as a sum of terms, one of them the loop's index (times a
  /// coefficient of captures), the others free of it; Names collects the
  /// locals the others read.
  bool split(const ir::Expr &Sub, bool &HasIndex,
             std::set<std::string> &Names) const {
    const ir::Expr &E = ir::stripCasts(Sub);
    if (E.Kind == ir::Expr::Binary && E.Text == "+")
      return split(*E.Operands[0], HasIndex, Names) &&
             split(*E.Operands[1], HasIndex, Names);
    auto IsIndex = [&](const ir::Expr &X) {
      const ir::Expr &V = ir::stripCasts(X);
      return V.Kind == ir::Expr::Local && V.Text == T.Index;
    };
    if (IsIndex(E) ||
        (E.Kind == ir::Expr::Binary && E.Text == "*" &&
         ((IsIndex(*E.Operands[0]) && gridUniform(*E.Operands[1])) ||
          (IsIndex(*E.Operands[1]) && gridUniform(*E.Operands[0]))))) {
      if (HasIndex)
        return false;
      HasIndex = true;
      return true;
    }
    std::set<std::string> Here;
    if (!localsOf(E, Here) || Here.count(T.Index))
      return false;
    Names.insert(Here.begin(), Here.end());
    return true;
  }

  const ir::Nest &N;
  TiledLoop &T;
  const std::set<std::string> &Outer, &Inner;
};

} // namespace

std::optional<TiledLoop> planTiling(const ir::Nest &N,
                                    const map::NestMapping &M) {
  if (M.Levels.size() != 2)
    return std::nullopt;
  const map::LevelMapping &L0 = M.Levels[0], &L1 = M.Levels[1];
  if (L0.sequential() || L1.sequential() ||
      L0.Dop.Kind != map::Parallelism::Span ||
      L1.Dop.Kind != map::Parallelism::Span || L0.Dim == L1.Dim)
    return std::nullopt;
  for (const ir::Allocation &A : N.Allocations)
    if (A.FixedSize < 0)
      return std::nullopt;
  // The outermost body: safe declarations and the one inner level.
  std::set<std::string> Outer = {N.Root.IndexName};
  const ir::Level *InnerLevel = nullptr;
  if (!N.Root.Reductions.empty())
    return std::nullopt;
  for (const ir::StmtPtr &S : N.Root.Body) {
    if (S->Kind == ir::Stmt::ParallelFor && !InnerLevel) {
      InnerLevel = S->Nested.get();
      continue;
    }
    if (InnerLevel || !safeDeclaration(*S))
      return std::nullopt;
    Outer.insert(S->Name);
  }
  if (!InnerLevel || !InnerLevel->Reductions.empty())
    return std::nullopt;
  // The inner body: safe declarations, then the loop.
  TiledLoop T;
  T.Inner = InnerLevel;
  std::set<std::string> Inner = {InnerLevel->IndexName};
  for (const ir::StmtPtr &S : InnerLevel->Body) {
    if (S->Kind != ir::Stmt::For) {
      if (!safeDeclaration(*S))
        return std::nullopt;
      // A tile may follow a constant (an accumulator changes in the loop).
      if (S->VarType.IsConst)
        Inner.insert(S->Name);
      continue;
    }
    const ir::Stmt *Init = S->Children[0].get();
    const ir::Expr *Cond = S->Exprs[0].get(), *Step = S->Exprs[1].get();
    if (!Init || Init->Kind != ir::Stmt::Decl || !Init->Exprs[0] || !Cond ||
        !Step || Cond->Kind != ir::Expr::Binary || Cond->Text != "<" ||
        ir::stripCasts(*Cond->Operands[0]).Kind != ir::Expr::Local ||
        ir::stripCasts(*Cond->Operands[0]).Text != Init->Name ||
        !((Step->Kind == ir::Expr::Unary || Step->Kind == ir::Expr::Postfix) &&
          Step->Text == "++") ||
        !gridUniform(*Init->Exprs[0]) || !gridUniform(*Cond->Operands[1]) ||
        ir::writesLocal(*S->Children[1], Init->Name) ||
        hasBreakOrReturn(*S->Children[1]))
      return std::nullopt;
    T.Loop = S.get();
    T.Index = Init->Name;
    T.IndexType = Init->VarType.Scalar;
    T.Lower = Init->Exprs[0].get();
    T.Upper = Cond->Operands[1].get();
    break;
  }
  if (!T.Loop)
    return std::nullopt;
  TileSearch(N, T, Outer, Inner).walk(*T.Loop->Children[1]);
  // A tile pays when threads share it: a row along the inner dimension's
  // threads, a column along the outer's.
  std::vector<Tile> Shared;
  for (Tile &Candidate : T.Tiles)
    if ((Candidate.AlongOuter ? L1.BlockSize : L0.BlockSize) >= 2)
      Shared.push_back(std::move(Candidate));
  T.Tiles = std::move(Shared);
  if (T.Tiles.empty())
    return std::nullopt;
  // The loop's iterations per tile: up to 32, within 24 KiB of shared
  // memory (a row of a tile padded by one element).
  std::size_t BytesPerIteration = 0;
  for (const Tile &Candidate : T.Tiles) {
    const ir::Param &P = N.Params[Candidate.Param];
    const unsigned Bytes =
        P.Struct >= 0 ? N.Structs[P.Struct].Size : ir::byteSize(P.Element);
    BytesPerIteration +=
        Bytes * (Candidate.AlongOuter ? 2 * L0.BlockSize : L1.BlockSize + 1);
  }
  T.Width = static_cast<unsigned>(
      std::min<std::size_t>(32, 24 * 1024 / BytesPerIteration));
  if (T.Width < 4)
    return std::nullopt;
  return T;
}

} // namespace weft::memory
