// weft.hpp: what a program that marks loops with `#pragma weft parallel for`
// includes. Without the plugin it changes nothing: the loops run serially.
// C++17, so that programs built as C++17 are weft's too.
#ifndef WEFT_WEFT_HPP
#define WEFT_WEFT_HPP

#if __cplusplus < 201703L
#error "weft.hpp needs C++17 or later (-std=c++17)"
#endif

// C code defines min and max as function-like macros (NPB's npb-C.h, given
// with -include before the plugin includes this header), which break the
// standard headers below: set aside here, restored at the end. The names
// this header declares are spelled so that no macro of a program's
// (N, T, DATA_TYPE...) reaches them: template parameters as the standard
// library's are (_Tp).
#pragma push_macro("min")
#pragma push_macro("max")
#undef min
#undef max

#include "weft/abi.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <type_traits>
#include <utility>
#include <vector>
#if __has_include(<version>)
#include <version>
#endif
#if __cplusplus >= 202002L
// The loops weft is for hold spans; a program that marks them has them.
#include <span>
#endif
#if defined(__cpp_lib_mdspan)
#include <mdspan>
#endif

// A destructor that writes a launch's result back runs in constant
// evaluation too where the language allows (C++20).
#if __cpp_constexpr >= 201907L
#define WEFT_CONSTEXPR_DESTRUCTOR constexpr
#else
#define WEFT_CONSTEXPR_DESTRUCTOR
#endif

#if defined(_OPENMP)
// OpenMP's offload runtime, where the program links it (weak: a program
// built with -fopenmp alone has none, and no data on a device).
extern "C" {
int omp_target_is_present(const void *, int) __attribute__((weak));
int omp_get_default_device(void) __attribute__((weak));
int omp_get_initial_device(void) __attribute__((weak));
// omp_get_thread_num under a name of weft's own, so that no <omp.h>'s
// declaration of it (libgomp's adds an exception specification) conflicts.
int weftOmpThreadNum(void) __asm__("omp_get_thread_num");
}
#endif

namespace weft {
namespace detail {

/// The element nested arrays are made of: float for float[4][4] and for
/// std::array<std::array<float, 4>, 4>. The kernel sees them flattened.
template <class _Tp> struct Innermost { using type = _Tp; };
template <class _Tp, std::size_t _Np>
struct Innermost<_Tp[_Np]> : Innermost<_Tp> {};
template <class _Tp, std::size_t _Np>
struct Innermost<std::array<_Tp, _Np>> : Innermost<_Tp> {};

template <class _Tp>
constexpr LaunchArg elementsOf(_Tp *Data, std::size_t Count) {
  using _Ep = typename Innermost<std::remove_cv_t<_Tp>>::type;
  return {Data, Count * (sizeof(_Tp) / sizeof(_Ep)), sizeof(_Ep)};
}

/// Data a loop may index: one contiguous block that knows its size (a
/// std::span, std::vector, std::array or C array).
template <class _Dp, class = void> struct IsContiguous : std::false_type {};
template <class _Dp>
struct IsContiguous<_Dp,
                    std::void_t<decltype(std::data(std::declval<_Dp &>())),
                                decltype(std::size(std::declval<_Dp &>()))>>
    : std::true_type {};
template <class _Dp>
constexpr bool ContiguousData =
    IsContiguous<std::remove_reference_t<_Dp>>::value;
template <bool Condition> using Requires = std::enable_if_t<Condition, int>;

/// A std::vector (of anything).
template <class _Tp> struct IsVector : std::false_type {};
template <class _Tp, class _Ap>
struct IsVector<std::vector<_Tp, _Ap>> : std::true_type {};

/// Rows held apart: a std::vector of std::vectors, each row its own block.
template <class _Dp, class = void> struct AreRowsApart : std::false_type {};
template <class _Dp>
struct AreRowsApart<_Dp, std::enable_if_t<IsVector<_Dp>::value>>
    : IsVector<typename _Dp::value_type> {};
template <class _Dp>
constexpr bool RowsApart =
    AreRowsApart<std::remove_cv_t<std::remove_reference_t<_Dp>>>::value;

/// What the plugin passes for captured data.
template <class _Dp, Requires<ContiguousData<_Dp> && !RowsApart<_Dp>> = 0>
constexpr LaunchArg dataArg(_Dp &Data) {
  return elementsOf(std::data(Data), static_cast<std::size_t>(std::size(Data)));
}
/// A pointer, with the extent its mark states (`extent(p: n)`).
template <class _Tp, class _Np>
constexpr LaunchArg dataArg(_Tp *Data, _Np Count) {
  if constexpr (std::is_signed_v<_Np>)
    if (Count < 0)
      return elementsOf(Data, 0);
  return elementsOf(Data, static_cast<std::size_t>(Count));
}
/// A pointer without an extent clause: the launch sizes it by the bounds
/// of the loop's subscripts, which its descriptor states.
template <class _Tp> constexpr LaunchArg pointerArg(_Tp *Data) {
  return elementsOf(Data, 0);
}

/// Rows held apart, for a launch: each row's elements, which the launch
/// gathers into one block on the device (row R from rowOffsets's R-th
/// entry) and scatters back.
template <class _Ep> struct RowData {
  std::vector<RowPiece> Pieces;
  std::size_t Elements = 0;
  mutable RowsArg Arg{};
};
template <class _Dp, Requires<RowsApart<_Dp>> = 0> auto dataArg(_Dp &Data) {
  using _Tp =
      std::remove_reference_t<decltype(*std::declval<_Dp &>()[0].data())>;
  using _Ep = typename Innermost<std::remove_cv_t<_Tp>>::type;
  RowData<_Ep> Rows;
  Rows.Pieces.reserve(Data.size());
  for (auto &_Rp : Data) {
    const LaunchArg _Ap = elementsOf(_Rp.data(), _Rp.size());
    Rows.Pieces.push_back({const_cast<void *>(_Ap.Data), _Ap.Count});
    Rows.Elements += _Ap.Count;
  }
  return Rows;
}
template <class _Ep> LaunchArg makeLaunchArg(const RowData<_Ep> &Rows) {
  // The RowsArg lives in the temporary the plugin's call holds until the
  // launch returns.
  Rows.Arg = {Rows.Pieces.data(), Rows.Pieces.size()};
  return {&Rows.Arg, Rows.Elements, sizeof(_Ep)};
}
/// Rows held as pointers (`extent(p: rows, cols)` on a float **): Rows rows
/// of Columns elements each, gathered likewise; the kernel finds element j
/// of row i at i * Columns + j.
template <class _Tp, class _Np, class _Mp>
RowData<typename Innermost<std::remove_cv_t<_Tp>>::type>
dataArg(_Tp *const *Data, _Np Rows, _Mp Columns) {
  RowData<typename Innermost<std::remove_cv_t<_Tp>>::type> Out;
  const std::size_t _Rp = Rows > 0 ? static_cast<std::size_t>(Rows) : 0;
  const std::size_t _Cp = Columns > 0 ? static_cast<std::size_t>(Columns) : 0;
  Out.Pieces.reserve(_Rp);
  for (std::size_t _Ip = 0; _Ip < _Rp; ++_Ip) {
    const LaunchArg _Ap = elementsOf(Data[_Ip], _Cp);
    Out.Pieces.push_back({const_cast<void *>(_Ap.Data), _Ap.Count});
    Out.Elements += _Ap.Count;
  }
  return Out;
}
/// Rows whose pointers a container holds (std::vector<float *>; a float
/// *[N] decays to a float **; `extent(v: rows, cols)`): as a float ** to
/// them.
template <class _Dp, class = void> struct HoldsPointers : std::false_type {};
template <class _Dp>
struct HoldsPointers<_Dp, std::enable_if_t<IsContiguous<_Dp>::value>>
    : std::bool_constant<!std::is_array_v<_Dp> &&
                         std::is_pointer_v<std::remove_reference_t<
                             decltype(*std::data(std::declval<_Dp &>()))>>> {};
template <class _Dp>
constexpr bool PointerContainer =
    HoldsPointers<std::remove_reference_t<_Dp>>::value;
template <class _Dp, class _Np, class _Mp, Requires<PointerContainer<_Dp>> = 0>
auto dataArg(_Dp &Data, _Np Rows, _Mp Columns) {
  return dataArg(std::data(Data), Rows, Columns);
}
/// A float ** as a region holds it (weft::rows): its rows and their length.
template <class _Tp> struct RowPointers {
  _Tp *const *Data;
  std::size_t Rows, Columns;
};
template <class _Tp> auto dataArg(const RowPointers<_Tp> &Rows) {
  return dataArg(Rows.Data, Rows.Rows, Rows.Columns);
}
template <class _Dp> struct IsRowPointers : std::false_type {};
template <class _Tp> struct IsRowPointers<RowPointers<_Tp>> : std::true_type {};
/// What a region gathers and scatters: rows held apart, or as pointers.
template <class _Dp>
constexpr bool HeldApart =
    RowsApart<_Dp> ||
    IsRowPointers<std::remove_cv_t<std::remove_reference_t<_Dp>>>::value;

/// Where each row starts in that block, and the end: Data.size() + 1
/// entries, which the kernel reads (`a[i][j]` is element `rows[i] + j`).
struct RowOffsets {
  std::vector<std::uint64_t> Starts;
};
template <class _Dp, Requires<RowsApart<_Dp>> = 0>
RowOffsets rowOffsets(_Dp &Data) {
  using _Tp =
      std::remove_reference_t<decltype(*std::declval<_Dp &>()[0].data())>;
  using _Ep = typename Innermost<std::remove_cv_t<_Tp>>::type;
  RowOffsets Offsets;
  Offsets.Starts.reserve(Data.size() + 1);
  std::uint64_t At = 0;
  Offsets.Starts.push_back(0);
  for (auto &_Rp : Data) {
    At += _Rp.size() * (sizeof(_Tp) / sizeof(_Ep));
    Offsets.Starts.push_back(At);
  }
  return Offsets;
}
/// Their common length in the same units, or -1 where they differ: rows of
/// one length are one block of rows by columns, which kernels index by an
/// affine subscript (`a[i][j]` is element `i * columns + j`).
template <class _Dp, Requires<RowsApart<_Dp>> = 0>
std::int64_t rowColumns(_Dp &Data) {
  using _Tp =
      std::remove_reference_t<decltype(*std::declval<_Dp &>()[0].data())>;
  using _Ep = typename Innermost<std::remove_cv_t<_Tp>>::type;
  const std::size_t Length = std::empty(Data) ? 0 : std::begin(Data)->size();
  for (auto &_Rp : Data)
    if (_Rp.size() != Length)
      return -1;
  return static_cast<std::int64_t>(Length * (sizeof(_Tp) / sizeof(_Ep)));
}
inline LaunchArg makeLaunchArg(const RowOffsets &Offsets) {
  return {Offsets.Starts.data(), Offsets.Starts.size(), sizeof(std::uint64_t)};
}

#if defined(__cpp_lib_mdspan)
/// A std::mdspan (layout_right): its elements, and its extents one by one.
template <class _Tp, class _Ep, class _Lp, class _Ap>
constexpr LaunchArg dataArg(const std::mdspan<_Tp, _Ep, _Lp, _Ap> &Data) {
  return elementsOf(
      Data.data_handle(),
      static_cast<std::size_t>(Data.mapping().required_span_size()));
}
template <class _Tp, class _Ep, class _Lp, class _Ap>
constexpr typename _Ep::index_type
mdspanExtent(const std::mdspan<_Tp, _Ep, _Lp, _Ap> &Data, std::size_t Rank) {
  return Data.extent(Rank);
}
#endif

/// device.h's key128 on the host: an argmax or argmin key over 64-bit
/// values, the value's order and then the index.
struct Key128 {
  unsigned long long Order, Index;
};

/// reduction(argmax: v, at) (argmin) over the outermost level: the kernel
/// reduces one key per element (device.h's arg_key: 64 bits for values of
/// at most 32, a Key128 for wider ones) into Key, and at the end of the
/// launch's full expression the best key goes into v and at if it beats v
/// as the loop's comparison says (First: `x > v`, ties to the first index).
/// A launch that fails leaves Key empty; the host loop then computes v and
/// at itself.
template <bool Max, bool First, class _Tp, class _Ip> struct ArgKey {
  static constexpr bool Wide = sizeof(_Tp) > 4;
  _Tp &Value;
  _Ip &At;
  std::conditional_t<Wide, Key128, unsigned long long> Key = empty();

  static constexpr auto empty() {
    if constexpr (Wide)
      return Max ? Key128{0ull, 0ull} : Key128{~0ull, ~0ull};
    else
      return Max ? 0ull : ~0ull;
  }

  WEFT_CONSTEXPR_DESTRUCTOR ~ArgKey() {
    _Tp Best;
    unsigned long long Low;
    if constexpr (Wide) {
      if (Key.Order == empty().Order && Key.Index == empty().Index)
        return;
      const unsigned long long Order = Key.Order;
      if constexpr (std::is_floating_point_v<_Tp>)
        Best = __builtin_bit_cast(
            double, (Order >> 63) ? (Order & ~(1ull << 63)) : ~Order);
      else if constexpr (std::is_signed_v<_Tp>)
        Best = static_cast<_Tp>(static_cast<long long>(Order ^ (1ull << 63)));
      else
        Best = static_cast<_Tp>(Order);
      Low = Max == First ? ~Key.Index : Key.Index;
    } else {
      if (Key == empty())
        return;
      const unsigned Order = static_cast<unsigned>(Key >> 32);
      if constexpr (std::is_floating_point_v<_Tp>)
        Best = __builtin_bit_cast(
            float, (Order & 0x80000000u) ? (Order & 0x7fffffffu) : ~Order);
      else if constexpr (std::is_signed_v<_Tp>)
        Best = static_cast<_Tp>(static_cast<int>(Order ^ 0x80000000u));
      else
        Best = static_cast<_Tp>(Order);
      Low = Max == First ? ~static_cast<unsigned>(Key)
                         : static_cast<unsigned>(Key);
    }
    if (Max ? (First ? Value < Best : !(Best < Value))
            : (First ? Best < Value : !(Value < Best))) {
      Value = Best;
      At = static_cast<_Ip>(Low);
    }
  }
};
template <class _Tp, class _Ip>
constexpr ArgKey<true, true, _Tp, _Ip> argmaxFirst(_Tp &_Vp, _Ip &At) {
  return {_Vp, At};
}
template <class _Tp, class _Ip>
constexpr ArgKey<true, false, _Tp, _Ip> argmaxLast(_Tp &_Vp, _Ip &At) {
  return {_Vp, At};
}
template <class _Tp, class _Ip>
constexpr ArgKey<false, true, _Tp, _Ip> argminFirst(_Tp &_Vp, _Ip &At) {
  return {_Vp, At};
}
template <class _Tp, class _Ip>
constexpr ArgKey<false, false, _Tp, _Ip> argminLast(_Tp &_Vp, _Ip &At) {
  return {_Vp, At};
}
template <bool Max, bool First, class _Tp, class _Ip>
constexpr LaunchArg makeLaunchArg(const ArgKey<Max, First, _Tp, _Ip> &_Kp) {
  return {&_Kp.Key, 1, sizeof _Kp.Key};
}

/// A flag the outermost level's iterations set (`changed = 1;`): Key is
/// the loop's reduction of "some iteration set it", and Value gets Stored
/// then, after the loop, as the serial loop would have left it.
template <class _Tp> struct StoredIf {
  _Tp &Value;
  _Tp Stored;
  int Key = 0;
  WEFT_CONSTEXPR_DESTRUCTOR ~StoredIf() {
    if (Key)
      Value = Stored;
  }
};
template <class _Tp>
constexpr StoredIf<_Tp> storedIf(_Tp &_Vp, long long Stored) {
  return {_Vp, static_cast<_Tp>(Stored)};
}
template <class _Tp>
constexpr LaunchArg makeLaunchArg(const StoredIf<_Tp> &_Fp) {
  return {&_Fp.Key, 1, sizeof _Fp.Key};
}

/// What a region keeps resident: what a loop may index, but pointers.
template <class _Dp, class = void> struct IsRegionData : std::false_type {};
template <class _Dp>
struct IsRegionData<_Dp, std::void_t<decltype(dataArg(std::declval<_Dp &>()))>>
    : std::true_type {};
template <class _Dp>
constexpr bool RegionData = IsRegionData<std::remove_reference_t<_Dp>>::value;

/// Whether an object has data_handle() (a std::mdspan).
template <class _Dp, class = void> struct HasDataHandle : std::false_type {};
template <class _Dp>
struct HasDataHandle<_Dp,
                     std::void_t<decltype(std::declval<_Dp &>().data_handle())>>
    : std::true_type {};

/// A copy of a scalar the kernel only reads, for the launch to point at:
/// the program's variable itself never escapes (see the rewrite).
template <class _Tp> constexpr _Tp copyOf(const _Tp &Value) { return Value; }

constexpr LaunchArg makeLaunchArg(const LaunchArg &Data) { return Data; }
template <class _Tp> constexpr LaunchArg makeLaunchArg(const _Tp &Scalar) {
  static_assert(std::is_trivially_copyable_v<_Tp>,
                "weft captures scalars by value");
  return {&Scalar, 1, sizeof(_Tp)};
}

/// The plugin replaces each marked loop by `if (!launch(...)) <loop>`.
/// constexpr so that the loop still runs during constant evaluation.
template <class... Args>
constexpr bool launch(const char *Descriptor, const char *Source,
                      Args &&...Captures) {
  if (__builtin_is_constant_evaluated())
    return false;
  const LaunchArg ArgArray[sizeof...(Args) + 1] = {makeLaunchArg(Captures)...,
                                                   LaunchArg{nullptr, 0, 0}};
  return launchKernel(Descriptor, Source, ArgArray, sizeof...(Args));
}

/// After the host loop a launch returned to: the plugin writes `if
/// (!launch(...)) { <loop> hostLoopEnded(Descriptor); }`.
constexpr void hostLoopEnded(const char *Descriptor) {
  if (!__builtin_is_constant_evaluated())
    hostLoopEnd(Descriptor);
}

/// A loop with `if(condition)`: the plugin writes `if (!launchIf(condition,
/// ...)) <loop>`. When the condition is false the host loop runs, on host
/// data made current first (hostLoop).
template <class... Args>
constexpr bool launchIf(bool Condition, const char *Descriptor,
                        const char *Source, Args &&...Captures) {
  if (__builtin_is_constant_evaluated())
    return false;
  const LaunchArg ArgArray[sizeof...(Args) + 1] = {makeLaunchArg(Captures)...,
                                                   LaunchArg{nullptr, 0, 0}};
  if (Condition)
    return launchKernel(Descriptor, Source, ArgArray, sizeof...(Args));
  hostLoop(Descriptor, Source, ArgArray, sizeof...(Args));
  return false;
}

/// An orphaned worksharing loop's launch by its team's thread 0 (abi.h's
/// teamHold): only where the team's threads agreed on what the launch
/// reads (teamAgreed) and Condition holds (an if clause); elsewhere the
/// host loop's data is made current first, as launchIf's.
template <class... Args>
bool launchAgreed(const char *Site, bool Condition, const char *Descriptor,
                  const char *Source, Args &&...Captures) {
  const LaunchArg ArgArray[sizeof...(Args) + 1] = {makeLaunchArg(Captures)...,
                                                   LaunchArg{nullptr, 0, 0}};
  if (!teamAgreed(Site))
    hostLoopFor(Descriptor, Source, ArgArray, sizeof...(Args),
                "its team's threads hold different values of what it reads");
  else if (Condition)
    return launchKernel(Descriptor, Source, ArgArray, sizeof...(Args));
  else
    hostLoop(Descriptor, Source, ArgArray, sizeof...(Args));
  return false;
}

#if defined(_OPENMP)
/// Whether this thread is its team's first, which launches the team's
/// worksharing loops (abi.h's teamLead).
inline bool teamLeader() { return weftOmpThreadNum() == 0; }
#endif

/// A thread's vote at an orphaned worksharing loop (abi.h's teamVote): a
/// hash of the bytes of each value its launch would read (the plugin
/// passes an address where the object itself must be the same).
template <class... _Ts>
void teamVoteOn(const char *Site, const _Ts &...__values) noexcept {
  unsigned long long __hash = 1469598103934665603ull;
  // (A volatile local is hashed as it reads now.)
  auto __mix = [&__hash](const volatile void *__at, std::size_t __size) {
    const volatile unsigned char *__byte =
        static_cast<const volatile unsigned char *>(__at);
    for (std::size_t __i = 0; __i < __size; ++__i)
      __hash = (__hash ^ __byte[__i]) * 1099511628211ull;
  };
  (__mix(__builtin_addressof(__values), sizeof(__values)), ...);
  teamVote(Site, __hash);
}

/// Where the data a loop names starts, as OpenMP's map clauses name it.
template <class _Dp> const void *openMPAddress(const _Dp &Data) {
  if constexpr (std::is_pointer_v<_Dp>)
    return Data;
  else if constexpr (std::is_array_v<_Dp>)
    return &Data;
  else if constexpr (HasDataHandle<const _Dp>::value)
    return Data.data_handle();
  else if constexpr (IsContiguous<const _Dp>::value)
    return std::data(Data);
  else
    return &Data;
}

/// Whether OpenMP holds none of Data on its default device (what target
/// data directives map there): a launch may then replace a target
/// directive's loop, reading and writing the host's copies as OpenMP's
/// map clauses would have moved them.
template <class... _Dp> bool onHostForOpenMP(const _Dp &...Data) {
#if defined(_OPENMP)
  if (!&omp_target_is_present || !&omp_get_default_device ||
      !&omp_get_initial_device)
    return true;
  // (Where the default device is the host, everything is "present" on it.)
  const int Device = omp_get_default_device();
  if (Device == omp_get_initial_device())
    return true;
  return (... && !omp_target_is_present(openMPAddress(Data), Device));
#else
  return ((void)Data, ...), true;
#endif
}

/// The loop of an OpenMP target directive: the plugin writes `if
/// (!launchOpenMPTarget(onHostForOpenMP(data...), condition, ...))
/// <directive>`. Where OpenMP holds some of its data on a device, or its
/// if clause is false, the directive runs (OpenMP's offload, or the host).
template <class... Args>
constexpr bool launchOpenMPTarget(bool OnHost, bool Condition,
                                  const char *Descriptor, const char *Source,
                                  Args &&...Captures) {
  if (__builtin_is_constant_evaluated())
    return false;
  const LaunchArg ArgArray[sizeof...(Args) + 1] = {makeLaunchArg(Captures)...,
                                                   LaunchArg{nullptr, 0, 0}};
  if (OnHost && Condition)
    return launchKernel(Descriptor, Source, ArgArray, sizeof...(Args));
  hostLoopFor(Descriptor, Source, ArgArray, sizeof...(Args),
              OnHost ? "its if clause was false"
                     : "OpenMP holds its data on a device");
  return false;
}

} // namespace detail

/// A block of a row-major matrix: Rows rows of Columns elements, Pitch
/// elements from one row's start to the next. weft::region's update_host
/// and update_device copy it without the rest of its rows (one 2-D copy).
template <class _Tp> struct submatrix_view {
  _Tp *First;
  std::size_t Rows, Columns, Pitch;
};

namespace detail {
/// Size elements from First, a row-major matrix of Pitch elements a row:
/// the block of Rows x Columns from (Row, Column).
template <class _Tp>
submatrix_view<_Tp> blockOf(_Tp *First, std::size_t Size, std::size_t Pitch,
                            std::size_t Row, std::size_t Column,
                            std::size_t Rows, std::size_t Columns) {
  if (Rows && Columns &&
      (Column + Columns > Pitch ||
       (Row + Rows - 1) * Pitch + Column + Columns > Size)) {
    std::fprintf(stderr,
                 "weft::submatrix: %zu x %zu elements from (%zu, %zu) with "
                 "%zu a row are not inside the %zu elements given\n",
                 Rows, Columns, Row, Column, Pitch, Size);
    std::abort();
  }
  return {First + Row * Pitch + Column, Rows, Columns, Pitch};
}
} // namespace detail

/// The block of Data (a row-major matrix of Pitch elements a row: a
/// std::span, std::vector, std::array or C array) with Rows x Columns
/// elements from (Row, Column). A block outside Data stops the program.
///
///   R.update_host(weft::submatrix(A, N, Offset, Offset, 32, 32));
template <class _Dp, detail::Requires<detail::ContiguousData<_Dp>> = 0>
auto submatrix(_Dp &&Data, std::size_t Pitch, std::size_t Row,
               std::size_t Column, std::size_t Rows, std::size_t Columns) {
  return detail::blockOf(std::data(Data),
                         static_cast<std::size_t>(std::size(Data)), Pitch, Row,
                         Column, Rows, Columns);
}

namespace detail {
/// A row of a 2-D array of scalars (E[M], std::array<E, M>): its element
/// and its length, the matrix's pitch.
template <class Row> struct MatrixRow { static constexpr bool Is = false; };
template <class _Ep, std::size_t _Mp> struct MatrixRow<_Ep[_Mp]> {
  static constexpr bool Is = std::is_scalar_v<_Ep>;
  using Element = _Ep;
  static constexpr std::size_t Columns = _Mp;
};
template <class _Ep, std::size_t _Mp> struct MatrixRow<std::array<_Ep, _Mp>> {
  static constexpr bool Is = std::is_scalar_v<_Ep>;
  using Element = _Ep;
  static constexpr std::size_t Columns = _Mp;
};
template <class _Dp>
using RowOf = std::remove_pointer_t<decltype(std::data(std::declval<_Dp &>()))>;
template <class _Dp, class = void> struct RowsOfScalars : std::false_type {};
template <class _Dp>
struct RowsOfScalars<_Dp, std::enable_if_t<IsContiguous<_Dp>::value>>
    : std::bool_constant<MatrixRow<std::remove_cv_t<RowOf<_Dp>>>::Is> {};
} // namespace detail

/// The same for a 2-D array, its rows' length the pitch: float A[64][64],
/// std::array<std::array<float, 64>, 64>, std::vector<std::array<float,
/// 64>>.
///
///   R.update_device(weft::submatrix(Grid, 8, 0, 16, 64));
template <class _Dp, detail::Requires<detail::RowsOfScalars<
                         std::remove_reference_t<_Dp>>::value> = 0>
auto submatrix(_Dp &&Data, std::size_t Row, std::size_t Column,
               std::size_t Rows, std::size_t Columns) {
  using RowType = detail::RowOf<std::remove_reference_t<_Dp>>;
  using Shape = detail::MatrixRow<std::remove_cv_t<RowType>>;
  using _Ep = std::conditional_t<std::is_const_v<RowType>,
                                 const typename Shape::Element,
                                 typename Shape::Element>;
  return detail::blockOf(reinterpret_cast<_Ep *>(std::data(Data)),
                         static_cast<std::size_t>(std::size(Data)) *
                             Shape::Columns,
                         Shape::Columns, Row, Column, Rows, Columns);
}

#if defined(__cpp_lib_mdspan)
/// And for a std::mdspan of rank 2 (layout_right), extent(1) the pitch.
template <class _Tp, class _Ep, class _Ap,
          detail::Requires<_Ep::rank() == 2> = 0>
auto submatrix(const std::mdspan<_Tp, _Ep, std::layout_right, _Ap> &Data,
               std::size_t Row, std::size_t Column, std::size_t Rows,
               std::size_t Columns) {
  return detail::blockOf(
      Data.data_handle(),
      static_cast<std::size_t>(Data.mapping().required_span_size()),
      static_cast<std::size_t>(Data.extent(1)), Row, Column, Rows, Columns);
}
#endif

/// A matrix held as pointers to its rows (float **, each row allocated on
/// its own), Rows rows of Columns elements, for a region to keep on the
/// device as the loops marked extent(w: rows, cols) index it:
///
///   weft::region R(weft::rows(W, N, M));
template <class _Tp, class _Np, class _Mp>
detail::RowPointers<_Tp> rows(_Tp *const *Data, _Np Rows, _Mp Columns) {
  return {Data, Rows > 0 ? static_cast<std::size_t>(Rows) : 0,
          Columns > 0 ? static_cast<std::size_t>(Columns) : 0};
}

/// Keeps data resident on the device while it lives: marked loops in its
/// scope use the device copies, without copying them in or out. Host code in
/// between sees the host copies: update_host and update_device move data
/// when it must. Leaving the scope copies everything back. Without a GPU (or
/// without the plugin) it does nothing. It takes what a loop may index:
/// std::span, std::vector (also of std::vectors), std::array and C arrays
/// (for a pointer p to n elements, std::span(p, n); for a float ** of
/// rows, weft::rows(p, rows, cols)).
///
///   weft::region R(grid, next);
///   for (int t = 0; t < steps; ++t) { stencil(grid, next); std::swap(...); }
class region {
public:
  template <class... Ds> explicit region(Ds &&...Data) {
    static_assert((detail::RegionData<Ds> && ...),
                  "weft::region takes std::span, std::vector, std::array, C "
                  "arrays, std::mdspan and std::vectors of std::vectors; for "
                  "a pointer p to n elements, pass std::span(p, n), and for "
                  "rows held as pointers, weft::rows(p, rows, cols)");
    if constexpr ((detail::RegionData<Ds> && ...)) {
      const detail::ResidentRange Ranges[sizeof...(Ds) + 1] = {
          range(Data)..., detail::ResidentRange{nullptr, 0}};
      if (&detail::regionEnter) // null without the runtime (abi.h)
        Handle = detail::regionEnter(Ranges, sizeof...(Ds));
      (enterRows(Data), ...);
    }
  }
  ~region() {
    if (Handle)
      detail::regionExit(Handle);
  }
  region(const region &) = delete;
  region &operator=(const region &) = delete;

  /// Copies Data (all of a resident range, or part of one: a subspan) to
  /// the device, or back to the host.
  template <class _Dp, detail::Requires<detail::RegionData<_Dp>> = 0>
  void update_device(_Dp &&Data) {
    if constexpr (detail::HeldApart<_Dp>)
      updateRows(Data, true);
    else
      update(range(Data), true);
  }
  template <class _Dp, detail::Requires<detail::RegionData<_Dp>> = 0>
  void update_host(_Dp &&Data) {
    if constexpr (detail::HeldApart<_Dp>)
      updateRows(Data, false);
    else
      update(range(Data), false);
  }
  /// A block of a matrix (weft::submatrix): its rows' other elements stay
  /// as they are on the other side.
  template <class _Tp> void update_device(const submatrix_view<_Tp> &Block) {
    update(Block, true);
  }
  template <class _Tp> void update_host(const submatrix_view<_Tp> &Block) {
    update(Block, false);
  }

private:
  template <class _Dp> static detail::ResidentRange range(_Dp &Data) {
    if constexpr (detail::HeldApart<_Dp>) {
      return {nullptr, 0}; // enterRows
    } else {
      const detail::LaunchArg _Ap = detail::dataArg(Data);
      return {const_cast<void *>(_Ap.Data), _Ap.Count * _Ap.ElementSize};
    }
  }
  /// Rows held apart: gathered into one device block for the region.
  template <class _Dp> void enterRows(_Dp &Data) {
    if constexpr (detail::HeldApart<_Dp>) {
      if (!Handle || !&detail::regionEnterRowsApart)
        return;
      const auto Rows = detail::dataArg(Data);
      const detail::LaunchArg _Ap = detail::makeLaunchArg(Rows);
      detail::regionEnterRowsApart(
          Handle, static_cast<const detail::RowsArg *>(_Ap.Data),
          _Ap.ElementSize);
    }
  }
  template <class _Dp> void updateRows(_Dp &Data, bool ToDevice) {
    if (!Handle || !&detail::regionUpdateRowsApart)
      return;
    const auto Rows = detail::dataArg(Data);
    const detail::LaunchArg _Ap = detail::makeLaunchArg(Rows);
    detail::regionUpdateRowsApart(
        Handle, static_cast<const detail::RowsArg *>(_Ap.Data), _Ap.ElementSize,
        ToDevice);
  }
  void update(detail::ResidentRange _Rp, bool ToDevice) {
    if (Handle)
      detail::regionUpdate(Handle, _Rp.Data, _Rp.Bytes, ToDevice);
  }
  template <class _Tp>
  void update(const submatrix_view<_Tp> &Block, bool ToDevice) {
    if (Handle && &detail::regionUpdateRows)
      detail::regionUpdateRows(Handle, Block.First, Block.Columns * sizeof(_Tp),
                               Block.Rows, Block.Pitch * sizeof(_Tp), ToDevice);
  }

private:
  void *Handle = nullptr;
};

/// Waits until the marked loops launched so far have finished on the
/// device. Inside a region a launch whose data is all resident returns as
/// soon as its kernel is enqueued; what the host reads (a region's end,
/// update_host, a reduction's value) waits by itself. Useful before timing
/// a region's loops with a host clock; a no-op without a GPU.
inline void synchronize() {
  if (&detail::synchronizeLaunches)
    detail::synchronizeLaunches();
}

/// The device address of Data (a span a region keeps resident, or part of
/// one: a halo row) for a library that reads and writes device memory
/// itself, such as a CUDA-aware MPI. The launches in flight finish first,
/// the device copy is made current, and it counts as written (the region's
/// end and update_host bring it back). Null where no region keeps Data on
/// a device (no region, no GPU, no runtime): pass the host's address then.
///
///   weft::region R(grid);
///   void *Halo = weft::device_data(std::span(grid).subspan(0, n));
///   MPI_Recv(Halo ? Halo : grid.data(), n, MPI_DOUBLE, ...);
template <class _Dp,
          detail::Requires<detail::RegionData<_Dp> && !detail::HeldApart<_Dp>> = 0>
void *device_data(_Dp &&Data) {
  if (!&detail::regionDeviceData)
    return nullptr;
  const detail::LaunchArg _Ap = detail::dataArg(Data);
  return detail::regionDeviceData(_Ap.Data, _Ap.Count * _Ap.ElementSize);
}

} // namespace weft

#undef WEFT_CONSTEXPR_DESTRUCTOR

#pragma pop_macro("max")
#pragma pop_macro("min")

#endif // WEFT_WEFT_HPP
