// DataMover.h: copies between host and device memory, counted (the
// program reads the counts through weft::transfer_stats()).
#ifndef WEFT_RUNTIME_CORE_DATAMOVER_H
#define WEFT_RUNTIME_CORE_DATAMOVER_H

#include "core/Backend.h"

#include <cstdint>

namespace weft::rt {

class DataMover {
public:
  explicit DataMover(Backend *B) : B(B) {}
  Status toDevice(DevicePtr Dst, const void *Src, std::size_t Bytes) {
    BytesToDevice += Bytes;
    return B->copyToDevice(Dst, Src, Bytes);
  }
  Status toHost(void *Dst, DevicePtr Src, std::size_t Bytes) {
    BytesToHost += Bytes;
    return B->copyToHost(Dst, Src, Bytes);
  }
  Status rowsToDevice(DevicePtr Dst, const void *Src, const RowBlock &Rows) {
    BytesToDevice += Rows.RowBytes * Rows.Rows;
    return B->copyRowsToDevice(Dst, Src, Rows);
  }
  Status rowsToHost(void *Dst, DevicePtr Src, const RowBlock &Rows) {
    BytesToHost += Rows.RowBytes * Rows.Rows;
    return B->copyRowsToHost(Dst, Src, Rows);
  }
  std::uint64_t BytesToDevice = 0, BytesToHost = 0;

private:
  Backend *B;
};

} // namespace weft::rt

#endif
