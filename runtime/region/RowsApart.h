// RowsApart.h: rows held apart (a std::vector of std::vectors, a float **)
// moved as one block: gathered on the host into one transfer to the device,
// scattered back from one transfer to the host.
#ifndef WEFT_RUNTIME_REGION_ROWSAPART_H
#define WEFT_RUNTIME_REGION_ROWSAPART_H

#include "core/DataMover.h"

#include "weft/abi.h"

#include <cstdint>
#include <vector>

namespace weft::rt {

/// The elements of Rows, all of them.
std::size_t rowElements(const detail::RowsArg &Rows);

/// Where each row starts in the block, and the end (as rowOffsets in
/// <weft/weft.hpp> passes them).
std::vector<std::uint64_t> rowOffsets(const detail::RowsArg &Rows);

/// Rows one after another from Device on; Scratch holds the gathered block.
Status gatherRows(DataMover &Data, DevicePtr Device,
                  const detail::RowsArg &Rows, std::size_t ElementSize,
                  std::vector<char> &Scratch);

/// The block from Device on back into Rows.
Status scatterRows(DataMover &Data, DevicePtr Device,
                   const detail::RowsArg &Rows, std::size_t ElementSize,
                   std::vector<char> &Scratch);

} // namespace weft::rt

#endif
