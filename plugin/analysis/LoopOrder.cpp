// LoopOrder.cpp: the proofs and rewrites behind reorderLoops.
#include "analysis/LoopOrder.h"

#include "ir/AffineForm.h"
#include "ir/IrQueries.h"
#include "ir/LoopHeader.h"

#include <algorithm>
#include <map>
#include <set>

namespace weft::ir {
namespace {

/// Statements that the iterations of a marked level over Index run, taken
/// as one region: whether they write no variable of the code around them,
/// and every span they write they reach at one subscript naming a
/// different element for each value of Index (and the same element
/// wherever else the region is), so that no two values of Index share
/// anything written, whatever order the region's loops run in.
class IndexedRegion {
public:
  /// References: the names of the nest's references, whose reads reach
  /// what they bind (a span element the region may write, unseen).
  IndexedRegion(const Nest &N, const std::string &Index,
                const std::set<std::string> &References)
      : N(N), Index(Index), References(References) {
    Declared.insert(Index);
  }

  void add(const Stmt &S) {
    declaredNames(S, Declared);
    Roots.push_back(&S);
  }

  /// The spans the region reaches, where it writes one: the proof takes
  /// them as memory of their own (N.TakenApart).
  void takeApart(Nest &Of) const {
    // (Row offsets are the launch's own.)
    if (!Written.empty())
      for (const auto &[Param, Reached] : Accesses)
        if (N.Params[Param].RowOffsetsOf < 0)
          Of.TakenApart.insert(Param);
  }

  /// Every name declared inside the region, Index included.
  const std::set<std::string> &declared() const { return Declared; }

  /// Why independent() said no, in words.
  std::string Why;

  bool independent() {
    for (const Stmt *S : Roots)
      if (!scan(*S, false, false))
        return false;
    for (unsigned P : Written)
      if (!apart(Accesses[P]))
        return false;
    return true;
  }

  /// Reads nothing the region declares or writes, and no memory but the
  /// row offsets of rows held apart (which no loop writes): the same value
  /// wherever in the region it is evaluated.
  bool fixed(const Expr &E) const {
    return !anyExpression(E, [&](const Expr &X) {
      return mayChange(N, X) ||
             (X.Kind == Expr::Local &&
              (Declared.count(X.Text) || References.count(X.Text)));
    });
  }

private:
  /// A write the region may make: to its own locals and arrays, to a
  /// span (whose subscripts apart() checks), or to the outermost level's
  /// reduction target, into which the recognizer lets it only combine
  /// (any order of its iterations combines the same values).
  bool owns(const Expr &Root) const {
    switch (Root.Kind) {
    case Expr::Local:
    case Expr::LocalElement:
      return Declared.count(Root.Text) > 0;
    case Expr::SpanElement:
      return true;
    case Expr::ParamRef:
      return N.Params[Root.ParamIndex].Kind == ParamKind::ReductionTarget;
    default:
      return false;
    }
  }

  bool fail(std::string Reason) {
    Why = std::move(Reason);
    return false;
  }

  /// What a write that the region may not make writes, in words.
  std::string named(const Expr &Root) const {
    if (Root.Kind == Expr::ParamRef)
      return "'" + N.Params[Root.ParamIndex].Name + "', captured";
    if (Root.Kind == Expr::Local || Root.Kind == Expr::LocalElement)
      return "'" + Root.Text + "', declared outside it";
    return "what a pointer or a reference outside it names";
  }

  bool scan(const Stmt &S, bool InLoop, bool InSwitch) {
    if (S.Kind == Stmt::Decl)
      ++Declarations[S.Name];
    if (std::optional<LoopHeader> L = loopHeader(S, N.Functions))
      addRange(*L);
    if (S.Kind == Stmt::Return || (S.Kind == Stmt::Continue && !InLoop) ||
        (S.Kind == Stmt::Break && !InLoop && !InSwitch))
      return fail("an iteration leaves it by " +
                  std::string(S.Kind == Stmt::Return     ? "return"
                              : S.Kind == Stmt::Continue ? "continue"
                                                         : "break"));
    // A reference is a write wherever it is used.
    if (S.Kind == Stmt::Decl && S.VarType.IsReference && S.Exprs[0] &&
        !owns(writtenRoot(*S.Exprs[0])))
      return fail("reference '" + S.Name + "' binds " +
                  named(writtenRoot(*S.Exprs[0])));
    for (const ExprPtr &E : S.Exprs)
      if (E && !scan(*E))
        return false;
    if (S.ArrayExtent && !scan(*S.ArrayExtent))
      return false;
    const bool Loop = InLoop || S.Kind == Stmt::For || S.Kind == Stmt::While ||
                      S.Kind == Stmt::DoWhile;
    const bool Switch = InSwitch || S.Kind == Stmt::Switch;
    for (const StmtPtr &C : S.Children)
      if (C && !scan(*C, Loop, Switch))
        return false;
    // A nested level's continue ends its own iteration.
    if (S.Nested)
      for (const StmtPtr &C : S.Nested->Body)
        if (!scan(*C, false, false))
          return false;
    return true;
  }

  bool scan(const Expr &E) {
    if (E.Kind == Expr::Local && !Declared.count(E.Text) &&
        References.count(E.Text))
      return fail("it reads '" + E.Text + "', a reference from outside it");
    // Other iterations combine into an array reduction's elements too.
    if (E.Kind == Expr::Combine)
      return fail("it combines into an array reduction");
    if (assigns(E) && !owns(writtenRoot(*E.Operands[0])))
      return fail("it writes " + named(writtenRoot(*E.Operands[0])));
    if (E.Kind == Expr::Unary && E.Text == "&")
      return fail("it takes an address");
    if (E.Kind == Expr::Call && !callWritesOwn(E))
      return fail("a call to '" + E.Text +
                  "' may write what a reference parameter binds outside it");
    if (E.Kind == Expr::SpanElement) {
      Accesses[E.ParamIndex].push_back(&E);
      if (E.writes())
        Written.insert(E.ParamIndex);
    }
    for (const ExprPtr &O : E.Operands)
      if (!scan(*O))
        return false;
    return true;
  }

  /// A function of the nest writes what its non-const reference parameters
  /// bind (the object of a method among them); <weft/device.h>'s functions
  /// write none of their operands.
  bool callWritesOwn(const Expr &Call) const {
    for (const Function &F : N.Functions) {
      if (F.Name != Call.Text)
        continue;
      for (std::size_t I = 0; I < Call.Operands.size() && I < F.Params.size();
           ++I) {
        const LocalType &T = F.Params[I].second;
        if (T.IsReference && !T.IsConst &&
            !owns(writtenRoot(*Call.Operands[I])))
          return false;
      }
    }
    return true;
  }

  /// One subscript for all of a written span's accesses, Index times a
  /// nonzero constant plus values the region never changes.
  bool apart(const std::vector<const Expr *> &All) {
    const Expr &Subscript = stripCasts(*All.front()->Operands[0]);
    const std::string Text = exprText(N, Subscript);
    const std::string Span = N.Params[All.front()->ParamIndex].Name;
    for (const Expr *E : All)
      if (const std::string Other = exprText(N, stripCasts(*E->Operands[0]));
          Other != Text)
        return fail("it writes " + Span + " and reaches it at " + Span + "[" +
                    Text + "] and at " + Span + "[" + Other + "]");
    std::string Changing;
    anyExpression(Subscript, [&](const Expr &X) {
      if (X.Kind == Expr::Local && X.Text != Index && Declared.count(X.Text) &&
          !bounded(X.Text))
        Changing = "'" + X.Text + "', which it sets";
      else if (mayChange(N, X))
        Changing = "memory, a call or an assignment";
      return !Changing.empty();
    });
    if (!Changing.empty())
      return fail("it writes " + Span + "[" + Text +
                  "], whose subscript reads " + Changing);
    if (!distinctForEachIndex(All.front()->ParamIndex, Subscript))
      return fail("it writes " + Span + "[" + Text +
                  "], which is not a different element for each " + Index);
    return true;
  }

  /// Index's coefficient in E when E is affine in Index alone with a
  /// constant one (0 where E does not involve it).
  std::optional<std::int64_t> indexCoefficient(const Expr &E) const {
    AffineScope Scope;
    Scope.IsVariable = [&](const std::string &V) { return V == Index; };
    std::optional<AffineForm> F = affineForm(N, E, Scope);
    if (!F || F->Coefficients.size() > 1)
      return std::nullopt;
    if (F->Coefficients.empty())
      return 0;
    if (!F->Coefficients.count(Index))
      return std::nullopt;
    return F->Coefficients.at(Index).constantValue();
  }

  /// Subscript, which reads nothing the region changes, names a different
  /// element of span Param for each value of Index: an affine form with a
  /// nonzero constant coefficient, or element C of row R of rows held
  /// apart (`rows[R] + C`, the rows gathered into one block, a row's
  /// elements apart from every other row's), R and C affine in Index with
  /// constant coefficients not both zero, or `rows[e / c][e % c]` (rows of
  /// c elements indexed as one flat range) with e apart.
  bool distinctForEachIndex(unsigned Param, const Expr &Subscript) const {
    if (std::optional<RowsSubscript> Rows =
            rowsSubscript(N, Param, Subscript)) {
      if (const Expr *Flat = chunkedIndex(*Rows->Row, *Rows->Column))
        return distinct(*Flat);
      std::optional<std::int64_t> Row = indexCoefficient(*Rows->Row),
                                  Column = indexCoefficient(*Rows->Column);
      return Row && Column && (*Row != 0 || *Column != 0);
    }
    return distinct(Subscript);
  }

  /// E is a different value for each value of Index.
  bool distinct(const Expr &E) const {
    // (Where an inner loop's index moves E too, its range decides.)
    if (anyExpression(E, [&](const Expr &X) {
          return X.Kind == Expr::Local && X.Text != Index && bounded(X.Text);
        }))
      return apartByBounds(E);
    std::optional<std::int64_t> C = indexCoefficient(E);
    return C && *C != 0;
  }

  /// e where Row is `e / c` and Column `e % c` for one integer e and one
  /// constant c > 0: the pair is a different one for each e (e is
  /// (e / c) * c + e % c, whatever its sign).
  const Expr *chunkedIndex(const Expr &Row, const Expr &Column) const {
    const Expr &Quotient = stripCasts(Row), &Remainder = stripCasts(Column);
    if (Quotient.Kind != Expr::Binary || Quotient.Text != "/" ||
        Remainder.Kind != Expr::Binary || Remainder.Text != "%" ||
        isFloating(Quotient.Type))
      return nullptr;
    std::optional<std::int64_t> C =
        integerValue(stripCasts(*Quotient.Operands[1]));
    if (!C || *C <= 0 ||
        integerValue(stripCasts(*Remainder.Operands[1])) != C ||
        exprText(N, *Quotient.Operands[0]) !=
            exprText(N, *Remainder.Operands[0]))
      return nullptr;
    return Quotient.Operands[0].get();
  }

  /// Subscript is Index times c plus inner loops' indices t, each over w
  /// values, times coefficients T, and |c| exceeds the most those terms
  /// can move, the sum of |T| (w - 1): no two values of Index meet (`k *
  /// 480 + j * 24 + i` of a C array `double u[16][20][24]`, i < 24, for
  /// each j; `(c * h + y) * w + x` for each y, x < w). Where w and T are
  /// polynomials over the captures, |c| - that sum must be a positive
  /// constant, and T a constant or a constant times the widths of the
  /// subscript's loops (at least 1 wherever the access runs: its sign is
  /// the constant's).
  bool apartByBounds(const Expr &Subscript) const {
    AffineScope Scope;
    Scope.IsVariable = [&](const std::string &V) {
      return V == Index || bounded(V);
    };
    std::optional<AffineForm> F = affineForm(N, Subscript, Scope);
    if (!F || !F->Coefficients.count(Index))
      return false;
    std::optional<Polynomial> Reach = Polynomial();
    for (const auto &[V, Coefficient] : F->Coefficients) {
      if (V == Index)
        continue;
      std::optional<int> Sign = signAtAccess(Coefficient, F->Coefficients);
      if (!Sign)
        return false;
      // |T| (w - 1).
      std::optional<Polynomial> Size =
          Polynomial::constant(*Sign).times(Coefficient);
      std::optional<Polynomial> Moves =
          Widths.at(V).minus(Polynomial::constant(1));
      if (Size && Moves)
        Moves = Moves->times(*Size);
      if (Moves && Reach)
        Reach = Reach->plus(*Moves);
      if (!Moves || !Reach)
        return false;
    }
    const Polynomial &C = F->Coefficients.at(Index);
    for (int Sign : {1, -1}) {
      std::optional<Polynomial> Margin = Polynomial::constant(Sign).times(C);
      if (Margin)
        Margin = Margin->minus(*Reach);
      std::optional<std::int64_t> Left =
          Margin ? Margin->constantValue() : std::nullopt;
      if (Left && *Left >= 1)
        return true;
    }
    return false;
  }

  /// T's sign wherever the access runs: a constant's, or a constant times
  /// symbols each the width of a loop of Coefficients' (nonzero there).
  std::optional<int>
  signAtAccess(const Polynomial &T,
               const std::map<std::string, Polynomial> &Coefficients) const {
    if (std::optional<std::int64_t> V = T.constantValue())
      return *V < 0 ? -1 : 1;
    if (T.terms().size() != 1)
      return std::nullopt;
    const auto &[Monomial, Factor] = *T.terms().begin();
    for (const std::string &Symbol : Monomial)
      if (std::none_of(Coefficients.begin(), Coefficients.end(),
                       [&](const auto &C) {
                         auto W = Widths.find(C.first);
                         return W != Widths.end() &&
                                W->second == Polynomial::symbol(Symbol);
                       }))
        return std::nullopt;
    return Factor < 0 ? -1 : 1;
  }

  /// A loop's values: within w of Lo, where its bounds are affine in
  /// captures and what the region does not change (the first loop of an
  /// index; bounded() takes indices declared once). (A step of c reaches
  /// some of them: the most it moves is still w - 1.)
  void addRange(const LoopHeader &L) {
    if (Widths.count(L.Index) || !fixed(*L.Lower) || !fixed(*L.Upper))
      return;
    AffineScope Scope;
    Scope.IsVariable = [](const std::string &) { return false; };
    std::optional<AffineForm> Lo = affineForm(N, *L.Lower, Scope),
                              Hi = affineForm(N, *L.Upper, Scope);
    if (!Lo || !Hi)
      return;
    const int Ends = (L.Inclusive ? 1 : 0) - (L.PastLower ? 1 : 0);
    std::optional<Polynomial> W = Hi->Offset.minus(Lo->Offset);
    if (W)
      W = W->plus(Polynomial::constant(Ends));
    if (W)
      Widths.emplace(L.Index, *W);
  }

  /// V is the index of a counted loop in the region, with bounds it does
  /// not change, declared nowhere else in it.
  bool bounded(const std::string &V) const {
    auto D = Declarations.find(V);
    return Widths.count(V) && D != Declarations.end() && D->second == 1;
  }

  const Nest &N;
  const std::string Index;
  const std::set<std::string> &References;
  std::vector<const Stmt *> Roots;
  std::set<std::string> Declared;
  std::map<unsigned, std::vector<const Expr *>> Accesses;
  std::set<unsigned> Written;
  /// The region's counted loops with bounds it does not change: each
  /// index's count of values (Upper - Lower), a polynomial over the
  /// captures.
  std::map<std::string, Polynomial> Widths;
  std::map<std::string, int> Declarations;
};

std::unique_ptr<Stmt> blockOf(std::vector<StmtPtr> Statements) {
  auto B = std::make_unique<Stmt>();
  B->Kind = Stmt::Block;
  B->Children = std::move(Statements);
  return B;
}

/// "line 12" of a location "file:12:7".
std::string lineOf(const std::string &Location) {
  const std::size_t Col = Location.rfind(':');
  const std::size_t Line =
      Col == std::string::npos || Col == 0 ? Col : Location.rfind(':', Col - 1);
  return Line == std::string::npos
             ? Location
             : "line " + Location.substr(Line + 1, Col - Line - 1);
}

/// The names every reference in S's statements declares.
void referenceNames(const Stmt &S, std::set<std::string> &Names) {
  if (S.Kind == Stmt::Decl && S.VarType.IsReference)
    Names.insert(S.Name);
  for (const StmtPtr &C : S.Children)
    if (C)
      referenceNames(*C, Names);
  if (S.Nested)
    for (const StmtPtr &C : S.Nested->Body)
      referenceNames(*C, Names);
}

class Reorderer {
public:
  explicit Reorderer(Nest &N) : N(N) {
    for (const StmtPtr &S : N.Root.Body)
      referenceNames(*S, References);
  }

  void run(Level &L) {
    Enclosing.push_back(L.IndexName);
    for (StmtPtr &S : L.Body)
      enterLevels(*S);
    for (std::size_t I = 0; I < L.Body.size(); ++I)
      if (provablyParallel(L, *L.Body[I], *L.Body[I]) || openedBlock(L, I)) {
        makeLevel(L, L.Body[I]);
        // Its own loops in turn (a 3-D sweep marked on its outer loop).
        run(*L.Body[I]->Nested);
      }
    // A nest marked sequential runs its loop in one block, as asked.
    const bool AsMarked = &L == &N.Root && N.Sequential;
    for (std::size_t I = 0; I < L.Body.size() && !AsMarked; ++I)
      interchange(L, I);
    for (std::size_t I = 0; I + 1 < L.Body.size();)
      if (!fuse(L, I))
        ++I;
    Enclosing.pop_back();
  }

  std::vector<LoopReorder> Changes;

private:
  /// S is an unmarked `for (int j = lo; j < hi; ++j) B` (or a header of
  /// the other forms a level's may take) one level inside L (at most the
  /// third), B holds no level, and no two values of j share anything Scope
  /// (S, or a loop around it) writes.
  bool provablyParallel(const Level &L, const Stmt &S, const Stmt &Scope) {
    // (A nest marked sequential keeps the levels it was given: one block
    // runs them.)
    std::optional<LoopHeader> J = loopHeader(S, N.Functions);
    // (An index named as an enclosing level's would confuse the analyses
    // that know levels by their index.)
    if (!J || L.Depth >= 2 || N.Sequential ||
        holdsLevels(*J->Loop->Children[1]) ||
        std::count(Enclosing.begin(), Enclosing.end(), J->Index))
      return false;
    IndexedRegion Region(N, J->Index, References);
    Region.add(Scope);
    if (!Region.independent())
      return false;
    for (const Expr *E : J->reads())
      if (!Region.fixed(*E))
        return false;
    Region.takeApart(N);
    return true;
  }

  /// L.Body[At] a block of declarations and a loop that provablyParallel()
  /// accepts (a range-for over a row: the row's view, then its index
  /// loop), where no statement of L's sees its names otherwise: its
  /// statements made L's, At the loop's.
  bool openedBlock(Level &L, std::size_t &At) {
    Stmt &B = *L.Body[At];
    if (B.Kind != Stmt::Block || B.Children.empty() ||
        !std::all_of(B.Children.begin(), B.Children.end() - 1,
                     [](const StmtPtr &C) { return C->Kind == Stmt::Decl; }))
      return false;
    std::set<std::string> Others;
    for (std::size_t I = 0; I < L.Body.size(); ++I)
      if (I != At)
        usedNames(*L.Body[I], Others);
    for (std::size_t I = 0; I + 1 < B.Children.size(); ++I)
      if (Others.count(B.Children[I]->Name))
        return false;
    // (The proof last: it takes the spans it reaches apart.)
    if (!provablyParallel(L, *B.Children.back(), *B.Children.back()))
      return false;
    std::vector<StmtPtr> Opened = std::move(B.Children);
    L.Body.erase(L.Body.begin() + At);
    const std::size_t Count = Opened.size();
    L.Body.insert(L.Body.begin() + At, std::make_move_iterator(Opened.begin()),
                  std::make_move_iterator(Opened.end()));
    At += Count - 1;
    return true;
  }

  /// S, a loop provablyParallel() accepts, as a level of its own.
  void makeLevel(const Level &L, StmtPtr &S) {
    std::unique_ptr<Level> Made =
        levelOf(*S, *loopHeader(*S, N.Functions), L.Depth + 1);
    // (Declarations after the loop are not the bounds' names.)
    for (std::size_t At = 0; At < L.Body.size(); ++At)
      if (&L.Body[At] == &S)
        for (ExprPtr *Bound : {&Made->Lower, &Made->Upper})
          seeThroughLocals(L, At, *Bound);
    Changes.push_back(
        {Made->Location,
         "not marked, found parallel: no two " +
             (Made->Shown.empty() ? "values of " + Made->IndexName
                                  : "iterations over " + Made->Shown) +
             " share an element the loop writes",
         ""});
    auto Marked = std::make_unique<Stmt>();
    Marked->Kind = Stmt::ParallelFor;
    Marked->Nested = std::move(Made);
    S = std::move(Marked);
  }

  /// The locals of L's body that E reads, each declared once there, before
  /// its statement Before (the level's), with a value the same in every
  /// thread (`int n = cols;` of a function compiled into the loop) and
  /// never changed, replaced by that value: a bound the launch can then
  /// size a grid by.
  void seeThroughLocals(const Level &L, std::size_t Before, ExprPtr &E) {
    for (ExprPtr &O : E->Operands)
      seeThroughLocals(L, Before, O);
    if (E->Kind != Expr::Local)
      return;
    const Stmt *Declared = nullptr;
    for (std::size_t I = 0; I < L.Body.size(); ++I) {
      std::set<std::string> Names;
      declaredNames(*L.Body[I], Names);
      if (!Names.count(E->Text))
        continue;
      if (Declared || I >= Before || L.Body[I]->Kind != Stmt::Decl)
        return;
      Declared = L.Body[I].get();
    }
    if (!Declared || Declared->VarType.IsReference || Declared->ArrayExtent ||
        Declared->VarType.Struct >= 0 || !Declared->Exprs[0] ||
        !gridUniform(*Declared->Exprs[0]) ||
        std::any_of(L.Body.begin(), L.Body.end(), [&](const StmtPtr &S) {
          return mayWriteLocal(*S, E->Text, N.Functions);
        }))
      return;
    E = castTo(cloneExpr(*Declared->Exprs[0]), Declared->VarType.Scalar);
  }

  void enterLevels(Stmt &S) {
    for (StmtPtr &C : S.Children)
      if (C)
        enterLevels(*C);
    if (S.Nested)
      run(*S.Nested);
  }

  /// `for (k ...) { s; for j (marked) B; }` at L.Body[At] into `for j {
  /// for (k ...) { s; B; } }`.
  void interchange(Level &L, std::size_t At) {
    Stmt &Loop = *L.Body[At];
    std::optional<CountedLoop> K = countedLoop(Loop);
    if (!K)
      return;
    std::vector<StmtPtr> *Content = nullptr;
    StmtPtr *Marked = &Loop.Children[1];
    if ((*Marked)->Kind != Stmt::ParallelFor) {
      Content = blockStatements(**Marked);
      if (!Content || Content->empty())
        return;
      Marked = &Content->back();
    }
    // An unmarked loop there that the reorder's own proof shows parallel
    // (no j shares a written element, whatever the step) is made a level.
    if (((*Marked)->Kind == Stmt::For || (*Marked)->Kind == Stmt::Block) &&
        provablyParallel(L, **Marked, Loop))
      makeLevel(L, *Marked);
    if ((*Marked)->Kind != Stmt::ParallelFor)
      return;
    Level &M = *(*Marked)->Nested;
    // Where the loop stays outside, the remark says why (each of its steps
    // is a barrier for the block, and a product so ordered has no reuse).
    auto Keep = [&](const std::string &Why) {
      Changes.push_back(
          {M.Location,
           "the loop over " + K->Index + " around it stays outside it: " + Why,
           "", true});
    };
    std::set<std::string> BeforeNames;
    for (std::size_t I = 0; Content && I + 1 < Content->size(); ++I) {
      const Stmt &Before = *(*Content)[I];
      if (Before.Kind == Stmt::ParallelFor)
        return Keep("its steps also run the loop over " +
                    Before.Nested->IndexName + " at " +
                    lineOf(Before.Nested->Location));
      if (Before.Kind != Stmt::Decl && Before.Kind != Stmt::ExprStmt)
        return Keep("a statement before it is neither a declaration nor an "
                    "expression");
      declaredNames(Before, BeforeNames);
    }
    if (reduces(M))
      return Keep("it reduces");
    if (BeforeNames.count(M.IndexName))
      return Keep("a statement before it declares '" + M.IndexName + "'");
    for (const StmtPtr &S : M.Body)
      if (holdsLevels(*S))
        return Keep("it holds marked loops of its own");
    IndexedRegion Region(N, M.IndexName, References);
    Region.add(Loop);
    if (!Region.independent())
      return Keep(Region.Why);
    if (!Region.fixed(*K->Lower) || !Region.fixed(*K->Upper) ||
        !Region.fixed(*M.Lower) || !Region.fixed(*M.Upper))
      return Keep("a bound of the two loops reads a value set inside the "
                  "loop over " +
                  K->Index);
    Region.takeApart(N);

    StmtPtr Level = std::move(*Marked);
    std::vector<StmtPtr> Body;
    for (std::size_t I = 0; Content && I + 1 < Content->size(); ++I)
      Body.push_back(std::move((*Content)[I]));
    // B's own declarations keep a scope of their own where s's would meet
    // them in one.
    bool Clash = false;
    for (const StmtPtr &S : M.Body)
      Clash = Clash || (S->Kind == Stmt::Decl && BeforeNames.count(S->Name));
    if (Clash)
      Body.push_back(blockOf(std::move(M.Body)));
    else
      for (StmtPtr &S : M.Body)
        Body.push_back(std::move(S));
    M.Body.clear();
    StmtPtr Sequential = std::move(L.Body[At]);
    Sequential->Children[1] = blockOf(std::move(Body));
    M.Body.push_back(std::move(Sequential));
    L.Body[At] = std::move(Level);
    Changes.push_back(
        {M.Location,
         "the loop over " + K->Index + " moved inside the loop over " +
             M.IndexName + " at " + lineOf(M.Location) +
             " (each thread runs it for its own " + M.IndexName +
             ", whose elements no other " + M.IndexName + " touches)",
         ""});
  }

  bool sameRange(const Level &A, const Level &B) const {
    return A.IndexName == B.IndexName && A.IndexType == B.IndexType &&
           A.Lower && B.Lower && A.Upper && B.Upper &&
           exprText(N, *A.Lower) == exprText(N, *B.Lower) &&
           exprText(N, *A.Upper) == exprText(N, *B.Upper) &&
           A.Inclusive == B.Inclusive && A.CountsDown == B.CountsDown &&
           A.Step == B.Step && A.Forced.Dim == B.Forced.Dim &&
           A.Forced.Block == B.Forced.Block && A.Forced.Span == B.Forced.Span &&
           A.Forced.Split == B.Forced.Split;
  }

  static void usedNames(const Expr &E, std::set<std::string> &Names) {
    anyExpression(E, [&](const Expr &X) {
      if (X.Kind == Expr::Local || X.Kind == Expr::LocalElement)
        Names.insert(X.Text);
      return false;
    });
  }
  static void usedNames(const Stmt &S, std::set<std::string> &Names) {
    anyStatement(S, [&](const Stmt &X) {
      for (const ExprPtr &E : X.Exprs)
        if (E)
          usedNames(*E, Names);
      if (X.ArrayExtent)
        usedNames(*X.ArrayExtent, Names);
      if (X.Kind == Stmt::Decl)
        Names.insert(X.Name);
      return false;
    });
  }

  /// L.Body[At] and L.Body[At + 1], two marked levels over one range, into
  /// one.
  bool fuse(Level &L, std::size_t At) {
    if (L.Body[At]->Kind != Stmt::ParallelFor ||
        L.Body[At + 1]->Kind != Stmt::ParallelFor)
      return false;
    Level &A = *L.Body[At]->Nested, &B = *L.Body[At + 1]->Nested;
    if (!sameRange(A, B))
      return false;
    if (reduces(A) || reduces(B))
      return false;
    // Levels over one range that stay apart: the remark says why.
    auto Apart = [&](const std::string &Why) {
      Changes.push_back({A.Location,
                         "not fused with the loop over " + B.IndexName +
                             " at " + lineOf(B.Location) + ": " + Why,
                         "", true});
      return false;
    };
    IndexedRegion Region(N, A.IndexName, References);
    for (const Level *X : {&A, &B})
      for (const StmtPtr &S : X->Body) {
        if (holdsLevels(*S))
          return Apart("they hold marked loops of their own");
        Region.add(*S);
      }
    if (!Region.independent())
      return Apart(Region.Why);
    if (!Region.fixed(*A.Lower) || !Region.fixed(*A.Upper))
      return Apart("their range reads a value either sets");
    Region.takeApart(N);
    // A's declarations keep a scope of their own where B would see them.
    std::set<std::string> Later;
    for (const StmtPtr &S : B.Body)
      usedNames(*S, Later);
    bool Clash = false;
    for (const StmtPtr &S : A.Body)
      Clash = Clash || (S->Kind == Stmt::Decl && Later.count(S->Name));
    if (Clash) {
      StmtPtr Own = blockOf(std::move(A.Body));
      A.Body.clear();
      A.Body.push_back(std::move(Own));
    }
    for (StmtPtr &S : B.Body)
      A.Body.push_back(std::move(S));
    // B's remarks become A's, one of each where both say the same (two
    // made levels).
    std::set<std::string> SaidOfA;
    for (const LoopReorder &C : Changes)
      if (C.Level == A.Location)
        SaidOfA.insert(C.Text);
    Changes.erase(std::remove_if(Changes.begin(), Changes.end(),
                                 [&](const LoopReorder &C) {
                                   return C.Level == B.Location &&
                                          SaidOfA.count(C.Text);
                                 }),
                  Changes.end());
    for (LoopReorder &C : Changes)
      if (C.Level == B.Location)
        C.Level = A.Location;
    Changes.push_back({A.Location,
                       "fused with the loop over " + B.IndexName + " at " +
                           lineOf(B.Location) + " (each " + A.IndexName +
                           " touches only its own elements of what either "
                           "writes)",
                       B.Location});
    L.Body.erase(L.Body.begin() + At + 1);
    return true;
  }

  Nest &N;
  std::set<std::string> References;   // of the whole nest
  std::vector<std::string> Enclosing; // the indices of the levels run() is in
};

} // namespace

std::vector<LoopReorder> reorderLoops(Nest &N) {
  Reorderer R(N);
  R.run(N.Root);
  return std::move(R.Changes);
}

} // namespace weft::ir
