// StagedRanges.cpp: the block's load of the ranges and windows staged for a
// level (see memory/StagingPlan.h), before the level's loop, and the reads
// that find their element there.
#include "emit/BodyPrinter.h"

#include "ir/IrQueries.h"

#include <algorithm>

namespace weft::emit {

std::string BodyPrinter::product(const std::vector<const ir::Expr *> &Factors,
                                 const std::string &Value) {
  std::string Text;
  for (const ir::Expr *F : Factors)
    Text += "(weft::index_t)(" + expr(*F) + ") * ";
  return Text + Value;
}

void BodyPrinter::stage(const plan::LevelPlan &LP, const std::string &In) {
  for (std::size_t I : LP.Stages) {
    const memory::Stage &S = Plan->Stages[I];
    const ir::Param &P = N.Params[S.Param];
    const std::string K = std::to_string(I), Name = "weft_stage" + K;
    const std::string T = ir::typeName(N, P.Element, P.Struct);
    // The range the reads span: from every index at its lower bound to
    // every index at its last value; a window's first column is the
    // block's first iteration of the level, its first row (where rows
    // follow the outermost level) the block's first of that, its rows and
    // columns each index's reach.
    std::string Lo, Count = "1", Columns;
    for (const memory::Stage::Offset &B : S.Base)
      Lo += std::string(B.Negative ? "- " : "") +
            product(B.Scale, "(weft::index_t)(" + expr(*B.Value) + ")") + " + ";
    if (S.Window) {
      const unsigned D = S.Level->Depth;
      // Where rows follow the outermost level, weft_lo<D> is 0 in threads
      // past its end; the bound is the same in every thread.
      const std::string First =
          S.OuterRows ? "(weft::index_t)(" + expr(*S.Level->Lower) + ")"
                      : "weft_lo" + std::to_string(D);
      OS << In << "const weft::index_t " << Name << "_x0 = " << First
         << " + (weft::index_t)weft::block_idx(" << axis(D) << ") * "
         << block(D) << ";\n";
      Lo += product(S.ColumnStride, Name + "_x0") + " + ";
      Columns = block(D);
      if (S.OuterRows) {
        OS << In << "const weft::index_t " << Name
           << "_y0 = weft_lo0 + weft_b0;\n";
        Lo += product(S.RowStride, Name + "_y0") + " + ";
        Count += " + " + block(0) + " - 1";
      }
      // The reads' least constant offsets, and how far the others reach.
      if (S.MinOffset[0])
        Lo += product(S.RowStride, "(" + std::to_string(S.MinOffset[0]) + ")") +
              " + ";
      if (S.MinOffset[1])
        Lo += product(S.ColumnStride,
                      "(" + std::to_string(S.MinOffset[1]) + ")") +
              " + ";
      if (S.MaxOffset[0] > S.MinOffset[0])
        Count += " + " + std::to_string(S.MaxOffset[0] - S.MinOffset[0]);
      if (S.MaxOffset[1] > S.MinOffset[1])
        Columns += " + " + std::to_string(S.MaxOffset[1] - S.MinOffset[1]);
    }
    for (const memory::Stage::Term &Term : S.Terms) {
      const std::string Reach = "((weft::index_t)(" + expr(*Term.Upper) +
                                ") - 1 - (weft::index_t)(" + expr(*Term.Lower) +
                                "))";
      Lo += product(Term.Coefficient,
                    "(weft::index_t)(" + expr(*Term.Lower) + ")") +
            " + ";
      if (!S.Window)
        Count += " + " + product(Term.Coefficient, Reach);
      else if (Term.Row)
        Count += " + " + Reach;
      else
        Columns += " + " + Reach;
    }
    Lo.resize(Lo.size() - 3);
    OS << In << "const weft::index_t " << Name << "_lo = " << Lo << ";\n";
    if (S.Window)
      OS << In << "const weft::window<" << T << ", WEFT_STAGE" << K
         << ", decltype(" << P.Name << ")> " << Name << "{" << Name
         << "_buffer, " << P.Name << ", " << Name << "_lo, " << Count << ", "
         << Columns << ", "
         << (S.RowStride.empty() ? "0" : product(S.RowStride, "1")) << ", "
         << product(S.ColumnStride, "1")
         << ", WEFT_STAGING != 0 && WEFT_STAGED_RANGES != 0};\n";
    else
      OS << In << "const weft::staged<" << T << ", WEFT_STAGE" << K
         << ", decltype(" << P.Name << ")> " << Name << "{" << Name
         << "_buffer, " << P.Name << ", " << Name << "_lo, " << Count
         << ", WEFT_STAGING != 0 && WEFT_STAGED_RANGES != 0};\n";
    OS << In << Name << ".load(weft::linear_thread(), WEFT_BLOCK_THREADS);\n";
  }
  // Staged ranges off (the default), the loads above load nothing.
  if (!LP.Stages.empty())
    stagedBarrier(In);
}

void BodyPrinter::stagedBarrier(const std::string &In) {
  OS << In << "if (WEFT_STAGING && WEFT_STAGED_RANGES)\n"
     << In << "  weft::barrier();\n";
}

std::string BodyPrinter::stagedRead(const ir::Expr &E, std::size_t I) {
  const memory::Stage &S = Plan->Stages[I];
  const std::string Name = "weft_stage" + std::to_string(I);
  const std::string Index = expr(*E.Operands[0]);
  if (!S.Window)
    return Name + ".ld(" + Index + ")";
  // Each index's distance from its first value: along the rows, or the
  // columns after the thread's own.
  const std::size_t At = static_cast<std::size_t>(
      std::find(S.Reads.begin(), S.Reads.end(), &E) - S.Reads.begin());
  std::string Row = std::to_string(S.Offsets[At][0] - S.MinOffset[0]) +
                    (S.OuterRows ? " + ((weft::index_t)(" + N.Root.IndexName +
                                       ") - " + Name + "_y0)"
                                 : ""),
              Column = "((weft::index_t)(" + S.Level->IndexName + ") - " +
                       Name + "_x0)";
  if (const std::int64_t C = S.Offsets[At][1] - S.MinOffset[1])
    Column += " + " + std::to_string(C);
  // A clamped neighbour: its distance from the index it is near.
  if (const memory::Stage::Clamped &Near = S.Neighbours[At]; Near.Axis >= 0)
    (Near.Axis ? Column : Row) += " + ((weft::index_t)(" + Near.Local +
                                  ") - (weft::index_t)(" + Near.Near + "))";
  for (const memory::Stage::Term &Term : S.Terms)
    (Term.Row ? Row : Column) += " + ((weft::index_t)(" + Term.Index +
                                 ") - (weft::index_t)(" + expr(*Term.Lower) +
                                 "))";
  // The subscript only where the read falls back to the span: computed
  // for every read, it held registers (a 5-point stencil's kernel 48
  // rather than 40, NVRTC sm_90).
  return Name + (InWindows ? ".ld_in(" : ".ld(") + Row + ", " + Column +
         ", [&] { return (weft::index_t)(" + Index + "); })";
}

void BodyPrinter::windowedBody(const ir::Level &L, const plan::LevelPlan &LP,
                               int Indent) {
  if (Plan->Window && Plan->Window->Tile.Inner == &L) {
    windowRows(L, Indent);
    return;
  }
  // A window holds every element its reads may take for a thread of the
  // block's first round of the level (its rows and columns sized by their
  // indices' reach); later rounds of a capped grid fall outside, all of a
  // block's threads alike. Checking each read cost 5-8 instructions
  // against a shared-memory load's one (a 5 x 5 filter's 25 reads).
  std::string First;
  for (std::size_t I : LP.Stages) {
    const memory::Stage &S = Plan->Stages[I];
    if (!S.Window)
      continue;
    const std::string Name = "weft_stage" + std::to_string(I);
    First += std::string(First.empty() ? "" : " && ") + Name +
             ".first_round((weft::index_t)(" + L.IndexName + ") - " + Name +
             "_x0, " + block(L.Depth) + ")";
  }
  const bool Nested =
      std::any_of(L.Body.begin(), L.Body.end(), [](const ir::StmtPtr &S) {
        return ir::anyStatement(*S, [](const ir::Stmt &X) {
          return X.Kind == ir::Stmt::ParallelFor;
        });
      });
  if (First.empty() || Nested) {
    body(L, Indent);
    return;
  }
  eitherWay(Indent, First, {}, {}, InWindows, [&](int At) { body(L, At); });
}

void BodyPrinter::eitherWay(int Indent, const std::string &Condition,
                            const std::vector<std::string> &Before,
                            const std::vector<std::string> &After, bool &Flag,
                            const std::function<void(int)> &Print) {
  const std::string Pad(static_cast<std::size_t>(Indent) * 2, ' ');
  OS << Pad << "if (" << Condition << ") {\n";
  for (const std::string &S : Before)
    OS << Pad << "  " << S << "\n";
  Flag = true;
  Print(Indent + 1);
  Flag = false;
  for (const std::string &S : After)
    OS << Pad << "  " << S << "\n";
  OS << Pad << "} else {\n";
  Print(Indent + 1);
  OS << Pad << "}\n";
}

} // namespace weft::emit
