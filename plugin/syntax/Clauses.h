// Clauses.h: the clause list of `#pragma weft parallel for <clauses>` and of
// `[[weft::parallel("<clauses>")]]`, parsed from text. Errors carry the byte
// offset, so that each spelling can point at the right source column.
#ifndef WEFT_PLUGIN_SYNTAX_CLAUSES_H
#define WEFT_PLUGIN_SYNTAX_CLAUSES_H

#include <optional>
#include <string>
#include <vector>

namespace weft::syntax {

struct Reduction {
  std::string Operator; // + * min max & | ^ && || argmax argmin
  /// argmax and argmin: the value, then the index of the best one.
  /// Names, or elements as `tmp[i]` (the subscript without spaces).
  std::vector<std::string> Variables;
  std::size_t Offset = 0;
};

/// One token of a host expression, in postfix order: a number, a variable's
/// name, or an operator applied to the value (Unary) or the two values
/// (Binary) before it.
struct ExprToken {
  enum KindType { Number, Name, Unary, Binary } Kind = Number;
  std::string Text;
  std::size_t Offset = 0;
};

/// An expression the host evaluates before a launch: variables in scope and
/// constants with C's arithmetic, comparison and logical operators.
struct HostExpr {
  std::vector<ExprToken> Postfix;
  std::string Text; // as written
};

/// `extent(p, q: n * m)`: pointers the loop indexes and how many elements
/// each points to (an integer expression of + - * / %). `extent(p: rows,
/// cols)`: p points to rows pointers, each to cols elements (rows held as
/// pointers, float **).
struct Extent : HostExpr {
  std::vector<std::string> Pointers;
  std::size_t Offset = 0;
  std::optional<HostExpr> Columns;
};

/// A clause given once, with where it was written.
template <class T> struct Given {
  T Value{};
  std::size_t Offset = 0;
};

struct Clauses {
  /// `#pragma weft sequential for`: the loop runs in order on the device,
  /// one block of threads sharing the marked loops inside it.
  bool Sequential = false;
  std::vector<Reduction> Reductions;
  std::vector<Extent> Extents;
  std::optional<Given<std::string>> Strategy; // auto 1d thread_block warp
  std::optional<Given<char>> Dim;             // 'x' 'y' 'z'
  std::optional<Given<unsigned>> Block;
  std::optional<Given<unsigned>> Span; // 0 means span(all)
  std::optional<Given<unsigned>> Split;
  /// `if(n > 1000)`: the loop runs on the device only when this holds.
  std::optional<Given<HostExpr>> If;
};

struct ClauseError {
  std::size_t Offset = 0;
  std::string Message;
  std::string Hint; // what to write instead; may be empty
};

/// Parses Text; on error returns false and fills Error.
bool parseClauses(const std::string &Text, Clauses &Out, ClauseError &Error);

/// What a sequential loop's mark keeps in front of its clauses.
inline constexpr const char *SequentialPrefix = "sequential;";

/// A mark's text (what the attribute keeps: a sequential loop's clauses
/// after SequentialPrefix), parsed.
bool parseMark(const std::string &MarkText, Clauses &Out, ClauseError &Error);

/// False, with the first clause a sequential loop cannot take in Error,
/// unless every clause is one it takes (if, extent).
bool checkSequentialClauses(const Clauses &C, ClauseError &Error);

} // namespace weft::syntax

#endif
