// NestRecognizer.h: from a marked loop in Clang's AST to the nest IR, with a
// diagnostic at the offending location for every construct it cannot take.
#ifndef WEFT_PLUGIN_RECOGNIZE_NESTRECOGNIZER_H
#define WEFT_PLUGIN_RECOGNIZE_NESTRECOGNIZER_H

#include "analysis/LoopOrder.h"
#include "compat/ClangCompat.h"
#include "ir/NestIR.h"
#include "syntax/Clauses.h"

#include "clang/AST/Expr.h"
#include "clang/Sema/Sema.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>
#include <vector>

namespace weft::recognize {

/// How the rewrite passes one kernel parameter to the runtime.
struct Capture {
  /// A reference to the captured variable in the loop (a DeclRefExpr, or a
  /// MemberExpr: through `this`, or a chain of fields from a variable),
  /// copied to pass the variable.
  const clang::Expr *Source = nullptr;
  /// A pointer's number of elements (its extent clause), as an expression
  /// at the loop.
  const clang::Expr *Extent = nullptr;
  /// Rows held as pointers: their length (extent(p: rows, cols)), the
  /// third argument of weft::detail::dataArg(p, rows, cols).
  const clang::Expr *Columns = nullptr;
  /// A pointer without an extent clause: the launch sizes it by the
  /// bounds of its subscripts (ir::Param::Subscripts), passed as
  /// weft::detail::pointerArg(p).
  bool InferredExtent = false;
  /// Source is a host expression (an extent), passed by value as it is,
  /// not a variable to copy.
  bool Value = false;
  /// R when the parameter is extent R of the mdspan Source names (passed
  /// as weft::detail::mdspanExtent(m, R)).
  int Rank = -1;
  /// The parameter is the row offsets of the rows held apart that Source
  /// names (passed as weft::detail::rowOffsets(v)).
  bool RowOffsets = false;
  /// The parameter is their common length, -1 where they differ (passed as
  /// weft::detail::rowColumns(v)).
  bool RowColumns = false;
  /// The key of reduction(argmax: v, at) over the outermost level (Source
  /// names v): the reference to at, and the function of <weft/weft.hpp>
  /// that pairs them (argmaxFirst, ...).
  const clang::Expr *ArgAt = nullptr;
  std::string Pairing;
  /// A flag of the outermost level (`changed = 1;` in the iterations that
  /// set it): the value they store, passed as weft::detail::storedIf(v,
  /// value), which stores it after the loop where some iteration did.
  std::optional<llvm::APSInt> Stored;
};

struct RecognizedNest {
  ir::Nest Nest;
  /// Per parameter, how the rewrite passes it.
  std::vector<Capture> Captures;
  syntax::Clauses Clauses;
  /// The if clause's condition (a bool), or null: the launch runs the host
  /// loop when it is false.
  clang::Expr *Condition = nullptr;
  /// Where each level's loop is, in the order of ir::levels().
  std::vector<clang::SourceLocation> LevelLocations;
  /// Loops moved or fused to expose the nest's reuse (analysis/LoopOrder.h).
  std::vector<ir::LoopReorder> Reorders;
  /// The loop of an OpenMP target directive: launched only where OpenMP
  /// holds none of its data on a device.
  bool OpenMPTarget = false;
  /// A worksharing loop of an OpenMP team (compat::Mark::TeamLaunch): the
  /// launch is inside Team, the parallel region, where one thread runs it
  /// (null: an orphaned loop, whose region is a caller's).
  bool TeamLaunch = false;
  const clang::Stmt *Team = nullptr;
  /// Where the nest reads rows held apart: the same nest for rows of one
  /// length (ir::indexRowsAsOneLength: element j of row i is element
  /// i * columns + j, columns a parameter of their common length), with the
  /// same parameters and its own analyses, for those that need affine
  /// subscripts; right only where the rows are of one length. Else null.
  std::unique_ptr<RecognizedNest> OneLengthRows;
};

using VariableSet = llvm::DenseSet<const clang::VarDecl *>;

/// Recognizes the nest rooted at Mark.Loop (a ForStmt or CXXForRangeStmt)
/// in Function's body, marked with Mark.Clauses (written in Mark.Literal,
/// if not null: diagnostics about a clause point into it; launched only
/// where Mark.Condition holds, if not null). Returns nullopt after
/// diagnosing what it cannot take. The AST is read once: a nest reading
/// rows held apart comes with its form for rows of one length
/// (RecognizedNest::OneLengthRows).
/// OnlyRead: the variables of Function that its body only ever reads
/// (variablesOnlyRead, taken before any of its loops was replaced), or null.
std::optional<RecognizedNest> recognizeNest(clang::Sema &S,
                                            const clang::FunctionDecl *Function,
                                            const compat::Mark &Mark,
                                            const VariableSet *OnlyRead);

/// The parameters and locals of FD that its body only reads: never
/// assigned, incremented, bound to a reference or taken the address of.
VariableSet variablesOnlyRead(const clang::FunctionDecl *FD);

/// N holds rows held apart (indexed through row offsets).
bool holdsRowsApart(const ir::Nest &N);

} // namespace weft::recognize

#endif
