// weft.hpp: what a program that marks loops with `#pragma weft parallel for`
// includes. Without the plugin it changes nothing: the loops run serially.
// C++17, so that programs built as C++17 are weft's too.
#ifndef WEFT_WEFT_HPP
#define WEFT_WEFT_HPP

#if __cplusplus < 201703L
#error "weft.hpp needs C++17 or later (-std=c++17)"
#endif

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
}
#endif

namespace weft {
namespace detail {

/// The element nested arrays are made of: float for float[4][4] and for
/// std::array<std::array<float, 4>, 4>. The kernel sees them flattened.
template <class T> struct Innermost { using type = T; };
template <class T, std::size_t N> struct Innermost<T[N]> : Innermost<T> {};
template <class T, std::size_t N>
struct Innermost<std::array<T, N>> : Innermost<T> {};

template <class T> constexpr LaunchArg elementsOf(T *Data, std::size_t Count) {
  using E = typename Innermost<std::remove_cv_t<T>>::type;
  return {Data, Count * (sizeof(T) / sizeof(E)), sizeof(E)};
}

/// Data a loop may index: one contiguous block that knows its size (a
/// std::span, std::vector, std::array or C array).
template <class D, class = void> struct IsContiguous : std::false_type {};
template <class D>
struct IsContiguous<D, std::void_t<decltype(std::data(std::declval<D &>())),
                                   decltype(std::size(std::declval<D &>()))>>
    : std::true_type {};
template <class D>
constexpr bool ContiguousData = IsContiguous<std::remove_reference_t<D>>::value;
template <bool Condition> using Requires = std::enable_if_t<Condition, int>;

/// A std::vector (of anything).
template <class T> struct IsVector : std::false_type {};
template <class T, class A>
struct IsVector<std::vector<T, A>> : std::true_type {};

/// Rows held apart: a std::vector of std::vectors, each row its own block.
template <class D, class = void> struct AreRowsApart : std::false_type {};
template <class D>
struct AreRowsApart<D, std::enable_if_t<IsVector<D>::value>>
    : IsVector<typename D::value_type> {};
template <class D>
constexpr bool RowsApart =
    AreRowsApart<std::remove_cv_t<std::remove_reference_t<D>>>::value;

/// What the plugin passes for captured data.
template <class D, Requires<ContiguousData<D> && !RowsApart<D>> = 0>
constexpr LaunchArg dataArg(D &Data) {
  return elementsOf(std::data(Data), static_cast<std::size_t>(std::size(Data)));
}
/// A pointer, with the extent its mark states (`extent(p: n)`).
template <class T, class N> constexpr LaunchArg dataArg(T *Data, N Count) {
  if constexpr (std::is_signed_v<N>)
    if (Count < 0)
      return elementsOf(Data, 0);
  return elementsOf(Data, static_cast<std::size_t>(Count));
}
/// A pointer without an extent clause: the launch sizes it by the bounds
/// of the loop's subscripts, which its descriptor states.
template <class T> constexpr LaunchArg pointerArg(T *Data) {
  return elementsOf(Data, 0);
}

/// Rows held apart, for a launch: each row's elements, which the launch
/// gathers into one block on the device (row R from rowOffsets's R-th
/// entry) and scatters back.
template <class E> struct RowData {
  std::vector<RowPiece> Pieces;
  std::size_t Elements = 0;
  mutable RowsArg Arg{};
};
template <class D, Requires<RowsApart<D>> = 0> auto dataArg(D &Data) {
  using T = std::remove_reference_t<decltype(*std::declval<D &>()[0].data())>;
  using E = typename Innermost<std::remove_cv_t<T>>::type;
  RowData<E> Rows;
  Rows.Pieces.reserve(Data.size());
  for (auto &R : Data) {
    const LaunchArg A = elementsOf(R.data(), R.size());
    Rows.Pieces.push_back({const_cast<void *>(A.Data), A.Count});
    Rows.Elements += A.Count;
  }
  return Rows;
}
template <class E> LaunchArg makeLaunchArg(const RowData<E> &Rows) {
  // The RowsArg lives in the temporary the plugin's call holds until the
  // launch returns.
  Rows.Arg = {Rows.Pieces.data(), Rows.Pieces.size()};
  return {&Rows.Arg, Rows.Elements, sizeof(E)};
}
/// Rows held as pointers (`extent(p: rows, cols)` on a float **): Rows rows
/// of Columns elements each, gathered likewise; the kernel finds element j
/// of row i at i * Columns + j.
template <class T, class N, class M>
RowData<typename Innermost<std::remove_cv_t<T>>::type>
dataArg(T *const *Data, N Rows, M Columns) {
  RowData<typename Innermost<std::remove_cv_t<T>>::type> Out;
  const std::size_t R = Rows > 0 ? static_cast<std::size_t>(Rows) : 0;
  const std::size_t C = Columns > 0 ? static_cast<std::size_t>(Columns) : 0;
  Out.Pieces.reserve(R);
  for (std::size_t I = 0; I < R; ++I) {
    const LaunchArg A = elementsOf(Data[I], C);
    Out.Pieces.push_back({const_cast<void *>(A.Data), A.Count});
    Out.Elements += A.Count;
  }
  return Out;
}
/// Rows whose pointers a container holds (std::vector<float *>; a float
/// *[N] decays to a float **; `extent(v: rows, cols)`): as a float ** to
/// them.
template <class D, class = void> struct HoldsPointers : std::false_type {};
template <class D>
struct HoldsPointers<D, std::enable_if_t<IsContiguous<D>::value>>
    : std::bool_constant<!std::is_array_v<D> &&
                         std::is_pointer_v<std::remove_reference_t<
                             decltype(*std::data(std::declval<D &>()))>>> {};
template <class D>
constexpr bool PointerContainer =
    HoldsPointers<std::remove_reference_t<D>>::value;
template <class D, class N, class M, Requires<PointerContainer<D>> = 0>
auto dataArg(D &Data, N Rows, M Columns) {
  return dataArg(std::data(Data), Rows, Columns);
}
/// A float ** as a region holds it (weft::rows): its rows and their length.
template <class T> struct RowPointers {
  T *const *Data;
  std::size_t Rows, Columns;
};
template <class T> auto dataArg(const RowPointers<T> &Rows) {
  return dataArg(Rows.Data, Rows.Rows, Rows.Columns);
}
template <class D> struct IsRowPointers : std::false_type {};
template <class T> struct IsRowPointers<RowPointers<T>> : std::true_type {};
/// What a region gathers and scatters: rows held apart, or as pointers.
template <class D>
constexpr bool HeldApart =
    RowsApart<D> ||
    IsRowPointers<std::remove_cv_t<std::remove_reference_t<D>>>::value;

/// Where each row starts in that block, and the end: Data.size() + 1
/// entries, which the kernel reads (`a[i][j]` is element `rows[i] + j`).
struct RowOffsets {
  std::vector<std::uint64_t> Starts;
};
template <class D, Requires<RowsApart<D>> = 0> RowOffsets rowOffsets(D &Data) {
  using T = std::remove_reference_t<decltype(*std::declval<D &>()[0].data())>;
  using E = typename Innermost<std::remove_cv_t<T>>::type;
  RowOffsets Offsets;
  Offsets.Starts.reserve(Data.size() + 1);
  std::uint64_t At = 0;
  Offsets.Starts.push_back(0);
  for (auto &R : Data) {
    At += R.size() * (sizeof(T) / sizeof(E));
    Offsets.Starts.push_back(At);
  }
  return Offsets;
}
/// Their common length in the same units, or -1 where they differ: rows of
/// one length are one block of rows by columns, which kernels index by an
/// affine subscript (`a[i][j]` is element `i * columns + j`).
template <class D, Requires<RowsApart<D>> = 0>
std::int64_t rowColumns(D &Data) {
  using T = std::remove_reference_t<decltype(*std::declval<D &>()[0].data())>;
  using E = typename Innermost<std::remove_cv_t<T>>::type;
  const std::size_t Length = std::empty(Data) ? 0 : std::begin(Data)->size();
  for (auto &R : Data)
    if (R.size() != Length)
      return -1;
  return static_cast<std::int64_t>(Length * (sizeof(T) / sizeof(E)));
}
inline LaunchArg makeLaunchArg(const RowOffsets &Offsets) {
  return {Offsets.Starts.data(), Offsets.Starts.size(), sizeof(std::uint64_t)};
}

#if defined(__cpp_lib_mdspan)
/// A std::mdspan (layout_right): its elements, and its extents one by one.
template <class T, class E, class L, class A>
constexpr LaunchArg dataArg(const std::mdspan<T, E, L, A> &Data) {
  return elementsOf(
      Data.data_handle(),
      static_cast<std::size_t>(Data.mapping().required_span_size()));
}
template <class T, class E, class L, class A>
constexpr typename E::index_type
mdspanExtent(const std::mdspan<T, E, L, A> &Data, std::size_t Rank) {
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
template <bool Max, bool First, class T, class I> struct ArgKey {
  static constexpr bool Wide = sizeof(T) > 4;
  T &Value;
  I &At;
  std::conditional_t<Wide, Key128, unsigned long long> Key = empty();

  static constexpr auto empty() {
    if constexpr (Wide)
      return Max ? Key128{0ull, 0ull} : Key128{~0ull, ~0ull};
    else
      return Max ? 0ull : ~0ull;
  }

  WEFT_CONSTEXPR_DESTRUCTOR ~ArgKey() {
    T Best;
    unsigned long long Low;
    if constexpr (Wide) {
      if (Key.Order == empty().Order && Key.Index == empty().Index)
        return;
      const unsigned long long Order = Key.Order;
      if constexpr (std::is_floating_point_v<T>)
        Best = __builtin_bit_cast(
            double, (Order >> 63) ? (Order & ~(1ull << 63)) : ~Order);
      else if constexpr (std::is_signed_v<T>)
        Best = static_cast<T>(static_cast<long long>(Order ^ (1ull << 63)));
      else
        Best = static_cast<T>(Order);
      Low = Max == First ? ~Key.Index : Key.Index;
    } else {
      if (Key == empty())
        return;
      const unsigned Order = static_cast<unsigned>(Key >> 32);
      if constexpr (std::is_floating_point_v<T>)
        Best = __builtin_bit_cast(
            float, (Order & 0x80000000u) ? (Order & 0x7fffffffu) : ~Order);
      else if constexpr (std::is_signed_v<T>)
        Best = static_cast<T>(static_cast<int>(Order ^ 0x80000000u));
      else
        Best = static_cast<T>(Order);
      Low = Max == First ? ~static_cast<unsigned>(Key)
                         : static_cast<unsigned>(Key);
    }
    if (Max ? (First ? Value < Best : !(Best < Value))
            : (First ? Best < Value : !(Value < Best))) {
      Value = Best;
      At = static_cast<I>(Low);
    }
  }
};
template <class T, class I>
constexpr ArgKey<true, true, T, I> argmaxFirst(T &V, I &At) {
  return {V, At};
}
template <class T, class I>
constexpr ArgKey<true, false, T, I> argmaxLast(T &V, I &At) {
  return {V, At};
}
template <class T, class I>
constexpr ArgKey<false, true, T, I> argminFirst(T &V, I &At) {
  return {V, At};
}
template <class T, class I>
constexpr ArgKey<false, false, T, I> argminLast(T &V, I &At) {
  return {V, At};
}
template <bool Max, bool First, class T, class I>
constexpr LaunchArg makeLaunchArg(const ArgKey<Max, First, T, I> &K) {
  return {&K.Key, 1, sizeof K.Key};
}

/// A flag the outermost level's iterations set (`changed = 1;`): Key is
/// the loop's reduction of "some iteration set it", and Value gets Stored
/// then, after the loop, as the serial loop would have left it.
template <class T> struct StoredIf {
  T &Value;
  T Stored;
  int Key = 0;
  WEFT_CONSTEXPR_DESTRUCTOR ~StoredIf() {
    if (Key)
      Value = Stored;
  }
};
template <class T> constexpr StoredIf<T> storedIf(T &V, long long Stored) {
  return {V, static_cast<T>(Stored)};
}
template <class T> constexpr LaunchArg makeLaunchArg(const StoredIf<T> &F) {
  return {&F.Key, 1, sizeof F.Key};
}

/// What a region keeps resident: what a loop may index, but pointers.
template <class D, class = void> struct IsRegionData : std::false_type {};
template <class D>
struct IsRegionData<D, std::void_t<decltype(dataArg(std::declval<D &>()))>>
    : std::true_type {};
template <class D>
constexpr bool RegionData = IsRegionData<std::remove_reference_t<D>>::value;

/// Whether an object has data_handle() (a std::mdspan).
template <class D, class = void> struct HasDataHandle : std::false_type {};
template <class D>
struct HasDataHandle<D,
                     std::void_t<decltype(std::declval<D &>().data_handle())>>
    : std::true_type {};

/// A copy of a scalar the kernel only reads, for the launch to point at:
/// the program's variable itself never escapes (see the rewrite).
template <class T> constexpr T copyOf(const T &Value) { return Value; }

constexpr LaunchArg makeLaunchArg(const LaunchArg &Data) { return Data; }
template <class T> constexpr LaunchArg makeLaunchArg(const T &Scalar) {
  static_assert(std::is_trivially_copyable_v<T>,
                "weft captures scalars by value");
  return {&Scalar, 1, sizeof(T)};
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

/// Where the data a loop names starts, as OpenMP's map clauses name it.
template <class D> const void *openMPAddress(const D &Data) {
  if constexpr (std::is_pointer_v<D>)
    return Data;
  else if constexpr (std::is_array_v<D>)
    return &Data;
  else if constexpr (HasDataHandle<const D>::value)
    return Data.data_handle();
  else if constexpr (IsContiguous<const D>::value)
    return std::data(Data);
  else
    return &Data;
}

/// Whether OpenMP holds none of Data on its default device (what target
/// data directives map there): a launch may then replace a target
/// directive's loop, reading and writing the host's copies as OpenMP's
/// map clauses would have moved them.
template <class... D> bool onHostForOpenMP(const D &...Data) {
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
template <class T> struct submatrix_view {
  T *First;
  std::size_t Rows, Columns, Pitch;
};

namespace detail {
/// Size elements from First, a row-major matrix of Pitch elements a row:
/// the block of Rows x Columns from (Row, Column).
template <class T>
submatrix_view<T> blockOf(T *First, std::size_t Size, std::size_t Pitch,
                          std::size_t Row, std::size_t Column, std::size_t Rows,
                          std::size_t Columns) {
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
template <class D, detail::Requires<detail::ContiguousData<D>> = 0>
auto submatrix(D &&Data, std::size_t Pitch, std::size_t Row, std::size_t Column,
               std::size_t Rows, std::size_t Columns) {
  return detail::blockOf(std::data(Data),
                         static_cast<std::size_t>(std::size(Data)), Pitch, Row,
                         Column, Rows, Columns);
}

namespace detail {
/// A row of a 2-D array of scalars (E[M], std::array<E, M>): its element
/// and its length, the matrix's pitch.
template <class Row> struct MatrixRow { static constexpr bool Is = false; };
template <class E, std::size_t M> struct MatrixRow<E[M]> {
  static constexpr bool Is = std::is_scalar_v<E>;
  using Element = E;
  static constexpr std::size_t Columns = M;
};
template <class E, std::size_t M> struct MatrixRow<std::array<E, M>> {
  static constexpr bool Is = std::is_scalar_v<E>;
  using Element = E;
  static constexpr std::size_t Columns = M;
};
template <class D>
using RowOf = std::remove_pointer_t<decltype(std::data(std::declval<D &>()))>;
template <class D, class = void> struct RowsOfScalars : std::false_type {};
template <class D>
struct RowsOfScalars<D, std::enable_if_t<IsContiguous<D>::value>>
    : std::bool_constant<MatrixRow<std::remove_cv_t<RowOf<D>>>::Is> {};
} // namespace detail

/// The same for a 2-D array, its rows' length the pitch: float A[64][64],
/// std::array<std::array<float, 64>, 64>, std::vector<std::array<float,
/// 64>>.
///
///   R.update_device(weft::submatrix(Grid, 8, 0, 16, 64));
template <class D, detail::Requires<detail::RowsOfScalars<
                       std::remove_reference_t<D>>::value> = 0>
auto submatrix(D &&Data, std::size_t Row, std::size_t Column, std::size_t Rows,
               std::size_t Columns) {
  using RowType = detail::RowOf<std::remove_reference_t<D>>;
  using Shape = detail::MatrixRow<std::remove_cv_t<RowType>>;
  using E = std::conditional_t<std::is_const_v<RowType>,
                               const typename Shape::Element,
                               typename Shape::Element>;
  return detail::blockOf(reinterpret_cast<E *>(std::data(Data)),
                         static_cast<std::size_t>(std::size(Data)) *
                             Shape::Columns,
                         Shape::Columns, Row, Column, Rows, Columns);
}

#if defined(__cpp_lib_mdspan)
/// And for a std::mdspan of rank 2 (layout_right), extent(1) the pitch.
template <class T, class E, class A, detail::Requires<E::rank() == 2> = 0>
auto submatrix(const std::mdspan<T, E, std::layout_right, A> &Data,
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
template <class T, class N, class M>
detail::RowPointers<T> rows(T *const *Data, N Rows, M Columns) {
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
  template <class D, detail::Requires<detail::RegionData<D>> = 0>
  void update_device(D &&Data) {
    if constexpr (detail::HeldApart<D>)
      updateRows(Data, true);
    else
      update(range(Data), true);
  }
  template <class D, detail::Requires<detail::RegionData<D>> = 0>
  void update_host(D &&Data) {
    if constexpr (detail::HeldApart<D>)
      updateRows(Data, false);
    else
      update(range(Data), false);
  }
  /// A block of a matrix (weft::submatrix): its rows' other elements stay
  /// as they are on the other side.
  template <class T> void update_device(const submatrix_view<T> &Block) {
    update(Block, true);
  }
  template <class T> void update_host(const submatrix_view<T> &Block) {
    update(Block, false);
  }

private:
  template <class D> static detail::ResidentRange range(D &Data) {
    if constexpr (detail::HeldApart<D>) {
      return {nullptr, 0}; // enterRows
    } else {
      const detail::LaunchArg A = detail::dataArg(Data);
      return {const_cast<void *>(A.Data), A.Count * A.ElementSize};
    }
  }
  /// Rows held apart: gathered into one device block for the region.
  template <class D> void enterRows(D &Data) {
    if constexpr (detail::HeldApart<D>) {
      if (!Handle || !&detail::regionEnterRowsApart)
        return;
      const auto Rows = detail::dataArg(Data);
      const detail::LaunchArg A = detail::makeLaunchArg(Rows);
      detail::regionEnterRowsApart(
          Handle, static_cast<const detail::RowsArg *>(A.Data), A.ElementSize);
    }
  }
  template <class D> void updateRows(D &Data, bool ToDevice) {
    if (!Handle || !&detail::regionUpdateRowsApart)
      return;
    const auto Rows = detail::dataArg(Data);
    const detail::LaunchArg A = detail::makeLaunchArg(Rows);
    detail::regionUpdateRowsApart(Handle,
                                  static_cast<const detail::RowsArg *>(A.Data),
                                  A.ElementSize, ToDevice);
  }
  void update(detail::ResidentRange R, bool ToDevice) {
    if (Handle)
      detail::regionUpdate(Handle, R.Data, R.Bytes, ToDevice);
  }
  template <class T>
  void update(const submatrix_view<T> &Block, bool ToDevice) {
    if (Handle && &detail::regionUpdateRows)
      detail::regionUpdateRows(Handle, Block.First, Block.Columns * sizeof(T),
                               Block.Rows, Block.Pitch * sizeof(T), ToDevice);
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

} // namespace weft

#undef WEFT_CONSTEXPR_DESTRUCTOR

#endif // WEFT_WEFT_HPP
