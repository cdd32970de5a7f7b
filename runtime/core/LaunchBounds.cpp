// LaunchBounds.cpp: loop bounds evaluated from a launch's arguments.
#include "core/LaunchBounds.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

namespace weft::rt {
namespace {

bool readScalar(const ParamInfo &P, const detail::LaunchArg &A,
                std::int64_t &V) {
  bool Integer = false;
  withScalarType(P.Type, [&](auto Zero) {
    using T = decltype(Zero);
    if constexpr (std::is_integral_v<T>) {
      T X;
      std::memcpy(&X, A.Data, sizeof X);
      V = static_cast<std::int64_t>(X);
      Integer = true;
    }
  });
  return Integer;
}

/// E reads the size of a span whose descriptor has an extent line.
bool readsSized(const BoundExpr &E, const KernelInfo &K) {
  if (E.Kind == BoundExpr::Size && E.Value >= 0 &&
      static_cast<std::size_t>(E.Value) < K.Params.size() &&
      K.Params[E.Value].HighestIndex)
    return true;
  return std::any_of(E.Operands.begin(), E.Operands.end(),
                     [&](const BoundExpr &O) { return readsSized(O, K); });
}

} // namespace

bool evaluateBound(const BoundExpr &E, const KernelInfo &K,
                   const detail::LaunchArg *Args, std::size_t NumArgs,
                   std::int64_t &Value, std::string &Error) {
  auto Leaf = [&](const BoundExpr &L, std::int64_t &V, std::string &Err) {
    const std::int64_t I = L.Value;
    if (L.Kind == BoundExpr::Tune) {
      Err = "loop bound refers to a tuning parameter";
      return false;
    }
    if (I < 0 || static_cast<std::size_t>(I) >= NumArgs ||
        static_cast<std::size_t>(I) >= K.Params.size()) {
      Err = "loop bound refers to a missing argument";
      return false;
    }
    const ParamInfo &P = K.Params[I];
    if (L.Kind == BoundExpr::Size) {
      V = static_cast<std::int64_t>(Args[I].Count);
      return true;
    }
    if (P.isSpan() || !readScalar(P, Args[I], V)) {
      Err = "loop bound argument '" + P.Name + "' is not an integer";
      return false;
    }
    return true;
  };
  return contract::evaluateBound(E, Leaf, Value, Error);
}

bool evaluateTripCount(const LevelInfo &L, const KernelInfo &K,
                       const detail::LaunchArg *Args, std::size_t NumArgs,
                       std::int64_t &Lower, std::int64_t &Count,
                       std::string &Error) {
  std::int64_t Upper = 0;
  if (!evaluateBound(L.Lower, K, Args, NumArgs, Lower, Error) ||
      !evaluateBound(L.Upper, K, Args, NumArgs, Upper, Error))
    return false;
  if (L.Inclusive && Upper < INT64_MAX)
    ++Upper;
  if (Upper <= Lower) {
    Count = 0;
    return true;
  }
  // Upper - Lower may not fit a signed 64-bit value.
  const std::uint64_t Span =
      static_cast<std::uint64_t>(Upper) - static_cast<std::uint64_t>(Lower);
  Count = static_cast<std::int64_t>(
      (Span - 1) / static_cast<std::uint64_t>(L.Step) + 1);
  return true;
}

namespace {

/// Lowest and Highest evaluated: false, with Error, where either does not.
bool evaluateRange(const BoundExpr &Lowest, const BoundExpr &Highest,
                   const KernelInfo &K, const detail::LaunchArg *Args,
                   std::size_t NumArgs, std::int64_t &Low, std::int64_t &High,
                   std::string &Error) {
  return evaluateBound(Lowest, K, Args, NumArgs, Low, Error) &&
         evaluateBound(Highest, K, Args, NumArgs, High, Error);
}

/// Parameter I's rows, gathered by the bounds of its subscripts (its
/// argument: the row pointers).
bool gatherRows(const KernelInfo &K, std::size_t I,
                const detail::LaunchArg *Args, std::size_t NumArgs,
                SizedArguments &Sized, std::string &Error) {
  const ParamInfo &P = K.Params[I];
  const ParamInfo::InferredRows &G = *P.Gathered;
  std::int64_t LowRow = 0, HighRow = 0, LowColumn = 0, HighColumn = 0;
  if (!evaluateRange(G.LowestRow, G.HighestRow, K, Args, NumArgs, LowRow,
                     HighRow, Error) ||
      !evaluateRange(G.LowestColumn, G.HighestColumn, K, Args, NumArgs,
                     LowColumn, HighColumn, Error)) {
    Error = "the rows of '" + P.Name + "' from its subscripts: " + Error;
    return false;
  }
  std::vector<detail::RowPiece> &Pieces = Sized.Pieces[I];
  Pieces.clear();
  std::int64_t Length = 0;
  // Bounds that cross: no iteration indexes it.
  if (HighRow >= LowRow && HighColumn >= LowColumn) {
    if (LowRow < 0 || LowColumn < 0) {
      Error = "the rows of '" + P.Name + "' are indexed from (" +
              std::to_string(LowRow) + ", " + std::to_string(LowColumn) +
              ") by the bounds of their subscripts, before where they "
              "start: the launch cannot tell how many elements they hold";
      return false;
    }
    Length = HighColumn + 1;
    auto *const *Rows = static_cast<void *const *>(Args[I].Data);
    if (!Rows) {
      Error = "the rows of '" + P.Name + "' are a null pointer";
      return false;
    }
    Pieces.reserve(static_cast<std::size_t>(HighRow) + 1);
    for (std::int64_t R = 0; R <= HighRow; ++R)
      Pieces.push_back({Rows[R], static_cast<std::size_t>(Length)});
  }
  Sized.Rows[I] = {Pieces.data(), Pieces.size()};
  Sized.Args[I] = {&Sized.Rows[I], Pieces.size() * std::size_t(Length),
                   P.Bytes};
  Sized.Columns[I] = Length;
  Sized.Args[G.Columns] = {&Sized.Columns[I], 1, sizeof(std::int64_t)};
  return true;
}

} // namespace

const detail::LaunchArg *sizedArgs(const KernelInfo &K,
                                   const detail::LaunchArg *Args,
                                   std::size_t NumArgs, SizedArguments &Sized,
                                   std::string &Error) {
  const std::size_t Params = std::min(NumArgs, K.Params.size());
  bool Any = false;
  for (std::size_t I = 0; I < Params; ++I)
    Any = Any || K.Params[I].HighestIndex || K.Params[I].Gathered;
  if (!Any)
    return Args;
  Sized.Args.assign(Args, Args + NumArgs);
  Sized.Pieces.resize(NumArgs);
  Sized.Rows.resize(NumArgs);
  Sized.Columns.resize(NumArgs);
  for (std::size_t I = 0; I < Params; ++I) {
    const ParamInfo &P = K.Params[I];
    if (P.Gathered) {
      if (P.Gathered->Columns >= NumArgs ||
          !gatherRows(K, I, Args, NumArgs, Sized, Error))
        return nullptr;
      continue;
    }
    if (!P.LowestIndex || !P.HighestIndex)
      continue;
    // (A bound reading the size of a pointer sized here would read none.)
    if (readsSized(*P.LowestIndex, K) || readsSized(*P.HighestIndex, K)) {
      Error = "the extent of pointer '" + P.Name +
              "' from its subscripts reads the size of a pointer without one";
      return nullptr;
    }
    std::int64_t Lowest = 0, Highest = 0;
    if (!evaluateRange(*P.LowestIndex, *P.HighestIndex, K, Args, NumArgs,
                       Lowest, Highest, Error)) {
      Error = "the extent of pointer '" + P.Name +
              "' from its subscripts: " + Error;
      return nullptr;
    }
    // Bounds that cross: no iteration indexes it.
    if (Highest < Lowest) {
      Sized.Args[I].Count = 0;
      continue;
    }
    if (Lowest < 0) {
      Error = "pointer '" + P.Name + "' is indexed from " +
              std::to_string(Lowest) +
              " by the bounds of its subscripts, before where it points: the "
              "launch cannot tell how many elements it holds";
      return nullptr;
    }
    Sized.Args[I].Count = static_cast<std::size_t>(Highest) + 1;
  }
  return Sized.Args.data();
}

} // namespace weft::rt
