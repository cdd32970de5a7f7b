// IrQueries.h: small questions about nest IR that several stages ask: what
// an expression is under its casts, whether it assigns, which names a
// level declares.
#ifndef WEFT_PLUGIN_IR_IRQUERIES_H
#define WEFT_PLUGIN_IR_IRQUERIES_H

#include "ir/NestIR.h"

#include <functional>
#include <optional>
#include <set>
#include <string>

namespace weft::ir {

/// E without the casts around it.
const Expr &stripCasts(const Expr &E);
/// An assignment (=, +=, ...), an increment or decrement, or an array
/// reduction's combine (Operands[0] is then the target in each case).
bool assigns(const Expr &E);
/// The variable, array or span element that a write reaches, through fields.
const Expr &writtenRoot(const Expr &E);
/// The span element E writes by itself: E where it is an element used as
/// written, the element an array reduction's combine updates, else null.
const Expr *writtenElement(const Expr &E);
/// Writes local Name anywhere in E (or S, nested levels included).
bool writesLocal(const Expr &E, const std::string &Name);
bool writesLocal(const Stmt &S, const std::string &Name);
/// Something in S may change local Name: an assignment, its address taken,
/// or a call of one of Functions (the nest's) that binds it to a reference
/// it may write.
bool mayWriteLocal(const Stmt &S, const std::string &Name,
                   const std::vector<Function> &Functions);
/// Adds every name declared anywhere inside S (nested levels' indices too).
void declaredNames(const Stmt &S, std::set<std::string> &Names);
/// `for (T k = Lower; k < Upper; ++k)` (or `k++`, `k += 1`) whose body
/// never writes k.
struct CountedLoop {
  std::string Index;
  ScalarKind IndexType = ScalarKind::Int;
  const Expr *Lower = nullptr, *Upper = nullptr;
};
std::optional<CountedLoop> countedLoop(const Stmt &S);
/// The statements of block S, through blocks that hold only a block; null
/// where S is no block.
std::vector<StmtPtr> *blockStatements(Stmt &S);
/// E, under its casts, is local Name.
bool isLocalNamed(const Expr &E, const std::string &Name);
/// E converted to T (a cast where its type is another).
ExprPtr castTo(ExprPtr E, ScalarKind T);
/// A copy of E, operands and all.
ExprPtr cloneExpr(const Expr &E);
/// A and B are the same tree: kinds, types, texts, parameters and operands.
bool sameExpr(const Expr &A, const Expr &B);
/// Reads or writes a span element anywhere in E.
bool touchesSpan(const Expr &E);
/// Captures and literals only: the same value in every thread of the grid.
bool gridUniform(const Expr &E);
/// L has reductions over it, of variables or of arrays.
bool reduces(const Level &L);
/// Captures, literals and the locals in Allowed only (no span or array
/// element, no call, no assignment): the same value wherever Allowed's are.
bool readsOnly(const Expr &E, const std::set<std::string> &Allowed);
/// The bytes of one element of span P.
unsigned elementBytes(const Nest &N, const Param &P);
/// F holds for E or an expression inside it.
bool anyExpression(const Expr &E, const std::function<bool(const Expr &)> &F);
/// S is, or holds, a marked level (a ParallelFor statement).
bool holdsLevels(const Stmt &S);
/// Statements a GPU compiler may unroll freely: at most MaxStatements of
/// them in all, with no loop, switch, jump, marked level or call of a
/// function the nest defines.
bool straightLine(const std::vector<StmtPtr> &Body, unsigned MaxStatements);
/// F holds for S or a statement inside it (nested levels not entered).
bool anyStatement(const Stmt &S, const std::function<bool(const Stmt &)> &F);
/// F holds for an expression of S or of a statement inside it.
bool anyExpression(const Stmt &S, const std::function<bool(const Expr &)> &F);
/// A subscript of span Param whose rows are held apart, `rows[Row] +
/// Column` (or `Row * columns + Column` for rows of one length, and for
/// rows held as pointers, `columns` the length their mark states): element
/// Column of row Row, apart from every other row's (the launch gathers the
/// rows into one block).
struct RowsSubscript {
  const Expr *Row = nullptr, *Column = nullptr;
};
std::optional<RowsSubscript> rowsSubscript(const Nest &N, unsigned Param,
                                           const Expr &Subscript);
/// E reads one of the row offsets the launch makes (which no loop writes).
inline bool readsRowOffsets(const Nest &N, const Expr &E) {
  return E.Kind == Expr::SpanElement &&
         N.Params[E.ParamIndex].RowOffsetsOf >= 0;
}
/// E itself (not its operands) reads memory a loop may write (a span or
/// array element, the row offsets aside), calls, or assigns: its value
/// may change between two evaluations.
inline bool mayChange(const Nest &N, const Expr &E) {
  return (E.Kind == Expr::SpanElement && !readsRowOffsets(N, E)) ||
         E.Kind == Expr::LocalElement || E.Kind == Expr::Call || assigns(E);
}

} // namespace weft::ir

#endif
