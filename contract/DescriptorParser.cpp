// DescriptorParser.cpp: a descriptor's text back into its struct, refusing
// anything malformed and any other version of the format.
#include "contract/Descriptor.h"

#include <algorithm>
#include <limits>
#include <type_traits>

namespace weft::contract {
namespace {

/// The words, integers and bounds of one line.
class LineReader {
public:
  explicit LineReader(std::string_view Line) : Line(Line) {}

  std::string_view word() {
    skip();
    const std::size_t Start = Pos;
    while (Pos < Line.size() && Line[Pos] != ' ')
      ++Pos;
    return Line.substr(Start, Pos - Start);
  }
  /// The rest of the line, without leading spaces.
  std::string_view rest() {
    skip();
    std::string_view R = Line.substr(Pos);
    Pos = Line.size();
    return R;
  }
  /// A decimal integer that fits T.
  template <class T> bool integer(T &V) {
    const std::string_view W = word();
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
  std::optional<BoundExpr> bound() { return parseBound(Line, Pos); }
  bool level(LevelInfo &L) {
    std::optional<BoundExpr> Lo = bound(), Hi = bound();
    if (!Lo || !Hi || !integer(L.Step) || L.Step <= 0)
      return false;
    L.Lower = std::move(*Lo);
    L.Upper = std::move(*Hi);
    const std::string_view Cmp = word();
    L.Inclusive = Cmp == "le";
    return Cmp == "lt" || Cmp == "le";
  }
  bool atEnd() {
    skip();
    return Pos == Line.size();
  }

private:
  void skip() {
    while (Pos < Line.size() && Line[Pos] == ' ')
      ++Pos;
  }
  std::string_view Line;
  std::size_t Pos = 0;
};

bool versionError(int Version, std::string &Error) {
  const std::string Versions = "descriptor version " + std::to_string(Version) +
                               "; this runtime reads version " +
                               std::to_string(DescriptorVersion);
  if (Version < DescriptorVersion)
    Error = "this loop was compiled by an older weft plugin (" + Versions +
            "): rebuild the program with the plugin of this weft";
  else
    Error = "this loop was compiled by a newer weft plugin (" + Versions +
            "): link the program with the runtime of that weft";
  return false;
}

/// A macro name the runtime may define: WEFT_ and upper-case letters,
/// digits and underscores (it reaches a compiler's command line).
bool validMacro(std::string_view Name) {
  if (Name.size() < 6 || Name.size() > 64 || Name.substr(0, 5) != "WEFT_")
    return false;
  for (char C : Name)
    if (!((C >= 'A' && C <= 'Z') || (C >= '0' && C <= '9') || C == '_'))
      return false;
  return true;
}

/// Every (tune K) of E names one of Count parameters, and E has no leaf
/// that a launch's arguments would have to give.
bool tuneLeavesWithin(const BoundExpr &E, std::size_t Count) {
  if (E.Kind == BoundExpr::Arg || E.Kind == BoundExpr::Size)
    return false;
  if (E.Kind == BoundExpr::Tune && static_cast<std::size_t>(E.Value) >= Count)
    return false;
  for (const BoundExpr &O : E.Operands)
    if (!tuneLeavesWithin(O, Count))
      return false;
  return true;
}

} // namespace

std::string descriptorLocation(std::string_view Text) {
  for (std::size_t Start = 0; Start < Text.size();) {
    std::size_t End = Text.find('\n', Start);
    if (End == std::string_view::npos)
      End = Text.size();
    LineReader L(Text.substr(Start, End - Start));
    Start = End + 1;
    if (L.word() == "loc")
      return std::string(L.rest());
  }
  return {};
}

bool parseDescriptor(std::string_view Text, KernelInfo &Out,
                     std::string &Error) {
  int LineNo = 0;
  bool SawHeader = false;
  for (std::size_t Start = 0; Start < Text.size();) {
    std::size_t End = Text.find('\n', Start);
    if (End == std::string_view::npos)
      End = Text.size();
    const std::string_view Line = Text.substr(Start, End - Start);
    Start = End + 1;
    ++LineNo;
    if (Line.empty())
      continue;
    LineReader L(Line);
    const std::string_view Key = L.word();
    auto Fail = [&](const char *What) {
      Error = "malformed kernel descriptor, line " + std::to_string(LineNo) +
              ": " + What;
      return false;
    };
    if (!SawHeader && Key != "weft")
      return Fail("it does not start with its version");
    if (Key == "weft") {
      int Version = 0;
      if (SawHeader || !L.integer(Version))
        return Fail("bad version line");
      if (Version != DescriptorVersion)
        return versionError(Version, Error);
      SawHeader = true;
    } else if (Key == "kernel") {
      Out.Name = std::string(L.word());
    } else if (Key == "loc") {
      Out.Location = std::string(L.rest());
    } else if (Key == "param") {
      ParamInfo P;
      std::optional<ParamKind> Kind = parseParamWord(L.word());
      if (!Kind)
        return Fail("unknown parameter kind");
      P.Kind = *Kind;
      std::optional<ScalarType> Type = parseTypeWord(L.word(), P.Bytes);
      if (!Type)
        return Fail("unknown parameter type");
      P.Type = *Type;
      P.Name = std::string(L.word());
      if (P.Name.empty())
        return Fail("a parameter without a name");
      Out.Params.push_back(std::move(P));
    } else if (Key == "level") {
      LevelInfo Level;
      if (!L.level(Level))
        return Fail("bad level");
      Out.Levels.push_back(std::move(Level));
    } else if (Key == "map") {
      DimensionInfo D;
      if (!L.integer(D.Depth))
        return Fail("bad map");
      D.Axis = parseAxisLetter(L.word());
      if (D.Axis < 0 || !L.integer(D.Block) || D.Block == 0 || D.Block > 1024)
        return Fail("bad map");
      std::optional<Degree> Kind = parseDegreeWord(L.word());
      if (!Kind || !L.integer(D.N))
        return Fail("bad map kind");
      D.Kind = *Kind;
      if (D.hasBounds() && !L.level(D.Bounds))
        return Fail("bad map bounds");
      Out.Dimensions.push_back(std::move(D));
    } else if (Key == "buffer") {
      BufferInfo B;
      std::optional<BoundExpr> Extent;
      if (!L.integer(B.ElementBytes) || B.ElementBytes == 0 ||
          !(Extent = L.bound()))
        return Fail("bad buffer");
      B.Extent = std::move(*Extent);
      Out.Buffers.push_back(std::move(B));
    } else if (Key == "rows") {
      std::size_t P = 0, Offsets = 0;
      if (!L.integer(P) || P >= Out.Params.size() || !Out.Params[P].isSpan())
        return Fail("bad rows");
      Out.Params[P].RowsApart = true;
      if (!L.atEnd()) {
        if (!L.integer(Offsets) || Offsets >= Out.Params.size() ||
            Offsets == P || Out.Params[Offsets].Kind != ParamKind::In ||
            Out.Params[Offsets].Bytes != 8 || !L.atEnd())
          return Fail("bad rows");
        Out.Params[P].RowOffsets = static_cast<int>(Offsets);
      }
    } else if (Key == "keeps" || Key == "apart") {
      std::size_t P = 0;
      if (!L.integer(P) || P >= Out.Params.size() || !Out.Params[P].isSpan() ||
          !L.atEnd())
        return Fail(Key == "keeps" ? "bad keeps" : "bad apart");
      (Key == "keeps" ? Out.Params[P].Kept : Out.Params[P].Apart) = true;
    } else if (Key == "uniform") {
      std::size_t P = 0;
      if (!L.integer(P) || P >= Out.Params.size() ||
          Out.Params[P].Kind != ParamKind::Scalar ||
          Out.Params[P].Type != ScalarType::I64 || !L.atEnd())
        return Fail("bad uniform");
      Out.Params[P].OneLength = true;
    } else if (Key == "covers") {
      std::size_t P = 0;
      if (!L.integer(P) || P >= Out.Params.size())
        return Fail("bad covers");
      Out.Params[P].CoverCols = L.bound();
      Out.Params[P].CoverStride = L.bound();
      if (!Out.Params[P].CoverCols || !Out.Params[P].CoverStride)
        return Fail("bad covers");
    } else if (Key == "extent") {
      std::size_t P = 0;
      if (!L.integer(P) || P >= Out.Params.size() || !Out.Params[P].isSpan() ||
          Out.Params[P].RowsApart)
        return Fail("bad extent");
      Out.Params[P].LowestIndex = L.bound();
      Out.Params[P].HighestIndex = L.bound();
      if (!Out.Params[P].LowestIndex || !Out.Params[P].HighestIndex ||
          !L.atEnd())
        return Fail("bad extent");
    } else if (Key == "gather") {
      std::size_t P = 0, Columns = 0;
      if (!L.integer(P) || P >= Out.Params.size() || !Out.Params[P].isSpan() ||
          !Out.Params[P].RowsApart || Out.Params[P].RowOffsets >= 0 ||
          !L.integer(Columns) || Columns >= Out.Params.size() ||
          Out.Params[Columns].Kind != ParamKind::Scalar ||
          Out.Params[Columns].Type != ScalarType::I64)
        return Fail("bad gather");
      std::optional<BoundExpr> Bounds[4];
      for (std::optional<BoundExpr> &B : Bounds)
        if (!(B = L.bound()))
          return Fail("bad gather");
      if (!L.atEnd())
        return Fail("bad gather");
      Out.Params[P].Gathered = ParamInfo::InferredRows{
          std::move(*Bounds[0]), std::move(*Bounds[1]), std::move(*Bounds[2]),
          std::move(*Bounds[3]), static_cast<unsigned>(Columns)};
    } else if (Key == "tune") {
      TuneParam P;
      P.Macro = std::string(L.word());
      if (!validMacro(P.Macro) ||
          !parseTuneRoleWord(L.word(), P.Role, P.Target))
        return Fail("bad tune");
      while (!L.atEnd()) {
        unsigned V = 0;
        if (!L.integer(V) || V > (1u << 20) ||
            (V == 0 && P.Role != TuneRole::Text))
          return Fail("bad tune");
        P.Values.push_back(V);
      }
      if (P.Values.empty())
        return Fail("bad tune");
      Out.Tune.Params.push_back(std::move(P));
    } else if (Key == "shared") {
      Out.Tune.SharedBytes = L.bound();
      if (!Out.Tune.SharedBytes ||
          !tuneLeavesWithin(*Out.Tune.SharedBytes, Out.Tune.Params.size()))
        return Fail("bad shared");
    } else if (Key == "reorders") {
      Out.Tune.Reorders = true;
    } else if (Key == "combine") {
      Out.Combine.Name = std::string(L.word());
      if (Out.Combine.Name.empty() || !L.integer(Out.Combine.Block) ||
          Out.Combine.Block == 0 || Out.Combine.Block > 1024)
        return Fail("bad combine");
    } else if (Key == "split") {
      std::size_t Bytes = 0;
      if (!L.integer(Bytes) || Bytes == 0 || Out.Combine.Name.empty())
        return Fail("bad split");
      Out.Combine.PartialBytes.push_back(Bytes);
    } else if (Key == "reduce") {
      ReductionInfo R;
      if (!L.integer(R.Param))
        return Fail("bad reduce");
      std::optional<ReduceOp> Op = parseReduceWord(L.word());
      if (!Op || R.Param >= Out.Params.size() ||
          Out.Params[R.Param].Kind != ParamKind::Scalar)
        return Fail("bad reduce");
      R.Op = *Op;
      Out.Params[R.Param].Kind = ParamKind::ReductionTarget;
      Out.Reductions.push_back(R);
    } else if (Key == "text") {
      if (!L.integer(Out.TextOffset) || !L.integer(Out.TextLength) ||
          Out.TextLength == 0)
        return Fail("bad text");
    } else if (Key == "vary") {
      std::optional<BoundExpr> E = L.bound();
      if (!E)
        return Fail("bad vary");
      Out.Choice.Vary.push_back(std::move(*E));
    } else if (Key == "scenario") {
      ChoiceInfo::Scenario S;
      if (!L.integer(S.Mapping))
        return Fail("bad scenario");
      while (!L.atEnd()) {
        std::int64_t V = 0;
        if (!L.integer(V) || V <= 0)
          return Fail("bad scenario");
        S.Values.push_back(V);
      }
      if (S.Values.size() != Out.Choice.Vary.size())
        return Fail("a scenario needs one value per varied size");
      Out.Choice.Scenarios.push_back(std::move(S));
    } else {
      return Fail("unknown key");
    }
    if (Key != "loc" && Key != "tune" && Key != "scenario" && !L.atEnd())
      return Fail("trailing text");
  }
  if (!SawHeader || Out.Name.empty() || Out.Levels.empty()) {
    Error = "malformed kernel descriptor: missing header, name or level";
    return false;
  }
  return true;
}

bool needsRowsOfOneLength(const KernelInfo &K) {
  return std::any_of(K.Params.begin(), K.Params.end(),
                     [](const ParamInfo &P) { return P.OneLength; });
}

bool parseDescriptors(std::string_view Text, std::size_t SourceLength,
                      std::vector<KernelInfo> &Out, std::string &Error) {
  const std::string_view Mark = "\nalternative\n";
  Out.clear();
  for (std::size_t Start = 0;;) {
    const std::size_t End = Text.find(Mark, Start);
    Out.emplace_back();
    const std::string_view Piece = Text.substr(
        Start, End == std::string_view::npos ? End : End + 1 - Start);
    if (!parseDescriptor(Piece, Out.back(), Error))
      return false;
    const KernelInfo &K = Out.back();
    if (K.TextLength && (K.TextOffset > SourceLength ||
                         K.TextLength > SourceLength - K.TextOffset)) {
      Error = "malformed kernel descriptor: the text of " + K.Name +
              " lies outside the source";
      return false;
    }
    if (Out.size() > 1 && !K.Choice.Vary.empty()) {
      Error = "malformed kernel descriptor: an alternative varies sizes";
      return false;
    }
    if (End == std::string_view::npos)
      break;
    Start = End + Mark.size();
  }
  // Kernels that index rows held apart as rows of one length come with the
  // one for rows of differing lengths, the last, which no scenario names.
  const std::size_t Uniform =
      std::count_if(Out.begin(), Out.end(), needsRowsOfOneLength);
  if (Uniform > 0 &&
      (Uniform + 1 != Out.size() || needsRowsOfOneLength(Out.back()))) {
    Error = "malformed kernel descriptor: kernels for rows of one length "
            "need one for rows of differing lengths, the last";
    return false;
  }
  const std::size_t Mapped = Uniform > 0 ? Uniform : Out.size();
  for (const ChoiceInfo::Scenario &S : Out[0].Choice.Scenarios)
    if (S.Mapping >= Mapped) {
      Error = "malformed kernel descriptor: a scenario names mapping " +
              std::to_string(S.Mapping) + " of " + std::to_string(Mapped);
      return false;
    }
  if (Mapped > 1 && Out[0].Choice.Scenarios.empty()) {
    Error = "malformed kernel descriptor: alternatives without scenarios";
    return false;
  }
  return true;
}

} // namespace weft::contract
