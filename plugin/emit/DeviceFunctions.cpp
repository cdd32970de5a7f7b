// DeviceFunctions.cpp: the structs and functions a nest uses, emitted into
// its kernel text with the same layout and bodies as on the host.
#include "emit/BodyPrinter.h"
#include "emit/KernelParts.h"

namespace weft::emit {

std::string deviceFunctions(const ir::Nest &N) {
  std::ostringstream OS;
  for (const ir::StructDef &S : N.Structs) {
    if (S.FromPrelude)
      continue;
    OS << "struct " << S.Name << " { // " << S.Source << "\n";
    for (const ir::StructDef::Field &F : S.Fields)
      OS << "  " << ir::typeName(N, F.Scalar, F.Struct) << " " << F.Name
         << ";\n";
    OS << "};\n\n";
  }
  BodyPrinter Printer(N, OS);
  for (const ir::Function &F : N.Functions) {
    OS << "WEFT_DEVICE "
       << (F.ReturnsValue ? ir::typeName(N, F.ReturnType, F.ReturnStruct)
                          : std::string("void"))
       << (F.ReturnsSelf ? " &" : " ") << F.Name << "(";
    for (std::size_t I = 0; I < F.Params.size(); ++I) {
      const ir::LocalType &T = F.Params[I].second;
      OS << (I ? ", " : "") << (T.IsConst ? "const " : "")
         << ir::typeName(N, T.Scalar, T.Struct) << (T.IsReference ? " &" : " ")
         << F.Params[I].first;
    }
    OS << ") {\n";
    for (const ir::StmtPtr &S : F.Body)
      Printer.stmt(*S, 1);
    OS << "}\n\n";
  }
  return OS.str();
}

} // namespace weft::emit
