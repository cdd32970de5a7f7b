// AffineAccess.cpp: every span subscript of a nest as an affine function of
// the parallel indices, where it is one. This feeds the coalescing analysis:
// the level whose index has coefficient 1 in the most-executed accesses
// belongs on dimension x.
#include "ir/AffineForm.h"
#include "ir/HostBound.h"
#include "ir/IrQueries.h"
#include "ir/NestIR.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace weft::ir {
namespace {

class AccessAnalysis {
public:
  explicit AccessAnalysis(Nest &N) : N(N) {}

  void run() {
    collectAssigned(N.Root.Body);
    // First the locals whose values the indices decide in no affine way
    // (`int r = idx[i]`, also through one another): a subscript of one is
    // no affine form, so that writes through it are not taken for writes
    // of one element by every iteration.
    for (std::size_t Before = ~std::size_t(0); Before != Opaque.size();) {
      Before = Opaque.size();
      FindingOpaque = true;
      level(N.Root);
      FindingOpaque = false;
      N.Accesses.clear();
      N.Allocations.clear();
      AllocationIndex.clear();
      Locals.clear();
    }
    level(N.Root);
  }

private:
  void collectAssigned(const std::vector<StmtPtr> &Body) {
    for (const StmtPtr &S : Body) {
      if (!S)
        continue;
      for (const ExprPtr &E : S->Exprs)
        if (E)
          collectAssigned(*E);
      collectAssigned(S->Children);
      if (S->Nested)
        collectAssigned(S->Nested->Body);
    }
  }
  void collectAssigned(const Expr &E) {
    const bool Assigns =
        (E.Kind == Expr::Binary && E.Text.back() == '=' && E.Text != "==" &&
         E.Text != "!=" && E.Text != "<=" && E.Text != ">=") ||
        ((E.Kind == Expr::Unary || E.Kind == Expr::Postfix) &&
         (E.Text == "++" || E.Text == "--"));
    if (Assigns && E.Operands[0]->Kind == Expr::Local)
      Assigned.insert(E.Operands[0]->Text);
    for (const ExprPtr &O : E.Operands)
      collectAssigned(*O);
  }

  void level(const Level &L) {
    Indices.push_back(L.IndexName);
    Depth.push_back(L.Depth);
    body(L.Body);
    Indices.pop_back();
    Depth.pop_back();
  }

  void body(const std::vector<StmtPtr> &Body) {
    for (const StmtPtr &S : Body)
      if (S)
        stmt(*S);
  }

  void stmt(const Stmt &S) {
    if (S.Kind == Stmt::ParallelFor) {
      // The bounds are evaluated in the enclosing level.
      visit(*S.Nested->Lower, Use::Read);
      visit(*S.Nested->Upper, Use::Read);
      level(*S.Nested);
      return;
    }
    if (S.Kind == Stmt::Decl && S.ArrayExtent) {
      Allocation A;
      A.Name = S.Name;
      A.Element = S.VarType;
      A.Extent = exprText(N, *S.ArrayExtent);
      if (S.ArrayExtent->Kind == Expr::IntLiteral)
        A.FixedSize = integerValue(*S.ArrayExtent).value_or(-1);
      A.HostEvaluable = isHostEvaluable(*S.ArrayExtent);
      A.OwningLevel = Depth.empty() ? 0 : Depth.back();
      AllocationIndex[S.Name] = N.Allocations.size();
      N.Allocations.push_back(std::move(A));
      if (S.Exprs[0])
        visit(*S.Exprs[0], Use::Read);
    } else if (S.Kind == Stmt::Decl) {
      if (const Expr *Init = S.Exprs[0].get()) {
        noteValue(S.Name, *Init);
        visit(*Init, S.VarType.IsReference ? Use::ReadWrite : Use::Read);
        // A local computed once from the indices (int row = i * cols)
        // stands for its value in later subscripts.
        if (!S.VarType.IsReference && !Assigned.count(S.Name))
          if (std::optional<AffineForm> V = linear(*Init))
            Locals[S.Name] = *V;
      }
    } else {
      // A loop's or a switch's own expressions may not run at all either.
      const bool Runs = S.Kind == Stmt::ExprStmt || S.Kind == Stmt::Block ||
                        S.Kind == Stmt::If;
      Optional += !Runs;
      for (const ExprPtr &E : S.Exprs)
        if (E)
          visit(*E, Use::Read);
      Optional -= !Runs;
    }
    // What a conditional guards runs less often than what it follows.
    const bool Guards = S.Kind == Stmt::If;
    const bool MayNotRun = S.Kind != Stmt::Block && S.Kind != Stmt::Decl &&
                           S.Kind != Stmt::ExprStmt;
    Branches += Guards;
    Optional += MayNotRun;
    for (const StmtPtr &C : S.Children)
      if (C)
        stmt(*C);
    Branches -= Guards;
    Optional -= MayNotRun;
  }

  enum class Use { Read, Write, ReadWrite };

  void visit(const Expr &E, Use U) {
    if (E.Kind == Expr::LocalElement) {
      auto It = AllocationIndex.find(E.Text);
      const unsigned Here = Depth.empty() ? 0 : Depth.back();
      if (U != Use::Read && It != AllocationIndex.end()) {
        Allocation &A = N.Allocations[It->second];
        if (Here > A.OwningLevel && static_cast<int>(Here) > A.FilledByLevel)
          A.FilledByLevel = static_cast<int>(Here);
      }
      visit(*E.Operands[0], Use::Read);
      return;
    }
    if (E.Kind == Expr::Combine) {
      const Expr &Target = *E.Operands[0];
      record(Target, Use::ReadWrite);
      N.Accesses.back().Combined = true;
      visit(*Target.Operands[0], Use::Read);
      visit(*E.Operands[1], Use::Read);
      return;
    }
    if (E.Kind == Expr::SpanElement) {
      record(E, U);
      visit(*E.Operands[0], Use::Read);
      return;
    }
    if (E.Kind == Expr::Binary && E.Text.back() == '=' && E.Text != "==" &&
        E.Text != "!=" && E.Text != "<=" && E.Text != ">=") {
      if (E.Operands[0]->Kind == Expr::Local)
        noteValue(E.Operands[0]->Text, *E.Operands[1]);
      visit(*E.Operands[0], E.Text == "=" ? Use::Write : Use::ReadWrite);
      visit(*E.Operands[1], Use::Read);
      return;
    }
    const bool IncDec = (E.Kind == Expr::Unary || E.Kind == Expr::Postfix) &&
                        (E.Text == "++" || E.Text == "--");
    for (const ExprPtr &O : E.Operands)
      visit(*O, IncDec ? Use::ReadWrite : Use::Read);
  }

  void record(const Expr &E, Use U) {
    Access A;
    A.ParamIndex = E.ParamIndex;
    A.Read = U != Use::Write;
    A.Write = U != Use::Read;
    A.Subscript = exprText(N, *E.Operands[0]);
    A.Depth = Depth.empty() ? 0 : Depth.back();
    A.Branches = Branches;
    A.Levels = Indices;
    A.EveryIteration = Optional == 0;
    A.Origin = E.Origin;
    if (std::optional<AffineForm> V = linear(*E.Operands[0])) {
      A.Affine = true;
      for (const std::string &I : Indices) {
        auto It = V->Coefficients.find(I);
        if (It != V->Coefficients.end())
          A.Coefficients.emplace_back(I, It->second);
      }
      A.Offset = V->Offset;
    } else {
      A.Coefficients = strideOfSum(*E.Operands[0]);
    }
    N.Accesses.push_back(std::move(A));
  }

  /// For a subscript that is no affine form but a sum of one and terms
  /// that are not (a CSR row's start plus k, `offsets[r] + k`; a row held
  /// apart, `rows[i] + j`): the affine part's coefficients of the indices
  /// that no other term mentions, which step the subscript as they say.
  /// The coalescing score reads them; nothing proves anything with them.
  std::vector<std::pair<std::string, Polynomial>>
  strideOfSum(const Expr &E) const {
    std::vector<const Expr *> Terms;
    std::vector<bool> Negated;
    sumTerms(E, false, Terms, Negated);
    AffineForm Linear;
    std::set<std::string> Mentioned;
    for (std::size_t T = 0; T < Terms.size(); ++T) {
      if (std::optional<AffineForm> V = linear(*Terms[T])) {
        std::optional<AffineForm> Sum = add(Linear, *V, Negated[T]);
        if (!Sum)
          return {};
        Linear = std::move(*Sum);
        continue;
      }
      mentionedIndices(*Terms[T], Mentioned);
    }
    std::vector<std::pair<std::string, Polynomial>> Out;
    for (const std::string &I : Indices)
      if (auto It = Linear.Coefficients.find(I);
          It != Linear.Coefficients.end() && !Mentioned.count(I))
        Out.emplace_back(I, It->second);
    return Out;
  }
  static void sumTerms(const Expr &E, bool Negative,
                       std::vector<const Expr *> &Terms,
                       std::vector<bool> &Negated) {
    if (E.Kind == Expr::Cast && !isFloating(E.Type))
      return sumTerms(*E.Operands[0], Negative, Terms, Negated);
    if (E.Kind == Expr::Binary && (E.Text == "+" || E.Text == "-")) {
      sumTerms(*E.Operands[0], Negative, Terms, Negated);
      sumTerms(*E.Operands[1], Negative != (E.Text == "-"), Terms, Negated);
      return;
    }
    Terms.push_back(&E);
    Negated.push_back(Negative);
  }
  void mentionedIndices(const Expr &E, std::set<std::string> &Out) const {
    if (E.Kind == Expr::Local) {
      if (isIndex(E.Text))
        Out.insert(E.Text);
      else if (auto It = Locals.find(E.Text); It != Locals.end())
        for (const auto &[I, Coef] : It->second.Coefficients)
          Out.insert(I);
      else if (Assigned.count(E.Text) || Opaque.count(E.Text))
        Out.insert(Indices.begin(), Indices.end()); // may be anything
    }
    for (const ExprPtr &O : E.Operands)
      mentionedIndices(*O, Out);
  }

  bool isIndex(const std::string &Name) const {
    for (const std::string &I : Indices)
      if (I == Name)
        return true;
    return false;
  }

  /// E as an affine function of the indices in scope, or nullopt.
  std::optional<AffineForm> linear(const Expr &E) const {
    AffineScope Scope;
    Scope.IsVariable = [this](const std::string &Name) {
      return isIndex(Name);
    };
    Scope.Values = &Locals;
    Scope.IsOpaque = [this](const std::string &Name) {
      return Opaque.count(Name) > 0;
    };
    return affineForm(N, E, Scope);
  }

  /// While finding them: Name takes the value of E, which makes it opaque
  /// where E is no affine form but reads an index or an opaque local.
  void noteValue(const std::string &Name, const Expr &E) {
    if (FindingOpaque && !linear(E) && readsVariable(E))
      Opaque.insert(Name);
  }
  bool readsVariable(const Expr &E) const {
    if (E.Kind == Expr::Local &&
        (isIndex(E.Text) || Opaque.count(E.Text) ||
         (Locals.count(E.Text) && Locals.at(E.Text).dependsOnVariables())))
      return true;
    for (const ExprPtr &O : E.Operands)
      if (readsVariable(*O))
        return true;
    return false;
  }

  Nest &N;
  std::vector<std::string> Indices;
  std::vector<unsigned> Depth;
  std::set<std::string> Assigned;
  std::map<std::string, AffineForm> Locals;
  std::set<std::string> Opaque;
  bool FindingOpaque = false;
  std::map<std::string, std::size_t> AllocationIndex;
  unsigned Branches = 0;
  unsigned Optional = 0; // statements around here that may not run
};

} // namespace

std::vector<WriteConflict> provableWriteConflicts(const Nest &N) {
  std::map<std::string, std::string> Starts;
  // The levels whose bounds read a local (an outer index, or a value set
  // from one): which elements they reach may move with an outer index, so
  // blocks of them (`for (i = blk * 8; i < blk * 8 + 8; ++i)`) may be
  // apart where the subscript reads no outer index.
  std::set<std::string> Moving;
  const auto ReadsLocal = [](const Expr &E) {
    return anyExpression(
        E, [](const Expr &Part) { return Part.Kind == Expr::Local; });
  };
  for (const Level *L : levels(N)) {
    Starts[L->IndexName] = exprText(N, *L->Lower);
    if (ReadsLocal(*L->Lower) || ReadsLocal(*L->Upper))
      Moving.insert(L->IndexName);
  }
  std::vector<WriteConflict> Out;
  for (const Access &A : N.Accesses) {
    if (!A.Write || !A.Affine || !A.EveryIteration || A.Combined)
      continue;
    if (std::any_of(A.Coefficients.begin(), A.Coefficients.end(),
                    [&](const auto &C) {
                      return !C.second.isZero() && Moving.count(C.first);
                    }))
      continue;
    for (const std::string &Index : A.Levels) {
      bool Involved = false;
      for (const auto &[I, Coef] : A.Coefficients)
        Involved = Involved || (I == Index && !Coef.isZero());
      if (Involved)
        continue;
      // Two iterations to name: the first two the level runs.
      const std::string First = Starts.count(Index) ? Starts[Index] : "0";
      const bool Literal =
          !First.empty() &&
          First.find_first_not_of("0123456789") == std::string::npos &&
          First.size() < 18;
      Out.push_back(
          {&A, Index, First,
           Literal ? std::to_string(std::stoll(First) + 1) : First + " + 1"});
      break;
    }
  }
  return Out;
}

void analyzeAccesses(Nest &N) {
  N.Accesses.clear();
  N.Allocations.clear();
  AccessAnalysis(N).run();
}

} // namespace weft::ir
