// DataMover.h: copies between host and device memory, counted (the
// program reads the counts through weft::transfer_stats()) and, where the
// copy is of data a loop names, entered in the ledger under that name.
#ifndef WEFT_RUNTIME_CORE_DATAMOVER_H
#define WEFT_RUNTIME_CORE_DATAMOVER_H

#include "core/Backend.h"
#include "core/TransferLedger.h"

#include <cstdint>
#include <string_view>

namespace weft::rt {

class DataMover {
public:
  explicit DataMover(Backend *B) : B(B) {}
  Status toDevice(DevicePtr Dst, const void *Src, std::size_t Bytes,
                  std::string_view What = {}) {
    BytesToDevice += Bytes;
    Ledger.copied(Src, Bytes, true, What);
    return B->copyToDevice(Dst, Src, Bytes);
  }
  Status toHost(void *Dst, DevicePtr Src, std::size_t Bytes,
                std::string_view What = {}) {
    BytesToHost += Bytes;
    Ledger.copied(Dst, Bytes, false, What);
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
  TransferLedger Ledger;

private:
  Backend *B;
};

} // namespace weft::rt

#endif
