// StagedRanges.cpp: the block's load of the ranges staged for a level (see
// memory/StagingPlan.h), before the level's loop.
#include "emit/BodyPrinter.h"

namespace weft::emit {

void BodyPrinter::stage(const plan::LevelPlan &LP, const std::string &In) {
  for (std::size_t I : LP.Stages) {
    const memory::Stage &S = Plan->Stages[I];
    const ir::Param &P = N.Params[S.Param];
    const std::string K = std::to_string(I), Name = "weft_stage" + K;
    const std::string T = ir::typeName(N, P.Element, P.Struct);
    // The range the reads span: from every index at its lower bound to
    // every index at its last value.
    std::string Lo, Count = "1";
    for (const ir::Expr *B : S.Base)
      Lo += "(weft::index_t)(" + expr(*B) + ") + ";
    for (const memory::Stage::Term &Term : S.Terms) {
      const std::string C =
          Term.Coefficient
              ? "(weft::index_t)(" + expr(*Term.Coefficient) + ") * "
              : "";
      Lo += C + "(weft::index_t)(" + expr(*Term.Lower) + ") + ";
      Count += " + " + C + "((weft::index_t)(" + expr(*Term.Upper) +
               ") - 1 - (weft::index_t)(" + expr(*Term.Lower) + "))";
    }
    Lo.resize(Lo.size() - 3);
    OS << In << "const weft::index_t " << Name << "_lo = " << Lo << ";\n"
       << In << "const weft::staged<" << T << ", WEFT_STAGE" << K
       << ", decltype(" << P.Name << ")> " << Name << "{" << Name << "_buffer, "
       << P.Name << ", " << Name << "_lo, " << Count
       << ", WEFT_STAGING != 0};\n"
       << In << Name << ".load(weft::linear_thread(), WEFT_BLOCK_THREADS);\n";
  }
  if (!LP.Stages.empty())
    OS << In << "weft::barrier();\n";
}

} // namespace weft::emit
