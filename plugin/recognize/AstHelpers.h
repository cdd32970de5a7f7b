// AstHelpers.h: what the recognizer asks of Clang's types, statements,
// callees and literals, apart from any one nest (AstHelpers.cpp).
#ifndef WEFT_PLUGIN_RECOGNIZE_ASTHELPERS_H
#define WEFT_PLUGIN_RECOGNIZE_ASTHELPERS_H

#include "ir/NestIR.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>
#include <vector>

namespace weft::recognize {

using namespace clang;

std::optional<ir::ScalarKind> scalarKind(QualType T);

bool isInteger(ir::ScalarKind K);

/// The std::span specialization T names, if any.
const ClassTemplateSpecializationDecl *spanDecl(QualType T);

/// S as a plain assignment to a variable (`i = 0`, a C89 loop's
/// initializer), and the variable; null if S is none.
const BinaryOperator *variableAssignment(const Stmt *S,
                                         const VarDecl *&Variable);
/// The operands of a chain of commas, in order (E alone where it is none).
void commaOperands(const Expr *E, llvm::SmallVectorImpl<const Expr *> &Out);
/// VD's declaration in the kernel, of a scalar K or a struct, without its
/// initializer.
ir::StmtPtr declarationOf(const VarDecl *VD, std::string Name,
                          std::optional<ir::ScalarKind> K, int Struct);
/// The part of a loop's initializer S (`i = 0`, C89's `i = 0, n = m`) that
/// assigns V; null if none does, or if a part sets no variable.
const BinaryOperator *initializerAssignmentTo(const Stmt *S, const VarDecl *V);

/// The references to each variable within a statement, in source order.
using References = llvm::MapVector<const VarDecl *, std::vector<const Stmt *>>;
References referencesIn(const Stmt *S);

/// Whether a variable of type T only points at data it does not hold: a
/// pointer, a reference, a std::span or std::mdspan.
bool isView(QualType T);

/// The elements of its innermost numbers (or structs) that each subscript
/// of T steps over, outermost first: {15, 5, 1} for double[2][3][5],
/// {5, 1} for double (*)[5], {1} for double *. Empty for other types.
llvm::SmallVector<std::int64_t, 4> elementStrides(const ASTContext &Ctx,
                                                  QualType T);

/// The variable at the root of a capture's reference (`v` of `v`,
/// `v.rows`, `v->cells`, `*v`), or null (`this`).
const VarDecl *rootVariable(const Expr *E);

/// S's children, and the statement an OpenMP directive's captured region
/// holds (a CapturedStmt's children() leave it out), for walks that must
/// see everything a loop does.
llvm::SmallVector<const Stmt *, 8> subStatements(const Stmt *S);

/// Maps a callee to its device function: std::sqrt, ::sqrtf -> weft::sqrt.
std::optional<std::string> deviceFunction(const FunctionDecl *FD);

std::string literalText(const FloatingLiteral *FL, ir::ScalarKind K);

std::string literalText(const llvm::APInt &V, ir::ScalarKind K);

std::string locationText(const SourceManager &SM, SourceLocation Loc);
/// The function's name as a profile shows it: qualified, or the function a
/// lambda is written in.
std::string functionShownAs(const FunctionDecl *F);

/// C is assert's expansion: `c ? void(0) : __assert_fail(...)`.
bool failedAssertion(const ConditionalOperator *C);

/// T is a std::span, or a reference to data of one dimension (`const
/// std::vector<float> &`): a parameter bound to a part of the loop's data.
bool spanLike(QualType T);

} // namespace weft::recognize

#endif
