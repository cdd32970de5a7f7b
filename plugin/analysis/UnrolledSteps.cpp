// UnrolledSteps.cpp: which sequential loops have a few steps that set the
// bounds of the loops inside them.
#include "analysis/UnrolledSteps.h"

#include "ir/AffineForm.h"
#include "ir/IrQueries.h"

#include <functional>
#include <string>
#include <vector>

namespace weft::ir {
namespace {

/// Visits S and every statement inside it, its levels' bodies included.
void eachStatement(const Stmt &S,
                   const std::function<void(const Stmt &)> &Visit) {
  Visit(S);
  for (const StmtPtr &C : S.Children)
    if (C)
      eachStatement(*C, Visit);
  if (S.Kind == Stmt::ParallelFor && S.Nested)
    for (const StmtPtr &C : S.Nested->Body)
      if (C)
        eachStatement(*C, Visit);
}

bool readsLocal(const Expr *E, const std::string &Name) {
  return E && anyExpression(*E, [&](const Expr &X) {
           return X.Kind == Expr::Local && X.Text == Name;
         });
}

/// Upper - Lower where it is a constant whatever the loops around and the
/// captures are.
std::optional<std::int64_t> constantTripCount(const Nest &N,
                                              const CountedLoop &L) {
  const AffineScope Scope{[](const std::string &) { return true; }};
  std::optional<AffineForm> Lower = affineForm(N, *L.Lower, Scope);
  std::optional<AffineForm> Upper = affineForm(N, *L.Upper, Scope);
  if (!Lower || !Upper)
    return std::nullopt;
  std::optional<AffineForm> Count = add(*Upper, *Lower, /*Subtract=*/true);
  if (!Count || Count->dependsOnVariables())
    return std::nullopt;
  return Count->Offset.constantValue();
}

/// A loop or a level inside Body bounded by Index.
bool boundsFollow(const Stmt &Body, const std::string &Index) {
  bool Found = false;
  eachStatement(Body, [&](const Stmt &S) {
    if (std::optional<CountedLoop> C = countedLoop(S))
      Found =
          Found || readsLocal(C->Lower, Index) || readsLocal(C->Upper, Index);
    if (S.Kind == Stmt::ParallelFor && S.Nested)
      Found = Found || readsLocal(S.Nested->Lower.get(), Index) ||
              readsLocal(S.Nested->Upper.get(), Index);
  });
  return Found;
}

bool signedIndexType(ScalarKind K) {
  return K == ScalarKind::Int || K == ScalarKind::Long ||
         K == ScalarKind::LongLong;
}

/// An unrolled loop around the statement being looked at: its index runs
/// over Lower + [0, Steps).
struct UnrolledIndex {
  std::string Index;
  Polynomial Lower;
  std::int64_t Steps = 0;
};

/// Every local name E reads.
void localsRead(const Expr &E, std::vector<std::string> &Names) {
  anyExpression(E, [&](const Expr &X) {
    if (X.Kind == Expr::Local)
      Names.push_back(X.Text);
    return false;
  });
}

/// Whether loop L's trip count is a constant in each copy of the unrolled
/// loops Around.
bool constantInCopies(const Nest &N, const Stmt &S, const CountedLoop &L,
                      const std::vector<UnrolledIndex> &Around) {
  if (!signedIndexType(L.IndexType) || !signedIndexType(L.Lower->Type) ||
      !signedIndexType(L.Upper->Type))
    return false;
  std::vector<std::string> Read;
  localsRead(*L.Lower, Read);
  localsRead(*L.Upper, Read);
  for (const std::string &Name : Read)
    if (writesLocal(*S.Children[1], Name))
      return false;
  const AffineScope Scope{[](const std::string &) { return true; }};
  std::optional<AffineForm> Lower = affineForm(N, *L.Lower, Scope);
  std::optional<AffineForm> Upper = affineForm(N, *L.Upper, Scope);
  if (!Lower || !Upper)
    return false;
  std::optional<AffineForm> Count = add(*Upper, *Lower, /*Subtract=*/true);
  if (!Count)
    return false;
  // Each index I = Lower + i over i in [0, Steps): the count is Offset +
  // the Lower's times their coefficients, plus a constant times each i.
  std::int64_t Least = 0, Most = 0;
  Polynomial Offset = Count->Offset;
  for (const auto &[Variable, Coefficient] : Count->Coefficients) {
    const UnrolledIndex *U = nullptr;
    for (const UnrolledIndex &A : Around)
      if (A.Index == Variable)
        U = &A;
    std::optional<std::int64_t> C = Coefficient.constantValue();
    if (!U || !C)
      return false;
    std::optional<Polynomial> Shift = Coefficient.times(U->Lower);
    std::optional<Polynomial> Sum =
        Shift ? Offset.plus(*Shift) : std::optional<Polynomial>();
    if (!Sum || *C > (1 << 20) || *C < -(1 << 20))
      return false;
    Offset = *Sum;
    (*C > 0 ? Most : Least) += *C * (U->Steps - 1);
  }
  std::optional<std::int64_t> Constant = Offset.constantValue();
  constexpr std::int64_t Limit = std::int64_t(1) << 20;
  return Constant && *Constant + Least >= -Limit && *Constant + Most <= Limit;
}

void findConstantCounts(const Nest &N, const Stmt &S,
                        const std::map<const Stmt *, std::int64_t> &Unrolled,
                        std::vector<UnrolledIndex> &Around,
                        std::set<const Stmt *> &Out) {
  std::optional<CountedLoop> C = countedLoop(S);
  if (C && !Around.empty() && !Unrolled.count(&S) &&
      constantInCopies(N, S, *C, Around))
    Out.insert(&S);
  bool Pushed = false;
  auto Steps = Unrolled.find(&S);
  if (C && Steps != Unrolled.end()) {
    const AffineScope Scope{[](const std::string &) { return true; }};
    std::optional<AffineForm> Lower = affineForm(N, *C->Lower, Scope);
    if (Lower && !Lower->dependsOnVariables()) {
      Around.push_back({C->Index, Lower->Offset, Steps->second});
      Pushed = true;
    }
  }
  for (const StmtPtr &Child : S.Children)
    if (Child)
      findConstantCounts(N, *Child, Unrolled, Around, Out);
  if (S.Kind == Stmt::ParallelFor && S.Nested)
    for (const StmtPtr &Child : S.Nested->Body)
      if (Child)
        findConstantCounts(N, *Child, Unrolled, Around, Out);
  if (Pushed)
    Around.pop_back();
}

} // namespace

std::set<const Stmt *>
constantCountLoops(const Nest &N, const std::vector<StmtPtr> &Body,
                   const std::map<const Stmt *, std::int64_t> &Unrolled) {
  std::set<const Stmt *> Out;
  std::vector<UnrolledIndex> Around;
  if (!Unrolled.empty())
    for (const StmtPtr &S : Body)
      if (S)
        findConstantCounts(N, *S, Unrolled, Around, Out);
  return Out;
}

std::map<const Stmt *, std::int64_t>
stepLoops(const Nest &N, const std::vector<StmtPtr> &Body, bool Bounding) {
  std::map<const Stmt *, std::int64_t> Out;
  const auto Visit = [&](const Stmt &S) {
    std::optional<CountedLoop> C = countedLoop(S);
    if (!C)
      return;
    std::optional<std::int64_t> Steps = constantTripCount(N, *C);
    if (Steps && *Steps >= 2 && *Steps <= MaxUnrolledSteps &&
        (!Bounding || boundsFollow(*S.Children[1], C->Index)))
      Out[&S] = *Steps;
  };
  for (const StmtPtr &S : Body)
    if (S)
      eachStatement(*S, Visit);
  return Out;
}

std::map<const Stmt *, std::int64_t> unrolledSteps(const Nest &N) {
  if (!N.Sequential)
    return {};
  return stepLoops(N, N.Root.Body, /*Bounding=*/true);
}

} // namespace weft::ir
