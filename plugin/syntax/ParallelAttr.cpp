// ParallelAttr.cpp: the [[weft::parallel("clauses")]] and
// [[weft::sequential("clauses")]] statement attributes, which `#pragma weft
// parallel for` and `#pragma weft sequential for` also turn into.
#include "compat/ClangCompat.h"
#include "support/Diagnose.h"
#include "syntax/Clauses.h"

#include "clang/Lex/Lexer.h"

using namespace clang;

namespace weft {
namespace {

/// The two marks differ in their name, their clauses and what their mark
/// keeps (a sequential loop's clauses after syntax::SequentialPrefix).
class LoopMarkAttrInfo : public compat::StmtMarkAttrInfo {
protected:
  explicit LoopMarkAttrInfo(bool Sequential)
      : Sequential(Sequential), Name(Sequential ? "sequential" : "parallel") {
    OptArgs = 1;
    IsStmt = 1;
  }

public:
  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &A,
                            const Decl *) const override {
    if (!isOurs(S, A))
      return false;
    error(S.getDiagnostics(), A.getLoc(),
          markSpelling(S, A) + " must precede a 'for' loop, not a declaration",
          usageHint());
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
            usageHint());
      return false;
    }
    if (Sequential && isa<CXXForRangeStmt>(St)) {
      error(D, A.getLoc(),
            markSpelling(S, A) + " must precede an index loop, not a "
                                 "range-based 'for'",
            "write the loop as 'for (int i = lo; i < hi; ++i)'");
      return false;
    }
    if (A.getNumArgs() > 1) {
      error(D, A.getLoc(), "'weft::" + Name + "' takes one string of clauses",
            "write [[weft::" + Name + "(\"" + exampleClauses() + "\")]]");
      return false;
    }
    if (A.getNumArgs() == 1) {
      const auto *Lit = dyn_cast_or_null<StringLiteral>(
          A.isArgExpr(0) ? A.getArgAsExpr(0)->IgnoreParens() : nullptr);
      if (!Lit || !Lit->isOrdinary()) {
        error(D, A.getLoc(),
              "the argument of 'weft::" + Name + "' must be a string literal",
              "write [[weft::" + Name + "(\"" + exampleClauses() + "\")]]");
        return false;
      }
      syntax::Clauses C;
      syntax::ClauseError E;
      if (!syntax::parseClauses(Lit->getString().str(), C, E) ||
          (Sequential && !syntax::checkSequentialClauses(C, E))) {
        SourceLocation Loc = Lit->getLocationOfByte(
            static_cast<unsigned>(E.Offset), S.getSourceManager(),
            S.getLangOpts(), S.getASTContext().getTargetInfo());
        error(D, Loc, E.Message, E.Hint);
        return false;
      }
    }
    return true;
  }

  void diagnoseSecondMark(Sema &S, const ParsedAttr &A) const override {
    error(S.getDiagnostics(), A.getLoc(),
          markSpelling(S, A) + " marks a loop that has a weft mark already",
          "keep one mark: 'parallel' for a loop whose iterations are "
          "independent, 'sequential' for one whose iterations run in order");
  }

  std::string clauseText(const ParsedAttr &A) const override {
    const std::string Prefix = Sequential ? syntax::SequentialPrefix : "";
    if (A.getNumArgs() == 0)
      return Prefix;
    return Prefix + cast<StringLiteral>(A.getArgAsExpr(0)->IgnoreParens())
                        ->getString()
                        .str();
  }

private:
  std::string usageHint() const {
    return "write '#pragma weft " + Name +
           " for [clauses]' or '[[weft::" + Name +
           "(\"clauses\")]]' right before a 'for' loop";
  }
  std::string exampleClauses() const {
    return Sequential ? "if(n > 64)" : "reduction(+: s)";
  }

  /// The mark as the user wrote it: the pragma's attribute tokens live in
  /// scratch space (syntax/PragmaHandler).
  std::string markSpelling(Sema &S, const ParsedAttr &A) const {
    const SourceManager &SM = S.getSourceManager();
    return A.getLoc().isMacroID() &&
                   SM.isWrittenInScratchSpace(SM.getSpellingLoc(A.getLoc()))
               ? "'#pragma weft " + Name + " for'"
               : "'weft::" + Name + "'";
  }

  /// True for weft::parallel (weft::sequential); the bare spelling is
  /// ignored with the warning clang gives any unknown attribute.
  bool isOurs(Sema &S, const ParsedAttr &A) const {
    if (A.getScopeName() && A.getScopeName()->getName() == "weft")
      return true;
    diagnose(S.getDiagnostics(), A.getLoc(), DiagnosticsEngine::Warning,
             "unknown attribute '" + Name + "' ignored",
             "did you mean 'weft::" + Name + "'?");
    return false;
  }

  const bool Sequential;
  const std::string Name;
};

class ParallelAttrInfo final : public LoopMarkAttrInfo {
public:
  ParallelAttrInfo() : LoopMarkAttrInfo(false) {
    // The unscoped spelling is there only so that the parser reads the
    // argument list (it looks attributes up by their unscoped name); its use
    // is rejected above.
    static constexpr Spelling S[] = {{ParsedAttr::AS_CXX11, "weft::parallel"},
                                     {ParsedAttr::AS_CXX11, "parallel"}};
    Spellings = S;
  }
};

class SequentialAttrInfo final : public LoopMarkAttrInfo {
public:
  SequentialAttrInfo() : LoopMarkAttrInfo(true) {
    static constexpr Spelling S[] = {{ParsedAttr::AS_CXX11, "weft::sequential"},
                                     {ParsedAttr::AS_CXX11, "sequential"}};
    Spellings = S;
  }
};

} // namespace
} // namespace weft

static ParsedAttrInfoRegistry::Add<weft::ParallelAttrInfo>
    RegisterParallelAttr("weft-parallel", "weft parallel loop mark");
static ParsedAttrInfoRegistry::Add<weft::SequentialAttrInfo>
    RegisterSequentialAttr("weft-sequential", "weft sequential loop mark");
