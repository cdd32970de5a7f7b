// RegisterTile.cpp: a register-tiled nest (plan/KernelPlan's
// RegisterTilePlan, the matrix product's outer-product form): blocks walk
// the outputs in BM x BN block tiles; each thread keeps its TM x TN
// outputs' locals in registers; the loop advances WEFT_TILE iterations at
// a time through shared memory, each iteration reading a fragment of every
// tile into registers and updating every output from them. Outputs past
// the nest's extents are computed on zeros and never stored.
#include "emit/BodyPrinter.h"

namespace weft::emit {
namespace {

/// "(T)(weft_loD + (Base) * step)": a level's index for a position.
std::string indexAt(const ir::Level &L, unsigned D, const std::string &Base) {
  const std::string T = ir::spelling(L.IndexType);
  return "((" + T + ")(weft_lo" + std::to_string(D) + " + (" + Base + ")" +
         (L.Step != 1 ? " * " + std::to_string(L.Step) : "") + "))";
}

} // namespace

void BodyPrinter::eachOutput(
    const std::string &Pad, bool Guarded,
    const std::function<void(const std::string &)> &Print) {
  const ir::Level &Root = N.Root, &Inner = *Plan->Tiled->Inner;
  const std::string In = Pad + "    ";
  OS << Pad << "#pragma unroll\n"
     << Pad << "for (int weft_r = 0; weft_r < WEFT_TM; ++weft_r)\n"
     << Pad << "#pragma unroll\n"
     << Pad << "  for (int weft_c = 0; weft_c < WEFT_TN; ++weft_c) {\n"
     << In << "const weft::index_t weft_t0 = weft_b0 + WEFT_ROW(weft_r);\n"
     << In << "const weft::index_t weft_t1 = weft_b1 + WEFT_COL(weft_c);\n"
     << In << "const " << ir::spelling(Root.IndexType) << " " << Root.IndexName
     << " = " << indexAt(Root, 0, "weft_t0") << ";\n"
     << In << "const " << ir::spelling(Inner.IndexType) << " "
     << Inner.IndexName << " = " << indexAt(Inner, 1, "weft_t1") << ";\n";
  if (Guarded) {
    OS << In << "if (weft_t0 < weft_count0 && weft_t1 < weft_count1) {\n"
       << In << "  weft::begin_iteration(weft_t0);\n"
       << In << "  weft::begin_inner_iteration(weft_t1);\n";
    Print(In + "  ");
    OS << In << "}\n";
  } else {
    Print(In);
  }
  OS << Pad << "  }\n";
}

void BodyPrinter::loadRegisterTiles(const std::string &Pad) {
  const memory::TiledLoop &TL = *Plan->Tiled;
  const ir::Level &Root = N.Root, &Inner = *TL.Inner;
  const std::string KT = ir::spelling(TL.IndexType), In = Pad + "  ";
  for (std::size_t T = 0; T < TL.Tiles.size(); ++T) {
    const memory::Tile &Tile = TL.Tiles[T];
    const ir::Param &P = N.Params[Tile.Param];
    const std::string Type = ir::typeName(N, P.Element, P.Struct);
    // Along the loop fastest for a row tile (its subscript's unit stride),
    // along the level for a column tile.
    const std::string Span = Tile.AlongOuter ? "WEFT_BM" : "WEFT_BN";
    const std::string Pos = Tile.AlongOuter ? "weft_m" : "weft_n";
    const std::map<std::string, std::string> Saved = Renamed;
    Renamed[TL.Index] = "((" + KT + ")(weft_k0 + weft_kk))";
    if (Tile.AlongOuter)
      Renamed[Root.IndexName] = indexAt(Root, 0, "weft_b0 + weft_m");
    else
      Renamed[Inner.IndexName] = indexAt(Inner, 1, "weft_b1 + weft_n");
    const std::string Source =
        P.Name + ".ld(" + expr(*Tile.Reads.front()->Operands[0]) + ")";
    Renamed = Saved;
    OS << Pad << "for (weft::index_t weft_e = weft::linear_thread(); weft_e < "
       << "WEFT_TILE * " << Span << "; weft_e += WEFT_BLOCK_THREADS) {\n";
    if (Tile.AlongOuter)
      OS << In << "const weft::index_t weft_m = weft_e / WEFT_TILE, "
         << "weft_kk = weft_e % WEFT_TILE;\n";
    else
      OS << In << "const weft::index_t weft_kk = weft_e / WEFT_BN, "
         << "weft_n = weft_e % WEFT_BN;\n";
    OS << In << "weft_tile" << T << "[weft_kk * (" << Span << " + 4) + " << Pos
       << "] = "
       << (Tile.AlongOuter ? "weft_b0 + weft_m < weft_count0"
                           : "weft_b1 + weft_n < weft_count1")
       << " && weft_k0 + weft_kk < weft_khi ? " << Source << " : " << Type
       << "();\n"
       << Pad << "}\n";
  }
}

void BodyPrinter::registerTileStep(const std::string &Pad) {
  const memory::TiledLoop &TL = *Plan->Tiled;
  const std::string KT = ir::spelling(TL.IndexType);
  OS << Pad << "const " << KT << " " << TL.Index << " = (" << KT
     << ")(weft_k0 + weft_kk);\n";
  for (std::size_t T = 0; T < TL.Tiles.size(); ++T) {
    const memory::Tile &Tile = TL.Tiles[T];
    const ir::Param &P = N.Params[Tile.Param];
    const std::string Count = Tile.AlongOuter ? "WEFT_TM" : "WEFT_TN";
    const std::string I = Tile.AlongOuter ? "weft_r" : "weft_c";
    OS << Pad << ir::typeName(N, P.Element, P.Struct) << " weft_frag" << T
       << "[" << Count << "];\n"
       << Pad << "#pragma unroll\n"
       << Pad << "for (int " << I << " = 0; " << I << " < " << Count << "; ++"
       << I << ")\n"
       << Pad << "  weft_frag" << T << "[" << I << "] = weft_tile" << T
       << ".ld(weft_kk * (" << (Tile.AlongOuter ? "WEFT_BM" : "WEFT_BN")
       << " + 4) + " << (Tile.AlongOuter ? "WEFT_ROW" : "WEFT_COL") << "(" << I
       << "));\n";
  }
  eachOutput(Pad, /*Guarded=*/false, [&](const std::string &In) {
    nested(*TL.Loop->Children[1], static_cast<int>(In.size() / 2) - 1);
  });
}

void BodyPrinter::registerTiles(int Indent) {
  const plan::RegisterTilePlan &RT = *Plan->RegisterTile;
  const memory::TiledLoop &TL = *Plan->Tiled;
  const ir::Level &Inner = *TL.Inner;
  const std::string Pad(2 * Indent, ' '), In = Pad + "  ", In2 = In + "  ";
  const std::string A0 = std::to_string(Plan->Shape.Depths[0].Axis),
                    A1 = std::to_string(Plan->Shape.Depths[1].Axis);
  // The inner level's range and the loop's are the same in every thread.
  OS << Pad << "const weft::index_t weft_lo1 = (weft::index_t)("
     << expr(*Inner.Lower) << ");\n"
     << Pad << "const weft::index_t weft_hi1 = (weft::index_t)("
     << expr(*Inner.Upper) << ")" << (Inner.Inclusive ? " + 1" : "") << ";\n"
     << Pad
     << "const weft::index_t weft_count1 = weft_hi1 > weft_lo1 ? (weft_hi1 - "
        "weft_lo1 + "
     << (Inner.Step - 1) << ") / " << Inner.Step << " : 0;\n"
     << Pad << "const weft::index_t weft_khi = (weft::index_t)("
     << expr(*TL.Upper) << ");\n"
     << Pad << "for (weft::index_t weft_b0 = (weft::index_t)weft::block_idx("
     << A0 << ") * WEFT_BM; weft_b0 < weft_count0;\n"
     << Pad << "     weft_b0 += (weft::index_t)weft::grid_dim(" << A0
     << ") * WEFT_BM)\n"
     << Pad << "  for (weft::index_t weft_b1 = (weft::index_t)weft::block_idx("
     << A1 << ") * WEFT_BN; weft_b1 < weft_count1;\n"
     << Pad << "       weft_b1 += (weft::index_t)weft::grid_dim(" << A1
     << ") * WEFT_BN) {\n";
  // Each output's locals and registers, in registers.
  std::map<std::string, std::string> Saved = Renamed;
  for (const ir::Stmt *A : RT.Accumulators) {
    OS << In2 << ir::typeName(N, A->VarType.Scalar, A->VarType.Struct) << " "
       << A->Name << "[WEFT_TM][WEFT_TN];\n";
    Renamed[A->Name] = A->Name + "[weft_r][weft_c]";
  }
  for (std::size_t R : RT.Registers) {
    const ir::Param &P = N.Params[Plan->Registers[R].Param];
    OS << In2 << ir::typeName(N, P.Element, P.Struct) << " weft_reg" << R
       << "[WEFT_TM][WEFT_TN]; // " << Plan->Registers[R].Description << "\n";
    PerOutputRegisters.insert(R);
  }
  InRegisterTile = true;
  RegistersHandled.insert(TL.Loop);
  const unsigned SavedDepth = Depth;
  Depth = Inner.Depth; // the statements are the inner level's
  // Before the loop: each output's code in order, then its registers.
  eachOutput(In2, /*Guarded=*/true, [&](const std::string &Out) {
    const int Depth = static_cast<int>(Out.size() / 2);
    for (const ir::StmtPtr &S : Inner.Body) {
      if (S.get() == TL.Loop)
        break;
      if (S->Kind == ir::Stmt::Decl) {
        if (S->Exprs[0])
          OS << Out << S->Name << "[weft_r][weft_c] = " << expr(*S->Exprs[0])
             << ";\n";
        continue;
      }
      stmt(*S, Depth);
    }
    for (std::size_t R : RT.Registers) {
      const ir::ReplacedElement &E = Plan->Registers[R];
      OS << Out << "weft_reg" << R
         << "[weft_r][weft_c] = " << N.Params[E.Param].Name << ".ld("
         << expr(*E.Subscript) << ");\n";
    }
  });
  // The loop, a tile of iterations at a time.
  const std::string K = In2 + "  ", K2 = K + "  ";
  OS << In2 << "for (weft::index_t weft_k0 = (weft::index_t)("
     << expr(*TL.Lower) << "); weft_k0 < weft_khi; weft_k0 += WEFT_TILE) {\n";
  InRegisterTile = false;
  loadRegisterTiles(K);
  InRegisterTile = true;
  OS << K << "weft::barrier();\n"
     << K << "if (weft_khi - weft_k0 >= WEFT_TILE) {\n"
     << K2 << "#pragma unroll\n"
     << K2 << "for (int weft_kk = 0; weft_kk < WEFT_TILE; ++weft_kk) {\n";
  registerTileStep(K2 + "  ");
  OS << K2 << "}\n"
     << K << "} else {\n"
     << K2 << "for (int weft_kk = 0; weft_kk < weft_khi - weft_k0; ++weft_kk) "
     << "{\n";
  registerTileStep(K2 + "  ");
  OS << K2 << "}\n" << K << "}\n" << K << "weft::barrier();\n" << In2 << "}\n";
  // After the loop: each output's registers back, then its code.
  eachOutput(In2, /*Guarded=*/true, [&](const std::string &Out) {
    for (std::size_t R : RT.Registers) {
      const ir::ReplacedElement &E = Plan->Registers[R];
      OS << Out << N.Params[E.Param].Name << "[" << expr(*E.Subscript)
         << "] = weft_reg" << R << "[weft_r][weft_c];\n";
    }
    bool After = false;
    for (const ir::StmtPtr &S : Inner.Body) {
      if (After)
        stmt(*S, static_cast<int>(Out.size() / 2));
      After = After || S.get() == TL.Loop;
    }
  });
  OS << In << "}\n";
  InRegisterTile = false;
  RegistersHandled.erase(TL.Loop);
  PerOutputRegisters.clear();
  Renamed = Saved;
  Depth = SavedDepth;
}

} // namespace weft::emit
