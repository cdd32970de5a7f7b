// Descriptor.cpp: parsing kernel descriptors and evaluating loop bounds.
#include "core/Descriptor.h"

#include <cstring>
#include <sstream>
#include <type_traits>

namespace weft::rt {
namespace {

struct TypeName {
  const char *Spelling;
  ScalarType Type;
  std::size_t Size;
};
constexpr TypeName TypeNames[] = {
    {"bool", ScalarType::Bool, 1}, {"i8", ScalarType::I8, 1},
    {"u8", ScalarType::U8, 1},     {"i16", ScalarType::I16, 2},
    {"u16", ScalarType::U16, 2},   {"i32", ScalarType::I32, 4},
    {"u32", ScalarType::U32, 4},   {"i64", ScalarType::I64, 8},
    {"u64", ScalarType::U64, 8},   {"f32", ScalarType::F32, 4},
    {"f64", ScalarType::F64, 8}};

bool parseType(const std::string &S, ScalarType &T) {
  for (const TypeName &N : TypeNames)
    if (S == N.Spelling) {
      T = N.Type;
      return true;
    }
  return false;
}

class BoundParser {
public:
  explicit BoundParser(std::istream &In) : In(In) {}

  std::unique_ptr<BoundExpr> parse() {
    char C;
    if (!(In >> C) || C != '(')
      return nullptr;
    std::string Op;
    In >> Op;
    // The operator may run into ')' for nullary forms; there are none.
    auto E = std::make_unique<BoundExpr>();
    static const struct {
      const char *Name;
      BoundExpr::Op Kind;
      int Arity; // -1: one integer operand
    } Ops[] = {{"lit", BoundExpr::Lit, -1},   {"arg", BoundExpr::Arg, -1},
               {"size", BoundExpr::Size, -1}, {"add", BoundExpr::Add, 2},
               {"sub", BoundExpr::Sub, 2},    {"mul", BoundExpr::Mul, 2},
               {"div", BoundExpr::Div, 2},    {"rem", BoundExpr::Rem, 2},
               {"min", BoundExpr::Min, 2},    {"max", BoundExpr::Max, 2},
               {"neg", BoundExpr::Neg, 1}};
    int Arity = 0;
    bool Known = false;
    for (const auto &O : Ops)
      if (Op == O.Name) {
        E->Kind = O.Kind;
        Arity = O.Arity;
        Known = true;
      }
    if (!Known)
      return nullptr;
    if (Arity < 0) {
      if (!(In >> E->Value))
        return nullptr;
    } else {
      for (int I = 0; I < Arity; ++I) {
        auto Sub = parse();
        if (!Sub)
          return nullptr;
        E->Operands.push_back(std::move(Sub));
      }
    }
    if (!(In >> C) || C != ')')
      return nullptr;
    return E;
  }

private:
  std::istream &In;
};

bool readScalar(const ParamInfo &P, const detail::LaunchArg &A,
                std::int64_t &V) {
  bool Integer = false;
  withScalarType(P.Type, [&](auto Zero) {
    using T = decltype(Zero);
    if constexpr (std::is_integral_v<T>) {
      T X;
      std::memcpy(&X, A.Data, sizeof X);
      V = static_cast<std::int64_t>(X);
      Integer = true;
    }
  });
  return Integer;
}

} // namespace

std::size_t sizeOf(ScalarType T) {
  for (const TypeName &N : TypeNames)
    if (N.Type == T)
      return N.Size;
  return 0;
}

bool parseDescriptor(const char *Text, KernelInfo &Out, std::string &Error) {
  std::istringstream In(Text ? Text : "");
  std::string Line;
  int LineNo = 0;
  bool SawHeader = false;
  while (std::getline(In, Line)) {
    ++LineNo;
    if (Line.empty())
      continue;
    std::istringstream L(Line);
    std::string Key;
    L >> Key;
    auto Fail = [&](const char *What) {
      Error = "malformed kernel descriptor, line " + std::to_string(LineNo) +
              ": " + What;
      return false;
    };
    if (Key == "weft") {
      int Version = 0;
      if (!(L >> Version) || Version != 1)
        return Fail("unsupported version");
      SawHeader = true;
    } else if (Key == "kernel") {
      L >> Out.Name;
    } else if (Key == "loc") {
      std::getline(L >> std::ws, Out.Location);
    } else if (Key == "param") {
      std::string Kind, Type;
      ParamInfo P;
      L >> Kind >> Type >> P.Name;
      if (Kind == "in")
        P.Kind = ParamKind::In;
      else if (Kind == "out")
        P.Kind = ParamKind::Out;
      else if (Kind == "inout")
        P.Kind = ParamKind::InOut;
      else if (Kind == "scalar")
        P.Kind = ParamKind::Scalar;
      else
        return Fail("unknown parameter kind");
      if (Type.rfind("bytes", 0) == 0 && Type.size() > 5 &&
          Type.find_first_not_of("0123456789", 5) == std::string::npos) {
        P.Type = ScalarType::Bytes;
        P.Bytes = std::stoul(Type.substr(5));
      } else if (!parseType(Type, P.Type)) {
        return Fail("unknown parameter type");
      } else {
        P.Bytes = sizeOf(P.Type);
      }
      Out.Params.push_back(std::move(P));
    } else if (Key == "level") {
      LevelInfo Level;
      BoundParser P(L);
      Level.Lower = P.parse();
      Level.Upper = P.parse();
      std::string Cmp;
      if (!Level.Lower || !Level.Upper || !(L >> Level.Step >> Cmp) ||
          Level.Step <= 0 || (Cmp != "lt" && Cmp != "le"))
        return Fail("bad level");
      Level.Inclusive = Cmp == "le";
      Out.Levels.push_back(std::move(Level));
    } else if (Key == "map") {
      DimensionInfo D;
      std::string Axis, Kind;
      if (!(L >> D.Depth >> Axis >> D.Block >> Kind >> D.N) || D.Block == 0 ||
          D.Block > 1024 || Axis.size() != 1 || Axis[0] < 'x' || Axis[0] > 'z')
        return Fail("bad map");
      D.Axis = Axis[0] - 'x';
      if (Kind == "span")
        D.Kind = DimensionInfo::Span;
      else if (Kind == "all")
        D.Kind = DimensionInfo::All;
      else if (Kind == "split")
        D.Kind = DimensionInfo::Split;
      else
        return Fail("bad map kind");
      if (D.Depth > 0 && D.Kind == DimensionInfo::Span) {
        BoundParser P(L);
        D.Bounds.Lower = P.parse();
        D.Bounds.Upper = P.parse();
        std::string Cmp;
        if (!D.Bounds.Lower || !D.Bounds.Upper ||
            !(L >> D.Bounds.Step >> Cmp) || D.Bounds.Step <= 0)
          return Fail("bad map bounds");
        D.Bounds.Inclusive = Cmp == "le";
      }
      Out.Dimensions.push_back(std::move(D));
    } else if (Key == "buffer") {
      BufferInfo B;
      BoundParser P(L);
      if (!(L >> B.ElementBytes) || B.ElementBytes == 0 ||
          !(B.Extent = P.parse()))
        return Fail("bad buffer");
      Out.Buffers.push_back(std::move(B));
    } else if (Key == "covers") {
      std::size_t P = 0;
      if (!(L >> P) || P >= Out.Params.size())
        return Fail("bad covers");
      BoundParser B(L);
      Out.Params[P].CoverCols = B.parse();
      Out.Params[P].CoverStride = B.parse();
      if (!Out.Params[P].CoverCols || !Out.Params[P].CoverStride)
        return Fail("bad covers");
    } else if (Key == "tune") {
      std::string Axis;
      unsigned B = 0;
      if (!(L >> Axis) || Axis.size() != 1 || Axis[0] < 'x' || Axis[0] > 'z')
        return Fail("bad tune");
      Out.Tune.Axis = Axis[0] - 'x';
      while (L >> B) {
        if (B == 0 || B > 1024)
          return Fail("bad tune");
        Out.Tune.Blocks.push_back(B);
      }
    } else if (Key == "combine") {
      if (!(L >> Out.Combine.Name >> Out.Combine.Block) ||
          Out.Combine.Block == 0 || Out.Combine.Block > 1024)
        return Fail("bad combine");
    } else if (Key == "split") {
      std::size_t Bytes = 0;
      if (!(L >> Bytes) || Bytes == 0 || Out.Combine.Name.empty())
        return Fail("bad split");
      Out.Combine.PartialBytes.push_back(Bytes);
    } else if (Key == "reduce") {
      ReductionInfo R;
      std::string Op;
      static const char *const Ops[] = {"add", "mul", "min",  "max", "and",
                                        "or",  "xor", "land", "lor"};
      if (!(L >> R.Param >> Op))
        return Fail("bad reduce");
      bool Known = false;
      for (int I = 0; I < 9; ++I)
        if (Op == Ops[I]) {
          R.Op = static_cast<ReduceOp>(I);
          Known = true;
        }
      if (!Known || R.Param >= Out.Params.size())
        return Fail("bad reduce");
      Out.Params[R.Param].Kind = ParamKind::ReductionTarget;
      Out.Reductions.push_back(R);
    } else if (Key == "text") {
      if (!(L >> Out.TextOffset >> Out.TextLength) || Out.TextLength == 0)
        return Fail("bad text");
    } else if (Key == "vary") {
      BoundParser P(L);
      std::unique_ptr<BoundExpr> E = P.parse();
      if (!E)
        return Fail("bad vary");
      Out.Choice.Vary.push_back(std::move(E));
    } else if (Key == "scenario") {
      ChoiceInfo::Scenario S;
      std::int64_t V = 0;
      if (!(L >> S.Mapping))
        return Fail("bad scenario");
      while (L >> V) {
        if (V <= 0)
          return Fail("bad scenario");
        S.Values.push_back(V);
      }
      if (S.Values.size() != Out.Choice.Vary.size())
        return Fail("a scenario needs one value per varied size");
      Out.Choice.Scenarios.push_back(std::move(S));
    } else {
      return Fail("unknown key");
    }
  }
  if (Out.Dimensions.empty()) {
    // No map line: the outermost level on x, 256 threads a block.
    DimensionInfo D;
    D.Block = 256;
    Out.Dimensions.push_back(std::move(D));
  }
  if (!SawHeader || Out.Name.empty() || Out.Levels.empty()) {
    Error = "malformed kernel descriptor: missing header, name or level";
    return false;
  }
  return true;
}

bool evaluateBound(const BoundExpr &E, const KernelInfo &K,
                   const detail::LaunchArg *Args, std::size_t NumArgs,
                   std::int64_t &Value, std::string &Error) {
  auto ArgAt = [&](std::int64_t I) -> const ParamInfo * {
    if (I < 0 || static_cast<std::size_t>(I) >= NumArgs ||
        static_cast<std::size_t>(I) >= K.Params.size()) {
      Error = "loop bound refers to a missing argument";
      return nullptr;
    }
    return &K.Params[I];
  };
  std::int64_t A = 0, B = 0;
  if (!E.Operands.empty() &&
      !evaluateBound(*E.Operands[0], K, Args, NumArgs, A, Error))
    return false;
  if (E.Operands.size() > 1 &&
      !evaluateBound(*E.Operands[1], K, Args, NumArgs, B, Error))
    return false;
  switch (E.Kind) {
  case BoundExpr::Lit:
    Value = E.Value;
    return true;
  case BoundExpr::Arg: {
    const ParamInfo *P = ArgAt(E.Value);
    if (!P)
      return false;
    if (P->isSpan() || !readScalar(*P, Args[E.Value], Value)) {
      Error = "loop bound argument '" + P->Name + "' is not an integer";
      return false;
    }
    return true;
  }
  case BoundExpr::Size: {
    const ParamInfo *P = ArgAt(E.Value);
    if (!P)
      return false;
    Value = static_cast<std::int64_t>(Args[E.Value].Count);
    return true;
  }
  case BoundExpr::Add:
    Value = A + B;
    return true;
  case BoundExpr::Sub:
    Value = A - B;
    return true;
  case BoundExpr::Mul:
    Value = A * B;
    return true;
  case BoundExpr::Div:
  case BoundExpr::Rem:
    if (B == 0) {
      Error = "division by zero in a loop bound";
      return false;
    }
    Value = E.Kind == BoundExpr::Div ? A / B : A % B;
    return true;
  case BoundExpr::Min:
    Value = A < B ? A : B;
    return true;
  case BoundExpr::Max:
    Value = A < B ? B : A;
    return true;
  case BoundExpr::Neg:
    Value = -A;
    return true;
  }
  return false;
}

bool evaluateTripCount(const LevelInfo &L, const KernelInfo &K,
                       const detail::LaunchArg *Args, std::size_t NumArgs,
                       std::int64_t &Lower, std::int64_t &Count,
                       std::string &Error) {
  std::int64_t Upper = 0;
  if (!evaluateBound(*L.Lower, K, Args, NumArgs, Lower, Error) ||
      !evaluateBound(*L.Upper, K, Args, NumArgs, Upper, Error))
    return false;
  if (L.Inclusive)
    ++Upper;
  Count = Upper > Lower ? (Upper - Lower + L.Step - 1) / L.Step : 0;
  return true;
}

bool parseDescriptors(const char *Text, std::size_t SourceLength,
                      std::vector<KernelInfo> &Out, std::string &Error) {
  const std::string All = Text ? Text : "";
  const std::string Mark = "\nalternative\n";
  Out.clear();
  for (std::size_t Start = 0;;) {
    const std::size_t End = All.find(Mark, Start);
    Out.emplace_back();
    const std::string Piece =
        All.substr(Start, End == std::string::npos ? End : End + 1 - Start);
    if (!parseDescriptor(Piece.c_str(), Out.back(), Error))
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
    if (End == std::string::npos)
      break;
    Start = End + Mark.size();
  }
  for (const ChoiceInfo::Scenario &S : Out[0].Choice.Scenarios)
    if (S.Mapping >= Out.size()) {
      Error = "malformed kernel descriptor: a scenario names mapping " +
              std::to_string(S.Mapping) + " of " + std::to_string(Out.size());
      return false;
    }
  if (Out.size() > 1 && Out[0].Choice.Scenarios.empty()) {
    Error = "malformed kernel descriptor: alternatives without scenarios";
    return false;
  }
  return true;
}

} // namespace weft::rt
