// OpenMPMarks.h: loops a program already marks for OpenMP (`#pragma omp
// parallel for`, with -fopenmp) read as weft marks, their clauses as weft's,
// the OpenMP directive kept as the loop that runs where no launch does.
#ifndef WEFT_PLUGIN_SYNTAX_OPENMPMARKS_H
#define WEFT_PLUGIN_SYNTAX_OPENMPMARKS_H

#include "compat/ClangCompat.h"

#include "clang/AST/StmtOpenMP.h"

#include <optional>
#include <string>

namespace weft::syntax {

/// Whether OpenMP loops are taken (-fplugin-arg-weft-openmp=off leaves
/// them to OpenMP). On by default.
bool &openMPLoopsTaken();

/// What an OpenMP directive is to weft: a loop it takes (Mark), or one it
/// leaves to OpenMP and why (Refusal, at Where, with a Hint).
struct OpenMPLoop {
  std::optional<compat::Mark> Mark;
  clang::SourceLocation Where;
  std::string Refusal, Hint;
};

/// S as an OpenMP loop, or nullopt where S is no OpenMP directive (or
/// OpenMP loops are not taken). A loop under the directive that carries a
/// weft mark is taken with the weft mark's clauses.
std::optional<OpenMPLoop> openMPLoop(clang::Stmt *S,
                                     const clang::ASTContext &Ctx);

/// The mark of a loop collapse(n) makes a level of the nest above it, if
/// Loop is one.
std::optional<compat::Mark> collapsedLoopMark(clang::Stmt *Loop);

/// A weft mark on S, or an OpenMP loop weft takes, or a loop a taken
/// directive's collapse clause covers.
std::optional<compat::Mark> findLoopMark(clang::Stmt *S,
                                         const clang::ASTContext &Ctx);

} // namespace weft::syntax

#endif
