// KernelShape.cpp: the generator's rules (see KernelShape.h).
#include "plan/KernelShape.h"

#include "analysis/RegisterTile.h"
#include "ir/IrQueries.h"
#include "memory/StagingPlan.h"

#include <memory>

namespace weft::plan {
namespace {

/// A declaration without side effects: its initializer only reads.
bool pureExpression(const ir::Expr &E) {
  if (ir::assigns(E) || E.Kind == ir::Expr::Call)
    return false;
  for (const ir::ExprPtr &O : E.Operands)
    if (!pureExpression(*O))
      return false;
  return true;
}

/// Only pure scalar declarations and exactly one nested parallel loop.
bool perfectBody(const ir::Level &L) {
  unsigned Loops = 0;
  for (const ir::StmtPtr &S : L.Body) {
    if (S->Kind == ir::Stmt::ParallelFor) {
      ++Loops;
      continue;
    }
    if (S->Kind != ir::Stmt::Decl || S->ArrayExtent || S->VarType.IsReference ||
        (S->Exprs[0] && !pureExpression(*S->Exprs[0])))
      return false;
  }
  return Loops == 1;
}

/// Writes a span element (or binds one to a reference that may), or holds
/// a nested level.
bool writesSpan(const ir::Stmt &S) {
  return ir::anyStatement(S,
                          [](const ir::Stmt &X) {
                            return X.Kind == ir::Stmt::ParallelFor;
                          }) ||
         ir::anyExpression(S, [](const ir::Expr &E) {
           return E.Kind == ir::Expr::SpanElement && E.writes();
         });
}

/// Writes a span element or combines into one (a nested level's code not
/// counted).
bool writesData(const ir::Expr &E) {
  return ir::anyExpression(
      E, [](const ir::Expr &X) { return ir::writtenElement(X) != nullptr; });
}

/// Sets a local (its root a variable of the nest, not an element).
bool setsLocal(const ir::Expr &E) {
  return ir::anyExpression(E, [](const ir::Expr &X) {
    return ir::assigns(X) && X.Kind != ir::Expr::Combine &&
           ir::writtenRoot(*X.Operands[0]).Kind == ir::Expr::Local;
  });
}

/// A statement of L's own that writes data and also gives the thread a
/// value: a declaration whose initializer writes (`float s = p[i].bump();`),
/// or a statement that writes both (`s = p[i].bump();`). Where the levels
/// inside L spread over threads, every one of them runs L's code: the write
/// must be made once (by their leader), and then the others miss the value.
bool writesDataAndValue(const ir::Level &L) {
  for (const ir::StmtPtr &S : L.Body)
    if (S && ir::anyStatement(*S, [](const ir::Stmt &X) {
          if (X.Kind == ir::Stmt::Decl)
            return X.Exprs.size() && X.Exprs[0] && writesData(*X.Exprs[0]);
          if (X.Kind == ir::Stmt::ExprStmt)
            return writesData(*X.Exprs[0]) && setsLocal(*X.Exprs[0]);
          // Conditions and loop headers: every thread evaluates them.
          for (const ir::ExprPtr &E : X.Exprs)
            if (E && writesData(*E))
              return true;
          return false;
        }))
      return true;
  return false;
}

/// The one level at depth 1, when it reduces and is one of the outermost
/// body's own statements, and the outermost level has no reductions of its
/// own and no run-time arrays; else null. Both ways of combining an inner
/// level's reductions beyond one block's group need that shape.
const ir::Level *soleReducingInnerLevel(const ir::Nest &N) {
  const ir::Level &Root = N.Root;
  if (!Root.Reductions.empty())
    return nullptr;
  for (const ir::Allocation &A : N.Allocations)
    if (A.FixedSize < 0)
      return nullptr;
  const ir::Level *Inner = nullptr;
  for (const ir::StmtPtr &S : Root.Body)
    if (S->Kind == ir::Stmt::ParallelFor) {
      if (Inner)
        return nullptr;
      Inner = S->Nested.get();
    }
  if (!Inner || Inner->Reductions.empty())
    return nullptr;
  for (const ir::Level *L : ir::levels(N))
    if (L->Depth == 1 && L != Inner)
      return nullptr;
  return Inner;
}

/// The inner level may be split over blocks (Split(k) of depth 1) when a
/// second kernel can finish each outermost iteration: only span-free code
/// before the level (rerun by both kernels), and its reductions go into
/// the outermost body's locals.
bool splitCombinable(const ir::Nest &N) {
  const ir::Level *Inner = soleReducingInnerLevel(N);
  if (!Inner)
    return false;
  for (const ir::StmtPtr &S : N.Root.Body) {
    if (S->Nested.get() == Inner)
      break;
    if (writesSpan(*S))
      return false;
  }
  for (const ir::Reduction &R : Inner->Reductions)
    if (R.ParamIndex >= 0)
      return false;
  return true;
}

/// The outermost body can run with threads whose iteration is out of range
/// taking part only in the inner level's combining: besides the level
/// (with nothing deeper), scalar declarations whose initializers read no
/// span (safe to run out of range) and expression statements (guarded).
bool groupReducible(const ir::Nest &N) {
  const ir::Level *Inner = soleReducingInnerLevel(N);
  if (!Inner)
    return false;
  for (const ir::StmtPtr &S : N.Root.Body) {
    if (S->Kind == ir::Stmt::Decl) {
      if (S->ArrayExtent || S->VarType.IsReference || S->VarType.Struct >= 0 ||
          (S->Exprs[0] && ir::touchesSpan(*S->Exprs[0])))
        return false;
    } else if (S->Kind != ir::Stmt::ExprStmt &&
               S->Kind != ir::Stmt::ParallelFor) {
      return false;
    }
  }
  for (const ir::Level *L : ir::levels(N))
    if (L->Depth >= 2)
      return false;
  return true;
}

} // namespace

ShapeRules::ShapeRules(const ir::Nest &N) {
  for (const ir::Level *L : ir::levels(N)) {
    if (Depths.size() <= L->Depth)
      Depths.resize(L->Depth + 1);
    DepthFacts &D = Depths[L->Depth];
    D.Reduces = D.Reduces || !L->Reductions.empty();
    D.Perfect = D.Perfect && perfectBody(*L);
    D.WritesDataAndValue = D.WritesDataAndValue || writesDataAndValue(*L);
  }
  for (const ir::Allocation &A : N.Allocations)
    for (int D = static_cast<int>(A.OwningLevel) + 1;
         D <= A.FilledByLevel && D < static_cast<int>(Depths.size()); ++D)
      Depths[D].FillsOuterArray = true;
  if (Depths.size() > 1) {
    SplitCombinable = splitCombinable(N);
    GroupReducible = groupReducible(N);
  }
  if (std::optional<ir::TileableLoop> T = ir::findTileableLoop(N))
    RegisterTileable =
        ir::registerTileable(N, *T, ir::planScalarReplacement(N)).has_value();
}

std::optional<KernelShape>
ShapeRules::shape(const std::vector<map::LevelMapping> &Levels) const {
  using map::Parallelism;
  KernelShape S;
  unsigned Mapped = 0;
  // Levels with more than one thread of the block (a level of block 1 on
  // the grid only picks the block's iteration).
  unsigned Threaded = 0;
  for (std::size_t D = 0; D < Levels.size(); ++D) {
    const map::LevelMapping &L = Levels[D];
    DepthShape Depth;
    if (!L.sequential()) {
      Depth.Axis = static_cast<int>(L.Dim);
      Depth.Block = L.BlockSize;
      S.Block[Depth.Axis] = L.BlockSize;
      ++Mapped;
      Threaded += L.BlockSize > 1;
    }
    S.Depths.push_back(Depth);
  }
  const unsigned BlockThreads = S.threads();
  unsigned OuterThreads = 1; // the block's threads along shallower levels
  for (std::size_t D = 1; D < Levels.size(); ++D) {
    const map::LevelMapping &L = Levels[D];
    OuterThreads *= Levels[D - 1].sequential() ? 1 : Levels[D - 1].BlockSize;
    if (L.sequential())
      continue;
    if (Depths[D].FillsOuterArray)
      return std::nullopt;
    // The code around would run in each of the level's threads.
    if (L.BlockSize > 1)
      for (std::size_t Up = 0; Up < D; ++Up)
        if (Depths[Up].WritesDataAndValue)
          return std::nullopt;
    const bool OneWarp = L.Dim == map::Dimension::X && L.BlockSize == WarpSize;
    const bool OneGroup = BlockThreads == L.BlockSize;
    // The level and the ones inside it hold the whole block (a sequential
    // loop's marked loop on y, the reduction inside it on x): every thread
    // runs the level's loop, so the block may wait for all of them after it.
    const bool WholeGroup = OuterThreads == 1;
    bool Chain = true; // perfectly nested down to this level
    for (std::size_t Up = 0; Up < D; ++Up)
      Chain = Chain && Depths[Up].Perfect;
    DepthShape &Shape = S.Depths[D];
    Shape.OneWarp = OneWarp;
    Shape.WholeBlock = WholeGroup;
    // The outermost level one index per thread: blocks can walk it
    // together, each holding several of its iterations.
    const bool OuterSpan1 = !Levels[0].sequential() &&
                            Levels[0].Dop.Kind == Parallelism::Span &&
                            Levels[0].Dop.N == 1;
    if (L.Dop.Kind == Parallelism::Split) {
      // Partials per block, then a second kernel; nothing deeper spreads.
      // The block is the level's one group, or one group of several along
      // the level's axis (a block of columns, each column's rows split
      // over the blocks along y: Lee et al.'s sumCols for few columns).
      const bool AxisSplit = !OneGroup && GroupReducible && OuterSpan1;
      if (D != 1 || !SplitCombinable || !(OneGroup || AxisSplit))
        return std::nullopt;
      for (std::size_t Deeper = D + 1; Deeper < Levels.size(); ++Deeper)
        if (!Levels[Deeper].sequential())
          return std::nullopt;
      S.SplitInner = true;
      S.UniformOuter = S.UniformOuter || AxisSplit;
      Shape.How = Combine::SplitPartials;
      continue;
    }
    // Spread over blocks, the level's enclosing code would run in each.
    if (L.Dop.Kind != Parallelism::SpanAll && !Chain)
      return std::nullopt;
    // A third level on threads: only down a perfectly nested chain without
    // inner reductions (a 3-D grid), where no level waits for another.
    if (Threaded > 2 && (!Chain || Depths[D].Reduces))
      return std::nullopt;
    // One group among several in the block, combining over its threads:
    // the block's barriers need every thread, so blocks walk the outermost
    // level together (its iteration on threads, one at a time).
    const bool AxisGroup = !OneWarp && !OneGroup && D == 1 && GroupReducible &&
                           L.Dop.Kind == Parallelism::SpanAll && OuterSpan1;
    // What the group's threads write, the code after the level may read:
    // they synchronize there, which needs the group to be the block or a
    // warp, unless nothing follows (a perfectly nested chain).
    if (!OneWarp && !WholeGroup && !Chain && !AxisGroup)
      return std::nullopt;
    if (!Depths[D].Reduces)
      continue;
    if (!OneWarp && !OneGroup && !AxisGroup)
      return std::nullopt;
    Shape.How = OneWarp    ? Combine::Warp
                : OneGroup ? Combine::Block
                           : Combine::Axis;
    S.UniformOuter = S.UniformOuter || Shape.How == Combine::Axis;
  }
  S.RegisterTiled = RegisterTileable && Levels.size() == 2 && Mapped == 2 &&
                    Levels[0].Dim != Levels[1].Dim &&
                    Levels[0].Dop.Kind == Parallelism::Span &&
                    Levels[1].Dop.Kind == Parallelism::Span &&
                    (Levels[0].Dop.N > 1 || Levels[1].Dop.N > 1);
  return S;
}

map::MappingInput buildableOnly(const ir::Nest &N, map::MappingInput In) {
  auto Rules = std::make_shared<ShapeRules>(N);
  In.Buildable = [Rules](const std::vector<map::LevelMapping> &Levels) {
    return Rules->shape(Levels).has_value();
  };
  auto Windows = std::make_shared<memory::WindowShare>(N);
  In.WindowShare = [Windows](const std::vector<map::LevelMapping> &Levels) {
    return (*Windows)(Levels);
  };
  return In;
}

} // namespace weft::plan
