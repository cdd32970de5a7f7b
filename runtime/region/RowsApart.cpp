// RowsApart.cpp: gathering and scattering rows held apart (see RowsApart.h).
// One copy a row would cost microseconds each; a row may hold a few
// elements.
#include "region/RowsApart.h"

#include <cstring>

namespace weft::rt {

std::size_t rowElements(const detail::RowsArg &Rows) {
  std::size_t Elements = 0;
  for (std::size_t R = 0; R < Rows.NumRows; ++R)
    Elements += Rows.Rows[R].Count;
  return Elements;
}

std::vector<std::uint64_t> rowOffsets(const detail::RowsArg &Rows) {
  std::vector<std::uint64_t> Offsets(Rows.NumRows + 1, 0);
  for (std::size_t R = 0; R < Rows.NumRows; ++R)
    Offsets[R + 1] = Offsets[R] + Rows.Rows[R].Count;
  return Offsets;
}

Status gatherRows(DataMover &Data, DevicePtr Device,
                  const detail::RowsArg &Rows, std::size_t ElementSize,
                  std::vector<char> &Scratch) {
  Scratch.resize(rowElements(Rows) * ElementSize);
  char *To = Scratch.data();
  for (std::size_t R = 0; R < Rows.NumRows; ++R) {
    const std::size_t Bytes = Rows.Rows[R].Count * ElementSize;
    if (Bytes)
      std::memcpy(To, Rows.Rows[R].Data, Bytes);
    To += Bytes;
  }
  return Scratch.empty()
             ? Status()
             : Data.toDevice(Device, Scratch.data(), Scratch.size());
}

Status scatterRows(DataMover &Data, DevicePtr Device,
                   const detail::RowsArg &Rows, std::size_t ElementSize,
                   std::vector<char> &Scratch) {
  Scratch.resize(rowElements(Rows) * ElementSize);
  if (Scratch.empty())
    return {};
  if (Status S = Data.toHost(Scratch.data(), Device, Scratch.size());
      !S.empty())
    return S;
  const char *From = Scratch.data();
  for (std::size_t R = 0; R < Rows.NumRows; ++R) {
    const std::size_t Bytes = Rows.Rows[R].Count * ElementSize;
    if (Bytes)
      std::memcpy(Rows.Rows[R].Data, From, Bytes);
    From += Bytes;
  }
  return {};
}

} // namespace weft::rt
