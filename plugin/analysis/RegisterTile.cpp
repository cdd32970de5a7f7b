// RegisterTile.cpp: the conditions under which a tiled loop's outputs can
// be computed a register tile per thread.
#include "analysis/RegisterTile.h"

#include "ir/AffineForm.h"
#include "ir/IrQueries.h"

#include <set>

namespace weft::ir {
namespace {

bool leavesEarly(const Stmt &S) {
  return anyStatement(S, [](const Stmt &X) {
    return X.Kind == Stmt::Break || X.Kind == Stmt::Continue ||
           X.Kind == Stmt::Return || X.Kind == Stmt::ParallelFor;
  });
}

/// 16 / the element's bytes where the tile's subscript steps by one element
/// along Fast; else 1.
unsigned vectorWidth(const Nest &N, const Tile &Tile, const std::string &Fast,
                     const std::string &Other) {
  const Param &P = N.Params[Tile.Param];
  const unsigned Bytes = P.Struct >= 0 ? 0 : byteSize(P.Element);
  if (Bytes != 4 && Bytes != 8)
    return 1;
  AffineScope Scope;
  Scope.IsVariable = [&](const std::string &Name) {
    return Name == Fast || Name == Other;
  };
  std::optional<AffineForm> F =
      affineForm(N, *Tile.Reads.front()->Operands[0], Scope);
  if (!F)
    return 1;
  auto It = F->Coefficients.find(Fast);
  if (It == F->Coefficients.end() || It->second.constantValue() != 1)
    return 1;
  return 16 / Bytes;
}

/// A value every thread of the kernel holds the same, that the inner level
/// (the outermost's whole body) never changes: captures and literals, the
/// operators and casts between them. No integer division: the block
/// computes the factor where the loop may not (a read under a condition),
/// and a division by zero traps on the simulator's host.
bool invariantFactor(const Level &Inner, const Expr &E) {
  const auto Assigned = [&](unsigned Param) {
    for (const StmtPtr &S : Inner.Body)
      if (anyExpression(*S, [&](const Expr &X) {
            return assigns(X) && X.Operands[0]->Kind == Expr::ParamRef &&
                   X.Operands[0]->ParamIndex == Param;
          }))
        return true;
    return false;
  };
  return gridUniform(E) && !anyExpression(E, [&](const Expr &Part) {
           if (Part.Kind == Expr::Binary &&
               (Part.Text == "/" || Part.Text == "%"))
             return !isFloating(Part.Type);
           return Part.Kind == Expr::ParamRef && Assigned(Part.ParamIndex);
         });
}

/// Tile's common factor (see RegisterTileable::Factor), its products added
/// to Products; null where some read is not such a product.
const Expr *commonFactor(const Level &Inner, const Stmt &Body, const Tile &Tile,
                         std::vector<const Expr *> &Products) {
  if (Tile.Written)
    return nullptr; // its reads are checked on the simulator as they are
  const std::set<const Expr *> Reads(Tile.Reads.begin(), Tile.Reads.end());
  const Expr *Factor = nullptr;
  std::vector<const Expr *> Found;
  bool Mixed = false;
  anyExpression(Body, [&](const Expr &E) {
    if (E.Kind != Expr::Binary || E.Text != "*")
      return false;
    for (unsigned Side = 0; Side < 2; ++Side) {
      const Expr &Read = *E.Operands[Side], &Other = *E.Operands[1 - Side];
      if (!Reads.count(&Read))
        continue;
      if (E.Type != Read.Type || Other.Type != Read.Type || E.Struct >= 0 ||
          !invariantFactor(Inner, Other) ||
          (Factor && !sameExpr(*Factor, Other)))
        Mixed = true;
      Factor = &Other;
      Found.push_back(&E);
      break;
    }
    return false;
  });
  if (Mixed || !Factor || Found.size() != Tile.Reads.size())
    return nullptr;
  Products.insert(Products.end(), Found.begin(), Found.end());
  return Factor;
}

} // namespace

std::optional<RegisterTileable>
registerTileable(const Nest &N, const TileableLoop &T,
                 const std::vector<ReplacedElement> &Registers) {
  const Level &Inner = *T.Inner;
  if (T.Outer != &N.Root || N.Root.Body.size() != 1 ||
      !gridUniform(*Inner.Lower) || !gridUniform(*Inner.Upper))
    return std::nullopt;
  RegisterTileable R;
  bool After = false;
  for (const StmtPtr &S : Inner.Body) {
    if (S.get() == T.Loop) {
      After = true;
      continue;
    }
    if (After) {
      if (leavesEarly(*S))
        return std::nullopt;
      continue;
    }
    if (S->Kind == Stmt::ExprStmt)
      continue;
    if (S->Kind != Stmt::Decl || S->ArrayExtent || S->VarType.IsReference)
      return std::nullopt;
    R.Accumulators.push_back(S.get());
  }
  // Tiles a block can load for all its threads' rows and columns.
  std::set<const Expr *> Tiled;
  for (const Tile &Tile : T.Tiles) {
    const std::set<std::string> Allowed = {
        Tile.AlongOuter ? N.Root.IndexName : Inner.IndexName, T.Index};
    for (const Expr *Read : Tile.Reads) {
      if (!readsOnly(*Read->Operands[0], Allowed))
        return std::nullopt;
      Tiled.insert(Read);
    }
    R.VectorWidth.push_back(
        Tile.AlongOuter   ? vectorWidth(N, Tile, T.Index, N.Root.IndexName)
        : Inner.Step == 1 ? vectorWidth(N, Tile, Inner.IndexName, T.Index)
                          : 1);
  }
  std::set<const Expr *> Held;
  for (std::size_t I = 0; I < Registers.size(); ++I)
    if (Registers[I].Loop == T.Loop) {
      R.Registers.push_back(I);
      Held.insert(Registers[I].Accesses.begin(), Registers[I].Accesses.end());
    }
  // The loop assigns only the thread's outputs' locals and its own.
  std::set<std::string> Own;
  declaredNames(*T.Loop, Own);
  for (const Stmt *A : R.Accumulators)
    Own.insert(A->Name);
  const Stmt &Body = *T.Loop->Children[1];
  if (anyExpression(Body, [&](const Expr &E) {
        if (!assigns(E))
          return false;
        const Expr &Target = *E.Operands[0];
        return Target.Kind == Expr::LocalElement ||
               (Target.Kind == Expr::Local && !Own.count(Target.Text));
      }))
    return std::nullopt;
  if (leavesEarly(Body) || anyExpression(Body, [&](const Expr &E) {
        return E.Kind == Expr::SpanElement && !Tiled.count(&E) &&
               !Held.count(&E);
      }))
    return std::nullopt;
  for (const Tile &Tile : T.Tiles)
    R.Factor.push_back(commonFactor(Inner, Body, Tile, R.ScaledProducts));
  return R;
}

} // namespace weft::ir
