// ArrayCoverage.h: whether each run of a statement writes every element of
// a local array that it reads before it reads it (C's scratch arrays, `double
// temp[5];` declared at the top of a function and filled in each iteration),
// so that a copy of the array private to each iteration computes the same.
#ifndef WEFT_PLUGIN_RECOGNIZE_ARRAYCOVERAGE_H
#define WEFT_PLUGIN_RECOGNIZE_ARRAYCOVERAGE_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

#include <string>

namespace weft::recognize {

/// Whether every element of Array that Body reads (in it, or in a function
/// it passes the array to) is one that Body wrote before, on every path.
/// Conservative: element indices are followed through constant subscripts
/// and the indices of loops with constant bounds; elsewhere a read needs
/// the whole array written and a write covers nothing. Where not, Why says
/// the first read that may see a value from before Body.
bool writesBeforeReading(clang::ASTContext &Ctx, const clang::Stmt *Body,
                         const clang::VarDecl *Array, std::string &Why);

/// Whether no statement of Function may read the value Nest leaves in
/// Array: each use outside Nest is inside a loop that does not hold Nest
/// and writes before it reads (writesBeforeReading of the loop's body), or
/// is an element's read or write before Nest outside any loop around it.
/// Directive: the OpenMP directive of Nest, or null; its clauses are no use.
bool leavesArrayUnread(clang::ASTContext &Ctx, const clang::Stmt *Function,
                       const clang::Stmt *Nest, const clang::Stmt *Directive,
                       const clang::VarDecl *Array);

} // namespace weft::recognize

#endif
