// PragmaHandler.cpp: `#pragma weft parallel for [clauses]` and `#pragma weft
// sequential for [clauses]`, which become `[[weft::parallel("clauses")]]`
// and `[[weft::sequential("clauses")]]` by token injection, so both
// spellings share one path from here on; and `#pragma weft region(spans...)`
// before a statement, which becomes `if (weft::region R(spans...); true)`.
#include "support/ClauseLocations.h"
#include "support/Diagnose.h"
#include "syntax/Clauses.h"

#include "clang/Lex/Pragma.h"
#include "clang/Lex/Preprocessor.h"

#include <memory>
#include <vector>

using namespace clang;

namespace weft {
namespace {

/// Escapes Text for the inside of a string literal.
std::string escapeForLiteral(const std::string &Text) {
  std::string Out;
  for (char C : Text) {
    if (C == '"' || C == '\\')
      Out += '\\';
    Out += C;
  }
  return Out;
}

class WeftPragmaHandler final : public PragmaHandler {
public:
  WeftPragmaHandler() : PragmaHandler("weft") {}

  void HandlePragma(Preprocessor &PP, PragmaIntroducer Introducer,
                    Token &FirstTok) override {
    DiagnosticsEngine &D = PP.getDiagnostics();
    const char *Hint = "write '#pragma weft parallel for [clauses]', "
                       "'#pragma weft sequential for [clauses]' or "
                       "'#pragma weft region(spans...)'";
    Token Tok;
    PP.Lex(Tok);
    if (Tok.is(tok::identifier) &&
        Tok.getIdentifierInfo()->getName() == "region")
      return region(PP, FirstTok.getLocation(), Tok);
    const llvm::StringRef Kind =
        Tok.is(tok::identifier) ? Tok.getIdentifierInfo()->getName() : "";
    if (Kind != "parallel" && Kind != "sequential") {
      error(D, Tok.getLocation(),
            "expected 'parallel', 'sequential' or 'region' after "
            "'#pragma weft'",
            Hint);
      return skipToEnd(PP, Tok);
    }
    const bool Sequential = Kind == "sequential";
    PP.Lex(Tok);
    if (!Tok.is(tok::kw_for)) {
      error(D, Tok.getLocation(),
            std::string("expected 'for' after '#pragma weft ") +
                (Sequential ? "sequential'" : "parallel'"),
            Hint);
      return skipToEnd(PP, Tok);
    }

    // The clause text, and where each of its tokens came from.
    std::string Text;
    support::ClauseOrigins Origins;
    for (PP.Lex(Tok); !Tok.is(tok::eod); PP.Lex(Tok)) {
      if (!Text.empty() && Tok.hasLeadingSpace())
        Text += ' ';
      Origins.emplace_back(Text.size(), Tok.getLocation());
      Text += PP.getSpelling(Tok);
    }
    syntax::Clauses Clauses;
    syntax::ClauseError Error;
    if (!syntax::parseClauses(Text, Clauses, Error) ||
        (Sequential && !syntax::checkSequentialClauses(Clauses, Error))) {
      SourceLocation Loc = support::originOf(Origins, Error.Offset);
      error(D, Loc.isValid() ? Loc : Tok.getLocation() /* end of line */,
            Error.Message, Error.Hint);
      return;
    }
    // The later stages' diagnostics about a clause point into this line.
    support::pragmaClauses()[inject(PP, FirstTok.getLocation(),
                                    Sequential ? "sequential" : "parallel",
                                    Text)] = std::move(Origins);
  }

private:
  /// `#pragma weft region(a, b)`: the spans' tokens as the user wrote them,
  /// inside `if (::weft::region weft_region_N(...); true)`, so that the
  /// region lives as long as the statement that follows.
  static void region(Preprocessor &PP, SourceLocation PragmaLoc, Token &Tok) {
    DiagnosticsEngine &D = PP.getDiagnostics();
    const char *Hint = "write '#pragma weft region(a, b)' before a statement, "
                       "naming the spans to keep on the device";
    std::vector<Token> Spans;
    PP.Lex(Tok);
    if (!Tok.is(tok::l_paren)) {
      error(D, Tok.getLocation(), "expected '(' after '#pragma weft region'",
            Hint);
      return skipToEnd(PP, Tok);
    }
    int Depth = 1;
    for (PP.Lex(Tok); !Tok.is(tok::eod); PP.Lex(Tok)) {
      Depth += Tok.is(tok::l_paren) - Tok.is(tok::r_paren);
      if (Depth == 0)
        break;
      Spans.push_back(Tok);
    }
    if (Depth != 0 || Spans.empty()) {
      error(D, Tok.getLocation(),
            Depth != 0 ? "expected ')' to end '#pragma weft region('"
                       : "'#pragma weft region' names no span",
            Hint);
      return skipToEnd(PP, Tok);
    }
    PP.Lex(Tok);
    if (!Tok.is(tok::eod)) {
      error(D, Tok.getLocation(),
            "unexpected text after '#pragma weft region(...)'", Hint);
      return skipToEnd(PP, Tok);
    }
    static unsigned Count = 0;
    const std::string Name = "weft_region_" + std::to_string(Count++);
    std::vector<Token> Out;
    auto Add = [&](tok::TokenKind Kind, const char *Identifier = nullptr) {
      Token T;
      T.startToken();
      T.setKind(Kind);
      T.setLocation(PragmaLoc);
      T.setLength(0);
      if (Identifier)
        T.setIdentifierInfo(PP.getIdentifierInfo(Identifier));
      Out.push_back(T);
    };
    Add(tok::kw_if, "if");
    Out.back().setFlag(Token::StartOfLine);
    Add(tok::l_paren);
    Add(tok::coloncolon);
    Add(tok::identifier, "weft");
    Add(tok::coloncolon);
    Add(tok::identifier, "region");
    Add(tok::identifier, Name.c_str());
    Add(tok::l_paren);
    Out.insert(Out.end(), Spans.begin(), Spans.end());
    Add(tok::r_paren);
    Add(tok::semi);
    Add(tok::kw_true, "true");
    Add(tok::r_paren);
    auto Toks = std::make_unique<Token[]>(Out.size());
    std::copy(Out.begin(), Out.end(), Toks.get());
    PP.EnterTokenStream(std::move(Toks), Out.size(),
                        /*DisableMacroExpansion=*/true, /*IsReinject=*/false);
  }

  static void skipToEnd(Preprocessor &PP, Token &Tok) {
    while (!Tok.is(tok::eod))
      PP.Lex(Tok);
  }

  /// Enters `[[weft::Name("Text")]]` and returns its string literal's
  /// location. The tokens are sliced out of one scratch string (one
  /// CreateString per token would split them), located as an expansion of
  /// the pragma so that diagnostics point at it.
  static SourceLocation inject(Preprocessor &PP, SourceLocation PragmaLoc,
                               const std::string &Name,
                               const std::string &Text) {
    const std::string Literal = "\"" + escapeForLiteral(Text) + "\"";
    const std::string Source = "[[weft::" + Name + "(" + Literal + ")]]";
    Token Whole;
    Whole.startToken();
    Whole.setKind(tok::string_literal);
    PP.CreateString(Source, Whole, PragmaLoc, PragmaLoc);
    const char *Data = Whole.getLiteralData();
    SourceLocation Base = Whole.getLocation();

    struct Piece {
      tok::TokenKind Kind;
      unsigned Offset, Length;
      const char *Identifier;
    };
    const unsigned NameLen = static_cast<unsigned>(Name.size());
    const unsigned LitStart = 9 + NameLen; // after `[[weft::Name(`
    const unsigned LitLen = static_cast<unsigned>(Literal.size());
    const Piece Pieces[] = {{tok::l_square, 0, 1, nullptr},
                            {tok::l_square, 1, 1, nullptr},
                            {tok::identifier, 2, 4, "weft"},
                            {tok::coloncolon, 6, 2, nullptr},
                            {tok::identifier, 8, NameLen, Name.c_str()},
                            {tok::l_paren, 8 + NameLen, 1, nullptr},
                            {tok::string_literal, LitStart, LitLen, nullptr},
                            {tok::r_paren, LitStart + LitLen, 1, nullptr},
                            {tok::r_square, LitStart + LitLen + 1, 1, nullptr},
                            {tok::r_square, LitStart + LitLen + 2, 1, nullptr}};
    constexpr unsigned N = sizeof(Pieces) / sizeof(Pieces[0]);
    auto Toks = std::make_unique<Token[]>(N);
    for (unsigned I = 0; I < N; ++I) {
      Token &T = Toks[I];
      T.startToken();
      T.setKind(Pieces[I].Kind);
      T.setLocation(Base.getLocWithOffset(Pieces[I].Offset));
      T.setLength(Pieces[I].Length);
      if (Pieces[I].Identifier)
        T.setIdentifierInfo(PP.getIdentifierInfo(Pieces[I].Identifier));
      if (Pieces[I].Kind == tok::string_literal)
        T.setLiteralData(Data + Pieces[I].Offset);
    }
    Toks[0].setFlag(Token::StartOfLine);
    PP.EnterTokenStream(std::move(Toks), N, /*DisableMacroExpansion=*/true,
                        /*IsReinject=*/false);
    return Base.getLocWithOffset(LitStart);
  }
};

} // namespace
} // namespace weft

static PragmaHandlerRegistry::Add<weft::WeftPragmaHandler>
    RegisterWeftPragma("weft", "#pragma weft parallel for / region");
