// HostCombine.cpp: reduction combining per operator and type.
#include "launch/HostCombine.h"

#include <cstring>
#include <type_traits>

namespace weft::rt {
namespace {

/// Whether Kind's operators combine values of T: an argmax key only by
/// order, bits only of integers.
template <class T> constexpr bool combines(ReduceKind Kind) {
  if constexpr (std::is_same_v<T, Key128>)
    return Kind == ReduceKind::Order;
  else
    return Kind != ReduceKind::Bitwise || std::is_integral_v<T>;
}

template <class T> bool combine(ReduceOp Op, T &A, T B) {
  switch (Op) {
#define WEFT_REDUCE_OP(Name, Device, Word, Clause, Identity, Kind, Combine)    \
  case ReduceOp::Name:                                                         \
    if constexpr (combines<T>(ReduceKind::Kind)) {                             \
      A = static_cast<T>(Combine);                                             \
      return true;                                                             \
    }                                                                          \
    return false;
#include "contract/ReduceOps.def"
  }
  return false;
}

template <class T>
bool combineAll(ReduceOp Op, const void *Partials, std::size_t Count,
                void *Target) {
  T Total;
  std::memcpy(&Total, Target, sizeof(T));
  if (Count == 0)
    return true;
  T Sum;
  std::memcpy(&Sum, Partials, sizeof(T));
  for (std::size_t I = 1; I < Count; ++I) {
    T Next;
    std::memcpy(&Next, static_cast<const char *>(Partials) + I * sizeof(T),
                sizeof(T));
    if (!combine(Op, Sum, Next))
      return false;
  }
  if (!combine(Op, Total, Sum))
    return false;
  std::memcpy(Target, &Total, sizeof(T));
  return true;
}

} // namespace

bool combineIntoTarget(ReduceOp Op, ScalarType Type, const void *Partials,
                       std::size_t Count, void *Target, std::string &Error) {
  bool Ok = false;
  withScalarType(Type, [&](auto Zero) {
    Ok = combineAll<decltype(Zero)>(Op, Partials, Count, Target);
  });
  if (!Ok)
    Error = "a reduction of this type by this operator cannot be combined";
  return Ok;
}

} // namespace weft::rt
