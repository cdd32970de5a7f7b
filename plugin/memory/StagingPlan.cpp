// StagingPlan.cpp: finds ranges of read-only spans that a whole block reads
// along a sequential loop, for the emitter to stage in shared memory.
#include "memory/StagingPlan.h"

#include "analysis/TileableLoop.h"
#include "ir/AffineForm.h"
#include "ir/IrQueries.h"
#include "memory/TilingPlan.h"

#include <algorithm>
#include <cstdlib>
#include <map>
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
  StagingSearch(const ir::Nest &N, const ir::Level &L, bool Windows,
                const ir::Level *RowLevel)
      : N(N), L(L), WindowsAllowed(Windows), RowLevel(RowLevel) {
    for (const ir::Level *Outer : ir::levels(N))
      if (Outer->Depth < L.Depth)
        OuterIndices.insert(Outer->IndexName);
    Inner.insert(L.IndexName);
    // The block's threads hold several of its iterations.
    if (RowLevel)
      Inner.insert(RowLevel->IndexName);
    for (const ir::StmtPtr &S : L.Body)
      declaredNames(*S, Inner);
    for (const ir::StmtPtr &S : L.Body)
      if (S->Kind == ir::Stmt::Decl)
        findClamped(*S);
  }

  void run(std::vector<Stage> &Out) {
    for (const ir::StmtPtr &S : L.Body)
      walk(*S, Out);
    // Only windows whose reads overlap from thread to thread pay: along
    // the columns, or along rows that follow the outermost level.
    for (std::size_t I = WindowAt.size(); I-- > 0;) {
      const Stage &W = Out[WindowAt[I]];
      auto Reaches = [&](int Axis, bool Row) {
        return W.MaxOffset[Axis] != W.MinOffset[Axis] ||
               std::any_of(W.Terms.begin(), W.Terms.end(),
                           [&](const Stage::Term &T) { return T.Row == Row; });
      };
      if (!Reaches(1, false) && !(W.OuterRows && Reaches(0, true)))
        Out.erase(Out.begin() + static_cast<std::ptrdiff_t>(WindowAt[I]));
    }
  }

private:
  struct Loop {
    std::string Index;
    const ir::Expr *Lower, *Upper;
  };
  /// A local that is an index plus one of two constants (Near + Lo or
  /// Near + Hi, chosen by a condition).
  struct ClampedLocal {
    const ir::Expr *Near;
    std::int64_t Lo, Hi;
  };
  /// The scales of the level's own index (the window's columns) and of
  /// the outermost level's (its rows, where the block holds several).
  struct ThreadTerms {
    std::optional<std::vector<const ir::Expr *>> Column, Row;
  };

  /// E as a local plus a constant (x, x + 1, x - 1).
  static std::optional<std::pair<const ir::Expr *, std::int64_t>>
  localPlusConstant(const ir::Expr &E) {
    const ir::Expr &V = stripCasts(E);
    if (V.Kind == ir::Expr::Local)
      return std::make_pair(&V, std::int64_t{0});
    if (V.Kind != ir::Expr::Binary || (V.Text != "+" && V.Text != "-"))
      return std::nullopt;
    const ir::Expr &Base = stripCasts(*V.Operands[0]);
    std::optional<std::int64_t> C = literal(*V.Operands[1]);
    if (Base.Kind != ir::Expr::Local || !C)
      return std::nullopt;
    return std::make_pair(&Base, V.Text == "-" ? -*C : *C);
  }

  /// A declaration at the level's top, int North = c ? y - 1 : y, of a
  /// local declared once and never written: a clamped neighbour.
  void findClamped(const ir::Stmt &Decl) {
    if (!Decl.Exprs[0] || Decl.ArrayExtent || Decl.VarType.IsReference ||
        Decl.VarType.Struct >= 0 || ir::isFloating(Decl.VarType.Scalar) ||
        Decl.VarType.Scalar == ir::ScalarKind::Key128)
      return;
    const ir::Expr &Init = stripCasts(*Decl.Exprs[0]);
    if (Init.Kind != ir::Expr::Conditional)
      return;
    const auto A = localPlusConstant(*Init.Operands[1]),
               B = localPlusConstant(*Init.Operands[2]);
    if (!A || !B || A->first->Text != B->first->Text ||
        A->first->Text == Decl.Name)
      return;
    unsigned Declared = 0;
    bool Written = false;
    for (const ir::StmtPtr &S : L.Body) {
      Declared += ir::anyStatement(*S, [&](const ir::Stmt &X) {
        return X.Kind == ir::Stmt::Decl && X.Name == Decl.Name;
      });
      Written = Written || writesLocal(*S, Decl.Name) ||
                writesLocal(*S, A->first->Text);
    }
    if (Declared == 1 && !Written)
      Clamped[Decl.Name] = {A->first, std::min(A->second, B->second),
                            std::max(A->second, B->second)};
  }

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

  /// Factors' spelling, to tell coefficients apart.
  std::string spelling(const std::vector<const ir::Expr *> &Factors) const {
    std::string Text;
    for (const ir::Expr *F : Factors)
      Text += "(" + ir::exprText(N, stripCasts(*F)) + ")*";
    return Text;
  }

  /// Sub times Scale (block-uniform factors), negated where Negative, as a
  /// sum of block-uniform offsets, coefficient * loop index terms (each
  /// loop at most once, never negated) and at most one term of the level's
  /// own index and of the outermost level's (Thread); false when it is not
  /// of that form.
  bool linearize(const ir::Expr &Sub, Stage &S,
                 std::vector<const ir::Expr *> &Scale, bool Negative,
                 ThreadTerms &Thread) {
    const ir::Expr &E = stripCasts(Sub);
    auto IsSum = [](const ir::Expr &X) {
      const ir::Expr &V = stripCasts(X);
      return V.Kind == ir::Expr::Binary && (V.Text == "+" || V.Text == "-");
    };
    // Sums are split even where uniform, so that a window's constant
    // offsets stand apart: (i - 1) * n is i * n and -1 * n.
    if (IsSum(E))
      return linearize(*E.Operands[0], S, Scale, Negative, Thread) &&
             linearize(*E.Operands[1], S, Scale,
                       E.Text == "-" ? !Negative : Negative, Thread);
    if (E.Kind == ir::Expr::Binary && E.Text == "*") {
      // A factor the same in every thread scales the other. Where both
      // are, the one holding an outer level's index is the row scaled by
      // the other, the stride (i * (n + 2) and (i - 1) * (n + 2) then both
      // scale i by n + 2); else the left one.
      const bool Uniform[2] = {blockUniform(*E.Operands[0]),
                               blockUniform(*E.Operands[1])};
      if (!Uniform[0] && !Uniform[1])
        return false;
      const int Into = !Uniform[0]   ? 0
                       : !Uniform[1] ? 1
                       : mentionsOuterIndex(*E.Operands[1]) &&
                               !mentionsOuterIndex(*E.Operands[0])
                           ? 1
                           : 0;
      Scale.push_back(E.Operands[1 - Into].get());
      const bool Done =
          linearize(*E.Operands[Into], S, Scale, Negative, Thread);
      Scale.pop_back();
      return Done;
    }
    if (blockUniform(E)) {
      S.Base.push_back({&Sub, Scale, Negative});
      return true;
    }
    if (E.Kind != ir::Expr::Local || Negative)
      return false;
    // A clamped neighbour: the index it is near, its distance from it a
    // read's offset (at most one a read).
    if (auto C = Clamped.find(E.Text); C != Clamped.end() && !Neighbour) {
      Neighbour = {C->first, C->second.Near->Text, Scale, C->second.Lo,
                   C->second.Hi};
      return linearize(*C->second.Near, S, Scale, Negative, Thread);
    }
    if (E.Text == L.IndexName && WindowsAllowed && L.Step == 1 &&
        !Thread.Column) {
      Thread.Column = Scale;
      return true;
    }
    if (RowLevel && E.Text == RowLevel->IndexName && !Thread.Row) {
      Thread.Row = Scale;
      return true;
    }
    for (const Loop &Candidate : Loops)
      if (Candidate.Index == E.Text) {
        for (const Stage::Term &T : S.Terms)
          if (T.Index == E.Text)
            return false;
        S.Terms.push_back(
            {E.Text, Scale, Candidate.Lower, Candidate.Upper, false});
        return true;
      }
    return false;
  }

  /// A window's rows and columns: the terms whose coefficient is the
  /// thread's are columns, all others (the outermost level's index among
  /// them) rows of one stride; constant offsets in Base move to the read's
  /// row or column offset likewise. False where there are more strides, or
  /// an offset is no multiple of one.
  bool shapeWindow(Stage &S, const ThreadTerms &Thread) {
    const std::vector<const ir::Expr *> &Columns = *Thread.Column;
    const std::string Column = spelling(Columns);
    std::optional<std::string> Row;
    auto RowStride = [&](const std::vector<const ir::Expr *> &Factors) {
      const std::string C = spelling(Factors);
      if (Row && *Row != C)
        return false;
      Row = C;
      S.RowStride = Factors;
      return true;
    };
    for (Stage::Term &T : S.Terms) {
      if (spelling(T.Coefficient) == Column)
        continue;
      if (!RowStride(T.Coefficient))
        return false;
      T.Row = true;
    }
    if (Thread.Row) {
      if (spelling(*Thread.Row) == Column || !RowStride(*Thread.Row))
        return false;
      S.OuterRows = true;
    }
    std::array<std::int64_t, 2> Offset = {0, 0};
    std::vector<Stage::Offset> Rest;
    for (const Stage::Offset &B : S.Base) {
      std::optional<std::int64_t> V = literal(*B.Value);
      if (!V) {
        Rest.push_back(B);
        continue;
      }
      const bool AlongColumns = spelling(B.Scale) == Column;
      if (!AlongColumns && (B.Scale.empty() || !RowStride(B.Scale)))
        return false;
      Offset[AlongColumns] += B.Negative ? -*V : *V;
    }
    S.Base = std::move(Rest);
    S.Window = true;
    S.ColumnStride = Columns;
    S.Offsets = {Offset};
    S.MinOffset = S.MaxOffset = Offset;
    S.Neighbours = {Stage::Clamped{}};
    if (Neighbour) {
      const int Axis = spelling(Neighbour->Scale) == Column;
      if (!Axis && (Neighbour->Scale.empty() || !RowStride(Neighbour->Scale)))
        return false;
      S.MinOffset[Axis] += Neighbour->Lo;
      S.MaxOffset[Axis] += Neighbour->Hi;
      S.Neighbours = {{Axis, Neighbour->Local, Neighbour->Near}};
    }
    return true;
  }

  /// An integer literal's value (negated: -1).
  static std::optional<std::int64_t> literal(const ir::Expr &E) {
    const ir::Expr &V = stripCasts(E);
    if (V.Kind == ir::Expr::Unary && V.Text == "-") {
      std::optional<std::int64_t> X = literal(*V.Operands[0]);
      return X ? std::optional<std::int64_t>(-*X) : std::nullopt;
    }
    if (V.Kind != ir::Expr::IntLiteral)
      return std::nullopt;
    char *End = nullptr;
    const long long X = std::strtoll(V.Text.c_str(), &End, 0);
    if (End == V.Text.c_str() || X < 0 || X > (1 << 20))
      return std::nullopt;
    return X;
  }

  bool mentionsOuterIndex(const ir::Expr &E) const {
    if (E.Kind == ir::Expr::Local && OuterIndices.count(E.Text))
      return true;
    return std::any_of(
        E.Operands.begin(), E.Operands.end(),
        [&](const ir::ExprPtr &O) { return mentionsOuterIndex(*O); });
  }

  /// What tells a window's reads apart, but for their offsets.
  std::string windowKey(const Stage &S) const {
    std::string Key = std::to_string(S.Param) + "|" + spelling(S.ColumnStride) +
                      (S.OuterRows ? "|outer rows" : "");
    for (const Stage::Offset &B : S.Base)
      Key += (B.Negative ? "|-" : "|+") + spelling(B.Scale) +
             ir::exprText(N, stripCasts(*B.Value));
    for (const Stage::Term &T : S.Terms)
      Key += "|" + T.Index + spelling(T.Coefficient) + "[" +
             ir::exprText(N, *T.Lower) + "," + ir::exprText(N, *T.Upper) + ")";
    return Key;
  }

  /// Read E (its window shaped in S) joins a window of the same key and
  /// row stride, or starts one.
  void addToWindow(const ir::Expr &E, Stage &&S, std::vector<Stage> &Out) {
    const std::string Key = windowKey(S);
    for (std::size_t I = 0; I < WindowAt.size(); ++I) {
      Stage &W = Out[WindowAt[I]];
      if (WindowKeys[I] != Key ||
          (!W.RowStride.empty() && !S.RowStride.empty() &&
           spelling(W.RowStride) != spelling(S.RowStride)))
        continue;
      if (W.RowStride.empty())
        W.RowStride = S.RowStride;
      for (int A = 0; A < 2; ++A) {
        W.MinOffset[A] = std::min(W.MinOffset[A], S.MinOffset[A]);
        W.MaxOffset[A] = std::max(W.MaxOffset[A], S.MaxOffset[A]);
      }
      W.Reads.push_back(&E);
      W.Offsets.push_back(S.Offsets.front());
      W.Neighbours.push_back(S.Neighbours.front());
      const std::size_t More = W.Reads.size() - 1;
      W.Description = W.Description.substr(0, W.Description.find(" (and ")) +
                      " (and " + std::to_string(More) + " more read" +
                      (More > 1 ? "s" : "") + " at other offsets)";
      return;
    }
    S.Reads.push_back(&E);
    WindowKeys.push_back(Key);
    WindowAt.push_back(Out.size());
    Out.push_back(std::move(S));
  }

  void visit(const ir::Expr &E, std::vector<Stage> &Out) {
    for (const ir::ExprPtr &O : E.Operands)
      visit(*O, Out);
    if (E.Kind != ir::Expr::SpanElement || E.refersToElement() ||
        N.Params[E.ParamIndex].Kind != ir::ParamKind::ReadSpan)
      return;
    Stage S;
    std::vector<const ir::Expr *> Scale;
    ThreadTerms Thread;
    Neighbour.reset();
    // The outermost level's index in a read of no column is no block's
    // range (each row of the block reads its own).
    if (!linearize(*E.Operands[0], S, Scale, false, Thread) ||
        (!Thread.Column && (S.Terms.empty() || Thread.Row)) ||
        (Thread.Column && !shapeWindow(S, Thread)))
      return;
    S.Param = E.ParamIndex;
    S.Level = &L;
    S.Description = N.Params[S.Param].Name + "[" +
                    ir::exprText(N, stripCasts(*E.Operands[0])) + "]";
    for (const Stage::Term &T : S.Terms)
      S.Description += ", " + T.Index + " in [" + ir::exprText(N, *T.Lower) +
                       ", " + ir::exprText(N, *T.Upper) + ")";
    if (S.Window) {
      S.Description += ", a window along " +
                       (S.OuterRows ? RowLevel->IndexName + " and " : "") +
                       L.IndexName;
      addToWindow(E, std::move(S), Out);
      return;
    }
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
  bool WindowsAllowed; // the level's first round covers a block's share
  /// The outermost level, where the block holds several of its iterations
  /// and a window's rows may follow its index.
  const ir::Level *RowLevel;
  std::set<std::string> Inner, OuterIndices;
  /// The windows this level's reads made so far (their places in the
  /// stages; run() drops those whose reads do not overlap), their keys.
  std::vector<std::size_t> WindowAt;
  std::vector<std::string> WindowKeys;
  std::vector<Loop> Loops;
  std::map<std::string, ClampedLocal> Clamped;
  /// The clamped neighbour of the read being linearized, its scale.
  struct NeighbourTerm {
    std::string Local, Near;
    std::vector<const ir::Expr *> Scale;
    std::int64_t Lo, Hi;
  };
  std::optional<NeighbourTerm> Neighbour;
};

/// E's value where it is a constant (of literals alone).
std::optional<std::int64_t> constantValue(const ir::Nest &N,
                                          const ir::Expr &E) {
  const ir::AffineScope Scope{[](const std::string &) { return false; },
                              nullptr};
  std::optional<ir::AffineForm> F = ir::affineForm(N, E, Scope);
  if (!F || F->dependsOnVariables())
    return std::nullopt;
  return F->Offset.constantValue();
}

/// The product of Factors where each is a constant.
std::optional<std::int64_t>
constantProduct(const ir::Nest &N,
                const std::vector<const ir::Expr *> &Factors) {
  std::int64_t V = 1;
  for (const ir::Expr *F : Factors) {
    std::optional<std::int64_t> C = constantValue(N, *F);
    if (!C)
      return std::nullopt;
    V *= *C;
  }
  return V;
}

/// Elements, Rows, ColumnReach and ElementReads where the stage's extents
/// are constants (each term's reach: its coefficient, for a range, times
/// upper - 1 - lower; a range's elements are 1 plus the reaches).
void sizeIfConstant(const ir::Nest &N, Stage &S) {
  std::int64_t Reach[2] = {0, 0}; // a range's, or a window's columns; rows
  std::int64_t Reads = static_cast<std::int64_t>(S.Reads.size());
  for (const Stage::Term &T : S.Terms) {
    std::optional<std::int64_t> Lower = constantValue(N, *T.Lower),
                                Upper = constantValue(N, *T.Upper);
    std::optional<std::int64_t> C = S.Window
                                        ? std::optional<std::int64_t>(1)
                                        : constantProduct(N, T.Coefficient);
    if (!Lower || !Upper || !C || *C < 0 || *Upper - 1 - *Lower > 4096)
      return;
    Reach[T.Row] += *C * std::max<std::int64_t>(0, *Upper - 1 - *Lower);
    Reads *= std::max<std::int64_t>(0, *Upper - *Lower);
  }
  if (!S.Window) {
    S.Elements = 1 + Reach[0];
    return;
  }
  S.Rows = 1 + Reach[1] + S.MaxOffset[0] - S.MinOffset[0];
  S.ColumnReach = Reach[0] + S.MaxOffset[1] - S.MinOffset[1];
  S.ElementReads = Reads;
}

/// The outermost level, where windows may follow its rows in blocks that
/// hold several of them (see planStaging): a perfectly nested pair without
/// reductions, stepping by one.
const ir::Level *rowLevel(const ir::Nest &N) {
  const ir::Level &Root = N.Root;
  if (Root.Step != 1 || !Root.Reductions.empty() || Root.Body.size() != 1 ||
      Root.Body.front()->Kind != ir::Stmt::ParallelFor)
    return nullptr;
  // Every thread of the block computes the window's place alike: the
  // pair's bounds cannot follow the outermost index.
  const ir::Level &Pair = *Root.Body.front()->Nested;
  auto FollowsRoot = [&](const ir::Expr &E) {
    return ir::anyExpression(E, [&](const ir::Expr &X) {
      return X.Kind == ir::Expr::Local && X.Text == Root.IndexName;
    });
  };
  if (!Pair.Reductions.empty() || FollowsRoot(*Pair.Lower) ||
      FollowsRoot(*Pair.Upper))
    return nullptr;
  return &Root;
}

/// What planStaging searches for under a mapping: windows or not, rows
/// along the outermost level or not; nullopt where nothing is staged.
struct StagingMode {
  bool Windows = false;
  const ir::Level *Rows = nullptr;
};

std::optional<StagingMode> stagingMode(const ir::Nest &N,
                                       const map::NestMapping &M) {
  if (M.Levels.size() < 2)
    return std::nullopt;
  const map::LevelMapping &Inner = M.Levels[1];
  unsigned BlockThreads = 1;
  for (const map::LevelMapping &L : M.Levels)
    BlockThreads *= L.BlockSize;
  StagingMode Mode;
  // A window holds the block's first round of the level's iterations:
  // with Span(1) all of them where the grid covers the level.
  Mode.Windows = !Inner.sequential() &&
                 Inner.Dop.Kind == map::Parallelism::Span && Inner.Dop.N == 1;
  // The block is the level's one group (over the whole extent, or its
  // share of it): every thread of the block is in the same outermost
  // iteration, and the load and its barrier come before the level's loop,
  // where all of them are. Or it holds rows of the outermost level by
  // columns of the level, for windows along both.
  const map::LevelMapping &Outer = M.Levels[0];
  bool DeeperInThreads = true;
  for (std::size_t D = 2; D < M.Levels.size(); ++D)
    DeeperInThreads = DeeperInThreads && M.Levels[D].sequential();
  if (Mode.Windows && Inner.BlockSize * Outer.BlockSize == BlockThreads &&
      Outer.BlockSize >= 2 && !Outer.sequential() && Outer.Dim != Inner.Dim &&
      Outer.Dop.Kind == map::Parallelism::Span && Outer.Dop.N == 1 &&
      DeeperInThreads)
    Mode.Rows = rowLevel(N);
  if (Inner.sequential() || Inner.Dop.Kind == map::Parallelism::Split ||
      (Inner.BlockSize != BlockThreads && !Mode.Rows) || BlockThreads < 2)
    return std::nullopt;
  return Mode;
}

std::vector<Stage> stagesUnder(const ir::Nest &N, const StagingMode &Mode) {
  std::vector<Stage> Stages;
  for (const ir::Level *L : ir::levels(N))
    if (L->Depth == 1)
      StagingSearch(N, *L, Mode.Windows, Mode.Rows).run(Stages);
  for (Stage &S : Stages)
    sizeIfConstant(N, S);
  return Stages;
}

} // namespace

std::vector<Stage> planStaging(const ir::Nest &N, const map::NestMapping &M) {
  const std::optional<StagingMode> Mode = stagingMode(N, M);
  return Mode ? stagesUnder(N, *Mode) : std::vector<Stage>{};
}

WindowShare::WindowShare(const ir::Nest &N)
    : N(N), Tileable(ir::findTileableLoop(N).has_value()) {
  // Windows of one row, or of the block's rows where the nest allows them.
  Stages[0] = stagesUnder(N, {true, nullptr});
  if (const ir::Level *Root = rowLevel(N))
    Stages[1] = stagesUnder(N, {true, Root});
  for (const std::vector<Stage> &S : Stages)
    AnyWindow =
        AnyWindow || std::any_of(S.begin(), S.end(),
                                 [](const Stage &X) { return X.Window; });
}

double WindowShare::operator()(const std::vector<map::LevelMapping> &Levels) {
  if (!AnyWindow)
    return 0;
  map::NestMapping M;
  M.Levels = Levels;
  const std::optional<StagingMode> Mode = stagingMode(N, M);
  if (!Mode || !Mode->Windows ||
      (Tileable && planTiling(N, M))) // tiles take the place of stages
    return 0;
  double Share = 0;
  for (const Stage &S : Stages[Mode->Rows ? 1 : 0]) {
    if (!S.Window || !S.Rows || !S.ColumnReach || !S.ElementReads ||
        *S.ElementReads <= 0)
      continue;
    // Rows past a 256-thread block's are not counted: larger blocks hold
    // fewer an SM, each waiting at its barriers, which this model of
    // loads does not see.
    const double Columns = Levels[1].BlockSize;
    const double Rows = S.OuterRows
                            ? std::min<double>(Levels[0].BlockSize,
                                               std::max(1.0, 256.0 / Columns))
                            : 1.0;
    const double Loaded = (static_cast<double>(*S.Rows) + Rows - 1) *
                          (Columns + static_cast<double>(*S.ColumnReach)) /
                          (Rows * Columns);
    Share += static_cast<double>(S.Reads.size()) *
             std::max(0.0, 1.0 - Loaded / static_cast<double>(*S.ElementReads));
  }
  return Share;
}

} // namespace weft::memory
