// StagingPlan.cpp: finds ranges of read-only spans that a whole block reads
// along a sequential loop, for the emitter to stage in shared memory.
#include "memory/StagingPlan.h"

#include "ir/IrQueries.h"

#include <optional>
#include <set>

namespace weft::memory {
namespace {

using ir::assigns;
using ir::declaredNames;
using ir::stripCasts;
using ir::writesLocal;

class StagingSearch {
public:
  StagingSearch(const ir::Nest &N, const ir::Level &L) : N(N), L(L) {
    Inner.insert(L.IndexName);
    for (const ir::StmtPtr &S : L.Body)
      declaredNames(*S, Inner);
  }

  void run(std::vector<Stage> &Out) {
    for (const ir::StmtPtr &S : L.Body)
      walk(*S, Out);
  }

private:
  struct Loop {
    std::string Index;
    const ir::Expr *Lower, *Upper;
  };

  /// The same value in every thread of the block: nothing declared inside
  /// the level, nothing written.
  bool blockUniform(const ir::Expr &E) const {
    if (assigns(E))
      return false;
    if (E.Kind == ir::Expr::Local && Inner.count(E.Text))
      return false;
    if (E.Kind == ir::Expr::LocalElement)
      return false;
    for (const ir::ExprPtr &O : E.Operands)
      if (!blockUniform(*O))
        return false;
    return true;
  }

  /// for (<int> k = Lower; k < Upper; ++k / k++ / k += 1) without writes
  /// to k in its body.
  std::optional<Loop> stagingLoop(const ir::Stmt &S) const {
    std::optional<ir::CountedLoop> C = ir::countedLoop(S);
    if (!C || !blockUniform(*C->Lower) || !blockUniform(*C->Upper))
      return std::nullopt;
    return Loop{C->Index, C->Lower, C->Upper};
  }

  void walk(const ir::Stmt &S, std::vector<Stage> &Out) {
    for (const ir::ExprPtr &E : S.Exprs)
      if (E)
        visit(*E, Out);
    if (S.Kind == ir::Stmt::For) {
      if (S.Children[0])
        walk(*S.Children[0], Out);
      std::optional<Loop> L = stagingLoop(S);
      if (L)
        Loops.push_back(*L);
      walk(*S.Children[1], Out);
      if (L)
        Loops.pop_back();
      return;
    }
    for (const ir::StmtPtr &C : S.Children)
      if (C)
        walk(*C, Out);
    if (S.Kind == ir::Stmt::ParallelFor)
      for (const ir::StmtPtr &C : S.Nested->Body)
        walk(*C, Out);
  }

  /// Sub as a sum of block-uniform terms and coefficient * loop index
  /// terms, each loop at most once; false when it is not of that form.
  bool linearize(const ir::Expr &Sub, Stage &S) const {
    const ir::Expr &E = stripCasts(Sub);
    if (E.Kind == ir::Expr::Binary && E.Text == "+")
      return linearize(*E.Operands[0], S) && linearize(*E.Operands[1], S);
    auto LoopOf = [&](const ir::Expr &X) -> const Loop * {
      const ir::Expr &V = stripCasts(X);
      if (V.Kind == ir::Expr::Local)
        for (const Loop &L : Loops)
          if (L.Index == V.Text)
            return &L;
      return nullptr;
    };
    const Loop *Index = LoopOf(E);
    const ir::Expr *Coefficient = nullptr;
    if (!Index && E.Kind == ir::Expr::Binary && E.Text == "*")
      for (int Side = 0; Side < 2 && !Index; ++Side)
        if ((Index = LoopOf(*E.Operands[Side])))
          Coefficient = E.Operands[1 - Side].get();
    if (!Index) {
      if (!blockUniform(E))
        return false;
      S.Base.push_back(&Sub);
      return true;
    }
    if (Coefficient && !blockUniform(*Coefficient))
      return false;
    for (const Stage::Term &T : S.Terms)
      if (T.Index == Index->Index)
        return false;
    S.Terms.push_back({Index->Index, Coefficient, Index->Lower, Index->Upper});
    return true;
  }

  void visit(const ir::Expr &E, std::vector<Stage> &Out) {
    for (const ir::ExprPtr &O : E.Operands)
      visit(*O, Out);
    if (E.Kind != ir::Expr::SpanElement || E.LValue ||
        N.Params[E.ParamIndex].Kind != ir::ParamKind::ReadSpan)
      return;
    Stage S;
    if (!linearize(*E.Operands[0], S) || S.Terms.empty())
      return;
    S.Param = E.ParamIndex;
    S.Level = &L;
    S.Description = N.Params[S.Param].Name + "[" +
                    ir::exprText(N, stripCasts(*E.Operands[0])) + "]";
    for (const Stage::Term &T : S.Terms)
      S.Description += ", " + T.Index + " in [" + ir::exprText(N, *T.Lower) +
                       ", " + ir::exprText(N, *T.Upper) + ")";
    for (Stage &Known : Out)
      if (Known.Level == S.Level && Known.Description == S.Description) {
        Known.Reads.push_back(&E);
        return;
      }
    S.Reads.push_back(&E);
    Out.push_back(std::move(S));
  }

  const ir::Nest &N;
  const ir::Level &L;
  std::set<std::string> Inner;
  std::vector<Loop> Loops;
};

} // namespace

std::vector<Stage> planStaging(const ir::Nest &N, const map::NestMapping &M) {
  std::vector<Stage> Stages;
  if (M.Levels.size() < 2)
    return Stages;
  const map::LevelMapping &Inner = M.Levels[1];
  unsigned BlockThreads = 1;
  for (const map::LevelMapping &L : M.Levels)
    BlockThreads *= L.BlockSize;
  // The block is the level's one group (over the whole extent, or its
  // share of it): every thread of the block is in the same outermost
  // iteration, and the load and its barrier come before the level's loop,
  // where all of them are.
  if (Inner.sequential() || Inner.Dop.Kind == map::Parallelism::Split ||
      Inner.BlockSize != BlockThreads || BlockThreads < 2)
    return Stages;
  for (const ir::Level *L : ir::levels(N))
    if (L->Depth == 1)
      StagingSearch(N, *L).run(Stages);
  return Stages;
}

} // namespace weft::memory
