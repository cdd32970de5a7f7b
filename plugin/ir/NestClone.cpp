// NestClone.cpp: deep copies of statements, levels, functions and nests.
#include "ir/NestClone.h"

#include "ir/IrQueries.h"

namespace weft::ir {
namespace {

ExprPtr cloneOrNull(const ExprPtr &E) { return E ? cloneExpr(*E) : nullptr; }

std::vector<StmtPtr> cloneBody(const std::vector<StmtPtr> &Body) {
  std::vector<StmtPtr> Copy;
  Copy.reserve(Body.size());
  for (const StmtPtr &S : Body)
    Copy.push_back(S ? cloneStmt(*S) : nullptr);
  return Copy;
}

} // namespace

StmtPtr cloneStmt(const Stmt &S) {
  auto C = std::make_unique<Stmt>();
  C->Kind = S.Kind;
  C->VarType = S.VarType;
  C->Name = S.Name;
  for (const ExprPtr &E : S.Exprs)
    C->Exprs.push_back(cloneOrNull(E));
  C->Children = cloneBody(S.Children);
  if (S.Nested)
    C->Nested = std::make_unique<Level>(cloneLevel(*S.Nested));
  C->ArrayExtent = cloneOrNull(S.ArrayExtent);
  C->ArrayFill = S.ArrayFill;
  C->Location = S.Location;
  return C;
}

Level cloneLevel(const Level &L) {
  Level C;
  C.IndexName = L.IndexName;
  C.Shown = L.Shown;
  C.IndexType = L.IndexType;
  C.Lower = cloneOrNull(L.Lower);
  C.Upper = cloneOrNull(L.Upper);
  C.Inclusive = L.Inclusive;
  C.CountsDown = L.CountsDown;
  C.Step = L.Step;
  C.Body = cloneBody(L.Body);
  C.Location = L.Location;
  C.Depth = L.Depth;
  C.Reductions = L.Reductions;
  C.ArrayReductions = L.ArrayReductions;
  C.Forced = L.Forced;
  return C;
}

Function cloneFunction(const Function &F) {
  Function C;
  C.Name = F.Name;
  C.Source = F.Source;
  C.ReturnsValue = F.ReturnsValue;
  C.ReturnType = F.ReturnType;
  C.ReturnStruct = F.ReturnStruct;
  C.ReturnsSelf = F.ReturnsSelf;
  C.Params = F.Params;
  C.Body = cloneBody(F.Body);
  return C;
}

Nest cloneNest(const Nest &N) {
  Nest C;
  C.Location = N.Location;
  C.FunctionName = N.FunctionName;
  C.Params = N.Params;
  C.Structs = N.Structs;
  C.Root = cloneLevel(N.Root);
  for (const Function &F : N.Functions)
    C.Functions.push_back(cloneFunction(F));
  C.Accesses = N.Accesses;
  C.Allocations = N.Allocations;
  C.Strategy = N.Strategy;
  C.Sequential = N.Sequential;
  C.TakenApart = N.TakenApart;
  C.UniformRows = N.UniformRows;
  return C;
}

} // namespace weft::ir
