// WindowRows.cpp: a window tile's inner body (plan::WindowPlan): the
// thread's consecutive outer iterations run through the window's loops
// together, so that the reads they share are loaded once.
#include "emit/BodyPrinter.h"

#include <algorithm>

namespace weft::emit {

std::string BodyPrinter::windowWalk(unsigned Depth, int Axis,
                                    const std::string &Pad) {
  const std::string D = std::to_string(Depth), A = std::to_string(Axis);
  const std::string B = std::string("WEFT_BLOCK_") + AxisName[Axis];
  return Pad + "for (weft::index_t weft_f" + D +
         " = ((weft::index_t)weft::block_idx(" + A + ") * " + B +
         " + weft::thread_idx(" + A + ")) * WEFT_RM;\n" + Pad + "     weft_f" +
         D + " < weft_count" + D + "; weft_f" + D +
         " += (weft::index_t)weft::grid_dim(" + A + ") * " + B +
         " * WEFT_RM) {\n";
}

void BodyPrinter::windowLevel(const ir::Level &L, const std::string &Pad) {
  const std::string D = std::to_string(L.Depth), In = Pad + "  ";
  // (The tile's levels are one chain with no reductions and no stages.)
  OS << Pad << "{\n";
  levelRange(L, In);
  const bool Checked = L.Depth == 1;
  if (Checked)
    OS << In << "weft::inner_level(true);\n";
  OS << windowWalk(L.Depth, Axis[L.Depth], In);
  if (Checked)
    OS << In << "  weft::begin_inner_iteration(weft_f" << D << ");\n";
  body(L, static_cast<int>(In.size() / 2 + 1));
  OS << In << "}\n";
  if (Checked)
    OS << In << "weft::inner_level(false);\n";
  OS << Pad << "}\n";
}

void BodyPrinter::windowRow(const ir::Level &L, const std::string &Pad) {
  const ir::Level &Rows = *Plan->Window->Tile.Rows;
  const std::string T = ir::spelling(Rows.IndexType);
  // From the first row in the index's own type: unrolled, the rows' loads
  // have the same address arithmetic (y + 1 + 0 and y + 0 + 1 fold alike),
  // which lets the compiler load each element once.
  OS << Pad << "const " << T << " " << Rows.IndexName << " = weft_row0 + (" << T
     << ")weft_u;\n";
  // The checker tells apart the root's iterations and those of the level
  // one in.
  if (Rows.Depth == 0)
    OS << Pad << "weft::resume_iteration(weft_f0 + weft_u, weft_t" << L.Depth
       << ");\n";
  else if (Rows.Depth == 1)
    OS << Pad << "weft::resume_iteration(weft_t0, weft_f1 + weft_u);\n";
}

void BodyPrinter::windowRows(const ir::Level &L, int Indent) {
  const ir::WindowTile &W = Plan->Window->Tile;
  const std::string Pad(2 * Indent, ' '), In = Pad + "  ";
  const std::string T = ir::spelling(W.Rows->IndexType);
  const std::string R = std::to_string(W.Rows->Depth);
  const unsigned Saved = Depth;
  Depth = L.Depth;
  const auto IsLocal = [&](const ir::Stmt *S) {
    return std::find(W.Locals.begin(), W.Locals.end(), S) != W.Locals.end();
  };
  const auto EachRow = [&](const std::string &At, int Inside,
                           const std::function<void(int)> &Print) {
    OS << At << "#pragma unroll\n"
       << At << "for (int weft_u = 0; weft_u < WEFT_RM; ++weft_u) {\n";
    windowRow(L, At + "  ");
    Print(Inside);
    OS << At << "}\n";
  };
  OS << Pad << "const " << T << " weft_row0 = (" << T << ")(weft_lo" << R
     << " + weft_f" << R << ");\n"
     << Pad << "if (weft_f" << R << " + WEFT_RM <= weft_count" << R << ") {\n";
  const std::map<std::string, std::string> SavedNames = Renamed;
  for (const ir::Stmt *S : W.Locals) {
    OS << In << ir::typeName(N, S->VarType.Scalar, S->VarType.Struct) << " "
       << S->Name << "[WEFT_RM];\n";
    Renamed[S->Name] = S->Name + "[weft_u]";
  }
  const ir::Stmt *Window = W.Loops.front();
  const auto Position =
      std::find_if(L.Body.begin(), L.Body.end(),
                   [&](const ir::StmtPtr &S) { return S.get() == Window; });
  // Each row's statements before the loops.
  EachRow(In, Indent + 2, [&](int At) {
    for (auto S = L.Body.begin(); S != Position; ++S) {
      if (!IsLocal(S->get())) {
        stmt(**S, At);
        continue;
      }
      if ((*S)->Exprs[0])
        OS << std::string(2 * At, ' ') << (*S)->Name
           << "[weft_u] = " << expr(*(*S)->Exprs[0]) << ";\n";
    }
  });
  // The loops, unrolled whole, each step's body for every row.
  int At = Indent + 1;
  for (const ir::Stmt *Loop : W.Loops) {
    const std::string LoopPad(2 * At, ' ');
    OS << LoopPad << "#pragma unroll\n"
       << LoopPad << "for (" << decl(*Loop->Children[0]) << "; "
       << expr(*Loop->Exprs[0]) << "; " << expr(*Loop->Exprs[1]) << ") {\n";
    ++At;
  }
  const ir::Stmt &Innermost = *W.Loops.back()->Children[1];
  EachRow(std::string(2 * At, ' '), At + 1, [&](int Inside) {
    if (Innermost.Kind != ir::Stmt::Block) {
      stmt(Innermost, Inside);
      return;
    }
    for (const ir::StmtPtr &S : Innermost.Children)
      if (S)
        stmt(*S, Inside);
  });
  for (std::size_t I = 0; I < W.Loops.size(); ++I)
    OS << std::string(2 * --At, ' ') << "}\n";
  // Each row's statements after them.
  EachRow(In, Indent + 2, [&](int At) {
    for (auto S = std::next(Position); S != L.Body.end(); ++S)
      stmt(**S, At);
  });
  Renamed = SavedNames;
  // Rows past the level's end: each row in range as written.
  OS << Pad << "} else {\n"
     << In << "for (int weft_u = 0; weft_u < WEFT_RM && weft_f" << R
     << " + weft_u < weft_count" << R << "; ++weft_u) {\n";
  windowRow(L, In + "  ");
  for (const ir::StmtPtr &S : L.Body)
    stmt(*S, Indent + 2);
  OS << In << "}\n" << Pad << "}\n";
  Depth = Saved;
}

} // namespace weft::emit
