// ClangCompat.h: every difference between the Clang versions weft supports
// (19 and 22) lives here and nowhere else.
#ifndef WEFT_PLUGIN_COMPAT_CLANGCOMPAT_H
#define WEFT_PLUGIN_COMPAT_CLANGCOMPAT_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/AST/OpenMPClause.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/ParsedAttrInfo.h"
#include "clang/Basic/Version.h"
#include "clang/Sema/ParsedAttr.h"
#include "clang/Sema/Sema.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace weft::compat {

/// The annotation that carries the mark (and its clause text) in the AST.
inline constexpr llvm::StringLiteral MarkAnnotation = "weft.parallel";

/// A marked loop: the loop statement, the statement to replace (the loop or
/// the AttributedStmt around it) and the clause text.
struct Mark {
  clang::Stmt *Loop = nullptr;
  clang::Stmt *Replaced = nullptr;
  std::string Clauses;
  /// The string the clauses were written in (null without clauses), for
  /// locating them (support/ClauseLocations.h).
  const clang::StringLiteral *Literal = nullptr;
  /// The mark is an OpenMP directive's own (Replaced, which stays as the
  /// loop that runs where no launch does): what weft cannot take is no
  /// error (the loop stays with OpenMP), and the fields below say its
  /// clauses.
  bool FromOpenMP = false;
  /// The directive's if clause (or null): launched only when it holds.
  clang::Expr *Condition = nullptr;
  /// The variables it makes each thread's own (private, firstprivate).
  std::vector<const clang::VarDecl *> Privates;
  /// The variables of its reduction clauses that each iteration sets
  /// before it reads them (`sum = 0;` first): a scratch value of the
  /// iteration's, private where nothing after the directive reads it.
  std::vector<const clang::VarDecl *> Scratch;
  /// A target directive: the launch runs where OpenMP holds none of the
  /// loop's data on a device; MappedIn the variables its map clauses copy
  /// to the device alone (to, alloc), which OpenMP never copies back.
  bool OpenMPTarget = false;
  std::vector<const clang::VarDecl *> MappedIn;
  /// A worksharing loop (`#pragma omp for`) every thread of a team reaches:
  /// one thread launches while the team waits, and the team runs the
  /// directive only where no launch did. Team is the parallel region around
  /// it in this function (null for an orphaned one).
  bool TeamLaunch = false;
  const clang::Stmt *Team = nullptr;
};

/// The variables an OpenMP clause lists.
template <class ClauseType> auto clauseVariables(const ClauseType *Clause) {
#if CLANG_VERSION_MAJOR >= 20
  return Clause->varlist();
#else
  return Clause->varlists();
#endif
}

/// Where Clang 19 keeps marks: it has no statement-attribute hook for
/// plugins, so a mark is recorded by the loop's `for` location, which
/// template instantiation preserves.
inline std::map<clang::SourceLocation, std::string> &marksByLocation() {
  static std::map<clang::SourceLocation, std::string> Marks;
  return Marks;
}

inline clang::SourceLocation loopLocation(const clang::Stmt *S) {
  if (const auto *F = llvm::dyn_cast<clang::ForStmt>(S))
    return F->getForLoc();
  if (const auto *R = llvm::dyn_cast<clang::CXXForRangeStmt>(S))
    return R->getForLoc();
  return {};
}

/// The string of clauses of the mark on each loop, by the loop's `for`
/// location (which template instantiation preserves).
inline std::map<clang::SourceLocation, const clang::StringLiteral *> &
clauseLiterals() {
  static std::map<clang::SourceLocation, const clang::StringLiteral *> Literals;
  return Literals;
}

/// A's string of clauses (the pragma's, injected), if it has one.
inline const clang::StringLiteral *clauseLiteral(const clang::ParsedAttr &A) {
  if (A.getNumArgs() != 1 || !A.isArgExpr(0) || !A.getArgAsExpr(0))
    return nullptr;
  return llvm::dyn_cast<clang::StringLiteral>(
      A.getArgAsExpr(0)->IgnoreParens());
}

/// The ParsedAttrInfo base of the weft::parallel attribute. Subclasses
/// check the statement (and diagnose a wrong one) in checkStatement.
class StmtMarkAttrInfo : public clang::ParsedAttrInfo {
protected:
  /// False (after a diagnostic) when St cannot carry the mark.
  virtual bool checkStatement(clang::Sema &S, const clang::ParsedAttr &A,
                              const clang::Stmt *St) const = 0;
  /// The clause text of the attribute, already validated.
  virtual std::string clauseText(const clang::ParsedAttr &A) const = 0;
  /// Diagnoses A, a second mark on a loop that has one.
  virtual void diagnoseSecondMark(clang::Sema &S,
                                  const clang::ParsedAttr &A) const = 0;

public:
#if CLANG_VERSION_MAJOR >= 20
  bool diagAppertainsToStmt(clang::Sema &S, const clang::ParsedAttr &A,
                            const clang::Stmt *St) const override {
    if (!checkStatement(S, A, St))
      return false;
    // Parsing sees each loop once (instantiation copies its attributes).
    static std::set<const clang::Stmt *> Marked;
    if (Marked.insert(St).second)
      return true;
    diagnoseSecondMark(S, A);
    return false;
  }
  AttrHandling handleStmtAttribute(clang::Sema &S, clang::Stmt *St,
                                   const clang::ParsedAttr &A,
                                   clang::Attr *&Result) const override {
    std::string Annotation = (MarkAnnotation + ":" + clauseText(A)).str();
    clauseLiterals()[loopLocation(St)] = clauseLiteral(A);
    Result = clang::AnnotateAttr::Create(S.Context, Annotation, nullptr, 0,
                                         A.getRange());
    return AttributeApplied;
  }
#else
  bool diagAppertainsToStmt(clang::Sema &S, const clang::ParsedAttr &A,
                            const clang::Stmt *St) const override {
    if (!checkStatement(S, A, St))
      return false;
    if (marksByLocation().emplace(loopLocation(St), clauseText(A)).second)
      clauseLiterals().emplace(loopLocation(St), clauseLiteral(A));
    else
      diagnoseSecondMark(S, A);
    // Dropped without a diagnostic: the mark lives in marksByLocation().
    return false;
  }
#endif
};

/// The mark on S, if S is a marked loop (or, on Clang >= 20, the
/// AttributedStmt around one).
inline std::optional<Mark> findMark(clang::Stmt *S) {
  if (!S)
    return std::nullopt;
#if CLANG_VERSION_MAJOR >= 20
  auto *AS = llvm::dyn_cast<clang::AttributedStmt>(S);
  if (!AS)
    return std::nullopt;
  for (const clang::Attr *A : AS->getAttrs()) {
    const auto *Ann = llvm::dyn_cast<clang::AnnotateAttr>(A);
    if (!Ann || !Ann->getAnnotation().starts_with(MarkAnnotation))
      continue;
    Mark M;
    M.Loop = AS->getSubStmt();
    M.Replaced = S;
    M.Clauses =
        Ann->getAnnotation().drop_front(MarkAnnotation.size() + 1).str();
    M.Literal = clauseLiterals()[loopLocation(M.Loop)];
    return M;
  }
  return std::nullopt;
#else
  if (!llvm::isa<clang::ForStmt, clang::CXXForRangeStmt>(S))
    return std::nullopt;
  auto It = marksByLocation().find(loopLocation(S));
  if (It == marksByLocation().end())
    return std::nullopt;
  return Mark{S, S, It->second, clauseLiterals()[loopLocation(S)]};
#endif
}

inline clang::StringLiteral *makeStringLiteral(clang::ASTContext &Ctx,
                                               llvm::StringRef Text,
                                               clang::SourceLocation Loc) {
  clang::QualType Type = Ctx.getConstantArrayType(
      Ctx.CharTy.withConst(), llvm::APInt(64, Text.size() + 1), nullptr,
      clang::ArraySizeModifier::Normal, 0);
  return clang::StringLiteral::Create(Ctx, Text,
                                      clang::StringLiteralKind::Ordinary,
                                      /*Pascal=*/false, Type, Loc);
}

} // namespace weft::compat

#endif
