// TileableLoop.cpp: finds the loop of a nest whose reads follow the loop's
// index and at most one parallel index, for shared-memory tiles.
#include "analysis/TileableLoop.h"

#include "ir/AffineForm.h"
#include "ir/IrQueries.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace weft::ir {
namespace {

/// The locals E reads; false when it assigns or calls.
bool localsOf(const Expr &E, std::set<std::string> &Names) {
  if (assigns(E) || E.Kind == Expr::Call || E.Kind == Expr::LocalElement ||
      E.Kind == Expr::SpanElement)
    return false;
  if (E.Kind == Expr::Local)
    Names.insert(E.Text);
  for (const ExprPtr &O : E.Operands)
    if (!localsOf(*O, Names))
      return false;
  return true;
}

bool leavesIteration(const Stmt &S) {
  return anyStatement(S, [](const Stmt &X) {
    return X.Kind == Stmt::Break || X.Kind == Stmt::Continue ||
           X.Kind == Stmt::Return;
  });
}

bool hasBreakOrReturn(const Stmt &S) {
  return anyStatement(S, [](const Stmt &X) {
    return X.Kind == Stmt::Break || X.Kind == Stmt::Return ||
           X.Kind == Stmt::ParallelFor;
  });
}

/// A declaration of a scalar whose initializer touches no span: every
/// thread of the block may run it, in range or not.
bool safeDeclaration(const Stmt &S) {
  return S.Kind == Stmt::Decl && !S.ArrayExtent && !S.VarType.IsReference &&
         (!S.Exprs[0] || (!touchesSpan(*S.Exprs[0]) && !assigns(*S.Exprs[0])));
}

/// The nest's levels from the root down, when each body holds at most one
/// level (and nothing else that does) and none reduces.
std::optional<std::vector<const Level *>> levelChain(const Nest &N) {
  std::vector<const Level *> Chain = {&N.Root};
  for (;;) {
    const Level &L = *Chain.back();
    if (!L.Reductions.empty())
      return std::nullopt;
    const Level *Next = nullptr;
    for (const StmtPtr &S : L.Body)
      if (S->Kind == Stmt::ParallelFor && !Next)
        Next = S->Nested.get();
      else if (holdsLevels(*S))
        return std::nullopt;
    if (!Next)
      return Chain;
    Chain.push_back(Next);
  }
}

class TileSearch {
public:
  /// Shared: indices every thread of a block has alike (levels above the
  /// pair), read as captures.
  TileSearch(const Nest &N, TileableLoop &T, const std::set<std::string> &Outer,
             const std::set<std::string> &Inner,
             const std::set<std::string> &Shared = {})
      : N(N), T(T), Outer(Outer), Inner(Inner), Shared(Shared) {}

  void walk(const Stmt &S) {
    for (const ExprPtr &E : S.Exprs)
      if (E)
        visit(*E);
    for (const StmtPtr &C : S.Children)
      if (C)
        walk(*C);
  }

private:
  void visit(const Expr &E) {
    for (const ExprPtr &O : E.Operands)
      visit(*O);
    if (E.Kind != Expr::SpanElement || E.refersToElement() ||
        !readable(E.ParamIndex))
      return;
    bool HasIndex = false;
    std::set<std::string> Names;
    if (!split(*E.Operands[0], HasIndex, Names) || !HasIndex)
      return;
    bool UsesOuter = false, UsesInner = false;
    for (const std::string &Name : Names) {
      UsesOuter = UsesOuter || Outer.count(Name);
      UsesInner = UsesInner || Inner.count(Name);
      if (!Outer.count(Name) && !Inner.count(Name) && !Shared.count(Name))
        return; // declared inside the loop: not known at the load
    }
    if (UsesOuter && UsesInner)
      return;
    const std::string Description = N.Params[E.ParamIndex].Name + "[" +
                                    exprText(N, stripCasts(*E.Operands[0])) +
                                    "]";
    for (Tile &Known : T.Tiles)
      if (Known.Description == Description) {
        Known.Reads.push_back(&E);
        return;
      }
    Tile Found;
    Found.Param = E.ParamIndex;
    Found.AlongOuter = !UsesInner;
    Found.FollowsThread = UsesOuter || UsesInner;
    Found.Written = N.Params[E.ParamIndex].Kind != ParamKind::ReadSpan;
    Found.Reads.push_back(&E);
    Found.Description = Description;
    T.Tiles.push_back(std::move(Found));
  }

  /// sharedReadable, asked once a span (it walks the whole nest).
  bool readable(unsigned P) {
    auto [It, New] = Readable.try_emplace(P, false);
    if (New)
      It->second = sharedReadable(N, P, *T.Inner, *T.Loop);
    return It->second;
  }

  /// Sub as a sum of terms (products of sums and captures distributed),
  /// one of them the loop's index (times a coefficient of captures), the
  /// others free of it; Names collects the locals the others read.
  bool split(const Expr &Sub, bool &HasIndex,
             std::set<std::string> &Names) const {
    const Expr &E = stripCasts(Sub);
    if (E.Kind == Expr::Binary && E.Text == "+")
      return split(*E.Operands[0], HasIndex, Names) &&
             split(*E.Operands[1], HasIndex, Names);
    // A sum times captures, (p * n + k) * n: each term times them.
    if (E.Kind == Expr::Binary && E.Text == "*")
      for (int Scaled : {0, 1})
        if (gridUniform(*E.Operands[1 - Scaled]) &&
            !gridUniform(*E.Operands[Scaled]))
          return split(*E.Operands[Scaled], HasIndex, Names);
    if (E.Kind == Expr::Local && E.Text == T.Index) {
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

  const Nest &N;
  TileableLoop &T;
  const std::set<std::string> &Outer, &Inner;
  const std::set<std::string> Shared;
  std::map<unsigned, bool> Readable;
};

/// The elements of span P that S (nested levels included) writes, binds to
/// a reference or combines into.
unsigned writesOf(const Stmt &S, unsigned P) {
  unsigned Count = 0;
  for (const ExprPtr &E : S.Exprs)
    if (E)
      anyExpression(*E, [&](const Expr &X) {
        if ((X.Kind == Expr::SpanElement && X.writes() && X.ParamIndex == P) ||
            (X.Kind == Expr::Combine && X.Operands[0]->ParamIndex == P &&
             !X.Operands[0]->writes()))
          ++Count;
        return false;
      });
  for (const StmtPtr &C : S.Children)
    if (C)
      Count += writesOf(*C, P);
  if (S.Nested)
    for (const StmtPtr &C : S.Nested->Body)
      Count += writesOf(*C, P);
  return Count;
}

} // namespace

bool sharedReadable(const Nest &N, unsigned P, const Level &L,
                    const Stmt &Loop) {
  if (N.Params[P].Kind == ParamKind::ReadSpan)
    return true;
  if (N.Params[P].Kind != ParamKind::ReadWriteSpan)
    return false;
  unsigned All = 0, After = 0;
  for (const StmtPtr &S : N.Root.Body)
    All += writesOf(*S, P);
  bool Past = false;
  for (const StmtPtr &S : L.Body) {
    if (Past)
      After += writesOf(*S, P);
    Past = Past || S.get() == &Loop;
  }
  return Past && All == After;
}

std::optional<TileableLoop> findTileableLoop(const Nest &N) {
  for (const Allocation &A : N.Allocations)
    if (A.FixedSize < 0)
      return std::nullopt;
  // A chain of levels, each body safe declarations and the next level: the
  // last two are the pair the tiles follow, the ones above walked with one
  // thread a block (memory/TilingPlan), their indices alike in a block.
  std::optional<std::vector<const Level *>> Chain = levelChain(N);
  if (!Chain || Chain->size() < 2)
    return std::nullopt;
  std::set<std::string> Outer, Shared;
  for (std::size_t D = 0; D + 1 < Chain->size(); ++D) {
    Shared.insert(Outer.begin(), Outer.end());
    Outer = {(*Chain)[D]->IndexName};
    for (const StmtPtr &S : (*Chain)[D]->Body) {
      if (S->Kind == Stmt::ParallelFor)
        continue;
      if (!safeDeclaration(*S))
        return std::nullopt;
      Outer.insert(S->Name);
    }
  }
  const Level *InnerLevel = Chain->back();
  // The blocks walk the inner level together: its bounds the same for all
  // their threads (captures and indices above the pair).
  if (!readsOnly(*InnerLevel->Lower, Shared) ||
      !readsOnly(*InnerLevel->Upper, Shared))
    return std::nullopt;
  // The inner body: safe declarations and expression statements, then the
  // loop.
  TileableLoop T;
  T.Outer = (*Chain)[Chain->size() - 2];
  T.Inner = InnerLevel;
  std::set<std::string> Inner = {InnerLevel->IndexName};
  for (const StmtPtr &S : InnerLevel->Body) {
    // Expression statements run where the thread's indices are in range.
    if (S->Kind == Stmt::ExprStmt)
      continue;
    if (S->Kind != Stmt::For) {
      if (!safeDeclaration(*S))
        return std::nullopt;
      // A tile may follow a constant (an accumulator changes in the loop).
      if (S->VarType.IsConst)
        Inner.insert(S->Name);
      continue;
    }
    std::optional<CountedLoop> C = countedLoop(*S);
    if (!C || !gridUniform(*C->Lower) || !gridUniform(*C->Upper) ||
        hasBreakOrReturn(*S->Children[1]))
      return std::nullopt;
    T.Loop = S.get();
    T.Index = C->Index;
    T.IndexType = C->IndexType;
    T.Lower = C->Lower;
    T.Upper = C->Upper;
    break;
  }
  if (!T.Loop)
    return std::nullopt;
  TileSearch(N, T, Outer, Inner, Shared).walk(*T.Loop->Children[1]);
  if (T.Tiles.empty())
    return std::nullopt;
  return T;
}

std::optional<TileableLoop> findWholeBlockTileableLoop(const Nest &N) {
  for (const Allocation &A : N.Allocations)
    if (A.FixedSize < 0)
      return std::nullopt;
  // Each outer level holds scalar declarations and the next.
  std::optional<std::vector<const Level *>> Chain = levelChain(N);
  if (!Chain)
    return std::nullopt;
  std::set<std::string> Outer;
  for (std::size_t D = 0; D + 1 < Chain->size(); ++D) {
    for (const StmtPtr &S : (*Chain)[D]->Body)
      if (S->Kind != Stmt::ParallelFor &&
          (S->Kind != Stmt::Decl || S->ArrayExtent || S->VarType.IsReference))
        return std::nullopt;
    Outer.insert((*Chain)[D]->IndexName);
  }
  const Level *L = Chain->back();
  const std::set<std::string> None;
  for (const StmtPtr &S : L->Body) {
    std::optional<CountedLoop> C;
    if (S->Kind == Stmt::For)
      C = countedLoop(*S);
    if (C && readsOnly(*C->Lower, Outer) && readsOnly(*C->Upper, Outer) &&
        !hasBreakOrReturn(*S->Children[1])) {
      TileableLoop T;
      T.Inner = L;
      T.WholeBlock = true;
      T.Loop = S.get();
      T.Index = C->Index;
      T.IndexType = C->IndexType;
      T.Lower = C->Lower;
      T.Upper = C->Upper;
      // No locals but the index and outer indices: the same element for
      // every thread of a block.
      TileSearch(N, T, Outer, None).walk(*S->Children[1]);
      if (!T.Tiles.empty())
        return T;
    }
    // The block's threads all pass here, in range or not: a declaration
    // whose initializer the emitter can guard, a statement it can skip.
    if (S->Kind == Stmt::Decl ? S->ArrayExtent || S->VarType.IsReference ||
                                    (S->Exprs[0] && assigns(*S->Exprs[0]))
                              : leavesIteration(*S))
      return std::nullopt;
  }
  return std::nullopt;
}

bool coarsenable(const TileableLoop &T, bool HeldAlongLoop) {
  if (!T.WholeBlock || HeldAlongLoop)
    return false;
  bool Before = true;
  for (const StmtPtr &S : T.Inner->Body) {
    if (S.get() == T.Loop) {
      Before = false;
      continue;
    }
    if (Before &&
        (S->Kind != Stmt::ExprStmt &&
         (S->Kind != Stmt::Decl || S->ArrayExtent || S->VarType.IsReference)))
      return false;
    if (hasBreakOrReturn(*S))
      return false;
  }
  // The loop's own body has none (findWholeBlockTileableLoop).
  return true;
}

void groupRecords(const Nest &N, TileableLoop &L) {
  if (!L.WholeBlock)
    return;
  AffineScope Scope;
  Scope.IsVariable = [&](const std::string &Name) { return Name == L.Index; };
  // Each tile's step along the loop and its subscript's offset.
  struct Form {
    std::int64_t Step = 0;
    Polynomial Offset;
  };
  std::vector<std::optional<Form>> Forms;
  for (const Tile &T : L.Tiles) {
    const Param &P = N.Params[T.Param];
    const unsigned Bytes = P.Struct >= 0 ? 0 : byteSize(P.Element);
    std::optional<AffineForm> F =
        affineForm(N, *T.Reads.front()->Operands[0], Scope);
    std::optional<std::int64_t> Step;
    if (F && F->Coefficients.size() == 1 && F->Coefficients.count(L.Index))
      Step = F->Coefficients.at(L.Index).constantValue();
    if ((Bytes != 4 && Bytes != 8) || !Step || (*Step != 2 && *Step != 4) ||
        *Step * Bytes > 16) {
      Forms.emplace_back();
      continue;
    }
    Forms.push_back(Form{*Step, F->Offset});
  }
  for (std::size_t T = 0; T < L.Tiles.size(); ++T) {
    if (!Forms[T] || L.Tiles[T].RecordWidth > 1)
      continue;
    // The tiles of T's record: its span and step, offsets a constant apart
    // within one record's width of the lowest.
    std::vector<std::pair<std::int64_t, std::size_t>> Members{{0, T}};
    for (std::size_t U = T + 1; U < L.Tiles.size(); ++U) {
      if (!Forms[U] || L.Tiles[U].RecordWidth > 1 ||
          L.Tiles[U].Param != L.Tiles[T].Param ||
          Forms[U]->Step != Forms[T]->Step)
        continue;
      std::optional<Polynomial> Apart =
          Forms[U]->Offset.minus(Forms[T]->Offset);
      std::optional<std::int64_t> By =
          Apart ? Apart->constantValue() : std::nullopt;
      if (By && *By != 0)
        Members.push_back({*By, U});
    }
    std::sort(Members.begin(), Members.end());
    const std::int64_t Step = Forms[T]->Step;
    // Most of a record read: staging whole records loads few elements the
    // loop does not read.
    if (Members.size() < 2 || 2 * Members.size() <= std::size_t(Step) ||
        Members.back().first - Members.front().first >= Step)
      continue;
    const std::size_t Lead = Members.front().second;
    for (const auto &[By, U] : Members) {
      Tile &M = L.Tiles[U];
      M.Leader = U == Lead ? -1 : static_cast<int>(Lead);
      M.Field = static_cast<unsigned>(By - Members.front().first);
      M.RecordWidth = static_cast<unsigned>(Step);
    }
  }
}

} // namespace weft::ir
