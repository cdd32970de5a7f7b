// SplitReduction.cpp: Split(k) of the level one in: each block's partials
// in the first kernel, and in the combining kernel their fold where the
// level was.
#include "emit/BodyPrinter.h"

namespace weft::emit {

void BodyPrinter::splitPartials(const ir::Level &L, const plan::LevelPlan &LP,
                                const std::string &In) {
  for (std::size_t I = 0; I < L.Reductions.size(); ++I) {
    const ir::Reduction &R = L.Reductions[I];
    const std::string Type = ir::spelling(R.Type);
    OS << In << "{\n"
       << In << "  const " << Type << " weft_r = weft::block_allreduce<"
       << reduceOp(R.Op) << ">(" << R.Variable << ", " << LP.Scratch[I]
       << ", weft::linear_thread());\n"
       << In << "  if (weft::linear_thread() == 0)\n"
       << In << "    weft_split" << I
       << "[weft_t0 * weft_splits + weft::block_idx(" << LP.Axis
       << ")] = weft_r;\n"
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
       << ".ld(weft_t0 * weft_splits + weft_k));\n"
       << Pad << "  " << R.Variable << " = weft::combine<" << Op << ">("
       << R.Variable << ", weft_acc);\n"
       << Pad << "}\n";
  }
}

} // namespace weft::emit
