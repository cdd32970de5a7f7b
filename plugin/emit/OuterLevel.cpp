// OuterLevel.cpp: the kernel's body: its shared arrays, the walk over the
// outermost level's iterations (as the plan says: over the grid's threads,
// over a block's, or by blocks together), the nest's statements, and each
// block's partial of an outermost reduction; and a Split(k) nest's
// combining kernel.
#include "emit/BodyPrinter.h"
#include "emit/KernelParts.h"

namespace weft::emit {
namespace {

/// "const int i = (int)(weft_lo0 + weft_t0 * step);"
std::string outerIndex(const ir::Level &L) {
  const std::string T = ir::spelling(L.IndexType);
  return "    const " + T + " " + L.IndexName + " = (" + T +
         ")(weft_lo0 + weft_t0" +
         (L.Step != 1 ? " * " + std::to_string(L.Step) : "") + ");\n";
}

/// The kernel's shared arrays' declarations.
std::string sharedArrays(const plan::KernelPlan &P) {
  std::string Shared;
  for (const plan::SharedArray &S : P.Shared)
    Shared += "  WEFT_SHARED weft::shared_array<" + S.Element + ", " + S.Count +
              "> " + S.Name + ";\n";
  return Shared;
}

} // namespace

std::string kernelBody(const plan::KernelPlan &P) {
  const ir::Nest &N = *P.Nest;
  const ir::Level &L = N.Root;
  std::ostringstream Body;
  BodyPrinter Printer(N, Body, &P);
  const std::string A = std::to_string(P.Shape.Depths[0].Axis);
  const std::string B =
      std::string("WEFT_BLOCK_") + AxisName[P.Shape.Depths[0].Axis];
  if (P.Outer == plan::OuterWalk::RegisterTiles) {
    Printer.registerTiles(1);
    Body << "}\n";
    return sharedArrays(P) + Body.str();
  }
  if (P.Coarsened && P.Tiled->Inner == &L) {
    // Blocks step by WEFT_CM blocks; each thread's iterations come in its
    // body (coarsenedBody).
    Body << "  for (weft::index_t weft_b0 = (weft::index_t)weft::block_idx("
         << A << ") * " << B
         << " * WEFT_CM; weft_b0 < weft_count0;\n       weft_b0 += "
            "(weft::index_t)weft::grid_dim("
         << A << ") * " << B << " * WEFT_CM) {\n";
    Printer.coarsenedBody(L, 2, "");
    Body << "  }\n}\n";
    return sharedArrays(P) + Body.str();
  }
  if (P.Window && P.Window->Tile.Rows == &L) {
    // Each thread's WEFT_RM consecutive iterations from weft_f0 (its rows
    // come in the inner level's body: windowRows).
    Body << BodyPrinter::windowWalk(0, P.Shape.Depths[0].Axis, "  ")
         << "    weft::begin_iteration(weft_f0);\n";
    Printer.outerBody(2);
    Body << "  }\n}\n";
    return sharedArrays(P) + Body.str();
  }
  switch (P.Outer) {
  case plan::OuterWalk::Uniform:
    // Blocks walk the outermost level together: every thread reaches the
    // block's barriers, active where its index is in range.
    Body << "  for (weft::index_t weft_b0 = (weft::index_t)weft::block_idx("
         << A << ") * " << B
         << "; weft_b0 < weft_count0;\n       weft_b0 += "
            "(weft::index_t)weft::grid_dim("
         << A << ") * " << B << ") {\n"
         << "    const weft::index_t weft_t0 = weft_b0 + weft::thread_idx(" << A
         << ");\n    const bool weft_in0 = weft_t0 < weft_count0;\n";
    break;
  case plan::OuterWalk::GlobalX:
    Body << "  for (weft::index_t weft_t0 = weft::global_id_x(); weft_t0 < "
            "weft_count0;\n       weft_t0 += weft::global_size_x()) {\n";
    break;
  case plan::OuterWalk::BlockStride:
    Body << "  for (weft::index_t weft_t0 = weft::thread_idx(" << A
         << "); weft_t0 < weft_count0;\n       weft_t0 += " << B << ") {\n";
    break;
  case plan::OuterWalk::RegisterTiles:
  case plan::OuterWalk::Grid:
    Body << "  for (weft::index_t weft_t0 = (weft::index_t)weft::block_idx("
         << A << ") * " << B << " + weft::thread_idx(" << A
         << ");\n       weft_t0 < weft_count0; weft_t0 += "
            "(weft::index_t)weft::grid_dim("
         << A << ") * " << B << ") {\n";
    break;
  }
  Body << outerIndex(L)
       << (P.Outer == plan::OuterWalk::Uniform
               ? "    if (weft_in0)\n      weft::begin_iteration(weft_t0);\n"
               : "    weft::begin_iteration(weft_t0);\n");
  if (P.Tiled && P.Tiled->WholeBlock)
    Printer.walkedBody(L, 2, "weft_in0");
  else
    Printer.outerBody(2);
  Body << "  }\n";
  // Reductions over the outermost level: each block's partial goes to a
  // buffer the runtime combines.
  std::ostringstream Prologue;
  for (std::size_t I = 0; I < L.Reductions.size(); ++I) {
    const ir::Reduction &R = L.Reductions[I];
    const std::string T = ir::spelling(R.Type), K = std::to_string(I);
    Prologue << "  " << T << " " << R.Variable << " = weft::identity<"
             << reduceOp(R.Op) << ", " << T << ">();\n";
    Body << "  {\n    const " << T << " weft_r = weft::block_allreduce<"
         << reduceOp(R.Op) << ">(" << R.Variable << ", " << P.OuterScratch[I]
         << ", weft::linear_thread());\n"
         << "    if (weft::linear_thread() == 0)\n"
         << "      weft_partials" << K
         << "[(weft::index_t)weft::linear_block()] = weft_r;\n  }\n";
  }
  Body << "}\n";
  return sharedArrays(P) + Prologue.str() + Body.str();
}

std::string combineKernelBody(const plan::KernelPlan &P) {
  const ir::Nest &N = *P.Nest;
  std::ostringstream Body;
  BodyPrinter Printer(N, Body, &P, BodyPrinter::Phase::Combine);
  // One thread per outermost iteration reruns the code before the split
  // level, folds in its partials, and runs the rest.
  Body << "  for (weft::index_t weft_t0 = weft::global_id_x(); "
          "weft_t0 < weft_count0;\n       weft_t0 += "
          "weft::global_size_x()) {\n"
       << outerIndex(N.Root) << "    weft::begin_iteration(weft_t0);\n";
  for (const ir::StmtPtr &S : N.Root.Body)
    Printer.stmt(*S, 2);
  Body << "  }\n}\n";
  return Body.str();
}

} // namespace weft::emit
