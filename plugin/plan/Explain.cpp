// Explain.cpp: the remarks' texts, a part of the plan each.
#include "plan/Explain.h"

#include "ir/BoundAlgebra.h"

namespace weft::plan {
namespace {

/// What the search chose for a level, and why.
std::string levelMapping(const ir::Nest &N, const ir::Level &Level,
                         const map::LevelMapping &L) {
  // A sequential loop's level is its one block: no mapping to explain.
  if (Level.Depth == 0 && N.Sequential)
    return "weft: sequential loop: its iterations run in order on the "
           "device, in one block of threads that the marked loops inside "
           "share";
  std::string Text = "weft: level " + std::to_string(Level.Depth) + " (" +
                     ir::shownIndex(Level) + "): " + map::describe(L);
  for (const std::string &Why : L.Reasons)
    Text += "; " + Why;
  return Text;
}

std::string residentBlock(const ResidentPlan &B) {
  return "; " + B.Block.Description +
         " and the others of the block of rows and columns the loop reaches "
         "held in shared memory for the loop (" +
         (B.Block.FixedElements ? std::to_string(*B.Block.FixedElements)
                                : "up to " + std::to_string(B.Capacity)) +
         " elements)";
}

std::string threadSlice(const SlicePlan &S) {
  const std::string Where =
      S.Registers
          ? "in registers (" + std::to_string(*S.Slice.FixedCount) +
                " a thread, the loops along them unrolled whole; in shared "
                "memory with WEFT_UNROLL_STEPS=0)"
          : "in shared memory (" +
                std::string(S.Slice.FixedCount &&
                                    *S.Slice.FixedCount <= S.MappedCapacity
                                ? ""
                                : "up to ") +
                std::to_string(S.MappedCapacity) + " a thread)";
  const std::string Written =
      S.Apart ? ", written to the span at the iteration's end (its other "
                "accesses of the span lie elsewhere" +
                    std::string(
                        *S.Apart == "true" ? ")" : ", as checked at run time)")
              : ", written through to the span";
  return "; " + S.Slice.Description +
         " and the elements each iteration reads along " + S.Slice.Rows +
         " held by its thread " + Where + Written;
}

std::string windowRows(const WindowPlan &W) {
  std::string Loops;
  for (const std::string &K : W.Tile.LoopIndices)
    Loops += (Loops.empty() ? "" : ", ") + K;
  return "; each thread computes " + std::to_string(W.Rows) +
         " consecutive iterations of level " +
         std::to_string(W.Tile.Rows->Depth) + " (" +
         ir::shownIndex(*W.Tile.Rows) + ") (WEFT_RM), the loops over " + Loops +
         " unrolled whole and run once for all of them: the reads they share "
         "(" +
         W.Tile.Description + ") load once";
}

std::string tiledLoop(const ir::Nest &N, const KernelPlan &P,
                      const memory::TiledLoop &Tiled) {
  std::string Text = "; loop over " + Tiled.Index + " in tiles of " +
                     std::to_string(Tiled.Width) + " in shared memory:";
  for (std::size_t I = 0; I < Tiled.Tiles.size(); ++I) {
    const memory::Tile &T = Tiled.Tiles[I];
    const map::LevelMapping &Sharing =
        P.Mapping.Levels[Tiled.WholeBlock ? Tiled.Inner->Depth
                         : T.AlongOuter   ? Tiled.Inner->Depth
                                          : Tiled.Outer->Depth];
    Text += std::string(" ") + T.Description + " (shared by the " +
            std::to_string(Sharing.BlockSize) + " threads along " +
            map::spelling(Sharing.Dim);
    if (P.RegisterTile && P.RegisterTile->Factor[I])
      Text += "; staged times " + ir::exprText(N, *P.RegisterTile->Factor[I]);
    if (T.RecordWidth > 1)
      Text += "; element " + std::to_string(T.Field) + " of records of " +
              std::to_string(T.RecordWidth) + ", read whole";
    Text += ")";
  }
  if (P.RegisterTile)
    Text += "; each thread computes a " + std::to_string(P.RegisterTile->TM) +
            " x " + std::to_string(P.RegisterTile->TN) +
            " register tile of outputs from fragments of the tiles";
  return Text;
}

/// A pointer or rows passed without an extent: the bounds the launch
/// moves them by. (Bounds of many guarded subscripts say little written
/// out.)
std::string unsizedData(const ir::Nest &N, const ir::Param &Pointer) {
  if (Pointer.Subscripts) {
    const std::string Lowest = ir::boundText(N, Pointer.Subscripts->Lowest);
    const std::string Highest = ir::boundText(N, Pointer.Subscripts->Highest);
    return "; pointer " + Pointer.Name + " without an extent: " +
           (Lowest.size() + Highest.size() > 240
                ? std::string("the bounds of its subscripts, evaluated at "
                              "the launch,")
                : "its subscripts reach " + Pointer.Name + "[" + Lowest +
                      "] to " + Pointer.Name + "[" + Highest + "],") +
           " which the launch moves from element 0";
  }
  if (Pointer.RowSubscripts && Pointer.ColumnSubscripts) {
    const std::string Rows = ir::boundText(N, Pointer.RowSubscripts->Highest);
    const std::string Columns =
        ir::boundText(N, Pointer.ColumnSubscripts->Highest);
    return "; rows " + Pointer.Name + " without an extent: " +
           (Rows.size() + Columns.size() > 240
                ? std::string("the bounds of their subscripts, evaluated at "
                              "the launch,")
                : "its subscripts reach rows 0 to " + Rows +
                      " and columns 0 to " + Columns + ",") +
           " which the launch gathers";
  }
  return "";
}

/// What holds for the whole nest, said at its outermost loop.
std::string wholeNest(const ir::Nest &N, const KernelPlan &P,
                      const ExplainContext &C) {
  std::string Text;
  for (const std::string &A : P.Mapping.Assumptions)
    Text += "; " + A;
  for (const auto &[Loop, Steps] : P.UnrolledSteps)
    Text += "; a loop of " + std::to_string(Steps) +
            " steps unrolled whole on the GPU (WEFT_UNROLL_STEPS), the loops "
            "inside it of constant trip counts there";
  for (const ir::Param &Pointer : N.Params)
    Text += unsizedData(N, Pointer);
  Text += "; kernel " + C.KernelName;
  if (C.LaunchedWhen)
    Text += ", launched when " + *C.LaunchedWhen +
            " (else the loop runs on the host)";
  if (C.OpenMPTarget)
    Text += ", where OpenMP holds none of the loop's data on a device (else "
            "the directive runs, on OpenMP's offload)";
  return Text;
}

/// What the kernel keeps where along Level's loop.
std::string keptAlong(const ir::Nest &N, const KernelPlan &P,
                      const ir::Level &Level) {
  std::string Text;
  for (const ir::ReplacedElement &E : P.Registers)
    if (E.Level == &Level)
      Text += "; " + E.Description + " kept in a register along its loop";
  if (Level.Depth == 0)
    for (const ResidentPlan &B : P.Residents)
      Text += residentBlock(B);
  for (const SlicePlan &S : P.Slices)
    if (S.Slice.Owner == &Level)
      Text += threadSlice(S);
  if (P.Window && P.Window->Tile.Inner == &Level)
    Text += windowRows(*P.Window);
  for (const memory::Stage &S : P.Stages)
    if (S.Level == &Level)
      Text += "; staged in shared memory with WEFT_STAGED_RANGES=1 (read by "
              "all " +
              std::to_string(P.Shape.threads()) +
              " threads of the block): " + S.Description;
  if (P.Tiled && P.Tiled->Inner == &Level)
    Text += tiledLoop(N, P, *P.Tiled);
  return Text;
}

} // namespace

std::vector<std::string> explainLevels(const ir::Nest &N, const KernelPlan &P,
                                       const ExplainContext &C) {
  std::vector<std::string> Texts;
  for (const ir::Level *Level : ir::levels(N)) {
    std::string Text = levelMapping(N, *Level, P.Mapping.Levels[Level->Depth]);
    if (C.Reorders)
      for (const ir::LoopReorder &R : *C.Reorders)
        if (R.Level == Level->Location)
          Text += "; " + R.Text;
    for (const ir::Reduction &Red : Level->Reductions)
      if (!Red.Inferred.empty())
        Text += "; " + Red.Inferred;
    Text += keptAlong(N, P, *Level);
    if (Level->Depth == 0)
      Text += wholeNest(N, P, C);
    Texts.push_back(std::move(Text));
  }
  return Texts;
}

std::string explainAlternative(const map::ScenarioChoice &Choice, std::size_t I,
                               const KernelPlan &P,
                               const std::string &KernelName) {
  std::string Sizes;
  for (const map::ScenarioChoice::Scenario &S : Choice.Scenarios) {
    if (S.Mapping != I)
      continue;
    std::string Values;
    for (std::size_t V = 0; V < S.Values.size(); ++V)
      Values += (V ? ", " : "") + Choice.Symbols[V].Name + " = " +
                std::to_string(S.Values[V]);
    Sizes += (Sizes.empty() ? "" : "; ") + Values;
  }
  std::string Levels;
  // As planned: a window tile gives the root Span(n).
  for (std::size_t D = 0; D < P.Mapping.Levels.size(); ++D)
    Levels += "; level " + std::to_string(D) + ": " +
              map::describe(P.Mapping.Levels[D]);
  return "weft: mapping " + std::to_string(I) + " of " +
         std::to_string(Choice.Mappings.size()) + ", for sizes near " + Sizes +
         Levels + "; kernel " + KernelName;
}

std::string explainRaggedRows(const map::ScenarioChoice &Choice,
                              const std::string &KernelName) {
  std::string Levels;
  for (std::size_t D = 0; D < Choice.Mappings[0].Levels.size(); ++D)
    Levels += "; level " + std::to_string(D) + ": " +
              map::describe(Choice.Mappings[0].Levels[D]);
  return "weft: for rows of differing lengths (the kernels above index rows "
         "of one length as one block of rows by columns)" +
         Levels + "; kernel " + KernelName;
}

} // namespace weft::plan
