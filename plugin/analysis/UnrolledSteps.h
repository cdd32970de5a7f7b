// UnrolledSteps.h: the loops of a sequential nest worth unrolling whole on
// the GPU: a few steps, each with loops inside whose bounds follow the step
// (lud's rows of a triangle), so that unrolled, every inner loop has a
// constant trip count and its loads issue ahead of its chain of products.
#ifndef WEFT_PLUGIN_ANALYSIS_UNROLLEDSTEPS_H
#define WEFT_PLUGIN_ANALYSIS_UNROLLEDSTEPS_H

#include "ir/NestIR.h"

#include <cstdint>
#include <map>
#include <set>
#include <vector>

namespace weft::ir {

/// The most steps a loop unrolled whole takes: 32 steps of a triangle of
/// dot products are about a thousand products.
constexpr std::int64_t MaxUnrolledSteps = 32;

/// Every counted For loop in Body (and its levels' bodies) whose trip
/// count is a constant of 2 to MaxUnrolledSteps wherever it runs (captured
/// constants seen through), and where Bounding, inside which a counted loop
/// or a level has a bound of its index; each with that trip count.
std::map<const Stmt *, std::int64_t>
stepLoops(const Nest &N, const std::vector<StmtPtr> &Body, bool Bounding);

/// The step loops of a sequential nest (one block, whose registers cost no
/// occupancy: lud's perimeters unrolled so were slower at 4096 on the
/// H200, the diagonal block 28 % faster); none in other nests, where only
/// a register slice's loops unroll (analysis/RegisterSlice.h).
std::map<const Stmt *, std::int64_t> unrolledSteps(const Nest &N);

/// The counted loops in Body inside those of Unrolled whose trip count is
/// a constant in each unrolled copy: Upper - Lower is affine in the
/// indices of unrolled loops around them alone (each from a lower bound of
/// captures), once those loops unroll a constant of at most 2^20; index
/// and bounds of signed types; no local of the bounds written in the loop.
/// The kernel counts them from zero (`for (k' = 0; k' < Upper - Lower;
/// ...) { K = Lower + k'; ... }`): NVRTC's unroller (NVRTC 13.0) finds the
/// constant trip count in that form, not in `K = Offset; K < I` with I =
/// Offset + c, and then unrolls the loop whole.
std::set<const Stmt *>
constantCountLoops(const Nest &N, const std::vector<StmtPtr> &Body,
                   const std::map<const Stmt *, std::int64_t> &Unrolled);

} // namespace weft::ir

#endif
