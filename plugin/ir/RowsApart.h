// RowsApart.h: rows held apart (a std::vector of std::vectors) in the nest
// IR: a row's start and length read through the launch's row offsets, the
// same for rows of one length (row i at i times their common length), and
// the rewrite from the first to the second, so that one recognized nest
// gives both kernels.
#ifndef WEFT_PLUGIN_IR_ROWSAPART_H
#define WEFT_PLUGIN_IR_ROWSAPART_H

#include "ir/NestIR.h"

namespace weft::ir {

/// Row Row's start, read from the offsets parameter Offsets:
/// `(long)offsets[Row]`.
ExprPtr rowStartFromOffsets(unsigned Offsets, ExprPtr Row);
/// Row Row's start in rows of Columns' length (the parameter Columns, of
/// type ColumnsType): `(long)Row * (long)columns`.
ExprPtr rowStartOfOneLength(ExprPtr Row, unsigned Columns,
                            ScalarKind ColumnsType);
/// Row Row's length, in elements, from the offsets:
/// `(long)offsets[(long)Row + 1l] - (long)offsets[Row]`.
ExprPtr rowLengthFromOffsets(unsigned Offsets, ExprPtr Row);
/// A row's length in rows of one length: `(long)columns`.
ExprPtr rowLengthOfOneLength(unsigned Columns, ScalarKind ColumnsType);

/// N's rows held apart as rows of one length: each row start and length
/// read through the offsets (the forms above) rewritten into its form for
/// rows of one length, and N.UniformRows set. False, N as it was, where N
/// reads no row through its offsets (the nest is the same either way).
bool indexRowsAsOneLength(Nest &N);

} // namespace weft::ir

#endif
