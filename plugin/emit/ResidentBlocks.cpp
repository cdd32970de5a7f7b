// ResidentBlocks.cpp: the blocks of a matrix a sequential nest holds in
// shared memory for its loop (see analysis/ResidentBlock.h): loaded by the
// block before it, stored back after, and the reads and writes that find their
// element there.
#include "emit/BodyPrinter.h"

#include "ir/IrQueries.h"

namespace weft::emit {

void BodyPrinter::residentBody(int Indent,
                               const std::function<void(int)> &Print) {
  if (!Plan || Mode != Phase::Kernel || Plan->Residents.empty()) {
    Print(Indent);
    return;
  }
  const std::string Pad(static_cast<std::size_t>(Indent) * 2, ' ');
  std::string Fits = "WEFT_STAGING != 0";
  for (std::size_t R = 0; R < Plan->Residents.size(); ++R) {
    const ir::ResidentBlock &B = Plan->Residents[R].Block;
    const ir::Param &P = N.Params[B.Param];
    const std::string Name = "weft_resident" + std::to_string(R);
    OS << Pad << "const weft::resident_block<"
       << ir::typeName(N, P.Element, P.Struct) << ", WEFT_RESIDENT" << R
       << ", decltype(" << P.Name << ")> " << Name << "{" << Name << "_buffer, "
       << P.Name << ", " << B.Stride << ", " << B.RowLo << ", " << B.Rows
       << ", " << B.ColLo << ", " << B.Cols << "};\n";
    Fits += " && " + Name + ".fits()";
  }
  // The same choice in every thread: of captures alone.
  std::vector<std::string> Loads, Stores = {"weft::barrier();"};
  for (std::size_t R = 0; R < Plan->Residents.size(); ++R) {
    const std::string Name = "weft_resident" + std::to_string(R);
    Loads.push_back(Name + ".load(weft::linear_thread(), WEFT_BLOCK_THREADS);");
    Stores.push_back(Name +
                     ".store(weft::linear_thread(), WEFT_BLOCK_THREADS);");
  }
  Loads.push_back("weft::barrier();");
  eitherWay(Indent, Fits, Loads, Stores, InResidents, Print);
}

std::string BodyPrinter::residentRead(const ir::Expr &E) {
  const auto [R, U] = ResidentUses.at(&E);
  const ir::ResidentBlock::Use &Use = Plan->Residents[R].Block.Uses[U];
  // The subscript only for the simulator's check.
  return "weft_resident" + std::to_string(R) + ".ld(" + Use.Row + ", " +
         Use.Col + ", [&] { return (weft::index_t)(" + expr(*E.Operands[0]) +
         "); })";
}

std::string BodyPrinter::residentWrite(const ir::Expr &Assignment) {
  const ir::Expr &Target = *Assignment.Operands[0];
  const auto [R, U] = ResidentUses.at(&Target);
  const ir::ResidentBlock::Use &Use = Plan->Residents[R].Block.Uses[U];
  return "(weft_resident" + std::to_string(R) + ".at(" + Use.Row + ", " +
         Use.Col + ", [&] { return (weft::index_t)(" +
         expr(*Target.Operands[0]) + "); }) " + Assignment.Text + " " +
         expr(*Assignment.Operands[1]) + ")";
}

} // namespace weft::emit
