// ParallelAttr.cpp: the [[weft::parallel("clauses")]] statement attribute,
// which `#pragma weft parallel for` also turns into.
#include "compat/ClangCompat.h"
#include "support/Diagnose.h"
#include "syntax/Clauses.h"

#include "clang/Lex/Lexer.h"

using namespace clang;

namespace weft {
namespace {

const char *const UsageHint =
    "write '#pragma weft parallel for [clauses]' or "
    "'[[weft::parallel(\"clauses\")]]' right before a 'for' loop";

class ParallelAttrInfo final : public compat::StmtMarkAttrInfo {
public:
  ParallelAttrInfo() {
    OptArgs = 1;
    IsStmt = 1;
    // The unscoped spelling is there only so that the parser reads the
    // argument list (it looks attributes up by their unscoped name); its use
    // is rejected below.
    static constexpr Spelling S[] = {{ParsedAttr::AS_CXX11, "weft::parallel"},
                                     {ParsedAttr::AS_CXX11, "parallel"}};
    Spellings = S;
  }

  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &A,
                            const Decl *) const override {
    if (!isOurs(S, A))
      return false;
    error(S.getDiagnostics(), A.getLoc(),
          markSpelling(S, A) + " must precede a 'for' loop, not a declaration",
          UsageHint);
    return false;
  }

protected:
  bool checkStatement(Sema &S, const ParsedAttr &A,
                      const Stmt *St) const override {
    if (!isOurs(S, A))
      return false;
    DiagnosticsEngine &D = S.getDiagnostics();
    if (!isa<ForStmt, CXXForRangeStmt>(St)) {
      error(D, A.getLoc(), markSpelling(S, A) + " must precede a 'for' loop",
            UsageHint);
      return false;
    }
    if (A.getNumArgs() > 1) {
      error(D, A.getLoc(), "'weft::parallel' takes one string of clauses",
            "write [[weft::parallel(\"reduction(+: s) block(128)\")]]");
      return false;
    }
    if (A.getNumArgs() == 1) {
      const auto *Lit = dyn_cast_or_null<StringLiteral>(
          A.isArgExpr(0) ? A.getArgAsExpr(0)->IgnoreParens() : nullptr);
      if (!Lit || !Lit->isOrdinary()) {
        error(D, A.getLoc(),
              "the argument of 'weft::parallel' must be a string literal",
              "write [[weft::parallel(\"reduction(+: s)\")]]");
        return false;
      }
      syntax::Clauses C;
      syntax::ClauseError E;
      if (!syntax::parseClauses(Lit->getString().str(), C, E)) {
        SourceLocation Loc = Lit->getLocationOfByte(
            static_cast<unsigned>(E.Offset), S.getSourceManager(),
            S.getLangOpts(), S.getASTContext().getTargetInfo());
        error(D, Loc, E.Message, E.Hint);
        return false;
      }
    }
    return true;
  }

  std::string clauseText(const ParsedAttr &A) const override {
    if (A.getNumArgs() == 0)
      return "";
    return cast<StringLiteral>(A.getArgAsExpr(0)->IgnoreParens())
        ->getString()
        .str();
  }

private:
  /// The mark as the user wrote it: the pragma's attribute tokens live in
  /// scratch space (syntax/PragmaHandler).
  static std::string markSpelling(Sema &S, const ParsedAttr &A) {
    const SourceManager &SM = S.getSourceManager();
    return A.getLoc().isMacroID() &&
                   SM.isWrittenInScratchSpace(SM.getSpellingLoc(A.getLoc()))
               ? "'#pragma weft parallel for'"
               : "'weft::parallel'";
  }

  /// True for weft::parallel; the bare [[parallel]] spelling is ignored
  /// with the warning clang gives any unknown attribute.
  static bool isOurs(Sema &S, const ParsedAttr &A) {
    if (A.getScopeName() && A.getScopeName()->getName() == "weft")
      return true;
    diagnose(S.getDiagnostics(), A.getLoc(), DiagnosticsEngine::Warning,
             "unknown attribute 'parallel' ignored",
             "did you mean 'weft::parallel'?");
    return false;
  }
};

} // namespace
} // namespace weft

static ParsedAttrInfoRegistry::Add<weft::ParallelAttrInfo>
    RegisterParallelAttr("weft-parallel", "weft parallel loop mark");
