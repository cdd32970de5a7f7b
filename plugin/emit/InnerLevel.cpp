// InnerLevel.cpp: a marked loop inside the outermost one, as its plan says:
// in its thread, or over its dimension's threads with its reductions
// combined across them.
#include "emit/BodyPrinter.h"

#include "ir/IrQueries.h"

namespace weft::emit {
namespace {
/// Statements of a level's body small enough to unroll four times.
constexpr unsigned SmallBody = 8;
} // namespace

void BodyPrinter::level(const ir::Level &L, const std::string &Pad) {
  if (Mode == Phase::Combine && L.Depth == 1) {
    combineSplit(L, Pad);
    return;
  }
  // Tiles: every level down to the tiled one walked by blocks together (a
  // nest of one chain: each level is on it), the pair's inner one with its
  // tiles' rows and columns.
  if (Plan->Tiled && (Plan->Tiled->WholeBlock || &L == Plan->Tiled->Outer)) {
    walkedLevel(L, Pad);
    return;
  }
  if (Plan->Tiled && Plan->Tiled->Inner == &L) {
    tiledLevel(L, Pad);
    return;
  }
  if (Plan->Window && Plan->Window->Tile.Rows == &L) {
    windowLevel(L, Pad);
    return;
  }
  const int A = Axis[L.Depth];
  if (A < 0) {
    inThreadLevel(L, Pad);
    return;
  }
  const plan::LevelPlan &LP = Plan->level(L);
  const map::LevelMapping &LM = Plan->Mapping.Levels[L.Depth];
  const std::string T = ir::spelling(L.IndexType);
  const std::string D = std::to_string(L.Depth);
  const std::string In = Pad + "  ";
  // The simulator's checker tells iterations one level in apart (the
  // loop's claim of independence), whatever the mapping.
  const bool Checked = L.Depth == 1;
  // Out of range, the bounds might read outside the spans: no iterations.
  const std::string InRange =
      Plan->Shape.UniformOuter && L.Depth == 1 ? "!weft_in0 ? 0 : " : "";
  OS << Pad << "{\n";
  levelRange(L, In, InRange);
  stage(LP, In);
  const bool Split = LP.How == plan::Combine::SplitPartials;
  for (const ir::Reduction &R : L.Reductions) {
    if (!Split)
      OS << In << "const " << ir::spelling(R.Type) << " weft_init_"
         << R.Variable << " = " << R.Variable << ";\n";
    OS << In << R.Variable << " = weft::identity<" << reduceOp(R.Op) << ", "
       << ir::spelling(R.Type) << ">();\n";
  }
  if (Checked)
    OS << In << "weft::inner_level(true);\n";
  // A split level's threads each take many iterations, a stride the
  // compiler cannot see (the grid's) apart, which keeps NVVM from unrolling
  // by itself: a split column sum had one load in flight a thread (NVRTC's
  // PTX), the hand-written kernel four. Span(1) takes one iteration a
  // thread; Span(all)'s stride is a constant NVVM unrolls over.
  if (LM.Dop.Kind == map::Parallelism::Split &&
      ir::straightLine(L.Body, SmallBody))
    OS << In << "#pragma unroll 4\n";
  OS << In << "for (weft::index_t weft_t" << D << " = " << loopStart(LM, A)
     << "; weft_t" << D << " < weft_count" << D << "; weft_t" << D
     << " += " << loopStride(LM, A) << ") {\n"
     << In << "  const " << T << " " << L.IndexName << " = (" << T
     << ")(weft_lo" << D << " + weft_t" << D
     << (L.Step != 1 ? " * " + std::to_string(L.Step) : "") << ");\n";
  if (Checked)
    OS << In << "  weft::begin_inner_iteration(weft_t" << D << ");\n";
  windowedBody(L, LP, static_cast<int>(In.size() / 2 + 1));
  OS << In << "}\n";
  if (Checked)
    OS << In << "weft::inner_level(false);\n";
  if (Split)
    splitPartials(L, LP, In);
  else
    combineReductions(L, LP, In);
  if (LP.After == plan::Sync::Barrier) {
    OS << In << "weft::barrier();\n";
  } else if (!LP.Stages.empty()) {
    // Staged ranges off (the default), the block shares no memory here.
    stagedBarrier(In);
    if (LP.After == plan::Sync::Warp)
      OS << In << "else\n" << In << "  weft::warp_sync();\n";
  } else if (LP.After == plan::Sync::Warp) {
    OS << In << "weft::warp_sync();\n";
  }
  OS << Pad << "}\n";
}

void BodyPrinter::levelRange(const ir::Level &L, const std::string &In,
                             const std::string &InRange) {
  const std::string D = std::to_string(L.Depth);
  OS << In << "const weft::index_t weft_lo" << D << " = " << InRange
     << "(weft::index_t)(" << expr(*L.Lower) << ");\n"
     << In << "const weft::index_t weft_hi" << D << " = " << InRange
     << "(weft::index_t)(" << expr(*L.Upper) << ")"
     << (L.Inclusive ? " + 1" : "") << ";\n"
     << In << "const weft::index_t weft_count" << D << " = weft_hi" << D
     << " > weft_lo" << D << " ? (weft_hi" << D << " - weft_lo" << D << " + "
     << (L.Step - 1) << ") / " << L.Step << " : 0;\n";
}

void BodyPrinter::inThreadLevel(const ir::Level &L, const std::string &Pad) {
  const std::string T = ir::spelling(L.IndexType);
  const bool Checked = L.Depth == 1;
  if (Checked)
    OS << Pad << "weft::inner_level(true);\n";
  OS << Pad << "for (" << T << " " << L.IndexName << " = (" << T << ")"
     << expr(*L.Lower) << "; " << L.IndexName << (L.Inclusive ? " <= " : " < ")
     << expr(*L.Upper) << "; " << L.IndexName << " += " << L.Step << ") {\n";
  if (Checked)
    OS << Pad << "  weft::begin_inner_iteration((weft::index_t)" << L.IndexName
       << ");\n";
  body(L, static_cast<int>(Pad.size() / 2 + 1));
  OS << Pad << "}\n";
  if (Checked)
    OS << Pad << "weft::inner_level(false);\n";
}

void BodyPrinter::combineReductions(const ir::Level &L,
                                    const plan::LevelPlan &LP,
                                    const std::string &In) {
  for (std::size_t I = 0; I < L.Reductions.size(); ++I) {
    const ir::Reduction &R = L.Reductions[I];
    const std::string Op = reduceOp(R.Op);
    std::string Combined;
    if (LP.How == plan::Combine::Warp) {
      Combined =
          "weft::warp_allreduce<" + Op + ">(" + R.Variable + ", WEFT_BLOCK_X)";
    } else if (LP.How == plan::Combine::Axis) {
      // The group is the block's threads along this axis; in
      // linear_thread() order they lie the lower axes' threads apart.
      std::string Stride = "1";
      for (int Lower = 0; Lower < LP.Axis; ++Lower)
        Stride += std::string(" * WEFT_BLOCK_") + AxisName[Lower];
      Combined = "weft::axis_allreduce<" + Op + ">(" + R.Variable + ", " +
                 LP.Scratch[I] + ", weft::thread_idx(" +
                 std::to_string(LP.Axis) + "), " + Stride + ", " +
                 block(L.Depth) + ")";
    } else {
      Combined = "weft::block_allreduce<" + Op + ">(" + R.Variable + ", " +
                 LP.Scratch[I] + ", weft::linear_thread())";
    }
    OS << In << R.Variable << " = weft::combine<" << Op << ">(weft_init_"
       << R.Variable << ", " << Combined << ");\n";
  }
}

std::string BodyPrinter::loopStart(const map::LevelMapping &LM, int Axis) {
  const std::string A = std::to_string(Axis);
  if (LM.Dop.Kind == map::Parallelism::SpanAll)
    return "weft::thread_idx(" + A + ")";
  return "(weft::index_t)weft::block_idx(" + A + ") * WEFT_BLOCK_" +
         AxisName[Axis] + " + weft::thread_idx(" + A + ")";
}

std::string BodyPrinter::loopStride(const map::LevelMapping &LM, int Axis) {
  if (LM.Dop.Kind == map::Parallelism::SpanAll)
    return std::string("WEFT_BLOCK_") + AxisName[Axis];
  return "(weft::index_t)weft::grid_dim(" + std::to_string(Axis) +
         ") * WEFT_BLOCK_" + AxisName[Axis];
}

} // namespace weft::emit
