// DescriptorGrammar.cpp: the descriptor's lines, each stated once: its key,
// what it means, and its fields, described by one function that the
// writer runs to print them, the parser to read and check them, and
// descriptorGrammar() to list their syntax.
#include "contract/DescriptorFields.h"

namespace weft::contract {
namespace {

using fields::LineReader;
using fields::LineWriter;
using fields::SyntaxWriter;

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

bool anyParam(const ParamInfo &) { return true; }
bool spanParam(const ParamInfo &P) { return P.isSpan(); }
bool lengthParam(const ParamInfo &P) {
  return P.Kind == ParamKind::Scalar && P.Type == ScalarType::I64;
}
bool offsetsParam(const ParamInfo &P) {
  return P.Kind == ParamKind::In && P.Bytes == 8;
}
bool scalarParam(const ParamInfo &P) { return P.Kind == ParamKind::Scalar; }
bool extentParam(const ParamInfo &P) { return P.isSpan() && !P.RowsApart; }
bool gatheredParam(const ParamInfo &P) {
  return P.isSpan() && P.RowsApart && P.RowOffsets < 0;
}

template <class IO> bool levelFields(IO &Io, LevelInfo &L) {
  return Io.bound(L.Lower, "lo") && Io.bound(L.Upper, "hi") &&
         Io.integer(L.Step, "step", std::int64_t(1), INT64_MAX) &&
         Io.comparison(L.Inclusive);
}

constexpr unsigned MaxBlock = 1024;

/// "add|mul|...": the descriptor's words of contract/ReduceOps.def.
const char *reduceWords() {
  static const std::string Words = [] {
    std::string W;
    for (ReduceOp Op : AllReduceOps)
      W += std::string(W.empty() ? "" : "|") + reduceWord(Op);
    return W;
  }();
  return Words.c_str();
}

/// The fields of each kind of line. I: the line's element (a parameter,
/// a level, ...); a parameter's line reads it from its first field.
struct Fields {
  template <class IO> static bool kernel(IO &Io, KernelInfo &K, std::size_t &) {
    return Io.name(K.Name, "name");
  }
  template <class IO> static bool loc(IO &Io, KernelInfo &K, std::size_t &) {
    return Io.rest(K.Location, "file>:<line>:<col");
  }
  template <class IO>
  static bool function(IO &Io, KernelInfo &K, std::size_t &) {
    return Io.rest(K.Function, "qualified name");
  }
  template <class IO> static bool param(IO &Io, KernelInfo &K, std::size_t &I) {
    ParamInfo &P = K.Params[I];
    return Io.word(P.Kind, "in|out|inout|scalar", paramWord, parseParamWord) &&
           Io.type(P.Type, P.Bytes) && Io.name(P.Name, "name");
  }
  template <class IO> static bool rows(IO &Io, KernelInfo &K, std::size_t &I) {
    if (!Io.param(I, K, spanParam, "param"))
      return false;
    ParamInfo &P = K.Params[I];
    P.RowsApart = true;
    if (Io.ifMore(P.RowOffsets >= 0)) {
      std::size_t Offsets = static_cast<std::size_t>(P.RowOffsets);
      if (!Io.param(Offsets, K, offsetsParam, "offsets") ||
          !Io.check(Offsets != I))
        return false;
      P.RowOffsets = static_cast<int>(Offsets);
      Io.end();
    }
    return true;
  }
  template <bool ParamInfo::*Flag, bool (*Fits)(const ParamInfo &), class IO>
  static bool flag(IO &Io, KernelInfo &K, std::size_t &I) {
    return Io.param(I, K, Fits, "param") && (K.Params[I].*Flag = true);
  }
  template <class IO>
  static bool covers(IO &Io, KernelInfo &K, std::size_t &I) {
    if (!Io.param(I, K, anyParam, "param"))
      return false;
    ParamInfo &P = K.Params[I];
    P.CoverCols = P.CoverCols.value_or(BoundExpr());
    P.CoverStride = P.CoverStride.value_or(BoundExpr());
    return Io.bound(*P.CoverCols, "cols") && Io.bound(*P.CoverStride, "stride");
  }
  template <class IO>
  static bool extent(IO &Io, KernelInfo &K, std::size_t &I) {
    if (!Io.param(I, K, extentParam, "param"))
      return false;
    ParamInfo &P = K.Params[I];
    P.LowestIndex = P.LowestIndex.value_or(BoundExpr());
    P.HighestIndex = P.HighestIndex.value_or(BoundExpr());
    return Io.bound(*P.LowestIndex, "lowest") &&
           Io.bound(*P.HighestIndex, "highest");
  }
  template <class IO>
  static bool gather(IO &Io, KernelInfo &K, std::size_t &I) {
    if (!Io.param(I, K, gatheredParam, "param"))
      return false;
    ParamInfo::InferredRows G =
        K.Params[I].Gathered.value_or(ParamInfo::InferredRows());
    if (!Io.param(G.Columns, K, lengthParam, "columns") ||
        !Io.bound(G.LowestRow, "lowest row") ||
        !Io.bound(G.HighestRow, "highest row") ||
        !Io.bound(G.LowestColumn, "lowest column") ||
        !Io.bound(G.HighestColumn, "highest column"))
      return false;
    K.Params[I].Gathered = std::move(G);
    return true;
  }
  template <class IO> static bool level(IO &Io, KernelInfo &K, std::size_t &I) {
    return levelFields(Io, K.Levels[I]);
  }
  template <class IO> static bool map(IO &Io, KernelInfo &K, std::size_t &I) {
    DimensionInfo &D = K.Dimensions[I];
    if (!Io.integer(D.Depth, "depth", 0u, ~0u) || !Io.axis(D.Axis) ||
        !Io.integer(D.Block, "block", 1u, MaxBlock) ||
        !Io.word(D.Kind, "span|all|split", degreeWord, parseDegreeWord) ||
        !Io.integer(D.N, "n", 0u, ~0u))
      return false;
    if (Io.when(D.hasBounds())) {
      if (!levelFields(Io, D.Bounds))
        return false;
      Io.end();
    }
    return true;
  }
  template <class IO>
  static bool reduce(IO &Io, KernelInfo &K, std::size_t &I) {
    ReductionInfo &R = K.Reductions[I];
    if (!Io.param(R.Param, K, scalarParam, "param") ||
        !Io.word(R.Op, reduceWords(), reduceWord, parseReduceWord))
      return false;
    K.Params[R.Param].Kind = ParamKind::ReductionTarget;
    return true;
  }
  template <class IO>
  static bool combine(IO &Io, KernelInfo &K, std::size_t &) {
    return Io.name(K.Combine.Name, "name") &&
           Io.integer(K.Combine.Block, "block", 1u, MaxBlock);
  }
  template <class IO> static bool split(IO &Io, KernelInfo &K, std::size_t &I) {
    return Io.integer(K.Combine.PartialBytes[I], "bytes", std::size_t(1),
                      SIZE_MAX) &&
           Io.check(!K.Combine.Name.empty());
  }
  template <class IO> static bool tune(IO &Io, KernelInfo &K, std::size_t &I) {
    TuneParam &P = K.Tune.Params[I];
    return Io.name(P.Macro, "macro") && Io.check(validMacro(P.Macro)) &&
           Io.tuneRole(P.Role, P.Target) &&
           Io.values(P.Values, "value", P.Role == TuneRole::Text ? 0u : 1u,
                     1u << 20, /*AtLeastOne=*/true);
  }
  template <class IO> static bool shared(IO &Io, KernelInfo &K, std::size_t &) {
    K.Tune.SharedBytes = K.Tune.SharedBytes.value_or(BoundExpr());
    return Io.bound(*K.Tune.SharedBytes, "bytes") &&
           Io.check(
               tuneLeavesWithin(*K.Tune.SharedBytes, K.Tune.Params.size()));
  }
  template <class IO> static bool reorders(IO &, KernelInfo &K, std::size_t &) {
    K.Tune.Reorders = true;
    return true;
  }
  template <class IO>
  static bool buffer(IO &Io, KernelInfo &K, std::size_t &I) {
    BufferInfo &B = K.Buffers[I];
    return Io.integer(B.ElementBytes, "element-bytes", std::size_t(1),
                      SIZE_MAX) &&
           Io.bound(B.Extent, "extent");
  }
  template <class IO> static bool text(IO &Io, KernelInfo &K, std::size_t &) {
    return Io.integer(K.TextOffset, "offset", std::size_t(0), SIZE_MAX) &&
           Io.integer(K.TextLength, "length", std::size_t(1), SIZE_MAX);
  }
  template <class IO> static bool image(IO &Io, KernelInfo &K, std::size_t &I) {
    ImageInfo &M = K.Images[I];
    return Io.name(M.Arch, "arch") &&
           Io.integer(M.Offset, "offset", std::size_t(0), SIZE_MAX) &&
           Io.integer(M.Length, "length", std::size_t(1), SIZE_MAX);
  }
  template <class IO> static bool vary(IO &Io, KernelInfo &K, std::size_t &I) {
    return Io.bound(K.Choice.Vary[I], "expr");
  }
  template <class IO>
  static bool scenario(IO &Io, KernelInfo &K, std::size_t &I) {
    ChoiceInfo::Scenario &S = K.Choice.Scenarios[I];
    return Io.integer(S.Mapping, "mapping", 0u, ~0u) &&
           Io.values(S.Values, "value", std::int64_t(1), INT64_MAX,
                     /*AtLeastOne=*/false) &&
           Io.check(S.Values.size() == K.Choice.Vary.size());
  }
};

/// One kind of line: its key, its meaning, which of K's elements have a
/// line (in order), how the parser makes room for one, and its fields.
struct Line {
  const char *Key;
  const char *Meaning;
  std::vector<std::size_t> (*Lines)(const KernelInfo &K);
  /// Null for a parameter's line (its first field names the parameter).
  std::size_t (*Add)(KernelInfo &K);
  bool (*Read)(LineReader &, KernelInfo &, std::size_t &);
  bool (*Write)(LineWriter &, KernelInfo &, std::size_t &);
  bool (*Syntax)(SyntaxWriter &, KernelInfo &, std::size_t &);
};

std::vector<std::size_t> upTo(std::size_t N) {
  std::vector<std::size_t> I(N);
  for (std::size_t J = 0; J < N; ++J)
    I[J] = J;
  return I;
}
std::vector<std::size_t> onceIf(bool Present) {
  return Present ? std::vector<std::size_t>{0} : std::vector<std::size_t>{};
}
template <class Pred>
std::vector<std::size_t> paramsWhere(const KernelInfo &K, Pred P) {
  std::vector<std::size_t> I;
  for (std::size_t J = 0; J < K.Params.size(); ++J)
    if (P(K.Params[J]))
      I.push_back(J);
  return I;
}
template <class T> std::size_t append(std::vector<T> &V) {
  V.emplace_back();
  return V.size() - 1;
}

/// A line for each element of K.Member, and room made for one by appending.
#define WEFT_EACH(Member)                                                      \
  [](const KernelInfo &K) { return upTo(K.Member.size()); },                   \
      [](KernelInfo &K) { return append(K.Member); }
#define WEFT_FIELDS(F)                                                         \
  [](LineReader &Io, KernelInfo &K, std::size_t &I) { return F(Io, K, I); },   \
      [](LineWriter &Io, KernelInfo &K, std::size_t &I) {                      \
        return F(Io, K, I);                                                    \
      },                                                                       \
      [](SyntaxWriter &Io, KernelInfo &K, std::size_t &I) {                    \
        return F(Io, K, I);                                                    \
      }
#define WEFT_FLAG_FIELDS(Flag, Fits)                                           \
  WEFT_FIELDS((Fields::flag<&ParamInfo::Flag, Fits>))

/// In the order the writer prints them.
const Line Grammar[] = {
    {"kernel", "the kernel's name",
     [](const KernelInfo &) { return onceIf(true); }, nullptr,
     WEFT_FIELDS(Fields::kernel)},
    {"loc", "the loop's location",
     [](const KernelInfo &) { return onceIf(true); }, nullptr,
     WEFT_FIELDS(Fields::loc)},
    {"function", "the function the loop is in (profiles name the loop by it)",
     [](const KernelInfo &K) { return onceIf(!K.Function.empty()); }, nullptr,
     WEFT_FIELDS(Fields::function)},
    {"param",
     "one per captured variable; type: bool i8 ... f64, or bytesN for an "
     "N-byte struct",
     WEFT_EACH(Params), WEFT_FIELDS(Fields::param)},
    {"rows",
     "the span's rows are held apart (a std::vector of std::vectors, a "
     "float **): its argument is a RowsArg; the parameter of their row "
     "offsets",
     [](const KernelInfo &K) {
       return paramsWhere(K, [](const ParamInfo &P) { return P.RowsApart; });
     },
     nullptr, WEFT_FIELDS(Fields::rows)},
    {"keeps",
     "the kernel holds copies of the span's elements (in shared memory or "
     "registers) across its accesses: a write through another name for "
     "the same memory would miss them",
     [](const KernelInfo &K) {
       return paramsWhere(K, [](const ParamInfo &P) { return P.Kept; });
     },
     nullptr, WEFT_FLAG_FIELDS(Kept, spanParam)},
    {"apart",
     "loops the plugin found parallel or reordered take the span's memory "
     "as its own (as restrict would): a write through another name for "
     "it, or a read of it through one, breaks their proof",
     [](const KernelInfo &K) {
       return paramsWhere(K, [](const ParamInfo &P) { return P.Apart; });
     },
     nullptr, WEFT_FLAG_FIELDS(Apart, spanParam)},
    {"uniform",
     "a scalar the kernel indexes rows held apart by, as rows of that one "
     "length: right only where it is not negative (rows of differing "
     "lengths take the loop's kernel without such lines)",
     [](const KernelInfo &K) {
       return paramsWhere(K, [](const ParamInfo &P) { return P.OneLength; });
     },
     nullptr, WEFT_FLAG_FIELDS(OneLength, lengthParam)},
    {"covers",
     "a written span is written everywhere when the outermost trip count "
     "times cols is its size and cols equals stride",
     [](const KernelInfo &K) {
       return paramsWhere(
           K, [](const ParamInfo &P) { return P.CoverCols && P.CoverStride; });
     },
     nullptr, WEFT_FIELDS(Fields::covers)},
    {"extent",
     "a pointer without an extent clause: the least and greatest "
     "subscripts the loop gives it, which the launch sizes it by",
     [](const KernelInfo &K) {
       return paramsWhere(K, [](const ParamInfo &P) {
         return P.LowestIndex && P.HighestIndex;
       });
     },
     nullptr, WEFT_FIELDS(Fields::extent)},
    {"gather",
     "rows held as pointers (a float **) without an extent clause: the "
     "bounds of their row and column subscripts, which the launch gathers "
     "them by, and the 64-bit scalar parameter it sets to the rows' length",
     [](const KernelInfo &K) {
       return paramsWhere(
           K, [](const ParamInfo &P) { return P.Gathered.has_value(); });
     },
     nullptr, WEFT_FIELDS(Fields::gather)},
    {"level", "the outermost level", WEFT_EACH(Levels),
     WEFT_FIELDS(Fields::level)},
    {"map",
     "a level spread over a dimension (bounds for an inner span level's "
     "grid)",
     WEFT_EACH(Dimensions), WEFT_FIELDS(Fields::map)},
    {"reduce", "an outermost reduction into that parameter",
     WEFT_EACH(Reductions), WEFT_FIELDS(Fields::reduce)},
    {"combine", "Split(k) of depth 1: the combining kernel",
     [](const KernelInfo &K) { return onceIf(!K.Combine.Name.empty()); },
     nullptr, WEFT_FIELDS(Fields::combine)},
    {"split", "the bytes of each partial the combining kernel combines",
     WEFT_EACH(Combine.PartialBytes), WEFT_FIELDS(Fields::split)},
    {"tune",
     "a tuning parameter: a macro of the text, what it sets in the launch "
     "(a block size along an axis, n of Span(n) or k of Split(k) at that "
     "depth (k: the launch alone), or the text alone) and its values, the "
     "mapped one first",
     WEFT_EACH(Tune.Params), WEFT_FIELDS(Fields::tune)},
    {"shared", "static shared memory per block over (tune K)",
     [](const KernelInfo &K) { return onceIf(K.Tune.SharedBytes.has_value()); },
     nullptr, WEFT_FIELDS(Fields::shared)},
    {"reorders",
     "configurations combine a floating-point reduction in different "
     "orders",
     [](const KernelInfo &K) { return onceIf(K.Tune.Reorders); }, nullptr,
     WEFT_FIELDS(Fields::reorders)},
    {"buffer", "a per-iteration array, a slice per grid thread",
     WEFT_EACH(Buffers), WEFT_FIELDS(Fields::buffer)},
    {"text", "this kernel's text within the loop's source",
     [](const KernelInfo &K) { return onceIf(K.TextLength != 0); }, nullptr,
     WEFT_FIELDS(Fields::text)},
    {"image",
     "a binary of the kernel built with the program (sm_XX: a cubin, "
     "compute_XX: PTX, gfxNNN: a code object), base64 within the loop's "
     "source",
     WEFT_EACH(Images), WEFT_FIELDS(Fields::image)},
    {"vary", "a size the mapping depends on, read at launch",
     WEFT_EACH(Choice.Vary), WEFT_FIELDS(Fields::vary)},
    {"scenario", "values of the varied sizes and the mapping for them",
     WEFT_EACH(Choice.Scenarios), WEFT_FIELDS(Fields::scenario)},
};

#undef WEFT_FLAG_FIELDS
#undef WEFT_FIELDS
#undef WEFT_EACH

const Line *lineOf(std::string_view Key) {
  for (const Line &L : Grammar)
    if (Key == L.Key)
      return &L;
  return nullptr;
}

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

/// One line of a descriptor after its header into Out.
bool readLine(std::string_view Key, LineReader &L, KernelInfo &Out,
              std::string &What) {
  const Line *G = lineOf(Key);
  if (!G) {
    What = "unknown key";
    return false;
  }
  std::size_t I = G->Add ? G->Add(Out) : 0;
  if (!G->Read(L, Out, I)) {
    What = std::string("bad ") + G->Key;
    return false;
  }
  if (!L.atEnd()) {
    What = std::string("bad ") + G->Key + " (trailing text)";
    return false;
  }
  return true;
}

} // namespace

std::string writeDescriptor(const KernelInfo &K) {
  std::string D = "weft " + std::to_string(DescriptorVersion) + "\n";
  KernelInfo Copy = K; // the fields are described for reading too
  for (const Line &G : Grammar)
    for (std::size_t I : G.Lines(K)) {
      D += G.Key;
      LineWriter W(D);
      G.Write(W, Copy, I);
      D += "\n";
    }
  return D;
}

std::string writeDescriptors(const std::vector<KernelInfo> &Kernels) {
  std::string D;
  for (std::size_t I = 0; I < Kernels.size(); ++I)
    D += (I ? "alternative\n" : "") + writeDescriptor(Kernels[I]);
  return D;
}

bool parseDescriptor(std::string_view Text, KernelInfo &Out,
                     std::string &Error) {
  int LineNo = 0;
  bool SawHeader = false;
  for (std::size_t Start = 0; Start < Text.size();) {
    std::size_t End = Text.find('\n', Start);
    if (End == std::string_view::npos)
      End = Text.size();
    const std::string_view LineText = Text.substr(Start, End - Start);
    Start = End + 1;
    ++LineNo;
    if (LineText.empty())
      continue;
    LineReader L(LineText);
    const std::string_view Key = L.key();
    std::string What;
    int Version = 0;
    if (Key == "weft" && !SawHeader) {
      if (!L.integer(Version, "version", INT32_MIN, INT32_MAX) || !L.atEnd())
        What = "bad version line";
      else if (Version != DescriptorVersion)
        return versionError(Version, Error);
      SawHeader = true;
    } else if (!SawHeader) {
      What = "it does not start with its version";
    } else {
      readLine(Key, L, Out, What);
    }
    if (!What.empty()) {
      Error = "malformed kernel descriptor, line " + std::to_string(LineNo) +
              ": " + What;
      return false;
    }
  }
  if (!SawHeader || Out.Name.empty() || Out.Levels.empty()) {
    Error = "malformed kernel descriptor: missing header, name or level";
    return false;
  }
  return true;
}

std::string descriptorGrammar() {
  std::string G = "weft <version>\n";
  KernelInfo Example;
  Example.Params.emplace_back();
  Example.Dimensions.emplace_back(); // depth 0: the bounds are optional
  for (const Line &L : Grammar) {
    std::size_t I = L.Add ? L.Add(Example) : 0;
    G += L.Key;
    SyntaxWriter W(G);
    L.Syntax(W, Example, I);
    G += std::string("\n    ") + L.Meaning + "\n";
  }
  return G + "alternative\n    the descriptor of another mapping of the "
             "same loop follows\n";
}

} // namespace weft::contract
