// SpanUses.cpp: a body's span elements and the loops around them.
#include "ir/SpanUses.h"

#include "ir/IrQueries.h"

namespace weft::ir {
namespace {

class UseWalk {
public:
  UseWalk(SpanUses &Out, bool EnterLevels)
      : Out(Out), EnterLevels(EnterLevels) {}

  void visit(const Stmt &S) {
    if (S.Kind == Stmt::Decl && S.VarType.IsReference && S.Exprs[0])
      for (const Expr *R = S.Exprs[0].get(); R;
           R = R->Kind == Expr::Member ? R->Operands[0].get() : nullptr)
        if (R->Kind == Expr::SpanElement)
          Out.Refused.insert(R->ParamIndex);
    if (S.Kind == Stmt::ParallelFor) {
      if (!EnterLevels)
        return;
      Loops.push_back(levelBounds(*S.Nested));
      for (const StmtPtr &C : S.Nested->Body)
        if (C)
          visit(*C);
      Loops.pop_back();
      return;
    }
    if (S.Kind == Stmt::For) {
      if (S.Children[0])
        visit(*S.Children[0]);
      Loops.push_back(loopBounds(S));
      for (const ExprPtr &E : S.Exprs)
        if (E)
          collect(*E);
      if (S.Children[1])
        visit(*S.Children[1]);
      Loops.pop_back();
      return;
    }
    for (const ExprPtr &E : S.Exprs)
      if (E)
        collect(*E);
    for (const StmtPtr &C : S.Children)
      if (C)
        visit(*C);
  }

private:
  void collect(const Expr &E, bool Target = false) {
    if (E.Kind == Expr::SpanElement) {
      Out.Uses.push_back({&E, Loops, Target});
      if (Target)
        Out.Written.insert(E.ParamIndex);
      // Written other than as an assignment's target: through a call, an
      // increment, a member.
      if (E.writes() && !Target)
        Out.Refused.insert(E.ParamIndex);
    }
    if (E.Kind == Expr::Combine)
      Out.Refused.insert(E.Operands[0]->ParamIndex);
    const bool Assignment = E.Kind == Expr::Binary && assigns(E);
    for (std::size_t I = 0; I < E.Operands.size(); ++I)
      collect(*E.Operands[I], Assignment && I == 0);
  }

  SpanUses &Out;
  const bool EnterLevels;
  std::vector<IndexBounds> Loops;
};

} // namespace

SpanUses spanUses(const std::vector<StmtPtr> &Body, bool EnterLevels) {
  SpanUses Out;
  UseWalk Walk(Out, EnterLevels);
  for (const StmtPtr &S : Body)
    if (S)
      Walk.visit(*S);
  return Out;
}

LoopNest loopsAround(const Nest &N, const SpanUse &U,
                     const std::set<std::string> &Variables) {
  return {N, U.Loops, [&Variables](const std::string &Name) {
            return Variables.count(Name) > 0;
          }};
}

std::set<std::string> localsOf(const std::vector<StmtPtr> &Body) {
  std::set<std::string> Names;
  for (const StmtPtr &S : Body)
    if (S) {
      declaredNames(*S, Names);
      anyExpression(*S, [&](const Expr &E) {
        if (assigns(E) && !E.Operands.empty() &&
            stripCasts(*E.Operands[0]).Kind == Expr::Local)
          Names.insert(stripCasts(*E.Operands[0]).Text);
        return false;
      });
    }
  return Names;
}

} // namespace weft::ir
