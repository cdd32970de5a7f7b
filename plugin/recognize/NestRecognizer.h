// NestRecognizer.h: from a marked loop in Clang's AST to the nest IR, with a
// diagnostic at the offending location for every construct it cannot take.
#ifndef WEFT_PLUGIN_RECOGNIZE_NESTRECOGNIZER_H
#define WEFT_PLUGIN_RECOGNIZE_NESTRECOGNIZER_H

#include "ir/NestIR.h"
#include "syntax/Clauses.h"

#include "clang/AST/Expr.h"
#include "clang/Sema/Sema.h"

#include <optional>
#include <vector>

namespace weft::recognize {

struct RecognizedNest {
  ir::Nest Nest;
  /// Per parameter, one reference to the captured variable in the loop (a
  /// DeclRefExpr, or a MemberExpr through `this`); the rewrite copies it to
  /// pass the variable to the runtime.
  std::vector<const clang::Expr *> CaptureSources;
  /// Per parameter: for a pointer, the number of elements it points to
  /// (from its extent clause), as an expression at the loop; else null.
  std::vector<const clang::Expr *> CaptureExtents;
  /// Per parameter: R when it is extent R of the mdspan CaptureSources
  /// names (passed as weft::detail::mdspanExtent(m, R)); else -1.
  std::vector<int> CaptureRanks;
  /// Per parameter: for the key of reduction(argmax: v, at) over the
  /// outermost level (CaptureSources names v), the reference to at and the
  /// function of <weft/weft.hpp> that pairs them (argmaxFirst, ...); else
  /// null and empty.
  std::vector<std::pair<const clang::Expr *, std::string>> CaptureArgKeys;
  syntax::Clauses Clauses;
  /// Where each level's loop is, in the order of ir::levels().
  std::vector<clang::SourceLocation> LevelLocations;
};

/// Recognizes the nest rooted at Loop (a ForStmt or CXXForRangeStmt) in
/// Function's body. Returns nullopt after diagnosing what it cannot take.
std::optional<RecognizedNest> recognizeNest(clang::Sema &S,
                                            const clang::FunctionDecl *Function,
                                            clang::Stmt *Loop,
                                            const std::string &ClauseText);

} // namespace weft::recognize

#endif
