// DescriptorFields.h: the three ways through a descriptor line's fields,
// each with the same members so that one function per kind of line
// (DescriptorGrammar.cpp) serves all three: reading and checking them,
// printing them, and printing their syntax.
#ifndef WEFT_CONTRACT_DESCRIPTORFIELDS_H
#define WEFT_CONTRACT_DESCRIPTORFIELDS_H

#include "contract/Descriptor.h"

#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace weft::contract::fields {

/// Reads one line's fields after its key, checking each.
class LineReader {
public:
  explicit LineReader(std::string_view Line) : Line(Line) {}

  std::string_view key() { return nextWord(); }
  template <class T> bool integer(T &V, const char *, T Min, T Max) {
    return parseInteger(V) && V >= Min && V <= Max;
  }
  bool bound(BoundExpr &E, const char *) {
    std::optional<BoundExpr> B = parseBound(Line, Pos);
    if (B)
      E = std::move(*B);
    return B.has_value();
  }
  bool name(std::string &W, const char *) {
    W = std::string(nextWord());
    return !W.empty();
  }
  bool rest(std::string &W, const char *) {
    skip();
    W = std::string(Line.substr(Pos));
    Pos = Line.size();
    return true;
  }
  template <class E>
  bool word(E &V, const char *, const char *(*)(E),
            std::optional<E> (*Parse)(std::string_view)) {
    const std::optional<E> Read = Parse(nextWord());
    if (Read)
      V = *Read;
    return Read.has_value();
  }
  bool type(ScalarType &T, std::size_t &Bytes) {
    const std::optional<ScalarType> Read = parseTypeWord(nextWord(), Bytes);
    if (Read)
      T = *Read;
    return Read.has_value();
  }
  bool axis(int &A) { return (A = parseAxisLetter(nextWord())) >= 0; }
  bool comparison(bool &Inclusive) {
    const std::string_view Cmp = nextWord();
    Inclusive = Cmp == "le";
    return Cmp == "lt" || Cmp == "le";
  }
  bool tuneRole(TuneRole &Role, int &Target) {
    return parseTuneRoleWord(nextWord(), Role, Target);
  }
  /// The index of a parameter already declared for which Fits holds.
  template <class T>
  bool param(T &I, const KernelInfo &K, bool (*Fits)(const ParamInfo &),
             const char *) {
    return parseInteger(I) && I < K.Params.size() && Fits(K.Params[I]);
  }
  /// Values to the line's end.
  template <class T>
  bool values(std::vector<T> &Vs, const char *, T Min, T Max, bool AtLeastOne) {
    while (!atEnd()) {
      T V{};
      if (!parseInteger(V) || V < Min || V > Max)
        return false;
      Vs.push_back(V);
    }
    return !AtLeastOne || !Vs.empty();
  }
  /// Fields that follow only where Present holds ...
  bool when(bool Present) { return Present; }
  /// ... or only where the line goes on.
  bool ifMore(bool) { return !atEnd(); }
  void end() {}
  bool check(bool Holds) { return Holds; }
  bool atEnd() {
    skip();
    return Pos == Line.size();
  }

private:
  void skip() {
    while (Pos < Line.size() && Line[Pos] == ' ')
      ++Pos;
  }
  std::string_view nextWord() {
    skip();
    const std::size_t Start = Pos;
    while (Pos < Line.size() && Line[Pos] != ' ')
      ++Pos;
    return Line.substr(Start, Pos - Start);
  }
  /// A decimal integer that fits T.
  template <class T> bool parseInteger(T &V) {
    const std::string_view W = nextWord();
    const bool Negative = !W.empty() && W[0] == '-';
    const std::string_view Digits = W.substr(Negative ? 1 : 0);
    if (Digits.empty() || Digits.size() > 19 ||
        (Negative && !std::is_signed_v<T>))
      return false;
    unsigned long long Magnitude = 0;
    for (char C : Digits) {
      if (C < '0' || C > '9')
        return false;
      Magnitude = Magnitude * 10 + static_cast<unsigned>(C - '0');
    }
    using Wide =
        std::conditional_t<std::is_signed_v<T>, long long, unsigned long long>;
    if (Magnitude >
        static_cast<unsigned long long>(std::numeric_limits<Wide>::max()))
      return false;
    const Wide Value =
        Negative ? -static_cast<Wide>(Magnitude) : static_cast<Wide>(Magnitude);
    if (Value < static_cast<Wide>(std::numeric_limits<T>::min()) ||
        Value > static_cast<Wide>(std::numeric_limits<T>::max()))
      return false;
    V = static_cast<T>(Value);
    return true;
  }
  std::string_view Line;
  std::size_t Pos = 0;
};

/// Prints one line's fields after its key.
class LineWriter {
public:
  explicit LineWriter(std::string &Out) : Out(Out) {}

  template <class T> bool integer(T &V, const char *, T, T) {
    return put(std::to_string(V));
  }
  bool bound(BoundExpr &E, const char *) { return put(writeBound(E)); }
  bool name(std::string &W, const char *) { return put(W); }
  bool rest(std::string &W, const char *) { return put(W); }
  template <class E>
  bool word(E &V, const char *, const char *(*WordOf)(E),
            std::optional<E> (*)(std::string_view)) {
    return put(WordOf(V));
  }
  bool type(ScalarType &T, std::size_t &Bytes) {
    return put(typeWord(T, Bytes));
  }
  bool axis(int &A) { return put(std::string(1, axisLetter(A))); }
  bool comparison(bool &Inclusive) { return put(Inclusive ? "le" : "lt"); }
  bool tuneRole(TuneRole &Role, int &Target) {
    return put(tuneRoleWord(Role, Target));
  }
  template <class T>
  bool param(T &I, const KernelInfo &, bool (*)(const ParamInfo &),
             const char *) {
    return put(std::to_string(I));
  }
  template <class T> bool values(std::vector<T> &Vs, const char *, T, T, bool) {
    for (T V : Vs)
      put(std::to_string(V));
    return true;
  }
  bool when(bool Present) { return Present; }
  bool ifMore(bool Present) { return Present; }
  void end() {}
  bool check(bool) { return true; }

private:
  bool put(const std::string &Field) {
    Out += " " + Field;
    return true;
  }
  std::string &Out;
};

/// Prints one line's syntax after its key: "<param> [<offsets>]".
class SyntaxWriter {
public:
  explicit SyntaxWriter(std::string &Out) : Out(Out) {}

  template <class T> bool integer(T &, const char *Name, T, T) {
    return put(Name);
  }
  bool bound(BoundExpr &, const char *Name) { return put(Name); }
  bool name(std::string &, const char *Name) { return put(Name); }
  bool rest(std::string &, const char *Name) { return put(Name); }
  template <class E>
  bool word(E &, const char *Name, const char *(*)(E),
            std::optional<E> (*)(std::string_view)) {
    return put(Name);
  }
  bool type(ScalarType &, std::size_t &) { return put("type"); }
  bool axis(int &) { return put("x|y|z"); }
  bool comparison(bool &) { return put("lt|le"); }
  bool tuneRole(TuneRole &, int &) { return put("x|y|z|n0..n2|k1|k2|text"); }
  template <class T>
  bool param(T &, const KernelInfo &, bool (*)(const ParamInfo &),
             const char *Name) {
    return put(Name);
  }
  template <class T>
  bool values(std::vector<T> &, const char *Name, T, T, bool) {
    return put(std::string(Name) + "...");
  }
  bool when(bool) { return open(); }
  bool ifMore(bool) { return open(); }
  void end() { Out += "]"; }
  bool check(bool) { return true; }

private:
  bool put(const std::string &Field) {
    Out += (Opened ? "<" : " <") + Field + ">";
    Opened = false;
    return true;
  }
  bool open() {
    Out += " [";
    Opened = true;
    return true;
  }
  std::string &Out;
  bool Opened = false;
};

} // namespace weft::contract::fields

#endif
