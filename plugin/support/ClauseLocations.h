// ClauseLocations.h: where each byte of a mark's clause text was written, so
// that what the recognizer finds wrong in a clause (a name not in scope, a
// condition that is not a bool) points at the clause, not at the loop.
#ifndef WEFT_PLUGIN_SUPPORT_CLAUSELOCATIONS_H
#define WEFT_PLUGIN_SUPPORT_CLAUSELOCATIONS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <map>
#include <utility>
#include <vector>

namespace weft::support {

/// Each token of a pragma's clause text: its offset in the text, and where
/// it was written.
using ClauseOrigins =
    std::vector<std::pair<std::size_t, clang::SourceLocation>>;

/// The pragma handler's string literals (by the location of the literal it
/// injected, in scratch space) and the pragma line each was made from.
inline std::map<clang::SourceLocation, ClauseOrigins> &pragmaClauses() {
  static std::map<clang::SourceLocation, ClauseOrigins> Clauses;
  return Clauses;
}

/// Where the byte at Offset of a text made of Origins' tokens was written:
/// within the token it falls in (or after the last).
inline clang::SourceLocation originOf(const ClauseOrigins &Origins,
                                      std::size_t Offset) {
  clang::SourceLocation Loc;
  for (const auto &[Start, Origin] : Origins)
    if (Start <= Offset)
      Loc = Origin.getLocWithOffset(static_cast<int>(Offset - Start));
  return Loc;
}

/// Where byte Offset of Literal's text (a mark's clauses) was written: in
/// the pragma line it was made from, or in the attribute's string.
inline clang::SourceLocation clauseLocation(const clang::StringLiteral &Literal,
                                            std::size_t Offset,
                                            const clang::ASTContext &Ctx) {
  auto It = pragmaClauses().find(Literal.getStrTokenLoc(0));
  if (It != pragmaClauses().end())
    return originOf(It->second, Offset);
  if (Offset > Literal.getLength())
    return Literal.getBeginLoc();
  return Literal.getLocationOfByte(static_cast<unsigned>(Offset),
                                   Ctx.getSourceManager(), Ctx.getLangOpts(),
                                   Ctx.getTargetInfo());
}

} // namespace weft::support

#endif
