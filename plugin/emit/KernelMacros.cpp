// KernelMacros.cpp: the kernel text's preamble: what loop it is for, the
// prelude, and its tuning parameters as macros the runtime may redefine.
#include "emit/BodyPrinter.h"
#include "emit/KernelParts.h"

#include <sstream>

namespace weft::emit {

std::string kernelPreamble(const plan::KernelPlan &P) {
  const ir::Nest &N = *P.Nest;
  std::ostringstream Src;
  Src << "// weft kernel for the loop at " << N.Location << "\n";
  for (std::size_t D = 0; D < P.Mapping.Levels.size(); ++D)
    Src << "// level " << D << ": " << map::describe(P.Mapping.Levels[D])
        << "\n";
  Src << "#include <weft/device.h>\n\n";
  for (int A = 0; A < 3; ++A)
    Src << "#ifndef WEFT_BLOCK_" << AxisName[A] << "\n#define WEFT_BLOCK_"
        << AxisName[A] << " " << P.Shape.Block[A] << "\n#endif\n";
  Src << "#define WEFT_BLOCK_THREADS (WEFT_BLOCK_X * WEFT_BLOCK_Y * "
         "WEFT_BLOCK_Z)\n";
  if (P.RegisterTile) {
    const char *Row = AxisName[P.Shape.Depths[0].Axis],
               *Col = AxisName[P.Shape.Depths[1].Axis];
    Src << "// Register tiling: each thread computes WEFT_TM x WEFT_TN "
           "outputs, in runs\n// of WEFT_VM (WEFT_VN) next to its "
           "neighbours' runs; the block WEFT_BM x WEFT_BN.\n"
        << "#ifndef WEFT_TM\n#define WEFT_TM " << P.RegisterTile->TM
        << "\n#endif\n#ifndef WEFT_TN\n#define WEFT_TN " << P.RegisterTile->TN
        << "\n#endif\n"
        << "#define WEFT_BM (WEFT_BLOCK_" << Row << " * WEFT_TM)\n"
        << "#define WEFT_BN (WEFT_BLOCK_" << Col << " * WEFT_TN)\n"
        << "#define WEFT_VM (WEFT_TM % 4 == 0 ? 4 : 1)\n"
        << "#define WEFT_VN (WEFT_TN % 4 == 0 ? 4 : 1)\n"
        << "#define WEFT_ROW(r) (((r) / WEFT_VM) * (WEFT_BLOCK_" << Row
        << " * WEFT_VM) + (weft::index_t)weft::thread_idx("
        << P.Shape.Depths[0].Axis << ") * WEFT_VM + (r) % WEFT_VM)\n"
        << "#define WEFT_COL(c) (((c) / WEFT_VN) * (WEFT_BLOCK_" << Col
        << " * WEFT_VN) + (weft::index_t)weft::thread_idx("
        << P.Shape.Depths[1].Axis
        << ") * WEFT_VN + (c) % WEFT_VN)\n"
        // An 8 x 8 tile's thread needs some 130 registers; at 129 or more a
        // 256-thread block fills an SM's 64 Ki alone, and its barriers idle
        // the SM. Capped at 128, two blocks share it (as register-tiled
        // GEMMs are built, and as the mapping's register budget assumes),
        // at the price of a few spills where it is tight.
        << "// Two blocks an SM (registers capped to fit) where a thread "
           "has 64 outputs\n// or more and a block 129 to 256 threads "
           "(smaller ones fit two uncapped).\n"
        << "#ifndef WEFT_TWO_BLOCKS\n#define WEFT_TWO_BLOCKS 1\n#endif\n"
        // Only then a minimum: any minimum changes ptxas's choices (an
        // 8 x 1 tile's 43 registers became 89 under one of 2).
        << "#if WEFT_TWO_BLOCKS && WEFT_TM * WEFT_TN >= 64 && "
           "WEFT_BLOCK_THREADS > 128 && WEFT_BLOCK_THREADS <= 256\n"
        << "#define WEFT_TILE_KERNEL(Name) WEFT_KERNEL_BLOCKS(Name, "
           "WEFT_BLOCK_THREADS, 2)\n#else\n"
        << "#define WEFT_TILE_KERNEL(Name) WEFT_KERNEL(Name, "
           "WEFT_BLOCK_THREADS)\n#endif\n";
    // Per tile: the elements a thread loads at once (16 bytes where the
    // subscript runs along the loaded row), and how many such runs.
    for (std::size_t T = 0; T < P.Tiled->Tiles.size(); ++T) {
      const bool Row = P.Tiled->Tiles[T].AlongOuter;
      const std::string Id = std::to_string(T),
                        Width = std::to_string(P.RegisterTile->VectorWidth[T]);
      Src << "#define WEFT_VEC" << Id << " (" << (Row ? "WEFT_TILE" : "WEFT_BN")
          << " % " << Width << " == 0 ? " << Width << " : 1)\n"
          << "#define WEFT_UNITS" << Id << " ((WEFT_TILE * "
          << (Row ? "WEFT_BM" : "WEFT_BN") << " / WEFT_VEC" << Id
          << " + WEFT_BLOCK_THREADS - 1) / WEFT_BLOCK_THREADS)\n";
    }
  }
  if (P.Tiled)
    Src << "// Iterations of the tiled loop per tile in shared memory.\n"
        << "#ifndef WEFT_TILE\n#define WEFT_TILE " << P.Tiled->Width
        << "\n#endif\n";
  if (P.Coarsened)
    Src << "// Iterations of the tiled level each thread computes.\n"
        << "#ifndef WEFT_CM\n#define WEFT_CM 1\n#endif\n";
  if (P.Window)
    Src << "// Consecutive iterations of level " << P.Window->Tile.Rows->Depth
        << " (" << P.Window->Tile.Rows->IndexName
        << ") each thread computes, the\n// window's loops run once for all "
           "of them.\n"
        << "#ifndef WEFT_RM\n#define WEFT_RM " << P.Window->Rows
        << "\n#endif\n";
  if (!P.Stages.empty() || P.Tiled || !P.Slices.empty() || !P.Residents.empty())
    Src << "#ifndef WEFT_STAGING\n#define WEFT_STAGING 1\n#endif\n";
  if (!P.Stages.empty())
    Src << "// Overlapping reads (windows) and reads by the whole block copied "
           "to\n"
           "// shared memory first: off unless defined to 1. On the H100 and "
           "H200\n"
           "// the L1 cache serves them faster (benchmarks/README.md).\n"
           "#ifndef WEFT_STAGED_RANGES\n#define WEFT_STAGED_RANGES 0\n#endif\n";
  for (std::size_t S = 0; S < P.Stages.size(); ++S)
    Src << "#ifndef WEFT_STAGE" << S << "\n#define WEFT_STAGE" << S << " "
        << P.StageCapacity[S] << "\n#endif\n";
  if (!P.Slices.empty())
    Src << "// Elements of a span a thread holds in shared memory for an "
           "iteration\n// (its slice); a longer slice reads the span in "
           "place.\n";
  if (!P.Residents.empty())
    Src << "// Elements of a span's block the loop holds in shared memory; a "
           "larger\n// block reads the span in place.\n";
  for (std::size_t R = 0; R < P.Residents.size(); ++R)
    Src << "#ifndef WEFT_RESIDENT" << R << "\n#define WEFT_RESIDENT" << R << " "
        << P.Residents[R].Capacity << "\n#endif\n";
  if (!P.UnrolledSteps.empty())
    Src << "// Loops of a few steps, each bounding the loops inside it, "
           "unrolled\n// whole: the inner loops' trip counts become "
           "constants.\n#ifndef WEFT_UNROLL_STEPS\n#define "
           "WEFT_UNROLL_STEPS 1\n#endif\n";
  for (std::size_t S = 0; S < P.Slices.size(); ++S)
    Src << "#ifndef WEFT_SLICE" << S << "\n#define WEFT_SLICE" << S << " "
        << P.Slices[S].Capacity << "\n#endif\n";
  return Src.str();
}

} // namespace weft::emit
