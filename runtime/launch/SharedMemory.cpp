// SharedMemory.cpp: overlapping arguments, found pair by pair, or by sorting
// their host bytes where several parameters' rows may overlap.
#include "launch/SharedMemory.h"

#include <algorithm>
#include <functional>

namespace weft::rt {
namespace {

/// Copies of P that the kernel or the launch keeps apart from the
/// memory it shares with another parameter.
bool copiedApart(const ParamInfo &P) { return P.Kept || P.RowsApart; }

/// Copies of P kept apart, or loops whose proof takes P's memory as its own.
bool keptApart(const ParamInfo &P) { return copiedApart(P) || P.Apart; }

std::string conflict(const KernelInfo &K, unsigned First, unsigned Second) {
  const ParamInfo &A = K.Params[First], &B = K.Params[Second];
  if (First == Second)
    return "the kernel writes '" + A.Name +
           "', and this call passes rows of it that overlap one another";
  // The one written (kept apart too, where it is), the one kept apart.
  const bool AWritten =
      A.writesDevice() && (keptApart(A) || !B.writesDevice() || !keptApart(B));
  const ParamInfo &Written = AWritten ? A : B, &Other = AWritten ? B : A;
  if (!copiedApart(A) && !copiedApart(B))
    return "the kernel writes '" + Written.Name +
           "' in loops the plugin found parallel or reordered taking '" +
           Written.Name + "' and '" + Other.Name +
           "' as two arrays, and this call passes them over the same memory";
  const ParamInfo &Apart = copiedApart(Written) ? Written : Other;
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

bool overlap(const char *Begin, const char *End, const char *OtherBegin,
             const char *OtherEnd) {
  return Begin != End && OtherBegin != OtherEnd &&
         std::less<const char *>()(Begin, OtherEnd) &&
         std::less<const char *>()(OtherBegin, End);
}

/// What sharing the memory of A and B breaks: one of them written, one
/// kept apart.
bool mayConflict(const ParamInfo &A, const ParamInfo &B) {
  return (A.writesDevice() || B.writesDevice()) &&
         (keptApart(A) || keptApart(B));
}

/// Spans against one another, and each against the rows of Rows (-1:
/// none), one pass over them.
std::string pairwiseConflict(const KernelInfo &K, const detail::LaunchArg *Args,
                             std::size_t NumArgs, int Rows) {
  auto Span = [&](unsigned I) {
    return K.Params[I].isSpan() && !K.Params[I].RowsApart &&
           Args[I].ElementSize == K.Params[I].Bytes;
  };
  auto Begin = [&](unsigned I) {
    return static_cast<const char *>(Args[I].Data);
  };
  auto End = [&](unsigned I) {
    return Begin(I) + Args[I].Count * Args[I].ElementSize;
  };
  for (unsigned I = 0; I < NumArgs; ++I) {
    if (!Span(I))
      continue;
    for (unsigned J = I + 1; J < NumArgs; ++J)
      if (Span(J) && mayConflict(K.Params[I], K.Params[J]) &&
          overlap(Begin(I), End(I), Begin(J), End(J)))
        return conflict(K, I, J);
    if (Rows < 0 || !mayConflict(K.Params[I], K.Params[Rows]))
      continue;
    const auto &Held = *static_cast<const detail::RowsArg *>(Args[Rows].Data);
    for (std::size_t R = 0; R < Held.NumRows; ++R) {
      const char *Row = static_cast<const char *>(Held.Rows[R].Data);
      if (overlap(Begin(I), End(I), Row,
                  Row + Held.Rows[R].Count * Args[Rows].ElementSize))
        return conflict(K, static_cast<unsigned>(Rows), I);
    }
  }
  return {};
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
  // One parameter of rows at most, whose rows cannot overlap one another
  // (a vector's rows are vectors of their own) or are only read: pairs
  // directly, each span against the rows in one pass, no sort (a region's
  // rows are many, and a launch in it copies nothing).
  int Rows = -1;
  bool ManyRows = false;
  for (unsigned I = 0; I < NumArgs; ++I) {
    const ParamInfo &P = K.Params[I];
    if (!P.RowsApart || Args[I].ElementSize != P.Bytes)
      continue;
    ManyRows = ManyRows || Rows >= 0 || (P.writesDevice() && P.RowOffsets < 0);
    Rows = static_cast<int>(I);
  }
  if (!ManyRows)
    return pairwiseConflict(K, Args, NumArgs, Rows);
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
