// HostCombine.cpp: reduction combining per operator and type.
#include "launch/HostCombine.h"

#include <cstring>
#include <type_traits>

namespace weft::rt {
namespace {

template <class T> bool combine(ReduceOp Op, T &A, T B) {
  switch (Op) {
  case ReduceOp::Add:
    A = static_cast<T>(A + B);
    return true;
  case ReduceOp::Mul:
    A = static_cast<T>(A * B);
    return true;
  case ReduceOp::Min:
    A = B < A ? B : A;
    return true;
  case ReduceOp::Max:
    A = A < B ? B : A;
    return true;
  case ReduceOp::LAnd:
    A = static_cast<T>(A && B);
    return true;
  case ReduceOp::LOr:
    A = static_cast<T>(A || B);
    return true;
  case ReduceOp::And:
  case ReduceOp::Or:
  case ReduceOp::Xor:
    if constexpr (std::is_integral_v<T>) {
      A = Op == ReduceOp::And  ? static_cast<T>(A & B)
          : Op == ReduceOp::Or ? static_cast<T>(A | B)
                               : static_cast<T>(A ^ B);
      return true;
    }
    return false;
  }
  return false;
}

/// An argmax or argmin key: only max and min combine it.
bool combine(ReduceOp Op, Key128 &A, Key128 B) {
  if (Op == ReduceOp::Min)
    A = B < A ? B : A;
  else if (Op == ReduceOp::Max)
    A = A < B ? B : A;
  else
    return false;
  return true;
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
