// ResidentBlock.h: the span elements a sequential nest (`#pragma weft
// sequential for`: one block of threads) reads and writes, where all lie in
// a small block of rows and columns of a matrix (lud's diagonal block):
// held in the block's shared memory for the whole loop, loaded before it
// and stored after, so that each step's reads of what the steps before
// wrote wait on shared memory rather than on L2.
#ifndef WEFT_PLUGIN_ANALYSIS_RESIDENTBLOCK_H
#define WEFT_PLUGIN_ANALYSIS_RESIDENTBLOCK_H

#include "ir/NestIR.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace weft::ir {

/// Element (R, C) of the block is the span's R * Stride + C, for R in
/// [RowLo, RowLo + Rows) and C in [ColLo, ColLo + Cols). Texts are kernel
/// text of captures alone (the block is placed before the loop).
struct ResidentBlock {
  unsigned Param = 0;
  std::string Stride, RowLo, Rows, ColLo, Cols;
  std::optional<std::int64_t> FixedElements; // Rows * Cols, where constant
  /// Its shared array's length there: Rows * (Cols | 1), rows an odd pitch
  /// apart so that a warp down a column meets no bank twice (weft::
  /// resident_block's layout).
  std::optional<std::int64_t> FixedSlots;
  /// An access the block serves, with its row and column (kernel text of
  /// the indices in scope there).
  struct Use {
    const Expr *Element = nullptr;
    std::string Row, Col;
  };
  std::vector<Use> Uses;
  std::string Description; // "A[((I * $N) + J)]": its first write
};

/// Every span a sequential nest writes whose every access is affine in the
/// loops' indices, as a row times one symbolic stride plus a column (lud's
/// `A[I * N + I]` too: row I, column I), each row and column over a range
/// the loops' bounds give from captures alone, and none of whose elements
/// is bound to a reference, passed to a call or combined into.
std::vector<ResidentBlock> planResidentBlocks(const Nest &N);

} // namespace weft::ir

#endif
