// Clauses.cpp: a hand-written parser for the clause grammar in Clauses.h.
#include "syntax/Clauses.h"

#include "contract/Vocabulary.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <optional>
#include <utility>

namespace weft::syntax {
namespace {

/// The operators a reduction clause may name: contract/ReduceOps.def's and
/// the arg reductions.
const std::vector<std::string> &reductionOperators() {
  static const std::vector<std::string> Ops = [] {
    std::vector<std::string> All = {"argmax", "argmin"};
    for (contract::ReduceOp Op : contract::AllReduceOps)
      All.push_back(contract::reduceClause(Op));
    return All;
  }();
  return Ops;
}

/// "+ * min max ...": the operators of contract/ReduceOps.def, in its order.
std::string operatorList() {
  std::string List;
  for (contract::ReduceOp Op : contract::AllReduceOps)
    List += std::string(List.empty() ? "" : " ") + contract::reduceClause(Op);
  return List;
}

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

  /// A name, or a chain of members from one (`img->pix`, `g.n`), as
  /// written without spaces; `this->` is dropped (a member is its name).
  std::string chain() {
    std::string Chain = word();
    while (!Chain.empty()) {
      const std::size_t Before = Pos;
      skipSpace();
      const std::size_t Op = Text.compare(Pos, 2, "->") == 0         ? 2
                             : Pos < Text.size() && Text[Pos] == '.' ? 1
                                                                     : 0;
      const std::string Member = Op ? (Pos += Op, word()) : std::string();
      if (Member.empty()) {
        Pos = Before;
        break;
      }
      Chain = Chain == "this" && Op == 2
                  ? Member
                  : Chain + (Op == 2 ? "->" : ".") + Member;
    }
    return Chain;
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
      if (!once(Out.If, Name, At) || !hostExpr(Out.If->Value, 0, "if"))
        return false;
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
    for (const std::string &Op : reductionOperators()) {
      if (Op.size() <= R.Operator.size() ||
          Text.compare(Pos, Op.size(), Op) != 0)
        continue;
      // "min"/"max" must not be a prefix of a longer word.
      if (std::isalpha(static_cast<unsigned char>(Op[0])) &&
          Pos + Op.size() < Text.size() &&
          std::isalnum(static_cast<unsigned char>(Text[Pos + Op.size()])))
        continue;
      R.Operator = Op; // the longest that matches: "&&", not "&"
    }
    Pos += R.Operator.size();
    if (R.Operator.empty())
      return fail(OpAt, "unknown reduction operator",
                  "reduction operators are " + operatorList() +
                      " and argmax argmin");
    if (!expect(':', "after the reduction operator"))
      return false;
    do {
      std::size_t VarAt = (skipSpace(), Pos);
      std::string V = word();
      if (V.empty() || std::isdigit(static_cast<unsigned char>(V[0])))
        return fail(VarAt, "expected a variable name in 'reduction'");
      // An element, `tmp[i]` (or `tmp[i][j]`): its subscripts as written,
      // without spaces.
      skipSpace();
      while (Pos < Text.size() && Text[Pos] == '[') {
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
        skipSpace();
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
      std::string P = chain();
      if (P.empty() || std::isdigit(static_cast<unsigned char>(P[0])))
        return fail(NameAt, "expected a pointer's name in 'extent'", Hint);
      E.Pointers.push_back(P);
      skipSpace();
    } while (Pos < Text.size() && Text[Pos] == ',' && ++Pos);
    if (!expect(':', "after the pointers of 'extent'") ||
        !hostExpr(E, SumLevel, "extent"))
      return false;
    if (skipSpace(); Pos < Text.size() && Text[Pos] == ',') {
      ++Pos; // rows held as pointers: extent(p: rows, cols)
      E.Columns.emplace();
      if (!hostExpr(*E.Columns, SumLevel, "extent"))
        return false;
    }
    Out.Extents.push_back(std::move(E));
    return true;
  }

  // A host expression, by precedence climbing over C's binary operators
  // (Levels, loosest first), then unary ! - ~, then a number, a name or a
  // parenthesized expression; written out in postfix order. An extent
  // starts at the sums.
  static constexpr int SumLevel = 8;
  bool hostExpr(HostExpr &Out, int Level, const char *Clause) {
    skipSpace();
    const std::size_t Start = Pos;
    if (!binary(Out.Postfix, Level, Level, Clause))
      return false;
    Out.Text = Text.substr(Start, Pos - Start);
    while (!Out.Text.empty() &&
           std::isspace(static_cast<unsigned char>(Out.Text.back())))
      Out.Text.pop_back();
    return true;
  }

  /// The operator at Pos, the longest that matches, or "".
  std::string peekOperator() {
    static const char *const Operators[] = {
        "||", "&&", "==", "!=", "<=", ">=", "<<", ">>", "|", "^",
        "&",  "<",  ">",  "+",  "-",  "*",  "/",  "%",  "!", "~"};
    skipSpace();
    for (const char *Op : Operators)
      if (Text.compare(Pos, std::strlen(Op), Op) == 0)
        return Op;
    return "";
  }

  bool binary(std::vector<ExprToken> &Out, int Level, int Top,
              const char *Clause) {
    static const std::vector<std::vector<std::string>> Levels = {
        {"||"},
        {"&&"},
        {"|"},
        {"^"},
        {"&"},
        {"==", "!="},
        {"<", "<=", ">", ">="},
        {"<<", ">>"},
        {"+", "-"},
        {"*", "/", "%"}};
    if (Level == static_cast<int>(Levels.size()))
      return unary(Out, Top, Clause);
    if (!binary(Out, Level + 1, Top, Clause))
      return false;
    while (true) {
      const std::string Op = peekOperator();
      const std::vector<std::string> &Here = Levels[Level];
      if (std::find(Here.begin(), Here.end(), Op) == Here.end())
        return true;
      ExprToken Token{ExprToken::Binary, Op, Pos};
      Pos += Op.size();
      if (!binary(Out, Level + 1, Top, Clause))
        return false;
      Out.push_back(Token);
    }
  }

  bool unary(std::vector<ExprToken> &Out, int Top, const char *Clause) {
    const std::string Op = peekOperator();
    if (Top == 0 && (Op == "!" || Op == "-" || Op == "~")) {
      ExprToken Token{ExprToken::Unary, Op, Pos};
      ++Pos;
      if (!unary(Out, Top, Clause))
        return false;
      Out.push_back(Token);
      return true;
    }
    return factor(Out, Top, Clause);
  }

  bool factor(std::vector<ExprToken> &Out, int Top, const char *Clause) {
    const bool Extent = Top != 0;
    const std::string Hint =
        Extent ? "an extent is an integer expression of variables and "
                 "constants with + - * / %, such as extent(p: rows * cols)"
               : "a condition is an expression of variables and constants "
                 "with C's operators, such as if(n * m > 4096 && !debug); "
                 "compute anything else into a variable before the loop";
    skipSpace();
    const std::size_t At = Pos;
    if (Pos < Text.size() && Text[Pos] == '(') {
      ++Pos;
      return binary(Out, Top, Top, Clause) &&
             expect(')', (std::string("in the ") + Clause).c_str());
    }
    if (Pos < Text.size() &&
        std::isdigit(static_cast<unsigned char>(Text[Pos])))
      return literal(Out, Extent);
    std::string W = chain();
    if (W.empty())
      return fail(At,
                  std::string("expected a number or a variable in '") + Clause +
                      "'",
                  Hint);
    skipSpace();
    if (Pos < Text.size() && std::strchr("([", Text[Pos]) && Text[Pos] != '\0')
      return fail(Pos,
                  std::string("'") + Clause +
                      "' takes variables, their members and constants, not "
                      "calls or elements",
                  Hint);
    Out.push_back({ExprToken::Name, W, At});
    return true;
  }

  /// A decimal integer; in a condition also a floating-point constant.
  bool literal(std::vector<ExprToken> &Out, bool Extent) {
    const std::size_t At = Pos;
    auto Digits = [&] {
      while (Pos < Text.size() &&
             std::isdigit(static_cast<unsigned char>(Text[Pos])))
        ++Pos;
    };
    Digits();
    bool Integer = true;
    if (Pos < Text.size() && Text[Pos] == '.') {
      ++Pos;
      Digits();
      Integer = false;
    }
    if (Pos < Text.size() && (Text[Pos] == 'e' || Text[Pos] == 'E')) {
      std::size_t Sign = Pos + 1;
      if (Sign < Text.size() && (Text[Sign] == '+' || Text[Sign] == '-'))
        ++Sign;
      if (Sign < Text.size() &&
          std::isdigit(static_cast<unsigned char>(Text[Sign]))) {
        Pos = Sign;
        Digits();
        Integer = false;
      }
    }
    // C's suffixes: u, l, ll and their combinations; f or l after a
    // floating-point constant.
    const std::size_t SuffixAt = Pos;
    while (!Extent && Pos < Text.size() && std::strchr("uUlLfF", Text[Pos]) &&
           Text[Pos] != '\0')
      ++Pos;
    std::string Suffix = Text.substr(SuffixAt, Pos - SuffixAt);
    for (char &C : Suffix)
      C = static_cast<char>(std::tolower(static_cast<unsigned char>(C)));
    static const char *const IntegerSuffixes[] = {"",   "u",  "l",   "ul",
                                                  "lu", "ll", "ull", "llu"};
    const bool SuffixFits =
        Integer
            ? std::find(std::begin(IntegerSuffixes), std::end(IntegerSuffixes),
                        Suffix) != std::end(IntegerSuffixes)
            : Suffix.empty() || Suffix == "f" || Suffix == "l";
    const std::string Number = Text.substr(At, Pos - At);
    // Another suffix, hex digits, a name that starts with a digit.
    if (!SuffixFits ||
        (Pos < Text.size() &&
         (std::isalnum(static_cast<unsigned char>(Text[Pos])) ||
          Text[Pos] == '_' || Text[Pos] == '.')) ||
        (Extent && !Integer)) {
      word();
      return fail(At, "'" + Text.substr(At, Pos - At) + "' is not a decimal " +
                          (Extent ? "integer" : "number"));
    }
    if (Integer && SuffixAt - At > 18)
      return fail(At, "'" + Number + "' has more than 18 digits");
    Out.push_back({ExprToken::Number, Number, At});
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
