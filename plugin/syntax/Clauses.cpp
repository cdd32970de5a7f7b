// Clauses.cpp: a hand-written parser for the clause grammar in Clauses.h.
#include "syntax/Clauses.h"

#include <cctype>
#include <cstring>
#include <optional>
#include <utility>

namespace weft::syntax {
namespace {

const char *const ClauseList =
    "clauses are reduction(op: var), extent(pointer: n), strategy(...), "
    "dim(x|y|z), block(N), span(1|all|N), split(K) and if(expr)";

class ClauseParser {
public:
  ClauseParser(const std::string &Text, Clauses &Out, ClauseError &Error)
      : Text(Text), Out(Out), Error(Error) {}

  bool run() {
    while (true) {
      skipSpaceAndCommas();
      if (Pos >= Text.size())
        return true;
      if (!clause())
        return false;
    }
  }

private:
  bool fail(std::size_t At, std::string Message, std::string Hint = "") {
    Error.Offset = At;
    Error.Message = std::move(Message);
    Error.Hint = std::move(Hint);
    return false;
  }

  void skipSpace() {
    while (Pos < Text.size() &&
           std::isspace(static_cast<unsigned char>(Text[Pos])))
      ++Pos;
  }
  void skipSpaceAndCommas() {
    while (Pos < Text.size() &&
           (std::isspace(static_cast<unsigned char>(Text[Pos])) ||
            Text[Pos] == ','))
      ++Pos;
  }

  std::string word() {
    skipSpace();
    std::size_t Start = Pos;
    while (Pos < Text.size() &&
           (std::isalnum(static_cast<unsigned char>(Text[Pos])) ||
            Text[Pos] == '_'))
      ++Pos;
    return Text.substr(Start, Pos - Start);
  }

  bool expect(char C, const char *Context) {
    skipSpace();
    if (Pos < Text.size() && Text[Pos] == C) {
      ++Pos;
      return true;
    }
    return fail(Pos, std::string("expected '") + C + "' " + Context);
  }

  bool number(unsigned &Value, const char *Clause) {
    skipSpace();
    std::size_t Start = Pos;
    std::string W = word();
    if (W.empty() || W.find_first_not_of("0123456789") != std::string::npos ||
        W.size() > 9)
      return fail(Start, std::string("'") + Clause +
                             "' takes a positive integer constant");
    Value = static_cast<unsigned>(std::stoul(W));
    if (Value == 0)
      return fail(Start, std::string("'") + Clause + "' must be positive");
    return true;
  }

  template <class T>
  bool once(std::optional<Given<T>> &Slot, const std::string &Name,
            std::size_t At) {
    if (Slot)
      return fail(At, "clause '" + Name + "' given twice");
    Slot.emplace();
    Slot->Offset = At;
    return true;
  }

  bool clause() {
    std::size_t At = Pos;
    std::string Name = word();
    if (Name.empty())
      return fail(At,
                  std::string("expected a clause, found '") + Text[At] + "'",
                  ClauseList);
    if (!expect('(', ("after '" + Name + "'").c_str()))
      return false;
    if (Name == "reduction") {
      if (!reduction(At))
        return false;
    } else if (Name == "extent") {
      if (!extent(At))
        return false;
    } else if (Name == "strategy") {
      if (!once(Out.Strategy, Name, At))
        return false;
      std::size_t ArgAt = (skipSpace(), Pos);
      Out.Strategy->Value = word();
      const std::string &S = Out.Strategy->Value;
      if (S != "auto" && S != "1d" && S != "thread_block" && S != "warp")
        return fail(ArgAt, "unknown strategy '" + S + "'",
                    "use strategy(auto), strategy(1d), "
                    "strategy(thread_block) or strategy(warp)");
    } else if (Name == "dim") {
      if (!once(Out.Dim, Name, At))
        return false;
      std::size_t ArgAt = (skipSpace(), Pos);
      std::string D = word();
      if (D != "x" && D != "y" && D != "z")
        return fail(ArgAt, "unknown dimension '" + D + "'",
                    "use dim(x), dim(y) or dim(z)");
      Out.Dim->Value = D[0];
    } else if (Name == "block") {
      if (!once(Out.Block, Name, At))
        return false;
      std::size_t ArgAt = (skipSpace(), Pos);
      if (!number(Out.Block->Value, "block"))
        return false;
      unsigned B = Out.Block->Value;
      if ((B & (B - 1)) != 0 || B > 1024)
        return fail(ArgAt, "block size must be a power of two up to 1024");
    } else if (Name == "span") {
      if (!once(Out.Span, Name, At))
        return false;
      skipSpace();
      if (Text.compare(Pos, 3, "all") == 0) {
        Pos += 3;
        Out.Span->Value = 0;
      } else if (!number(Out.Span->Value, "span")) {
        Error.Hint = "use span(1), span(all) or span(N)";
        return false;
      }
    } else if (Name == "split") {
      if (!once(Out.Split, Name, At) || !number(Out.Split->Value, "split"))
        return false;
    } else if (Name == "if") {
      if (!once(Out.If, Name, At))
        return false;
      // Balanced text up to the closing parenthesis.
      std::size_t Start = Pos;
      int Depth = 0;
      for (; Pos < Text.size(); ++Pos) {
        if (Text[Pos] == '(')
          ++Depth;
        else if (Text[Pos] == ')' && Depth-- == 0)
          break;
      }
      Out.If->Value = Text.substr(Start, Pos - Start);
      if (Out.If->Value.find_first_not_of(" \t") == std::string::npos)
        return fail(Start, "'if' needs a condition");
    } else {
      return fail(At, "unknown clause '" + Name + "'", ClauseList);
    }
    return expect(')', ("to close '" + Name + "('").c_str());
  }

  bool reduction(std::size_t At) {
    Reduction R;
    R.Offset = At;
    skipSpace();
    std::size_t OpAt = Pos;
    static const char *const Ops[] = {
        "argmax", "argmin", "&&", "||", "+", "*", "&", "|", "^", "min", "max"};
    for (const char *Op : Ops) {
      std::string S(Op);
      if (Text.compare(Pos, S.size(), S) == 0) {
        // "min"/"max" must not be a prefix of a longer word.
        if (std::isalpha(static_cast<unsigned char>(S[0])) &&
            Pos + S.size() < Text.size() &&
            std::isalnum(static_cast<unsigned char>(Text[Pos + S.size()])))
          continue;
        R.Operator = S;
        Pos += S.size();
        break;
      }
    }
    if (R.Operator.empty())
      return fail(OpAt, "unknown reduction operator",
                  "reduction operators are + * min max & | ^ && || and "
                  "argmax argmin");
    if (!expect(':', "after the reduction operator"))
      return false;
    do {
      std::size_t VarAt = (skipSpace(), Pos);
      std::string V = word();
      if (V.empty() || std::isdigit(static_cast<unsigned char>(V[0])))
        return fail(VarAt, "expected a variable name in 'reduction'");
      // An element, `tmp[i]`: its subscript as written, without spaces.
      skipSpace();
      if (Pos < Text.size() && Text[Pos] == '[') {
        const std::size_t Open = Pos;
        int Depth = 0;
        std::string Subscript;
        for (; Pos < Text.size(); ++Pos) {
          const char C = Text[Pos];
          Depth += C == '[';
          Depth -= C == ']';
          if (!std::isspace(static_cast<unsigned char>(C)))
            Subscript += C;
          if (Depth == 0)
            break;
        }
        if (Depth != 0)
          return fail(Open, "expected ']' to close the element's subscript");
        ++Pos;
        if (Subscript == "[]")
          return fail(Open, "expected a subscript in the element",
                      "write reduction(+: tmp[i])");
        V += Subscript;
      }
      R.Variables.push_back(V);
      skipSpace();
    } while (Pos < Text.size() && Text[Pos] == ',' && ++Pos);
    if (R.Operator.rfind("arg", 0) == 0 &&
        (R.Variables.size() != 2 ||
         R.Variables[0].find('[') != std::string::npos ||
         R.Variables[1].find('[') != std::string::npos))
      return fail(OpAt, "'" + R.Operator + "' reduces a value and its index",
                  "write reduction(" + R.Operator + ": best, at)");
    Out.Reductions.push_back(std::move(R));
    return true;
  }

  bool extent(std::size_t At) {
    Extent E;
    E.Offset = At;
    const char *Hint = "write extent(p: n) for a pointer p to n elements";
    do {
      std::size_t NameAt = (skipSpace(), Pos);
      std::string P = word();
      if (P.empty() || std::isdigit(static_cast<unsigned char>(P[0])))
        return fail(NameAt, "expected a pointer's name in 'extent'", Hint);
      E.Pointers.push_back(P);
      skipSpace();
    } while (Pos < Text.size() && Text[Pos] == ',' && ++Pos);
    if (!expect(':', "after the pointers of 'extent'"))
      return false;
    skipSpace();
    const std::size_t Start = Pos;
    if (!extentSum(E.Postfix))
      return false;
    E.Text = Text.substr(Start, Pos - Start);
    while (!E.Text.empty() &&
           std::isspace(static_cast<unsigned char>(E.Text.back())))
      E.Text.pop_back();
    Out.Extents.push_back(std::move(E));
    return true;
  }

  // extent expression: sum := product (('+'|'-') product)*;
  // product := factor (('*'|'/'|'%') factor)*; factor := number | name |
  // '(' sum ')'. Written out in postfix order.
  bool extentSum(std::vector<ExtentToken> &Out) { return extentLevel(Out, 0); }

  /// Level 0 is a sum of products, 1 a product of factors.
  bool extentLevel(std::vector<ExtentToken> &Out, int Level) {
    static const char *const Operators[] = {"+-", "*/%"};
    auto Operand = [&] {
      return Level == 0 ? extentLevel(Out, 1) : extentFactor(Out);
    };
    if (!Operand())
      return false;
    while ((skipSpace(), Pos < Text.size()) &&
           std::strchr(Operators[Level], Text[Pos]) && Text[Pos] != '\0') {
      ExtentToken Op{ExtentToken::Operator, std::string(1, Text[Pos]), Pos};
      ++Pos;
      if (!Operand())
        return false;
      Out.push_back(Op);
    }
    return true;
  }

  bool extentFactor(std::vector<ExtentToken> &Out) {
    skipSpace();
    const std::size_t At = Pos;
    if (Pos < Text.size() && Text[Pos] == '(') {
      ++Pos;
      return extentSum(Out) && expect(')', "in the extent");
    }
    std::string W = word();
    if (W.empty())
      return fail(At, "expected a number or a variable in the extent",
                  "an extent is an integer expression of variables and "
                  "constants with + - * / %, such as extent(p: rows * cols)");
    const bool Number = std::isdigit(static_cast<unsigned char>(W[0]));
    if (Number && W.find_first_not_of("0123456789") != std::string::npos)
      return fail(At, "'" + W + "' is not a decimal integer");
    Out.push_back({Number ? ExtentToken::Number : ExtentToken::Name, W, At});
    return true;
  }

  const std::string &Text;
  Clauses &Out;
  ClauseError &Error;
  std::size_t Pos = 0;
};

} // namespace

bool parseClauses(const std::string &Text, Clauses &Out, ClauseError &Error) {
  return ClauseParser(Text, Out, Error).run();
}

bool parseMark(const std::string &MarkText, Clauses &Out, ClauseError &Error) {
  const std::size_t Prefix = std::strlen(SequentialPrefix);
  if (MarkText.compare(0, Prefix, SequentialPrefix) != 0)
    return parseClauses(MarkText, Out, Error);
  Out.Sequential = true;
  return parseClauses(MarkText.substr(Prefix), Out, Error);
}

bool checkSequentialClauses(const Clauses &C, ClauseError &Error) {
  std::optional<std::pair<std::size_t, const char *>> First;
  auto Note = [&](std::size_t At, const char *Name) {
    if (!First || At < First->first)
      First.emplace(At, Name);
  };
  for (const Reduction &R : C.Reductions)
    Note(R.Offset, "reduction");
  if (C.Strategy)
    Note(C.Strategy->Offset, "strategy");
  if (C.Dim)
    Note(C.Dim->Offset, "dim");
  if (C.Block)
    Note(C.Block->Offset, "block");
  if (C.Span)
    Note(C.Span->Offset, "span");
  if (C.Split)
    Note(C.Split->Offset, "split");
  if (!First)
    return true;
  Error.Offset = First->first;
  Error.Message = std::string("'") + First->second +
                  "' does not apply to a sequential loop: its iterations run "
                  "in order, in one block of threads";
  Error.Hint = "a sequential loop takes if(...) and extent(...); put "
               "mapping and reduction clauses on the marked loops inside it";
  return false;
}

} // namespace weft::syntax
