// TestNests.h: nest IR built by hand for the IR-level tests: a
// matrix-product-like nest with a sequential loop inside, sumRows/sumCols.
#ifndef WEFT_TESTS_IR_TESTNESTS_H
#define WEFT_TESTS_IR_TESTNESTS_H

#include "ir/NestIR.h"

#include <memory>
#include <string>

namespace weft::test_nests {

inline ir::ExprPtr node(ir::Expr::KindType K, std::string Text = "",
                        unsigned Param = 0) {
  auto E = std::make_unique<ir::Expr>();
  E->Kind = K;
  E->Text = std::move(Text);
  E->ParamIndex = Param;
  return E;
}
inline ir::ExprPtr binary(const std::string &Op, ir::ExprPtr L, ir::ExprPtr R) {
  auto E = node(ir::Expr::Binary, Op);
  E->Operands.push_back(std::move(L));
  E->Operands.push_back(std::move(R));
  return E;
}
inline ir::ExprPtr local(const std::string &Name) {
  return node(ir::Expr::Local, Name);
}

/// for (int Index = Lower; Index < Upper; ++Index) Body
inline ir::StmtPtr countedFor(const std::string &Index, ir::ExprPtr Lower,
                              ir::ExprPtr Upper, ir::StmtPtr Body) {
  auto Init = std::make_unique<ir::Stmt>();
  Init->Kind = ir::Stmt::Decl;
  Init->Name = Index;
  Init->Exprs.push_back(std::move(Lower));
  auto Loop = std::make_unique<ir::Stmt>();
  Loop->Kind = ir::Stmt::For;
  Loop->Exprs.push_back(binary("<", local(Index), std::move(Upper)));
  auto Step = node(ir::Expr::Unary, "++");
  Step->Operands.push_back(local(Index));
  Loop->Exprs.push_back(std::move(Step));
  Loop->Children.push_back(std::move(Init));
  Loop->Children.push_back(std::move(Body));
  return Loop;
}

/// for i: for j (parallel): for (int k = 0; k < K; ++k)
///   acc += a[<RowBase> + k] (* b[k * K + j] WithB);
/// with RowBase i * K, or i * K + j when ThreadRow.
inline ir::Nest productNest(bool ThreadRow, ir::ParamKind AKind,
                            bool WithB = false) {
  ir::Nest N;
  N.Params = {{"K", ir::ParamKind::Scalar, ir::ScalarKind::Int},
              {"a", AKind, ir::ScalarKind::Float, true},
              {"b", ir::ParamKind::ReadSpan, ir::ScalarKind::Float, true}};
  N.Root.IndexName = "i";
  N.Root.Lower = node(ir::Expr::IntLiteral, "0");
  N.Root.Upper = node(ir::Expr::IntLiteral, "64");
  auto Inner = std::make_unique<ir::Level>();
  Inner->IndexName = "j";
  Inner->Depth = 1;
  Inner->Lower = node(ir::Expr::IntLiteral, "0");
  Inner->Upper = node(ir::Expr::IntLiteral, "256");
  ir::ExprPtr Base = binary("*", local("i"), node(ir::Expr::ParamRef, "", 0));
  if (ThreadRow)
    Base = binary("+", std::move(Base), local("j"));
  auto Read = node(ir::Expr::SpanElement, "", 1);
  Read->Operands.push_back(binary("+", std::move(Base), local("k")));
  auto Body = std::make_unique<ir::Stmt>();
  Body->Kind = ir::Stmt::ExprStmt;
  if (WithB) {
    // ... * b[k * K + j]
    auto B = node(ir::Expr::SpanElement, "", 2);
    B->Operands.push_back(
        binary("+", binary("*", local("k"), node(ir::Expr::ParamRef, "", 0)),
               local("j")));
    Read = binary("*", std::move(Read), std::move(B));
  }
  Body->Exprs.push_back(binary("+=", local("acc"), std::move(Read)));
  Inner->Body.push_back(countedFor("k", node(ir::Expr::IntLiteral, "0"),
                                   node(ir::Expr::ParamRef, "", 0),
                                   std::move(Body)));
  auto P = std::make_unique<ir::Stmt>();
  P->Kind = ir::Stmt::ParallelFor;
  P->Nested = std::move(Inner);
  N.Root.Body.push_back(std::move(P));
  return N;
}

inline ir::ExprPtr param(unsigned I) { return node(ir::Expr::ParamRef, "", I); }
inline ir::ExprPtr element(unsigned Span, ir::ExprPtr Index,
                           bool Write = false) {
  auto E = node(ir::Expr::SpanElement, "", Span);
  E->Type = ir::ScalarKind::Float;
  E->Use = Write ? ir::ElementUse::Written : ir::ElementUse::Read;
  E->Operands.push_back(std::move(Index));
  return E;
}
inline ir::StmtPtr statement(ir::ExprPtr E) {
  auto S = std::make_unique<ir::Stmt>();
  S->Kind = ir::Stmt::ExprStmt;
  S->Exprs.push_back(std::move(E));
  return S;
}
inline ir::Level level(const std::string &Index, unsigned Depth,
                       ir::ExprPtr Upper) {
  ir::Level L;
  L.IndexName = Index;
  L.Depth = Depth;
  L.Lower = node(ir::Expr::IntLiteral, "0");
  L.Upper = std::move(Upper);
  return L;
}

/// sumRows (Rows = true) or sumCols over m[rows][cols]: the outer level
/// walks rows (or columns), the inner reduces the other into s.
inline ir::Nest sumNest(bool Rows) {
  ir::Nest N;
  N.Params = {{"rows", ir::ParamKind::Scalar, ir::ScalarKind::Int},
              {"cols", ir::ParamKind::Scalar, ir::ScalarKind::Int},
              {"m", ir::ParamKind::ReadSpan, ir::ScalarKind::Float, true},
              {"out", ir::ParamKind::WriteSpan, ir::ScalarKind::Float}};
  const std::string Outer = Rows ? "i" : "j", Inner = Rows ? "j" : "i";
  N.Root = level(Outer, 0, param(Rows ? 0 : 1));
  auto Decl = std::make_unique<ir::Stmt>();
  Decl->Kind = ir::Stmt::Decl;
  Decl->Name = "s";
  Decl->VarType.Scalar = ir::ScalarKind::Float;
  Decl->Exprs.push_back(node(ir::Expr::IntLiteral, "0"));
  N.Root.Body.push_back(std::move(Decl));
  auto InnerLevel =
      std::make_unique<ir::Level>(level(Inner, 1, param(Rows ? 1 : 0)));
  InnerLevel->Reductions.push_back(
      {ir::ReductionOp::Add, "s", ir::ScalarKind::Float, -1});
  InnerLevel->Body.push_back(statement(binary(
      "+=", local("s"),
      element(2, binary("+", binary("*", local("i"), param(1)), local("j"))))));
  auto P = std::make_unique<ir::Stmt>();
  P->Kind = ir::Stmt::ParallelFor;
  P->Nested = std::move(InnerLevel);
  N.Root.Body.push_back(std::move(P));
  N.Root.Body.push_back(
      statement(binary("=", element(3, local(Outer), true), local("s"))));
  ir::analyzeAccesses(N);
  return N;
}

} // namespace weft::test_nests

#endif
