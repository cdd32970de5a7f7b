// Kernel.h: the runtime's names for the contract's types (the descriptor
// the plugin embeds beside each kernel; contract/Descriptor.h), and a
// dispatch on a parameter's scalar type.
#ifndef WEFT_RUNTIME_CORE_KERNEL_H
#define WEFT_RUNTIME_CORE_KERNEL_H

#include "contract/Descriptor.h"

#include <cstdint>

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
using contract::ReduceKind;
using contract::ReduceOp;
using contract::ReductionInfo;
using contract::ScalarType;
using contract::sizeOf;
using contract::TuneInfo;
using contract::TuneParam;

/// An argmax or argmin key over 64-bit values (device.h's key128): the
/// value's order, then the index, compared as one 128-bit number.
struct Key128 {
  std::uint64_t Order = 0, Index = 0;
  bool operator<(const Key128 &O) const {
    return Order < O.Order || (Order == O.Order && Index < O.Index);
  }
};

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
  case ScalarType::K128:
    F(Key128{});
    return true;
  case ScalarType::Bytes:
    return false;
  }
  return false;
}

} // namespace weft::rt

#endif
