// Vocabulary.h: the words of the kernel descriptor, the one list the plugin
// writes and the runtime reads: element types, how a parameter moves,
// reduction operators, degrees of parallelism, axes and comparisons.
#ifndef WEFT_CONTRACT_VOCABULARY_H
#define WEFT_CONTRACT_VOCABULARY_H

#include <cstddef>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>

namespace weft::contract {

/// Element or scalar type of a parameter. Bytes: a trivially copyable struct
/// of a stated size ("bytes12").
enum class ScalarType {
  Bool,
  I8,
  U8,
  I16,
  U16,
  I32,
  U32,
  I64,
  U64,
  F32,
  F64,
  K128, // an argmax or argmin key over 64-bit values: {order, index}
  Bytes
};
/// "f32"; Bytes has no word of its own (see typeWord(ScalarType, size)).
const char *typeWord(ScalarType T);
/// "f32", or "bytes<Size>" for a struct.
std::string typeWord(ScalarType T, std::size_t Size);
/// The type a word names and its size in bytes.
std::optional<ScalarType> parseTypeWord(std::string_view Word,
                                        std::size_t &Size);
/// Bytes of a scalar type; 0 for Bytes.
std::size_t sizeOf(ScalarType T);

/// How a captured variable reaches the kernel. A reduction target is written
/// as a scalar; its `reduce` line makes it one.
enum class ParamKind { In, Out, InOut, Scalar, ReductionTarget };
const char *paramWord(ParamKind K);
std::optional<ParamKind> parseParamWord(std::string_view Word);

/// The reduction operators (contract/ReduceOps.def), in device.h's
/// weft::reduce_op order.
enum class ReduceOp {
#define WEFT_REDUCE_OP(Name, Device, Word, Clause, Identity, Kind, Combine) Name,
#include "contract/ReduceOps.def"
};
/// Every operator, in order.
inline constexpr ReduceOp AllReduceOps[] = {
#define WEFT_REDUCE_OP(Name, Device, Word, Clause, Identity, Kind, Combine)    \
  ReduceOp::Name,
#include "contract/ReduceOps.def"
};
constexpr int NumReduceOps = static_cast<int>(std::size(AllReduceOps));
/// What an operator combines: Arithmetic (numbers), Order (ordered values),
/// Bitwise (integers), Logical (truth values).
enum class ReduceKind { Arithmetic, Order, Bitwise, Logical };
constexpr ReduceKind reduceKind(ReduceOp Op) {
  switch (Op) {
#define WEFT_REDUCE_OP(Name, Device, Word, Clause, Identity, Kind, Combine)    \
  case ReduceOp::Name:                                                         \
    return ReduceKind::Kind;
#include "contract/ReduceOps.def"
  }
  return ReduceKind::Arithmetic;
}
/// The descriptor's word: "add", "land", ...
const char *reduceWord(ReduceOp Op);
std::optional<ReduceOp> parseReduceWord(std::string_view Word);
/// The clause's spelling, and the C operator's: "+", "min", "&&", ...
const char *reduceClause(ReduceOp Op);
std::optional<ReduceOp> parseReduceClause(std::string_view Spelling);
/// device.h's enumerator: "reduce_add", ...
const char *reduceDeviceName(ReduceOp Op);

/// A level's degree of parallelism on the grid: Span(n), Span(all), Split(k).
enum class Degree { Span, All, Split };
const char *degreeWord(Degree D);
std::optional<Degree> parseDegreeWord(std::string_view Word);

/// 'x', 'y', 'z' for axes 0, 1, 2; -1 for anything else.
char axisLetter(int Axis);
int parseAxisLetter(std::string_view Word);

/// What a tuning parameter sets besides its macro: nothing (the text
/// alone), the block size along an axis, n of Span(n) at a depth, or k of
/// Split(k) at a depth (the launch alone: the kernel reads its grid).
enum class TuneRole { Text, Block, SpanN, SplitK };
/// "text", "x".."z" (Block with its axis), "n0".."n2" (SpanN, its depth),
/// "k1", "k2" (SplitK, its depth).
std::string tuneRoleWord(TuneRole Role, int Target);
bool parseTuneRoleWord(std::string_view Word, TuneRole &Role, int &Target);

} // namespace weft::contract

#endif
