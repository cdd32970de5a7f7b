// RegisterTile.cpp: a register-tiled nest (plan/KernelPlan's
// RegisterTilePlan, the matrix product's outer-product form): blocks walk
// the outputs in BM x BN block tiles; each thread keeps its TM x TN
// outputs' locals in registers; the loop advances WEFT_TILE iterations at
// a time through shared memory, each iteration reading a fragment of every
// tile into registers and updating every output from them. Outputs past
// the nest's extents are computed on zeros and never stored.
#include "emit/BodyPrinter.h"

#include "ir/IrQueries.h"

#include <algorithm>

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
    const std::string &Pad, Outputs Which,
    const std::function<void(const std::string &)> &Print) {
  if (Which == Outputs::InRangeFullTileFirst) {
    // Guarded global loads of every output (the output-accumulating
    // product's registers) cost ptxas 10-40 registers across tile shapes
    // (NVRTC 13, sm_90: 139 -> 125 for 8 x 8 in 16 x 16); the tiles of a
    // large problem are all but its edges wholly in range.
    OS << Pad << "if (weft_b0 + WEFT_BM <= weft_count0 && weft_b1 + WEFT_BN "
       << "<= weft_count1) {\n";
    eachOutputLoop(Pad + "  ", /*Guarded=*/false, /*Record=*/true, Print);
    OS << Pad << "} else {\n";
    eachOutputLoop(Pad + "  ", /*Guarded=*/true, /*Record=*/true, Print);
    OS << Pad << "}\n";
    return;
  }
  const bool InRange = Which == Outputs::InRange;
  eachOutputLoop(Pad, /*Guarded=*/InRange, /*Record=*/InRange, Print);
}

void BodyPrinter::eachOutputLoop(
    const std::string &Pad, bool Guarded, bool Record,
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
  const std::string Body = Guarded ? In + "  " : In;
  if (Guarded)
    OS << In << "if (weft_t0 < weft_count0 && weft_t1 < weft_count1) {\n";
  if (Record)
    OS << Body << "weft::begin_iteration(weft_t0);\n"
       << Body << "weft::begin_inner_iteration(weft_t1);\n";
  Print(Body);
  if (Guarded)
    OS << In << "}\n";
  OS << Pad << "  }\n";
}

void BodyPrinter::fetchRegisterTiles(const std::string &Pad) {
  const memory::TiledLoop &TL = *Plan->Tiled;
  const ir::Level &Root = N.Root, &Inner = *TL.Inner;
  const std::string KT = ir::spelling(TL.IndexType), In = Pad + "  ";
  for (std::size_t T = 0; T < TL.Tiles.size(); ++T) {
    const memory::Tile &Tile = TL.Tiles[T];
    const ir::Param &P = N.Params[Tile.Param];
    const std::string Id = std::to_string(T);
    const std::map<std::string, std::string> Saved = Renamed;
    Renamed[TL.Index] = "((" + KT + ")(weft_kn + weft_kk))";
    if (Tile.AlongOuter)
      Renamed[Root.IndexName] = indexAt(Root, 0, "weft_b0 + weft_m");
    else
      Renamed[Inner.IndexName] = indexAt(Inner, 1, "weft_b1 + weft_n");
    const std::string Subscript = expr(*Tile.Reads.front()->Operands[0]);
    Renamed = Saved;
    OS << Pad << "#pragma unroll\n"
       << Pad << "for (int weft_q = 0; weft_q < WEFT_UNITS" << Id
       << "; ++weft_q) {\n";
    unitPosition(In, T);
    // Elements of the run the span holds: the rest of the row's (column's)
    // iterations, or none past the block's outputs and the tile.
    if (Tile.AlongOuter)
      OS << In << "const weft::index_t weft_valid = weft_e < WEFT_TILE * "
         << "WEFT_BM && weft_b0 + weft_m < weft_count0 ? weft_khi - (weft_kn "
         << "+ weft_kk) : 0;\n";
    else
      OS << In << "const weft::index_t weft_valid = weft_e < WEFT_TILE * "
         << "WEFT_BN && weft_kn + weft_kk < weft_khi ? weft_count1 - (weft_b1 "
         << "+ weft_n) : 0;\n";
    OS << In << "weft::load_run(weft_next" << Id << "[weft_q], " << P.Name
       << ", " << Subscript << ", weft_valid" << (Tile.Written ? ", 2" : "")
       << ");\n"
       << Pad << "}\n";
  }
}

void BodyPrinter::declareNextTiles(const std::string &Pad) {
  const memory::TiledLoop &TL = *Plan->Tiled;
  for (std::size_t T = 0; T < TL.Tiles.size(); ++T) {
    const ir::Param &P = N.Params[TL.Tiles[T].Param];
    const std::string Id = std::to_string(T);
    OS << Pad << ir::typeName(N, P.Element, P.Struct) << " weft_next" << Id
       << "[WEFT_UNITS" << Id << "][WEFT_VEC" << Id << "];\n";
  }
}

void BodyPrinter::unitPosition(const std::string &Pad, std::size_t T) {
  const std::string Id = std::to_string(T);
  OS << Pad << "const weft::index_t weft_e = ((weft::index_t)"
     << "weft::linear_thread() + (weft::index_t)weft_q * WEFT_BLOCK_THREADS) "
     << "* WEFT_VEC" << Id << ";\n";
  // A row tile's runs go along the loop (the subscript's unit stride), a
  // column tile's along the level.
  if (Plan->Tiled->Tiles[T].AlongOuter)
    OS << Pad << "const weft::index_t weft_m = weft_e / WEFT_TILE, weft_kk = "
       << "weft_e % WEFT_TILE;\n";
  else
    OS << Pad << "const weft::index_t weft_kk = weft_e / WEFT_BN, weft_n = "
       << "weft_e % WEFT_BN;\n";
}

void BodyPrinter::storeRegisterTiles(const std::string &Pad,
                                     const std::string &Buffer) {
  const memory::TiledLoop &TL = *Plan->Tiled;
  const std::string In = Pad + "  ", In2 = In + "  ";
  for (std::size_t T = 0; T < TL.Tiles.size(); ++T) {
    const bool Row = TL.Tiles[T].AlongOuter;
    const std::string Id = std::to_string(T),
                      Span = Row ? "WEFT_BM" : "WEFT_BN";
    const ir::Expr *Factor = Plan->RegisterTile->Factor[T];
    const std::string Next = "weft_next" + Id + "[weft_q][weft_v]";
    OS << Pad << "#pragma unroll\n"
       << Pad << "for (int weft_q = 0; weft_q < WEFT_UNITS" << Id
       << "; ++weft_q) {\n";
    unitPosition(In, T);
    OS << In << "if (weft_e < WEFT_TILE * " << Span << ") {\n"
       << In2 << "#pragma unroll\n"
       << In2 << "for (int weft_v = 0; weft_v < WEFT_VEC" << Id
       << "; ++weft_v)\n"
       << In2 << "  weft_tile" << Id << "[((" << Buffer << ") * WEFT_TILE + "
       << (Row ? "weft_kk + weft_v) * (WEFT_BM + 4) + weft_m"
               : "weft_kk) * (WEFT_BN + 4) + weft_n + weft_v")
       << "] = " << (Factor ? "(" + expr(*Factor) + " * " + Next + ")" : Next)
       << ";\n"
       << In << "}\n"
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
       << ".ld((weft_read * WEFT_TILE + weft_kk) * ("
       << (Tile.AlongOuter ? "WEFT_BM" : "WEFT_BN") << " + 4) + "
       << (Tile.AlongOuter ? "WEFT_ROW" : "WEFT_COL") << "(" << I << "));\n";
  }
  // A span the nest also writes: on the simulator each output in range
  // records its reads as its own iteration's, so that the checker still
  // tells a read of what another iteration writes.
  const bool Written =
      std::any_of(TL.Tiles.begin(), TL.Tiles.end(),
                  [](const memory::Tile &T) { return T.Written; });
  // An assert of the body (a bounds-checked accessor's) holds only for
  // the outputs in range: the others' indices run past the loops' ends.
  const bool Asserts =
      ir::anyExpression(*TL.Loop->Children[1], [](const ir::Expr &E) {
        return E.Kind == ir::Expr::Call && E.Text == "weft::assertion_failed";
      });
  eachOutput(Pad, Outputs::All, [&](const std::string &In) {
    if (Written)
      OS << "#if defined(WEFT_DIALECT_SIM)\n"
         << In << "const bool weft_out_in = weft_t0 < weft_count0 && "
         << "weft_t1 < weft_count1;\n"
         << In << "if (weft_out_in) {\n"
         << In << "  weft::begin_iteration(weft_t0);\n"
         << In << "  weft::begin_inner_iteration(weft_t1);\n"
         << In << "}\n"
         << "#endif\n";
    if (Asserts)
      OS << In << "if (weft_t0 < weft_count0 && weft_t1 < weft_count1)\n";
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
  // Before the loop: each output's code in order, then its registers (a
  // block tile wholly in range loads them unguarded).
  const Outputs Before =
      RT.Registers.empty() ? Outputs::InRange : Outputs::InRangeFullTileFirst;
  eachOutput(In2, Before, [&](const std::string &Out) {
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
  // The loop, a tile of iterations at a time, in two buffers: each thread
  // fetches its share of the next tile into registers, computes from this
  // one, then stores its share; one barrier a tile, and the global loads'
  // latency hidden behind the tile's arithmetic.
  const std::string K = In2 + "  ", K2 = K + "  ";
  InRegisterTile = false;
  OS << In2 << "const weft::index_t weft_klo = (weft::index_t)("
     << expr(*TL.Lower) << ");\n"
     << In2 << "int weft_read = 0;\n"
     << In2 << "if (weft_klo < weft_khi) {\n"
     << K << "const weft::index_t weft_kn = weft_klo;\n";
  declareNextTiles(K);
  fetchRegisterTiles(K);
  storeRegisterTiles(K, "0");
  OS << In2 << "}\n"
     << In2 << "weft::barrier();\n"
     << In2 << "for (weft::index_t weft_k0 = weft_klo; weft_k0 < weft_khi; "
     << "weft_k0 += WEFT_TILE) {\n"
     << K << "const weft::index_t weft_kn = weft_k0 + WEFT_TILE;\n";
  declareNextTiles(K);
  OS << K << "if (weft_kn < weft_khi) {\n";
  fetchRegisterTiles(K + "  ");
  OS << K << "}\n";
  InRegisterTile = true;
  OS << K << "if (weft_khi - weft_k0 >= WEFT_TILE) {\n"
     << K2 << "#pragma unroll\n"
     << K2 << "for (int weft_kk = 0; weft_kk < WEFT_TILE; ++weft_kk) {\n";
  registerTileStep(K2 + "  ");
  OS << K2 << "}\n"
     << K << "} else {\n"
     << K2 << "for (int weft_kk = 0; weft_kk < weft_khi - weft_k0; ++weft_kk) "
     << "{\n";
  registerTileStep(K2 + "  ");
  OS << K2 << "}\n" << K << "}\n" << K << "if (weft_kn < weft_khi) {\n";
  storeRegisterTiles(K + "  ", "1 - weft_read");
  OS << K << "}\n"
     << K << "weft::barrier();\n"
     << K << "weft_read = 1 - weft_read;\n"
     << In2 << "}\n";
  // After the loop: each output's registers back, then its code.
  eachOutput(In2, Outputs::InRange, [&](const std::string &Out) {
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
