// TiledLoop.cpp: the inner level of a tiled nest, or a one-level nest's
// body, and its loop walked in shared-memory tiles (the matrix-product, lud
// and n-body cases; see memory/TilingPlan.h).
#include "emit/BodyPrinter.h"
#include "ir/IrQueries.h"

namespace weft::emit {

std::string BodyPrinter::axis(unsigned D) const {
  return std::to_string(Axis[D]);
}

std::string BodyPrinter::block(unsigned D) const {
  return std::string("WEFT_BLOCK_") + AxisName[Axis[D]];
}

std::string BodyPrinter::tileRead(std::size_t T) {
  const memory::TiledLoop &TL = *Plan->Tiled;
  if (InRegisterTile)
    return "weft_frag" + std::to_string(T) +
           (TL.Tiles[T].AlongOuter ? "[weft_r]" : "[weft_c]");
  const std::string K = "((weft::index_t)(" + TL.Index + ") - weft_k0)";
  const std::string Name = "weft_tile" + std::to_string(T);
  if (Coarse)
    return "weft_v" + std::to_string(T); // read once for all iterations
  if (TL.WholeBlock)
    return wholeBlockRead(T, K);
  const unsigned D = TL.Inner->Depth;
  if (TL.Tiles[T].AlongOuter)
    return Name + ".ld((weft::index_t)weft::thread_idx(" + axis(D - 1) +
           ") * (WEFT_TILE + 1) + " + K + ")";
  return Name + ".ld(" + K + " * (" + block(D) + " + 1) + weft::thread_idx(" +
         axis(D) + "))";
}

std::string BodyPrinter::wholeBlockRead(std::size_t T,
                                        const std::string &K) const {
  const memory::Tile &Tile = Plan->Tiled->Tiles[T];
  const std::string Name = "weft_tile" + std::to_string(Tile.holder(T));
  if (Tile.RecordWidth == 1)
    return Name + ".ld(" + K + ")";
  return Name + ".ld((" + K + ") * " + std::to_string(Tile.RecordWidth) +
         " + " + std::to_string(Tile.Field) + ")";
}

void BodyPrinter::openBlockWalk(const ir::Level &L, const std::string &Pad,
                                const std::string &Above, bool GuardIteration,
                                bool Coarsened) {
  const std::string T = ir::spelling(L.IndexType), D = std::to_string(L.Depth),
                    In = Pad + "  ", In2 = In + "  ";
  const std::string A = axis(L.Depth), B = block(L.Depth);
  OS << Pad << "{\n";
  levelRange(L, In);
  // The simulator's checker tells iterations one level in apart.
  if (L.Depth == 1)
    OS << In << "weft::inner_level(true);\n";
  // Coarsened, blocks step by WEFT_CM blocks and each thread's indices
  // come per iteration (coarsenedBody).
  const std::string Step = B + (Coarsened ? " * WEFT_CM" : "");
  OS << In << "for (weft::index_t weft_b" << D
     << " = (weft::index_t)weft::block_idx(" << A << ") * " << Step
     << "; weft_b" << D << " < weft_count" << D << "; weft_b" << D
     << " += (weft::index_t)weft::grid_dim(" << A << ") * " << Step << ") {\n";
  if (Coarsened)
    return;
  OS << In2 << "const weft::index_t weft_t" << D << " = weft_b" << D
     << " + weft::thread_idx(" << A << ");\n"
     << In2 << "const bool weft_in" << D << " = weft_t" << D << " < weft_count"
     << D << (Above.empty() ? "" : " && " + Above) << ";\n";
  if (L.Depth == 1)
    OS << In2 << (GuardIteration ? "if (weft_in" + D + ")\n" + In2 + "  " : "")
       << "weft::begin_inner_iteration(weft_t" << D << ");\n";
  OS << In2 << "const " << T << " " << L.IndexName << " = (" << T << ")(weft_lo"
     << D << " + weft_t" << D
     << (L.Step != 1 ? " * " + std::to_string(L.Step) : "") << ");\n";
}

void BodyPrinter::closeBlockWalk(const ir::Level &L, const std::string &Pad) {
  OS << Pad << "  }\n";
  if (L.Depth == 1)
    OS << Pad << "  weft::inner_level(false);\n";
  OS << Pad << "}\n";
}

void BodyPrinter::tiledLevel(const ir::Level &L, const std::string &Pad) {
  const std::string In = Pad + "  ", In2 = In + "  ";
  const std::string D = std::to_string(L.Depth),
                    O = std::to_string(L.Depth - 1);
  openBlockWalk(L, Pad, "", false);
  OS << In2 << "const bool weft_active = weft_in" << O << " && weft_in" << D
     << ";\n";
  const unsigned Saved = Depth;
  Depth = L.Depth;
  const int Indent = static_cast<int>(In2.size() / 2);
  bool After = false;
  for (const ir::StmtPtr &S : L.Body) {
    if (S.get() == Plan->Tiled->Loop) {
      loadRegisters(*S, In2, "weft_active");
      RegistersHandled.insert(S.get());
      tiledLoop(In2, Indent);
      RegistersHandled.erase(S.get());
      storeRegisters(*S, In2, "weft_active");
      // What follows the loop runs where the thread's indices are.
      OS << In2 << "if (weft_active) {\n";
      After = true;
      continue;
    }
    // Before the loop: declarations run in every thread (they read no
    // span), statements only where the thread's indices are.
    if (!After && S->Kind != ir::Stmt::Decl) {
      OS << In2 << "if (weft_active)\n";
      stmt(*S, Indent + 1);
      continue;
    }
    stmt(*S, After ? Indent + 1 : Indent);
  }
  OS << In2 << "}\n";
  Depth = Saved;
  closeBlockWalk(L, Pad);
}

void BodyPrinter::walkedLevel(const ir::Level &L, const std::string &Pad) {
  if (Plan->Coarsened && &L == Plan->Tiled->Inner) {
    openBlockWalk(L, Pad, "", false, /*Coarsened=*/true);
    const unsigned Saved = Depth;
    Depth = L.Depth;
    coarsenedBody(L, static_cast<int>(Pad.size() / 2) + 2,
                  "weft_in" + std::to_string(L.Depth - 1));
    Depth = Saved;
    closeBlockWalk(L, Pad);
    return;
  }
  // Out of range above, the bounds might read outside the spans: they read
  // only captures and indices the block shares (memory/TilingPlan).
  openBlockWalk(L, Pad, "weft_in" + std::to_string(L.Depth - 1), true);
  const unsigned Saved = Depth;
  Depth = L.Depth;
  walkedBody(L, static_cast<int>(Pad.size() / 2) + 2,
             "weft_in" + std::to_string(L.Depth));
  Depth = Saved;
  closeBlockWalk(L, Pad);
}

void BodyPrinter::walkedBody(const ir::Level &L, int Indent,
                             const std::string &InRange) {
  const std::string Pad(2 * Indent, ' ');
  // Above the tiled level: its declarations, then the next level, which
  // the block walks together too.
  const bool Above = &L != Plan->Tiled->Inner;
  const std::string Active = Above ? InRange : "weft_active";
  if (!Above)
    OS << Pad << "const bool weft_active = " << InRange << ";\n";
  bool After = false;
  for (const ir::StmtPtr &S : L.Body) {
    if (S.get() == Plan->Tiled->Loop) {
      loadRegisters(*S, Pad, Active);
      RegistersHandled.insert(S.get());
      tiledLoop(Pad, Indent);
      RegistersHandled.erase(S.get());
      storeRegisters(*S, Pad, Active);
      OS << Pad << "if (" << Active << ") {\n";
      After = true;
      continue;
    }
    if (After || S->Kind == ir::Stmt::ParallelFor) {
      stmt(*S, After ? Indent + 1 : Indent);
      continue;
    }
    // Out of range, an initializer of the thread's might read outside a
    // span or divide by zero: the thread holds a value-initialized one.
    if (S->Kind == ir::Stmt::Decl && S->Exprs[0] &&
        !ir::gridUniform(*S->Exprs[0])) {
      const std::string T =
          ir::typeName(N, S->VarType.Scalar, S->VarType.Struct);
      OS << Pad << (S->VarType.IsConst ? "const " : "") << T << " " << S->Name
         << " = " << Active << " ? (" << T << ")(" << expr(*S->Exprs[0])
         << ") : " << T << "();\n";
      continue;
    }
    if (S->Kind != ir::Stmt::Decl)
      OS << Pad << "if (" << Active << ")\n";
    stmt(*S, S->Kind == ir::Stmt::Decl ? Indent : Indent + 1);
  }
  if (After)
    OS << Pad << "}\n";
}

void BodyPrinter::coarsenedIndex(const std::string &Pad) {
  const ir::Level &L = *Coarse;
  const std::string T = ir::spelling(L.IndexType), D = std::to_string(L.Depth);
  OS << Pad << "const weft::index_t weft_t" << D << " = weft_b" << D
     << " + (weft::index_t)weft_u * " << block(L.Depth)
     << " + weft::thread_idx(" << axis(L.Depth) << ");\n"
     << Pad << "const " << T << " " << L.IndexName << " = (" << T << ")(weft_lo"
     << D << " + weft_t" << D
     << (L.Step != 1 ? " * " + std::to_string(L.Step) : "") << ");\n";
}

std::string BodyPrinter::coarsenedCheckerIteration() const {
  // The checker tells iterations of the outermost level and the one in
  // apart, the thread's several ones too.
  if (Coarse->Depth == 0)
    return "weft::begin_iteration(weft_t0);\n";
  if (Coarse->Depth == 1)
    return "weft::begin_inner_iteration(weft_t1);\n";
  return "";
}

void BodyPrinter::eachCoarsenedIteration(
    const std::string &Pad, const std::function<void(int)> &Print) {
  const std::string In = Pad + "    ";
  OS << Pad << "#pragma unroll\n"
     << Pad << "for (int weft_u = 0; weft_u < WEFT_CM; ++weft_u)\n"
     << Pad << "  if (weft_on[weft_u]) {\n";
  coarsenedIndex(In);
  if (const std::string Begin = coarsenedCheckerIteration(); !Begin.empty())
    OS << In << Begin;
  Print(static_cast<int>(In.size() / 2));
  OS << Pad << "  }\n";
}

void BodyPrinter::coarsenedBody(const ir::Level &L, int Indent,
                                const std::string &Above) {
  const std::string Pad(2 * Indent, ' '), In = Pad + "  ";
  const std::string D = std::to_string(L.Depth);
  const std::map<std::string, std::string> Saved = Renamed;
  Coarse = &L;
  // The thread's iterations: in range or not, and their declarations.
  OS << Pad << "bool weft_on[WEFT_CM];\n";
  for (const ir::StmtPtr &S : L.Body) {
    if (S.get() == Plan->Tiled->Loop)
      break;
    if (S->Kind != ir::Stmt::Decl)
      continue;
    OS << Pad << ir::typeName(N, S->VarType.Scalar, S->VarType.Struct) << " "
       << S->Name << "[WEFT_CM];\n";
  }
  OS << Pad << "#pragma unroll\n"
     << Pad << "for (int weft_u = 0; weft_u < WEFT_CM; ++weft_u) {\n";
  coarsenedIndex(In);
  OS << In << "weft_on[weft_u] = weft_t" << D << " < weft_count" << D
     << (Above.empty() ? "" : " && " + Above) << ";\n";
  if (const std::string Begin = coarsenedCheckerIteration(); !Begin.empty())
    OS << In << "if (weft_on[weft_u])\n" << In << "  " << Begin;
  for (const ir::StmtPtr &S : L.Body) {
    if (S.get() == Plan->Tiled->Loop)
      break;
    if (S->Kind == ir::Stmt::Decl) {
      Renamed[S->Name] = S->Name + "[weft_u]";
      if (!S->Exprs[0])
        continue;
      // Out of range, an initializer might read outside a span.
      const std::string T =
          ir::typeName(N, S->VarType.Scalar, S->VarType.Struct);
      OS << In << S->Name << "[weft_u] = ";
      if (ir::gridUniform(*S->Exprs[0]))
        OS << expr(*S->Exprs[0]) << ";\n";
      else
        OS << "weft_on[weft_u] ? (" << T << ")(" << expr(*S->Exprs[0])
           << ") : " << T << "();\n";
      continue;
    }
    OS << In << "if (weft_on[weft_u])\n";
    stmt(*S, Indent + 2);
  }
  OS << Pad << "}\n";
  tiledLoop(Pad, Indent);
  // After the loop, each iteration's code where it is in range.
  bool After = false;
  eachCoarsenedIteration(Pad, [&](int Depth) {
    for (const ir::StmtPtr &S : L.Body) {
      if (After)
        stmt(*S, Depth);
      After = After || S.get() == Plan->Tiled->Loop;
    }
  });
  Coarse = nullptr;
  Renamed = Saved;
}

void BodyPrinter::tiledLoop(const std::string &Pad, int Indent) {
  const memory::TiledLoop &TL = *Plan->Tiled;
  const std::string KT = ir::spelling(TL.IndexType), In = Pad + "  ";
  const std::string Hi = "(weft::index_t)(" + expr(*TL.Upper) + ")";
  // WEFT_STAGING=0 builds the loop as written, reading global memory.
  OS << "#if WEFT_STAGING\n"
     << Pad << "for (weft::index_t weft_k0 = (weft::index_t)("
     << expr(*TL.Lower) << "); weft_k0 < " << Hi
     << "; weft_k0 += WEFT_TILE) {\n";
  for (std::size_t T = 0; T < TL.Tiles.size(); ++T) {
    const memory::Tile &Tile = TL.Tiles[T];
    if (Tile.holder(T) != T)
      continue; // loaded with its record
    const std::string Span = N.Params[Tile.Param].Name;
    // A record's tile holds whole records, the block loading one element a
    // thread at a time: the records lie one after another in the span, so
    // the block's loads are consecutive.
    const std::string W = std::to_string(Tile.RecordWidth);
    const std::string PerRecord = Tile.RecordWidth > 1 ? " / " + W : "";
    Renamed[TL.Index] = "((" + KT + ")(weft_k0 + weft_kk" + PerRecord + "))";
    const std::string At = expr(*Tile.Reads.front()->Operands[0]);
    Renamed.erase(TL.Index);
    // A span the nest writes after the loop: the load is no iteration's
    // read (the read from shared memory records it), only checked against
    // the extent.
    const auto Load = [&](const std::string &I) {
      return Tile.Written ? "(*" + Span + ".at(" + I + "))"
                          : Span + ".ld(" + I + ")";
    };
    const std::string Source = Load(At);
    const std::string Name = "weft_tile" + std::to_string(T);
    if (TL.WholeBlock) {
      // The loop may guard its reads: the block loads only elements in
      // the span.
      const bool Record = Tile.RecordWidth > 1;
      OS << In
         << "for (weft::index_t weft_kk = "
            "(weft::index_t)weft::linear_thread(); "
            "weft_kk < WEFT_TILE"
         << (Record ? " * " + W : "") << "; weft_kk += WEFT_BLOCK_THREADS)\n"
         << In << "  if (weft_k0 + weft_kk" << PerRecord << " < " << Hi
         << ") {\n"
         << In << "    const weft::index_t weft_at = (weft::index_t)(" << At
         << ")" << (Record ? " + weft_kk % " + W : "") << ";\n"
         << In << "    if (weft_at >= 0 && weft_at < (weft::index_t)" << Span
         << ".size())\n"
         << In << "      " << Name << "[weft_kk] = " << Load("weft_at") << ";\n"
         << In << "  }\n";
      continue;
    }
    // The pair's depths: the outer level's threads own rows, the inner's
    // columns; the other dimension's threads load them.
    const unsigned Inner = TL.Inner->Depth, Outer = Inner - 1;
    const unsigned Loader = Tile.AlongOuter ? Inner : Outer,
                   Owner = Tile.AlongOuter ? Outer : Inner;
    OS << In << "for (weft::index_t weft_kk = weft::thread_idx(" << axis(Loader)
       << "); weft_kk < WEFT_TILE; weft_kk += " << block(Loader) << ")\n"
       << In << "  if (weft_in" << Owner << " && weft_k0 + weft_kk < " << Hi
       << ")\n"
       << In << "    " << Name << "["
       << (Tile.AlongOuter
               ? "(weft::index_t)weft::thread_idx(" + axis(Outer) +
                     ") * (WEFT_TILE + 1) + weft_kk"
               : "weft_kk * (" + block(Inner) + " + 1) + weft::thread_idx(" +
                     axis(Inner) + ")")
       << "] = " << Source << ";\n";
  }
  // One exit, its bound computed once a tile: the compiler unrolls the
  // loop (a remainder loop for the last tile), its shared reads at
  // constant offsets, the index's compare and step once in four.
  // (Compared in the index's type: its trip count is then known.)
  const std::string Header = "for (" + KT + " " + TL.Index + " = (" + KT +
                             ")weft_k0; " + TL.Index + " < (" + KT +
                             ")weft_ke; ++" + TL.Index + ")";
  OS << In << "weft::barrier();\n"
     << In << "const weft::index_t weft_ke = " << Hi
     << " < weft_k0 + WEFT_TILE ? " << Hi << " : weft_k0 + WEFT_TILE;\n";
  if (Coarse) {
    // Each shared element read once for the thread's iterations (a read
    // the body guards may find an element never loaded: it goes unused).
    // With one iteration a thread (the mapped WEFT_CM), its guard holds
    // for the whole loop and is tested once: NVVM left it in the loop, a
    // branch an iteration that kept iterations from interleaving (n-body's
    // PTX, 1.35x the hand-written kernel on the H200).
    OS << In << "if (WEFT_CM > 1 || weft_on[0]) {\n"
       << In << "#pragma unroll 4\n"
       << In << Header << " {\n";
    for (std::size_t T = 0; T < TL.Tiles.size(); ++T) {
      const ir::Param &P = N.Params[TL.Tiles[T].Param];
      OS << In << "  const " << ir::typeName(N, P.Element, P.Struct)
         << " weft_v" << T << " = "
         << wholeBlockRead(T, "(weft::index_t)(" + TL.Index + ") - weft_k0")
         << ";\n";
    }
    eachCoarsenedIteration(
        In + "  ", [&](int Depth) { stmt(*TL.Loop->Children[1], Depth); });
    OS << In << "}\n" << In << "}\n";
  } else {
    OS << In << "if (weft_active) {\n"
       << In << "  #pragma unroll 4\n"
       << In << "  " << Header << "\n";
    nested(*TL.Loop->Children[1], Indent + 2);
    OS << In << "}\n";
  }
  OS << In << "weft::barrier();\n" << Pad << "}\n#else\n";
  std::map<const ir::Expr *, std::size_t> Tiles;
  std::swap(Tiles, TileReads);
  if (Coarse) {
    eachCoarsenedIteration(Pad, [&](int Depth) { stmt(*TL.Loop, Depth); });
  } else {
    OS << Pad << "if (weft_active)\n";
    stmt(*TL.Loop, Indent + 1);
  }
  std::swap(Tiles, TileReads);
  OS << "#endif\n";
}

} // namespace weft::emit
