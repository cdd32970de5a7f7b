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

/// Why the team of the parallel region around the worksharing loop Loop
/// (a mark's TeamLaunch directive) cannot launch it, or nullopt, with Team
/// set to that region, or null where Loop is orphaned (in no construct of
/// its function: its region, if any, is a caller's). Enclosing: the OpenMP
/// directives around Loop in its function, outermost first.
std::optional<OpenMPLoop>
teamRefusal(const clang::Stmt &Loop,
            llvm::ArrayRef<const clang::Stmt *> Enclosing,
            const clang::Stmt *&Team);

/// Whether Region's threads ask which of them they are (omp_get_thread_num
/// and its kin): what each holds of its own may then differ.
bool readsThreadNumber(const clang::Stmt *Region);

/// Whether V is each thread's own in the parallel region Team: declared
/// inside it, or named by its private, firstprivate or reduction clauses.
bool teamPrivate(const clang::VarDecl *V, const clang::Stmt *Team);

/// Whether the parallel region Team's reduction clauses name V: each
/// thread's copy starts as the operator's identity and the copies combine
/// when the region ends, so one thread's launch may combine into its own.
bool teamReduces(const clang::VarDecl *V, const clang::Stmt *Team);

/// The mark of a loop collapse(n) makes a level of the nest above it, if
/// Loop is one.
std::optional<compat::Mark> collapsedLoopMark(clang::Stmt *Loop);

/// A weft mark on S, or an OpenMP loop weft takes, or a loop a taken
/// directive's collapse clause covers.
std::optional<compat::Mark> findLoopMark(clang::Stmt *S,
                                         const clang::ASTContext &Ctx);

} // namespace weft::syntax

#endif
