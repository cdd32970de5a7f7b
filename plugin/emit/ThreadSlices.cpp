// ThreadSlices.cpp: the span elements a thread holds in shared memory (or
// its registers) for an iteration (see analysis/ThreadSlice.h): their load at
// the top of the level's body, and the reads and writes that find their element
// there.
#include "emit/BodyPrinter.h"

#include "ir/IrQueries.h"

namespace weft::emit {

void BodyPrinter::slicedBody(const ir::Level &L, int Indent,
                             const std::function<void(int)> &Print) {
  std::vector<std::size_t> Mine;
  if (Plan && Mode == Phase::Kernel && !InSlices)
    for (std::size_t S = 0; S < Plan->Slices.size(); ++S)
      if (Plan->Slices[S].Slice.Owner == &L)
        Mine.push_back(S);
  if (Mine.empty()) {
    Print(Indent);
    return;
  }
  const std::string Pad(static_cast<std::size_t>(Indent) * 2, ' ');
  std::string Fits = "WEFT_STAGING != 0";
  for (std::size_t S : Mine) {
    const ir::ThreadSlice &Slice = Plan->Slices[S].Slice;
    const ir::Param &P = N.Params[Slice.Param];
    const std::string K = std::to_string(S), Name = "weft_slice" + K;
    const std::string Type = ir::typeName(N, P.Element, P.Struct),
                      Where = P.Name + ", (weft::index_t)(" + L.IndexName +
                              ") * " + Slice.ThreadStride + ", " +
                              Slice.Stride + ", " + Slice.Lo + ", " +
                              Slice.Count;
    // In registers where its loops unroll: each use then names a constant
    // element of its array.
    const std::optional<std::string> &Apart = Plan->Slices[S].Apart;
    if (Plan->Slices[S].Registers)
      OS << "#if WEFT_UNROLL_STEPS\n"
         << Pad << Type << " " << Name << "_values[" << *Slice.FixedCount
         << "];\n"
         << Pad << "unsigned long long " << Name << "_written = 0;\n"
         << Pad << "const weft::register_slice<" << Type << ", "
         << *Slice.FixedCount << ", decltype(" << P.Name << ")> " << Name << "{"
         << Name << "_values, " << Name << "_written, " << Where << ", "
         << (Apart ? "true, " + *Apart : "false, true") << "};\n"
         << "#else\n";
    OS << Pad << "const weft::thread_slice<" << Type << ", WEFT_SLICE" << K
       << ", WEFT_BLOCK_THREADS, decltype(" << P.Name << ")> " << Name << "{"
       << Name << "_buffer, " << Where << ", weft::linear_thread()};\n";
    if (Plan->Slices[S].Registers)
      OS << "#endif\n";
    Fits += " && " + Name + ".fits()";
  }
  std::vector<std::string> Loads, Stores;
  for (std::size_t S : Mine) {
    Loads.push_back("weft_slice" + std::to_string(S) + ".load();");
    if (Plan->Slices[S].Apart)
      Stores.push_back("weft_slice" + std::to_string(S) + ".store();");
  }
  eitherWay(Indent, Fits, Loads, Stores, InSlices, Print);
}

std::string BodyPrinter::sliceCoordinate(const ir::Expr &Element) const {
  const auto [S, U] = SliceUses.at(&Element);
  const ir::ThreadSlice::Use &Use = Plan->Slices[S].Slice.Uses[U];
  return "(weft::index_t)(" + Use.Variable + ")" +
         (Use.Shift.empty() ? "" : " + " + Use.Shift);
}

std::string BodyPrinter::sliceRead(const ir::Expr &E) {
  // The subscript only for the simulator's check: a GPU reads the slice.
  return "weft_slice" + std::to_string(SliceUses.at(&E).first) + ".ld(" +
         sliceCoordinate(E) + ", [&] { return (weft::index_t)(" +
         expr(*E.Operands[0]) + "); })";
}

std::string BodyPrinter::sliceWrite(const ir::Expr &Assignment) {
  const ir::Expr &Target = *Assignment.Operands[0];
  const std::string Name =
      "weft_slice" + std::to_string(SliceUses.at(&Target).first);
  const std::string Index =
      "(weft::index_t)(" + expr(*Target.Operands[0]) + ")";
  return Name + ".through(" + Index + ", (" + Name + ".at(" +
         sliceCoordinate(Target) + ", [&] { return " + Index + "; }) " +
         Assignment.Text + " " + expr(*Assignment.Operands[1]) + "))";
}

} // namespace weft::emit
