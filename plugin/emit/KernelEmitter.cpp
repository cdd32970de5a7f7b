// KernelEmitter.cpp: assembles a kernel's text from its parts
// (KernelParts.h): preamble, device functions, the kernel, and for a
// Split(k) nest the combining kernel; then its descriptor.
#include "emit/KernelEmitter.h"

#include "emit/KernelParts.h"
#include "ir/IrQueries.h"

namespace weft::emit {

EmittedKernel emitKernel(const plan::KernelPlan &P) {
  const std::string Functions = deviceFunctions(*P.Nest);
  const std::string Params = kernelParameters(P);
  const std::string Body = kernelBody(P);
  const std::string Combine = P.SplitLevel ? combineKernelBody(P) : "";
  const std::string Preamble = kernelPreamble(P);
  EmittedKernel K;
  // The preamble too: mappings of one loop may differ only in its macros
  // (a register tile's WEFT_TN, a stage's capacity).
  K.Name = kernelName(P, Preamble + Functions + Params + "\n" + Body + Combine);
  // A register tile asks for the SM's registers shared by two blocks.
  K.Source =
      Preamble + "\n" + Functions +
      (P.RegisterTile ? "WEFT_TILE_KERNEL(" + K.Name + ")"
                      : "WEFT_KERNEL(" + K.Name + ", WEFT_BLOCK_THREADS)") +
      "\n(" + Params + ") {\n" + Body;
  if (P.SplitLevel)
    K.Source +=
        "\n// Finishes each outermost iteration with the blocks' partials.\n"
        "WEFT_KERNEL(" +
        K.Name + "_combine, " + std::to_string(CombineBlock) + ")\n(" + Params +
        ") {\n" + Combine;
  K.Descriptor = kernelDescriptor(P, K.Name);
  return K;
}

std::string writtenReadOnlyData(const ir::Nest &N) {
  std::string Found;
  auto Check = [&](const ir::Expr &E) {
    const ir::Expr *Written = ir::writtenElement(E);
    if (Written &&
        N.Params[Written->ParamIndex].Kind == ir::ParamKind::ReadSpan)
      Found = N.Params[Written->ParamIndex].Name;
    return !Found.empty();
  };
  for (const ir::Level *L : ir::levels(N))
    for (const ir::StmtPtr &S : L->Body)
      if (S && ir::anyExpression(*S, Check))
        return Found;
  return {};
}

} // namespace weft::emit
