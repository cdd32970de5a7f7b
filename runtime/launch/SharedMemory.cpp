// SharedMemory.cpp: overlapping arguments found by sorting their host bytes.
#include "launch/SharedMemory.h"

#include <algorithm>
#include <functional>

namespace weft::rt {
namespace {

/// Copies of P that the kernel or the launch keeps apart from the
/// memory it shares with another parameter.
bool keptApart(const ParamInfo &P) { return P.Kept || P.RowsApart; }

std::string conflict(const KernelInfo &K, unsigned First, unsigned Second) {
  const ParamInfo &A = K.Params[First], &B = K.Params[Second];
  if (First == Second)
    return "the kernel writes '" + A.Name +
           "', and this call passes rows of it that overlap one another";
  // The one written (kept apart too, where it is), the one kept apart.
  const bool AWritten =
      A.writesDevice() && (keptApart(A) || !B.writesDevice() || !keptApart(B));
  const ParamInfo &Written = AWritten ? A : B, &Other = AWritten ? B : A;
  const ParamInfo &Apart = keptApart(Written) ? Written : Other;
  const std::string Whose =
      &Apart == &Written ? std::string("it") : "'" + Apart.Name + "'";
  const std::string Keeps =
      Apart.RowsApart
          ? "gathers " +
                (&Apart == &Written ? std::string("its rows")
                                    : "the rows of " + Whose) +
                " into a copy of their own"
          : "keeps copies of " + Whose + " in shared memory or registers";
  return "the kernel writes '" + Written.Name + "' and " + Keeps +
         ", and this call passes " +
         (&Apart == &Written ? "'" + Other.Name + "' over the same memory"
                             : std::string("them over the same memory"));
}

} // namespace

std::string sharedMemoryConflict(const KernelInfo &K,
                                 const detail::LaunchArg *Args,
                                 std::size_t NumArgs,
                                 std::vector<MemoryPiece> &Pieces) {
  if (NumArgs != K.Params.size())
    return {};
  // Most kernels keep nothing apart, or write nothing: nothing to find.
  bool AnyApart = false, AnyWritten = false;
  for (const ParamInfo &P : K.Params)
    if (P.isSpan()) {
      AnyApart = AnyApart || keptApart(P);
      AnyWritten = AnyWritten || P.writesDevice();
    }
  if (!AnyApart || !AnyWritten)
    return {};
  Pieces.clear();
  for (unsigned I = 0; I < NumArgs; ++I) {
    const ParamInfo &P = K.Params[I];
    if (!P.isSpan() || Args[I].ElementSize != P.Bytes)
      continue;
    auto Add = [&](const void *Data, std::size_t Count) {
      if (!Count)
        return;
      const char *Begin = static_cast<const char *>(Data);
      Pieces.push_back({Begin, Begin + Count * P.Bytes, I});
    };
    if (!P.RowsApart) {
      Add(Args[I].Data, Args[I].Count);
      continue;
    }
    const auto &Rows = *static_cast<const detail::RowsArg *>(Args[I].Data);
    for (std::size_t R = 0; R < Rows.NumRows; ++R)
      Add(Rows.Rows[R].Data, Rows.Rows[R].Count);
  }
  std::sort(Pieces.begin(), Pieces.end(),
            [](const MemoryPiece &L, const MemoryPiece &R) {
              return std::less<const char *>()(L.Begin, R.Begin);
            });
  // Each piece against those before it that it starts inside of: of
  // each kind (any, kept apart, written, both) the one that ends last.
  enum { Any, Apart, Written, WrittenApart, Kinds };
  const MemoryPiece *Last[Kinds] = {};
  auto Inside = [](const MemoryPiece *Earlier, const MemoryPiece &Piece) {
    return Earlier && std::less<const char *>()(Piece.Begin, Earlier->End);
  };
  for (const MemoryPiece &Piece : Pieces) {
    const ParamInfo &P = K.Params[Piece.Param];
    // Written and kept apart: any overlap; written: a copy kept apart;
    // kept apart: a written one; neither: one both written and kept apart.
    const int Against = P.writesDevice()
                            ? (keptApart(P) ? Any : Apart)
                            : (keptApart(P) ? Written : WrittenApart);
    if (Inside(Last[Against], Piece))
      return conflict(K, Last[Against]->Param, Piece.Param);
    auto Keep = [&](int Kind) {
      if (!Last[Kind] || std::less<const char *>()(Last[Kind]->End, Piece.End))
        Last[Kind] = &Piece;
    };
    Keep(Any);
    if (keptApart(P))
      Keep(Apart);
    if (P.writesDevice())
      Keep(Written);
    if (P.writesDevice() && keptApart(P))
      Keep(WrittenApart);
  }
  return {};
}

} // namespace weft::rt
