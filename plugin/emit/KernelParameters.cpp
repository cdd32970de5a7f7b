// KernelParameters.cpp: the kernel's parameter list, in the order the
// runtime passes them (runtime/launch binds them).
#include "emit/BodyPrinter.h"
#include "emit/KernelParts.h"

namespace weft::emit {

std::string kernelParameters(const plan::KernelPlan &P) {
  const ir::Nest &N = *P.Nest;
  std::string S;
  // Reduction targets stay on the host: the runtime combines the partials.
  for (const ir::Param &Param : N.Params)
    if (Param.Kind != ir::ParamKind::ReductionTarget)
      S += paramDecl(N, Param) + ", ";
  S += "weft::index_t weft_lo0, weft::index_t weft_count0";
  for (std::size_t I = 0; I < N.Root.Reductions.size(); ++I)
    S += ", weft::dspan<" +
         std::string(ir::spelling(N.Root.Reductions[I].Type)) +
         "> weft_partials" + std::to_string(I);
  for (std::size_t B = 0; B < P.Buffers.size(); ++B)
    S += ", weft::dspan<" + P.Buffers[B].Element + "> weft_buffer" +
         std::to_string(B);
  if (P.SplitLevel) {
    for (std::size_t R = 0; R < P.SplitLevel->Reductions.size(); ++R)
      S += ", weft::dspan<" +
           std::string(ir::spelling(P.SplitLevel->Reductions[R].Type)) +
           "> weft_split" + std::to_string(R);
    S += ", weft::index_t weft_splits";
  }
  return S;
}

} // namespace weft::emit
