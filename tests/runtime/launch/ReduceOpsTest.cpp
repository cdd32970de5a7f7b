// ReduceOpsTest.cpp: every expansion of contract/ReduceOps.def agrees with
// the others: the descriptor's words and the clauses' spellings read back,
// device.h's enumerators are the enum's positions, and device.h's combine
// and identity (compiled here as the simulator compiles them) give what the
// host combine gives, for every operator and every type it takes.
#include "launch/HostCombine.h"
#include "weft/device.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <type_traits>

using namespace weft::rt;

namespace {

TEST(ReduceOps, WordsSpellingsAndDeviceNamesAreEachOnesOwn) {
  std::set<std::string> Words, Clauses, Devices;
  for (ReduceOp Op : weft::contract::AllReduceOps) {
    EXPECT_EQ(weft::contract::parseReduceWord(weft::contract::reduceWord(Op)),
              Op);
    EXPECT_EQ(
        weft::contract::parseReduceClause(weft::contract::reduceClause(Op)),
        Op);
    Words.insert(weft::contract::reduceWord(Op));
    Clauses.insert(weft::contract::reduceClause(Op));
    Devices.insert(weft::contract::reduceDeviceName(Op));
  }
  const std::size_t N = std::size(weft::contract::AllReduceOps);
  EXPECT_EQ(Words.size(), N);
  EXPECT_EQ(Clauses.size(), N);
  EXPECT_EQ(Devices.size(), N);
  EXPECT_FALSE(weft::contract::parseReduceClause("argmax"));
}

// device.h's enumerators, as the kernels name them, are the enum's values.
#define WEFT_REDUCE_OP(Name, Device, Word, Clause, Identity, Kind, Combine)    \
  static_assert(weft::Device == static_cast<int>(ReduceOp::Name),              \
                #Device " is not ReduceOp::" #Name);
#include "contract/ReduceOps.def"

template <class T> std::vector<T> samples() {
  if constexpr (std::is_same_v<T, bool>)
    return {false, true};
  else if constexpr (std::is_floating_point_v<T>)
    return {T(0), T(1.5), T(-2.25), T(3), T(-0.0), T(1e3)};
  else if constexpr (std::is_signed_v<T>)
    return {T(0), T(1), T(-1), T(5), T(-7), T(100)};
  else
    return {T(0), T(1), T(5), T(100), T(~T(0))};
}

bool same(double A, double B) { return A == B; }

/// device.h's combine<DeviceOp> of every pair of samples is the host's, and
/// device.h's identity changes no sample (a logical operator gives the
/// sample's truth).
template <int DeviceOp, ReduceKind Kind> void checkOperator(ReduceOp Op) {
  ASSERT_EQ(weft::contract::reduceKind(Op), Kind);
  unsigned Checked = 0;
  for (ScalarType Type :
       {ScalarType::Bool, ScalarType::I8, ScalarType::U8, ScalarType::I16,
        ScalarType::U16, ScalarType::I32, ScalarType::U32, ScalarType::I64,
        ScalarType::U64, ScalarType::F32, ScalarType::F64}) {
    withScalarType(Type, [&](auto Zero) {
      using T = decltype(Zero);
      // withScalarType names k128 too: argmax keys have tests of their own.
      if constexpr (std::is_arithmetic_v<T> &&
                    (Kind != ReduceKind::Bitwise ||
                     !std::is_floating_point_v<T>)) {
        const T Identity = weft::identity<DeviceOp, T>();
        for (T A : samples<T>()) {
          const T Alone = Kind == ReduceKind::Logical ? T(A != T(0)) : A;
          EXPECT_TRUE(same(weft::combine<DeviceOp, T>(Identity, A), Alone))
              << weft::contract::reduceWord(Op) << " identity";
          for (T B : samples<T>()) {
            T Host = A;
            std::string Error;
            ASSERT_TRUE(combineIntoTarget(Op, Type, &B, 1, &Host, Error))
                << weft::contract::reduceWord(Op) << ": " << Error;
            EXPECT_TRUE(same(Host, weft::combine<DeviceOp, T>(A, B)))
                << weft::contract::reduceWord(Op) << " of "
                << weft::contract::typeWord(Type);
            ++Checked;
          }
        }
      }
    });
  }
  EXPECT_GT(Checked, 0u) << weft::contract::reduceWord(Op);
}

TEST(ReduceOps, DeviceAndHostCombineAlike) {
#define WEFT_REDUCE_OP(Name, Device, Word, Clause, Identity, Kind, Combine)    \
  checkOperator<weft::Device, ReduceKind::Kind>(ReduceOp::Name);
#include "contract/ReduceOps.def"
}

TEST(ReduceOps, HostRefusesBitsOfFloats) {
  const float Partial = 1;
  float Target = 2;
  std::string Error;
  for (ReduceOp Op : weft::contract::AllReduceOps)
    EXPECT_EQ(combineIntoTarget(Op, ScalarType::F32, &Partial, 1, &Target,
                                Error),
              weft::contract::reduceKind(Op) != ReduceKind::Bitwise)
        << weft::contract::reduceWord(Op);
}

} // namespace
