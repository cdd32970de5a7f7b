// Backend.cpp: what a backend does unless it knows better: a block of rows
// copied a row at a time.
#include "core/Backend.h"

namespace weft::rt {

Backend::~Backend() = default;

Status Backend::copyRowsToDevice(DevicePtr Dst, const void *Src,
                                 const RowBlock &Block) {
  for (std::size_t Row = 0; Row < Block.Rows; ++Row) {
    const std::size_t Offset = Row * Block.PitchBytes;
    if (Status S =
            copyToDevice(Dst + Offset, static_cast<const char *>(Src) + Offset,
                         Block.RowBytes);
        !S.empty())
      return S;
  }
  return {};
}

Status Backend::copyRowsToHost(void *Dst, DevicePtr Src,
                               const RowBlock &Block) {
  for (std::size_t Row = 0; Row < Block.Rows; ++Row) {
    const std::size_t Offset = Row * Block.PitchBytes;
    if (Status S = copyToHost(static_cast<char *>(Dst) + Offset, Src + Offset,
                              Block.RowBytes);
        !S.empty())
      return S;
  }
  return {};
}

} // namespace weft::rt
