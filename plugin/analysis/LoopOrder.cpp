// LoopOrder.cpp: the rewrites behind reorderLoops, each on the proof of
// IndexedRegion.
#include "analysis/LoopOrder.h"
#include "analysis/IndexedRegion.h"

#include "ir/AffineForm.h"
#include "ir/IrQueries.h"
#include "ir/LoopHeader.h"

#include <algorithm>
#include <map>
#include <set>

namespace weft::ir {
namespace {

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
