// Descriptor.h: the runtime's side of the plugin's descriptors
// (contract/Descriptor.h): their types under the runtime's names, and loop
// bounds evaluated from a launch's arguments.
#ifndef WEFT_RUNTIME_CORE_DESCRIPTOR_H
#define WEFT_RUNTIME_CORE_DESCRIPTOR_H

#include "contract/Descriptor.h"

#include "weft/abi.h"

#include <cstdint>
#include <string>

namespace weft::rt {

using contract::BoundExpr;
using contract::BufferInfo;
using contract::ChoiceInfo;
using contract::CombineInfo;
using contract::Degree;
using contract::DimensionInfo;
using contract::KernelInfo;
using contract::LevelInfo;
using contract::ParamInfo;
using contract::ParamKind;
using contract::parseDescriptor;
using contract::parseDescriptors;
using contract::ReduceOp;
using contract::ReductionInfo;
using contract::ScalarType;
using contract::sizeOf;
using contract::TuneInfo;

/// Evaluates a bound from the launch arguments. False (and Error) when an
/// argument is missing or of the wrong kind, on division by zero or on
/// overflow.
bool evaluateBound(const BoundExpr &E, const KernelInfo &K,
                   const detail::LaunchArg *Args, std::size_t NumArgs,
                   std::int64_t &Value, std::string &Error);

/// Number of iterations of a level: 0 when the range is empty.
bool evaluateTripCount(const LevelInfo &L, const KernelInfo &K,
                       const detail::LaunchArg *Args, std::size_t NumArgs,
                       std::int64_t &Lower, std::int64_t &Count,
                       std::string &Error);

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
