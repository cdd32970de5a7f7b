// SplitReduction.cpp: Split(k) of the level one in: each block's partials
// in the first kernel, and in the combining kernel their fold where the
// level was.
#include "emit/BodyPrinter.h"

namespace weft::emit {

void BodyPrinter::splitPartials(const ir::Level &L, const plan::LevelPlan &LP,
                                const std::string &In) {
  const std::string A = std::to_string(LP.Axis);
  // The block is the level's group, or one of its groups along the
  // level's axis (the block holds several outermost iterations).
  const bool Groups = Plan->Shape.UniformOuter;
  std::string Stride = "1";
  for (int Lower = 0; Lower < LP.Axis; ++Lower)
    Stride += std::string(" * WEFT_BLOCK_") + AxisName[Lower];
  for (std::size_t I = 0; I < L.Reductions.size(); ++I) {
    const ir::Reduction &R = L.Reductions[I];
    const std::string Type = ir::spelling(R.Type), Op = reduceOp(R.Op);
    OS << In << "{\n" << In << "  const " << Type << " weft_r = ";
    if (Groups)
      OS << "weft::axis_allreduce<" << Op << ">(" << R.Variable << ", "
         << LP.Scratch[I] << ", weft::thread_idx(" << A << "), " << Stride
         << ", " << block(L.Depth) << ");\n"
         << In << "  if (weft_in0 && weft::thread_idx(" << A << ") == 0)\n";
    else
      OS << "weft::block_allreduce<" << Op << ">(" << R.Variable << ", "
         << LP.Scratch[I] << ", weft::linear_thread());\n"
         << In << "  if (weft::linear_thread() == 0)\n";
    // Partials [block][iteration]: the combining kernel's threads read
    // neighbouring iterations' partials together.
    OS << In << "    weft_split" << I << "[(weft::index_t)weft::block_idx(" << A
       << ") * weft_count0 + weft_t0] = weft_r;\n"
       << In << "}\n";
  }
}

void BodyPrinter::combineSplit(const ir::Level &L, const std::string &Pad) {
  for (std::size_t I = 0; I < L.Reductions.size(); ++I) {
    const ir::Reduction &R = L.Reductions[I];
    const std::string Type = ir::spelling(R.Type), Op = reduceOp(R.Op);
    OS << Pad << "{\n"
       << Pad << "  " << Type << " weft_acc = weft::identity<" << Op << ", "
       << Type << ">();\n"
       << Pad
       << "  for (weft::index_t weft_k = 0; weft_k < weft_splits; ++weft_k)\n"
       << Pad << "    weft_acc = weft::combine<" << Op
       << ">(weft_acc, weft_split" << I
       << ".ld(weft_k * weft_count0 + weft_t0));\n"
       << Pad << "  " << R.Variable << " = weft::combine<" << Op << ">("
       << R.Variable << ", weft_acc);\n"
       << Pad << "}\n";
  }
}

} // namespace weft::emit
