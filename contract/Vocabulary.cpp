// Vocabulary.cpp: the descriptor's word lists.
#include "contract/Vocabulary.h"

namespace weft::contract {
namespace {

struct TypeEntry {
  const char *Word;
  ScalarType Type;
  std::size_t Size;
};
constexpr TypeEntry Types[] = {
    {"bool", ScalarType::Bool, 1}, {"i8", ScalarType::I8, 1},
    {"u8", ScalarType::U8, 1},     {"i16", ScalarType::I16, 2},
    {"u16", ScalarType::U16, 2},   {"i32", ScalarType::I32, 4},
    {"u32", ScalarType::U32, 4},   {"i64", ScalarType::I64, 8},
    {"u64", ScalarType::U64, 8},   {"f32", ScalarType::F32, 4},
    {"f64", ScalarType::F64, 8},   {"k128", ScalarType::K128, 16}};

constexpr const char *ParamWords[] = {"in", "out", "inout", "scalar"};
struct ReduceEntry {
  const char *Word, *Clause, *Device;
};
constexpr ReduceEntry ReduceOps[NumReduceOps] = {
#define WEFT_REDUCE_OP(Name, Device, Word, Clause, Identity, Kind, Combine)    \
  {Word, Clause, #Device},
#include "contract/ReduceOps.def"
};
constexpr const char *DegreeWords[] = {"span", "all", "split"};

} // namespace

const char *typeWord(ScalarType T) {
  for (const TypeEntry &E : Types)
    if (E.Type == T)
      return E.Word;
  return "bytes";
}

std::string typeWord(ScalarType T, std::size_t Size) {
  return T == ScalarType::Bytes ? "bytes" + std::to_string(Size)
                                : std::string(typeWord(T));
}

std::optional<ScalarType> parseTypeWord(std::string_view Word,
                                        std::size_t &Size) {
  for (const TypeEntry &E : Types)
    if (Word == E.Word) {
      Size = E.Size;
      return E.Type;
    }
  if (Word.substr(0, 5) != "bytes" || Word.size() == 5 || Word.size() > 14)
    return std::nullopt;
  Size = 0;
  for (char C : Word.substr(5)) {
    if (C < '0' || C > '9')
      return std::nullopt;
    Size = Size * 10 + static_cast<std::size_t>(C - '0');
  }
  if (Size == 0)
    return std::nullopt;
  return ScalarType::Bytes;
}

std::size_t sizeOf(ScalarType T) {
  for (const TypeEntry &E : Types)
    if (E.Type == T)
      return E.Size;
  return 0;
}

const char *paramWord(ParamKind K) {
  return K == ParamKind::ReductionTarget ? "scalar"
                                         : ParamWords[static_cast<int>(K)];
}

std::optional<ParamKind> parseParamWord(std::string_view Word) {
  for (int I = 0; I < 4; ++I)
    if (Word == ParamWords[I])
      return static_cast<ParamKind>(I);
  return std::nullopt;
}

const char *reduceWord(ReduceOp Op) {
  return ReduceOps[static_cast<int>(Op)].Word;
}

std::optional<ReduceOp> parseReduceWord(std::string_view Word) {
  for (int I = 0; I < NumReduceOps; ++I)
    if (Word == ReduceOps[I].Word)
      return static_cast<ReduceOp>(I);
  return std::nullopt;
}

const char *reduceClause(ReduceOp Op) {
  return ReduceOps[static_cast<int>(Op)].Clause;
}

std::optional<ReduceOp> parseReduceClause(std::string_view Spelling) {
  for (int I = 0; I < NumReduceOps; ++I)
    if (Spelling == ReduceOps[I].Clause)
      return static_cast<ReduceOp>(I);
  return std::nullopt;
}

const char *reduceDeviceName(ReduceOp Op) {
  return ReduceOps[static_cast<int>(Op)].Device;
}

const char *degreeWord(Degree D) { return DegreeWords[static_cast<int>(D)]; }

std::optional<Degree> parseDegreeWord(std::string_view Word) {
  for (int I = 0; I < 3; ++I)
    if (Word == DegreeWords[I])
      return static_cast<Degree>(I);
  return std::nullopt;
}

char axisLetter(int Axis) {
  return Axis >= 0 && Axis < 3 ? static_cast<char>('x' + Axis) : '?';
}

int parseAxisLetter(std::string_view Word) {
  return Word.size() == 1 && Word[0] >= 'x' && Word[0] <= 'z' ? Word[0] - 'x'
                                                              : -1;
}

std::string tuneRoleWord(TuneRole Role, int Target) {
  switch (Role) {
  case TuneRole::Block:
    return std::string(1, axisLetter(Target));
  case TuneRole::SpanN:
    return "n" + std::to_string(Target);
  case TuneRole::SplitK:
    return "k" + std::to_string(Target);
  case TuneRole::Text:
    break;
  }
  return "text";
}

bool parseTuneRoleWord(std::string_view Word, TuneRole &Role, int &Target) {
  if (Word == "text") {
    Role = TuneRole::Text;
    Target = 0;
    return true;
  }
  if (const int Axis = parseAxisLetter(Word); Axis >= 0) {
    Role = TuneRole::Block;
    Target = Axis;
    return true;
  }
  if (Word.size() == 2 && (Word[0] == 'n' || Word[0] == 'k') &&
      Word[1] >= '0' && Word[1] <= '2') {
    Role = Word[0] == 'n' ? TuneRole::SpanN : TuneRole::SplitK;
    Target = Word[1] - '0';
    return true;
  }
  return false;
}

} // namespace weft::contract
