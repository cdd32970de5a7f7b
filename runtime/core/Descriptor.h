// Descriptor.h: the text the plugin embeds beside each kernel (name, location,
// parameters, loop bounds) and its parsed form. The format is line based:
//
//   weft 1
//   kernel <name>
//   loc <file>:<line>:<col>
//   param <in|out|inout|scalar> <type> <name>      one per captured variable;
//                                                   type: bool i8 ... f64, or
//                                                   bytesN for an N-byte struct
//   level <lo-expr> <hi-expr> <step> <lt|le>       the outermost level
//   map <depth> <x|y|z> <block> <span|all|split> <n> [<lo> <hi> <step> <cmp>]
//                                                   a level spread over a
//                                                   dimension (bounds for an
//                                                   inner span level's grid)
//   buffer <element-bytes> <extent-expr>           a per-iteration array of
//                                                   the outermost level, in
//                                                   a buffer for all of them
//   reduce <param> <add|mul|min|max|and|or|xor|land|lor>
//                                                   an outermost reduction
//                                                   into that parameter
//   text <offset> <length>                         this kernel's text within
//                                                   the source (when it holds
//                                                   several)
//   vary <expr>                                    a size the mapping depends
//                                                   on, read at launch
//   scenario <mapping> <value>...                  values of the varied sizes
//                                                   and the mapping for them:
//                                                   0 this kernel, i the i-th
//                                                   alternative
//   alternative                                    the descriptor of another
//                                                   mapping of the same loop
//                                                   follows
//
// Bound expressions are prefix S-expressions over the launch arguments:
// (lit N) (arg K) (size K) (add a b) (sub a b) (mul a b) (div a b) (rem a b)
// (min a b) (max a b) (neg a).
#ifndef WEFT_RUNTIME_CORE_DESCRIPTOR_H
#define WEFT_RUNTIME_CORE_DESCRIPTOR_H

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "weft/abi.h"

namespace weft::rt {

enum class ParamKind { In, Out, InOut, Scalar, ReductionTarget };

/// Element or scalar type of a parameter, as spelled in the descriptor.
/// Bytes: a trivially copyable struct of ParamInfo::Bytes bytes.
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
  Bytes
};

struct BoundExpr {
  enum Op { Lit, Arg, Size, Add, Sub, Mul, Div, Rem, Min, Max, Neg } Kind;
  std::int64_t Value = 0; // Lit: the value; Arg, Size: the argument index.
  std::vector<std::unique_ptr<BoundExpr>> Operands;
};

struct ParamInfo {
  ParamKind Kind;
  ScalarType Type;
  std::string Name;
  std::size_t Bytes = 0; // the element's (or scalar's) size
  /// A written span is written everywhere when the outermost trip count
  /// times CoverCols is its size and CoverCols equals CoverStride
  /// ("covers" in the descriptor); null when the plugin claims nothing.
  std::unique_ptr<BoundExpr> CoverCols, CoverStride;
  bool isSpan() const {
    return Kind != ParamKind::Scalar && Kind != ParamKind::ReductionTarget;
  }
  bool readsDevice() const {
    return Kind == ParamKind::In || Kind == ParamKind::InOut;
  }
  bool writesDevice() const {
    return Kind == ParamKind::Out || Kind == ParamKind::InOut;
  }
};

struct LevelInfo {
  std::unique_ptr<BoundExpr> Lower, Upper;
  std::int64_t Step = 1;
  bool Inclusive = false;
};

/// A level spread over one dimension of the grid.
struct DimensionInfo {
  unsigned Depth = 0;
  int Axis = 0; // 0, 1, 2 for x, y, z
  unsigned Block = 1;
  enum { Span, All, Split } Kind = Span;
  unsigned N = 1;
  LevelInfo Bounds; // an inner span level's; the outermost uses Levels[0]
};

enum class ReduceOp { Add, Mul, Min, Max, And, Or, Xor, LAnd, LOr };

struct ReductionInfo {
  unsigned Param = 0;
  ReduceOp Op = ReduceOp::Add;
};

struct BufferInfo {
  std::size_t ElementBytes = 0;
  std::unique_ptr<BoundExpr> Extent; // elements per thread
};
/// Split(k) of depth 1: a second kernel combines the blocks' partials.
struct CombineInfo {
  std::string Name; // empty: no combining kernel
  unsigned Block = 256;
  std::vector<std::size_t> PartialBytes; // per split reduction
};

/// Block sizes the runtime may try along one axis instead of the mapped
/// one; empty when the kernel is not tunable.
struct TuneInfo {
  int Axis = 0;
  std::vector<unsigned> Blocks;
};
/// Mappings of one loop for different sizes: the scenarios the plugin
/// mapped the nest for; the launch takes the nearest one's mapping.
struct ChoiceInfo {
  std::vector<std::unique_ptr<BoundExpr>> Vary;
  struct Scenario {
    unsigned Mapping = 0;
    std::vector<std::int64_t> Values; // one per Vary
  };
  std::vector<Scenario> Scenarios;
};

struct KernelInfo {
  std::string Name;
  std::string Location;
  std::vector<ParamInfo> Params;
  std::vector<LevelInfo> Levels;
  std::vector<DimensionInfo> Dimensions;
  std::vector<ReductionInfo> Reductions;
  std::vector<BufferInfo> Buffers;
  CombineInfo Combine;
  TuneInfo Tune;
  ChoiceInfo Choice;
  /// Where this kernel's text is in the source; the whole when Length is 0.
  std::size_t TextOffset = 0, TextLength = 0;
};

/// Parses a descriptor; on malformed text returns false and sets Error.
bool parseDescriptor(const char *Text, KernelInfo &Out, std::string &Error);

/// Parses a descriptor with its alternatives (Out[0] the first kernel, which
/// holds the choice among them), checking that the scenarios name existing
/// mappings and the texts lie within SourceLength bytes.
bool parseDescriptors(const char *Text, std::size_t SourceLength,
                      std::vector<KernelInfo> &Out, std::string &Error);

/// Evaluates a bound from the launch arguments. False (and Error) when an
/// argument is missing or of the wrong kind, or on division by zero.
bool evaluateBound(const BoundExpr &E, const KernelInfo &K,
                   const detail::LaunchArg *Args, std::size_t NumArgs,
                   std::int64_t &Value, std::string &Error);

/// Number of iterations of a level: 0 when the range is empty.
bool evaluateTripCount(const LevelInfo &L, const KernelInfo &K,
                       const detail::LaunchArg *Args, std::size_t NumArgs,
                       std::int64_t &Lower, std::int64_t &Count,
                       std::string &Error);

std::size_t sizeOf(ScalarType T);

/// Calls F with a value-initialized object of the C++ type that T names, to
/// dispatch on it. False for Bytes, which names no such type.
template <class Fn> bool withScalarType(ScalarType T, Fn &&F) {
  switch (T) {
  case ScalarType::Bool:
    F(bool{});
    return true;
  case ScalarType::I8:
    F(std::int8_t{});
    return true;
  case ScalarType::U8:
    F(std::uint8_t{});
    return true;
  case ScalarType::I16:
    F(std::int16_t{});
    return true;
  case ScalarType::U16:
    F(std::uint16_t{});
    return true;
  case ScalarType::I32:
    F(std::int32_t{});
    return true;
  case ScalarType::U32:
    F(std::uint32_t{});
    return true;
  case ScalarType::I64:
    F(std::int64_t{});
    return true;
  case ScalarType::U64:
    F(std::uint64_t{});
    return true;
  case ScalarType::F32:
    F(float{});
    return true;
  case ScalarType::F64:
    F(double{});
    return true;
  case ScalarType::Bytes:
    return false;
  }
  return false;
}

} // namespace weft::rt

#endif
