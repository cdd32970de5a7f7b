// KernelEmitter.cpp: the kernel text for a nest and its mapping — its
// macros, the outermost loop, the combining kernel, the functions and
// structs it calls — around the statements BodyPrinter prints, and the
// descriptor the runtime launches it by.
#include "emit/KernelEmitter.h"

#include "emit/BodyPrinter.h"
#include "ir/HostBound.h"

#include "llvm/Support/xxhash.h"

#include <cctype>
#include <cstdio>
#include <sstream>

namespace weft::emit {
namespace {

/// The file's stem as an identifier fragment: "src/my-file.cpp" -> "my_file".
std::string stemOf(const std::string &Location) {
  std::string File = Location.substr(0, Location.find(':'));
  File = File.substr(File.find_last_of('/') + 1);
  File = File.substr(0, File.find('.'));
  std::string Out;
  for (char C : File)
    Out += std::isalnum(static_cast<unsigned char>(C)) ? C : '_';
  return Out.empty() ? "tu" : Out;
}

std::string lineOf(const std::string &Location) {
  std::size_t A = Location.find(':');
  std::size_t B = Location.find(':', A + 1);
  return A == std::string::npos ? "0" : Location.substr(A + 1, B - A - 1);
}

} // namespace

namespace {

/// Threads per block of a combining kernel.
constexpr unsigned CombineBlock = 256;

/// A level's bounds as the runtime evaluates them; the recognizer
/// accepts only host-evaluable bounds where the runtime needs them.
contract::LevelInfo levelBounds(const ir::Level &L) {
  contract::LevelInfo B;
  B.Lower = ir::hostBound(*L.Lower).value_or(contract::BoundExpr());
  B.Upper = ir::hostBound(*L.Upper).value_or(contract::BoundExpr());
  B.Step = L.Step;
  B.Inclusive = L.Inclusive;
  return B;
}

/// Sibling levels share their depth's mapping: the grid counts one.
const ir::Level *firstAtDepth(const ir::Nest &N, unsigned Depth) {
  for (const ir::Level *L : ir::levels(N))
    if (L->Depth == Depth)
      return L;
  return nullptr;
}

} // namespace

EmittedKernel emitKernel(const ir::Nest &N, const map::NestMapping &M,
                         const std::vector<memory::Transfer> &Transfers,
                         const std::vector<memory::Stage> &Stages,
                         const memory::TiledLoop *Tiled) {
  const ir::Level &L = N.Root;
  MappingContext Context;
  Context.Mapping = &M;
  Context.Stages = &Stages;
  Context.Tiled = Tiled;
  for (std::size_t S = 0; S < Stages.size(); ++S)
    for (const ir::Expr *Read : Stages[S].Reads)
      Context.StagedReads[Read] = S;
  unsigned Block[3] = {1, 1, 1};
  for (const map::LevelMapping &LM : M.Levels) {
    const int Axis = LM.sequential() ? -1 : static_cast<int>(LM.Dim);
    Context.Axis.push_back(Axis);
    if (Axis >= 0)
      Block[Axis] = LM.BlockSize;
  }
  for (const ir::Level *Level : ir::levels(N))
    for (const ir::Reduction &R : Level->Reductions)
      Context.ReductionVars.insert(R.Variable);
  if (Tiled)
    for (std::size_t T = 0; T < Tiled->Tiles.size(); ++T) {
      const memory::Tile &Tile = Tiled->Tiles[T];
      for (const ir::Expr *Read : Tile.Reads)
        Context.TileReads[Read] = T;
      const ir::Param &P = N.Params[Tile.Param];
      const std::string Outer = std::string("WEFT_BLOCK_") +
                                AxisName[Context.Axis[0]],
                        Inner = std::string("WEFT_BLOCK_") +
                                AxisName[Context.Axis[1]];
      Context.Scratch.push_back(
          "WEFT_SHARED weft::shared_array<" +
          ir::typeName(N, P.Element, P.Struct) + ", (WEFT_STAGING ? " +
          (Tile.AlongOuter ? Outer + " * (WEFT_TILE + 1)"
                           : "WEFT_TILE * (" + Inner + " + 1)") +
          " : 1)> weft_tile" + std::to_string(T) + ";");
    }
  // Split(k) of depth 1: a second, combining kernel finishes each
  // outermost iteration.
  const ir::Level *SplitLevel =
      M.Levels.size() > 1 && !M.Levels[1].sequential() &&
              M.Levels[1].Dop.Kind == map::Parallelism::Split
          ? firstAtDepth(N, 1)
          : nullptr;
  if (SplitLevel)
    Context.Split = MappingContext::SplitPartials;

  // A level one in that reduces over its threads, one group among several
  // in the block: every thread must reach its barriers.
  if (M.Levels.size() > 1 && !M.Levels[1].sequential() && !SplitLevel) {
    const map::LevelMapping &Inner = M.Levels[1];
    const ir::Level *InnerLevel = firstAtDepth(N, 1);
    Context.UniformOuter = InnerLevel && !InnerLevel->Reductions.empty() &&
                           !isOneWarp(Inner) &&
                           Block[0] * Block[1] * Block[2] != Inner.BlockSize;
  }

  std::ostringstream Body;
  BodyPrinter Printer(N, Body, &Context);
  const map::LevelMapping &Root = M.Levels.front();
  const int Axis = Context.Axis[0];
  if (Tiled || Context.UniformOuter) {
    // Blocks walk the outermost level together: every thread reaches the
    // tiles' barriers, active where its index is in range.
    const std::string B = std::string("WEFT_BLOCK_") + AxisName[Axis];
    Body << "  for (weft::index_t weft_b0 = (weft::index_t)weft::block_idx("
         << Axis << ") * " << B
         << "; weft_b0 < weft_count0;\n       weft_b0 += "
            "(weft::index_t)weft::grid_dim("
         << Axis << ") * " << B << ") {\n"
         << "    const weft::index_t weft_t0 = weft_b0 + weft::thread_idx("
         << Axis << ");\n    const bool weft_in0 = weft_t0 < weft_count0;\n";
  } else if (Root.Dim == map::Dimension::X &&
             Root.Dop.Kind != map::Parallelism::SpanAll)
    Body << "  for (weft::index_t weft_t0 = weft::global_id_x(); weft_t0 < "
            "weft_count0;\n       weft_t0 += weft::global_size_x()) {\n";
  else if (Root.Dop.Kind == map::Parallelism::SpanAll)
    Body << "  for (weft::index_t weft_t0 = weft::thread_idx(" << Axis
         << "); weft_t0 < weft_count0;\n       weft_t0 += WEFT_BLOCK_"
         << AxisName[Axis] << ") {\n";
  else
    Body << "  for (weft::index_t weft_t0 = (weft::index_t)weft::block_idx("
         << Axis << ") * WEFT_BLOCK_" << AxisName[Axis]
         << " + weft::thread_idx(" << Axis
         << ");\n       weft_t0 < weft_count0; weft_t0 += "
            "(weft::index_t)weft::grid_dim("
         << Axis << ") * WEFT_BLOCK_" << AxisName[Axis] << ") {\n";
  Body << "    const " << ir::spelling(L.IndexType) << " " << L.IndexName
       << " = (" << ir::spelling(L.IndexType) << ")(weft_lo0 + weft_t0";
  if (L.Step != 1)
    Body << " * " << L.Step;
  Body
      << (Tiled || Context.UniformOuter
              ? ");\n    if (weft_in0)\n      weft::begin_iteration(weft_t0);\n"
              : ");\n    weft::begin_iteration(weft_t0);\n");
  for (const ir::StmtPtr &S : L.Body) {
    Printer.stmt(*S, 2);
    if (SplitLevel && S->Kind == ir::Stmt::ParallelFor)
      break; // The rest runs in the combining kernel.
  }
  Body << "  }\n";
  // Reductions over the outermost level: each block's partial goes to a
  // buffer the runtime combines.
  std::ostringstream Partials, Prologue;
  for (std::size_t I = 0; I < L.Reductions.size(); ++I) {
    const ir::Reduction &R = L.Reductions[I];
    const std::string T = ir::spelling(R.Type), K = std::to_string(I);
    Prologue << "  " << T << " " << R.Variable << " = weft::identity<"
             << reduceOp(R.Op) << ", " << T << ">();\n";
    Context.Scratch.push_back("WEFT_SHARED weft::shared_array<" + T +
                              ", WEFT_BLOCK_THREADS> weft_partial_scratch" + K +
                              ";");
    Body << "  {\n    const " << T << " weft_r = weft::block_allreduce<"
         << reduceOp(R.Op) << ">(" << R.Variable << ", weft_partial_scratch"
         << K << ", weft::linear_thread());\n"
         << "    if (weft::linear_thread() == 0)\n"
         << "      weft_partials" << K
         << "[(weft::index_t)weft::linear_block()] = weft_r;\n  }\n";
    Partials << ", weft::dspan<" << T << "> weft_partials" << K;
  }
  Body << "}\n";

  // The combining kernel: one thread per outermost iteration reruns the
  // code before the split level, folds in its partials, and runs the rest.
  std::ostringstream CombineBody;
  if (SplitLevel) {
    MappingContext Combine;
    Combine.Mapping = &M;
    Combine.Axis.assign(M.Levels.size(), -1);
    Combine.Axis[0] = 0;
    Combine.ReductionVars = Context.ReductionVars;
    Combine.Split = MappingContext::SplitCombine;
    BodyPrinter CombinePrinter(N, CombineBody, &Combine);
    CombineBody << "  for (weft::index_t weft_t0 = weft::global_id_x(); "
                   "weft_t0 < weft_count0;\n       weft_t0 += "
                   "weft::global_size_x()) {\n"
                << "    const " << ir::spelling(L.IndexType) << " "
                << L.IndexName << " = (" << ir::spelling(L.IndexType)
                << ")(weft_lo0 + weft_t0";
    if (L.Step != 1)
      CombineBody << " * " << L.Step;
    CombineBody << ");\n    weft::begin_iteration(weft_t0);\n";
    for (const ir::StmtPtr &S : L.Body)
      CombinePrinter.stmt(*S, 2);
    CombineBody << "  }\n}\n";
  }

  // Structs, then the functions the nest calls (callees first): part of
  // the hashed text.
  std::ostringstream Functions;
  for (const ir::StructDef &S : N.Structs) {
    Functions << "struct " << S.Name << " { // " << S.Source << "\n";
    for (const ir::StructDef::Field &F : S.Fields)
      Functions << "  " << ir::typeName(N, F.Scalar, F.Struct) << " " << F.Name
                << ";\n";
    Functions << "};\n\n";
  }
  BodyPrinter FunctionPrinter(N, Functions);
  for (const ir::Function &F : N.Functions) {
    Functions << "WEFT_DEVICE "
              << (F.ReturnsValue ? ir::typeName(N, F.ReturnType, F.ReturnStruct)
                                 : std::string("void"))
              << " " << F.Name << "(";
    for (std::size_t I = 0; I < F.Params.size(); ++I) {
      const ir::LocalType &T = F.Params[I].second;
      Functions << (I ? ", " : "") << (T.IsConst ? "const " : "")
                << ir::typeName(N, T.Scalar, T.Struct)
                << (T.IsReference ? " &" : " ") << F.Params[I].first;
    }
    Functions << ") {\n";
    for (const ir::StmtPtr &S : F.Body)
      FunctionPrinter.stmt(*S, 1);
    Functions << "}\n\n";
  }

  // Reduction targets stay on the host: the runtime combines the partials.
  std::ostringstream Params;
  for (const ir::Param &P : N.Params)
    if (P.Kind != ir::ParamKind::ReductionTarget)
      Params << paramDecl(N, P) << ", ";
  Params << "weft::index_t weft_lo0, weft::index_t weft_count0"
         << Partials.str();
  for (std::size_t B = 0; B < Context.Buffers.size(); ++B)
    Params << ", weft::dspan<" << Context.Buffers[B].Type << "> weft_buffer"
           << B;
  if (SplitLevel) {
    for (std::size_t R = 0; R < SplitLevel->Reductions.size(); ++R)
      Params << ", weft::dspan<" << ir::spelling(SplitLevel->Reductions[R].Type)
             << "> weft_split" << R;
    Params << ", weft::index_t weft_splits";
  }

  std::ostringstream Scratch;
  for (const std::string &S : Context.Scratch)
    Scratch << "  " << S << "\n";
  const std::string KernelBody = Scratch.str() + Prologue.str() + Body.str();

  // The name hashes what makes the kernel distinct: where it comes from,
  // what it computes (two instantiations of one template differ in types)
  // and its block (mappings of one loop may differ in that alone).
  std::string Blocks;
  for (int A = 0; A < 3; ++A)
    Blocks += " " + std::to_string(Block[A]);
  std::uint64_t Hash =
      llvm::xxh3_64bits(N.Location + Blocks + "\n" + Functions.str() +
                        Params.str() + "\n" + KernelBody + CombineBody.str());
  char HashText[17];
  std::snprintf(HashText, sizeof HashText, "%016llx",
                static_cast<unsigned long long>(Hash));
  EmittedKernel K;
  K.Name = "weft_" + stemOf(N.Location) + "_L" + lineOf(N.Location) + "_" +
           std::string(HashText, 12);

  std::ostringstream Src;
  Src << "// weft kernel for the loop at " << N.Location << "\n";
  for (std::size_t D = 0; D < M.Levels.size(); ++D)
    Src << "// level " << D << ": " << map::describe(M.Levels[D]) << "\n";
  Src << "#include <weft/device.h>\n\n";
  for (int A = 0; A < 3; ++A)
    Src << "#ifndef WEFT_BLOCK_" << AxisName[A] << "\n#define WEFT_BLOCK_"
        << AxisName[A] << " " << Block[A] << "\n#endif\n";
  Src << "#define WEFT_BLOCK_THREADS (WEFT_BLOCK_X * WEFT_BLOCK_Y * "
         "WEFT_BLOCK_Z)\n";
  if (Tiled)
    Src << "// Iterations of the tiled loop per tile in shared memory.\n"
        << "#ifndef WEFT_TILE\n#define WEFT_TILE " << Tiled->Width
        << "\n#endif\n";
  if (!Stages.empty() || Tiled)
    Src << "#ifndef WEFT_STAGING\n#define WEFT_STAGING 1\n#endif\n";
  if (!Stages.empty()) {
    // Elements of shared memory per staged range (24 KiB among them); a
    // range that does not fit is read in place.
    for (std::size_t S = 0; S < Stages.size(); ++S) {
      const ir::Param &P = N.Params[Stages[S].Param];
      const unsigned Bytes =
          P.Struct >= 0 ? N.Structs[P.Struct].Size : ir::byteSize(P.Element);
      Src << "#ifndef WEFT_STAGE" << S << "\n#define WEFT_STAGE" << S << " "
          << 24 * 1024 / Stages.size() / std::max(1u, Bytes) << "\n#endif\n";
    }
  }
  Src << "\n"
      << Functions.str() << "WEFT_KERNEL(" << K.Name
      << ", WEFT_BLOCK_THREADS)\n(" << Params.str() << ") {\n"
      << KernelBody;
  if (SplitLevel)
    Src << "\n// Finishes each outermost iteration with the blocks' partials.\n"
        << "WEFT_KERNEL(" << K.Name << "_combine, " << CombineBlock << ")\n("
        << Params.str() << ") {\n"
        << CombineBody.str();
  K.Source = Src.str();

  contract::KernelInfo &D = K.Descriptor;
  D.Name = K.Name;
  D.Location = N.Location;
  for (std::size_t I = 0; I < N.Params.size(); ++I) {
    const ir::Param &P = N.Params[I];
    contract::ParamInfo Info;
    Info.Kind = memory::descriptorKind(Transfers[I]);
    Info.Name = P.Name;
    if (P.Struct >= 0) {
      Info.Type = contract::ScalarType::Bytes;
      Info.Bytes = N.Structs[P.Struct].Size;
    } else {
      Info.Type = ir::descriptorType(P.Element);
      Info.Bytes = ir::byteSize(P.Element);
    }
    // Written spans the runtime need not copy in when a grid claim holds.
    if (Transfers[I] == memory::Transfer::InOut &&
        P.Kind == ir::ParamKind::WriteSpan)
      if (std::optional<memory::GridCoverage> G =
              memory::writesEveryElementOfGrid(N, static_cast<unsigned>(I))) {
        Info.CoverCols = ir::hostBound(*G->Cols);
        Info.CoverStride = ir::hostBound(*G->Stride);
        if (!Info.CoverCols || !Info.CoverStride)
          Info.CoverCols = Info.CoverStride = std::nullopt;
      }
    D.Params.push_back(std::move(Info));
  }
  D.Levels.push_back(levelBounds(L));
  // The grid: one dimension per depth a level is spread over.
  for (const ir::Level *Level : ir::levels(N)) {
    const map::LevelMapping &LM = M.Levels[Level->Depth];
    if (LM.sequential() ||
        (Level->Depth > 0 && Level != firstAtDepth(N, Level->Depth)))
      continue;
    contract::DimensionInfo Dim;
    Dim.Depth = Level->Depth;
    Dim.Axis = static_cast<int>(LM.Dim);
    Dim.Block = LM.BlockSize;
    Dim.Kind = LM.Dop.Kind == map::Parallelism::Span ? contract::Degree::Span
               : LM.Dop.Kind == map::Parallelism::SpanAll
                   ? contract::Degree::All
                   : contract::Degree::Split;
    Dim.N = LM.Dop.N;
    if (Dim.hasBounds())
      Dim.Bounds = levelBounds(*Level);
    D.Dimensions.push_back(std::move(Dim));
  }
  for (const ir::Reduction &R : L.Reductions)
    D.Reductions.push_back(
        {static_cast<unsigned>(R.ParamIndex), ir::descriptorOp(R.Op)});
  // The combining kernel (its block size), and the bytes of each split
  // reduction's partials.
  if (SplitLevel) {
    D.Combine.Name = K.Name + "_combine";
    D.Combine.Block = CombineBlock;
    for (const ir::Reduction &R : SplitLevel->Reductions)
      D.Combine.PartialBytes.push_back(ir::byteSize(R.Type));
  }
  // Block sizes the runtime may try instead, as the program runs: for a
  // kernel whose threads spread along one axis and combine nothing (so any
  // block gives the same result bit for bit, and every barrier still spans
  // the level's whole group).
  {
    int TunedAxis = -1;
    unsigned Spread = 0;
    bool Reduces = SplitLevel != nullptr;
    for (const ir::Level *Level : ir::levels(N))
      Reduces = Reduces || !Level->Reductions.empty();
    for (int A = 0; A < 3; ++A)
      if (Block[A] > 1) {
        ++Spread;
        TunedAxis = A;
      }
    if (!Reduces && Spread == 1 && !Tiled) {
      D.Tune.Axis = TunedAxis;
      for (unsigned B :
           {Block[TunedAxis] / 2, Block[TunedAxis], Block[TunedAxis] * 2})
        if (B >= 32 && B <= 1024)
          D.Tune.Blocks.push_back(B);
    }
  }
  // Per-iteration arrays: bytes per element, and elements per thread.
  for (const MappingContext::Buffer &B : Context.Buffers)
    D.Buffers.push_back({B.ElementBytes, *ir::hostBound(*B.Extent)});
  return K;
}

} // namespace weft::emit
