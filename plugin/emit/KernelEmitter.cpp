// KernelEmitter.cpp: kernel text for a nest and its mapping: each level's
// loop over its share of the iterations, reductions combined across the
// threads that share them, and the descriptor the runtime launches it by.
#include "emit/KernelEmitter.h"

#include "ir/IrQueries.h"

#include "llvm/Support/xxhash.h"

#include <cctype>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

namespace weft::emit {
namespace {

std::string paramDecl(const ir::Nest &N, const ir::Param &P) {
  std::string T = ir::typeName(N, P.Element, P.Struct);
  if (!P.isSpan())
    return T + " " + P.Name;
  return "weft::dspan<" + std::string(P.ConstElement ? "const " : "") + T +
         "> " + P.Name;
}

/// How the mapping shapes the kernel, for the statements being printed.
struct MappingContext {
  const map::NestMapping *Mapping = nullptr;
  std::vector<int> Axis; // per depth: 0, 1, 2 for x, y, z; -1 in-thread
  unsigned Depth = 0;    // of the level whose body is being printed
  std::set<std::string> SpanAliases;   // references bound to span elements
  std::set<std::string> ReductionVars; // every reduction variable
  std::vector<std::string> Scratch;    // kernel-scope shared arrays
  /// Run-time-sized per-iteration arrays, in buffers the runtime allocates
  /// with one slice per thread of the grid.
  struct Buffer {
    std::string Type;
    unsigned ElementBytes;
    const ir::Expr *Extent;
  };
  std::vector<Buffer> Buffers;
  /// Split(k) of depth 1: the first kernel leaves each block's partial
  /// results in weft_split<r>[t0 * weft_splits + block], the second
  /// (combining) kernel folds them in where the level was.
  enum SplitPhase { NoSplit, SplitPartials, SplitCombine } Split = NoSplit;
  /// Ranges staged in shared memory, and the reads they serve.
  const std::vector<memory::Stage> *Stages = nullptr;
  std::map<const ir::Expr *, std::size_t> StagedReads;
  /// A loop walked in shared-memory tiles, and the reads its tiles serve.
  const memory::TiledLoop *Tiled = nullptr;
  std::map<const ir::Expr *, std::size_t> TileReads;
  /// Locals printed as something else (the tiled loop's index in a load).
  std::map<std::string, std::string> Renamed;
};

unsigned elementBytes(const ir::Nest &N, const ir::LocalType &T) {
  if (T.Struct >= 0)
    return N.Structs[T.Struct].Size;
  return ir::byteSize(T.Scalar);
}

/// The descriptor's word for a reduction operator: add, mul, ...
const char *reductionWord(ir::ReductionOp Op) {
  static const char *const Words[] = {"add", "mul", "min",  "max", "and",
                                      "or",  "xor", "land", "lor"};
  return Words[static_cast<int>(Op)];
}

/// device.h's name for it: weft::reduce_add, ...
std::string reduceOp(ir::ReductionOp Op) {
  return std::string("weft::reduce_") + reductionWord(Op);
}

const char *const AxisName[] = {"X", "Y", "Z"};

class BodyPrinter {
public:
  BodyPrinter(const ir::Nest &N, std::ostringstream &OS,
              MappingContext *Context = nullptr)
      : N(N), OS(OS), Context(Context) {}

  std::string expr(const ir::Expr &E) {
    switch (E.Kind) {
    case ir::Expr::Local:
      if (Context)
        if (auto It = Context->Renamed.find(E.Text);
            It != Context->Renamed.end())
          return It->second;
      return E.Text;
    case ir::Expr::IntLiteral:
    case ir::Expr::FloatLiteral:
    case ir::Expr::BoolLiteral:
      return E.Text;
    case ir::Expr::ParamRef:
      return N.Params[E.ParamIndex].Name;
    case ir::Expr::SpanElement:
      if (Context)
        if (auto It = Context->StagedReads.find(&E);
            It != Context->StagedReads.end())
          return "weft_stage" + std::to_string(It->second) + ".ld(" +
                 expr(*E.Operands[0]) + ")";
      if (Context)
        if (auto It = Context->TileReads.find(&E);
            It != Context->TileReads.end())
          return tileRead(It->second);
      // ld() is a pure read: the simulator's checker tells reads and writes
      // apart by it.
      return N.Params[E.ParamIndex].Name +
             (E.LValue ? "[" + expr(*E.Operands[0]) + "]"
                       : ".ld(" + expr(*E.Operands[0]) + ")");
    case ir::Expr::SpanSize:
      return N.Params[E.ParamIndex].Name + ".size()";
    case ir::Expr::Unary:
      return "(" + E.Text + expr(*E.Operands[0]) + ")";
    case ir::Expr::Postfix:
      return "(" + expr(*E.Operands[0]) + E.Text + ")";
    case ir::Expr::Binary:
      return "(" + expr(*E.Operands[0]) + " " + E.Text + " " +
             expr(*E.Operands[1]) + ")";
    case ir::Expr::Conditional:
      return "(" + expr(*E.Operands[0]) + " ? " + expr(*E.Operands[1]) + " : " +
             expr(*E.Operands[2]) + ")";
    case ir::Expr::Call: {
      std::string S = E.Text + "(";
      for (std::size_t I = 0; I < E.Operands.size(); ++I)
        S += (I ? ", " : "") + expr(*E.Operands[I]);
      return S + ")";
    }
    case ir::Expr::Cast:
      return "((" + std::string(ir::spelling(E.Type)) + ")" +
             expr(*E.Operands[0]) + ")";
    case ir::Expr::Member:
      return expr(*E.Operands[0]) + "." + E.Text;
    case ir::Expr::LocalElement:
      return E.Text + "[" + expr(*E.Operands[0]) + "]";
    case ir::Expr::InitList: {
      std::string S = ir::typeName(N, E.Type, E.Struct) + "{";
      for (std::size_t I = 0; I < E.Operands.size(); ++I)
        S += (I ? ", " : "") + expr(*E.Operands[I]);
      return S + "}";
    }
    }
    return "";
  }

  void stmt(const ir::Stmt &S, int Depth) {
    std::string Pad(2 * Depth, ' ');
    switch (S.Kind) {
    case ir::Stmt::Block:
      OS << Pad << "{\n";
      for (const ir::StmtPtr &C : S.Children)
        stmt(*C, Depth + 1);
      OS << Pad << "}\n";
      return;
    case ir::Stmt::Decl:
      if (S.ArrayExtent) {
        array(S, Pad);
        return;
      }
      if (Context && S.VarType.IsReference && S.Exprs[0] &&
          rootOf(*S.Exprs[0]).Kind == ir::Expr::SpanElement)
        Context->SpanAliases.insert(S.Name);
      OS << Pad << decl(S) << ";\n";
      return;
    case ir::Stmt::ExprStmt: {
      // A write to shared state made by every thread of the deeper levels'
      // dimensions would happen once per thread: only their leader makes it.
      const std::string Guard =
          Context && writesSharedState(*S.Exprs[0]) ? leaderGuard() : "";
      if (!Guard.empty())
        OS << Pad << "if (" << Guard << ")\n" << Pad << "  ";
      else
        OS << Pad;
      OS << expr(*S.Exprs[0]) << ";\n";
      return;
    }
    case ir::Stmt::If:
      OS << Pad << "if (" << expr(*S.Exprs[0]) << ")\n";
      nested(*S.Children[0], Depth);
      if (S.Children[1]) {
        OS << Pad << "else\n";
        nested(*S.Children[1], Depth);
      }
      return;
    case ir::Stmt::For: {
      std::string Init;
      if (const ir::Stmt *I = S.Children[0].get())
        Init = I->Kind == ir::Stmt::Decl ? decl(*I) : expr(*I->Exprs[0]);
      OS << Pad << "for (" << Init << "; "
         << (S.Exprs[0] ? expr(*S.Exprs[0]) : "") << "; "
         << (S.Exprs[1] ? expr(*S.Exprs[1]) : "") << ")\n";
      nested(*S.Children[1], Depth);
      return;
    }
    case ir::Stmt::While:
      OS << Pad << "while (" << expr(*S.Exprs[0]) << ")\n";
      nested(*S.Children[0], Depth);
      return;
    case ir::Stmt::DoWhile:
      OS << Pad << "do\n";
      nested(*S.Children[0], Depth);
      OS << Pad << "while (" << expr(*S.Exprs[0]) << ");\n";
      return;
    case ir::Stmt::Break:
      OS << Pad << "break;\n";
      return;
    case ir::Stmt::Continue:
      OS << Pad << "continue;\n";
      return;
    case ir::Stmt::Switch:
      OS << Pad << "switch (" << expr(*S.Exprs[0]) << ")\n";
      nested(*S.Children[0], Depth);
      return;
    case ir::Stmt::Case:
      if (S.Exprs[0])
        OS << Pad << "case " << expr(*S.Exprs[0]) << ":;\n";
      else
        OS << Pad << "default:;\n";
      return;
    case ir::Stmt::Return:
      OS << Pad << "return";
      if (S.Exprs[0])
        OS << " " << expr(*S.Exprs[0]);
      OS << ";\n";
      return;
    case ir::Stmt::ParallelFor:
      level(*S.Nested, Pad);
      return;
    }
  }

private:
  /// An inner level: in-thread, or spread over its dimension's threads,
  /// with its reductions combined across them.
  void level(const ir::Level &L, const std::string &Pad) {
    if (Context && L.Depth == 1 &&
        Context->Split == MappingContext::SplitCombine) {
      combineSplit(L, Pad);
      return;
    }
    if (Context && Context->Tiled && Context->Tiled->Inner == &L) {
      tiledLevel(L, Pad);
      return;
    }
    const int Axis = Context ? Context->Axis[L.Depth] : -1;
    const std::string T = ir::spelling(L.IndexType);
    if (Axis < 0) {
      OS << Pad << "for (" << T << " " << L.IndexName << " = (" << T << ")"
         << expr(*L.Lower) << "; " << L.IndexName
         << (L.Inclusive ? " <= " : " < ") << expr(*L.Upper) << "; "
         << L.IndexName << " += " << L.Step << ") {\n";
      body(L, Pad.size() / 2 + 1);
      OS << Pad << "}\n";
      return;
    }
    const map::LevelMapping &LM = Context->Mapping->Levels[L.Depth];
    const std::string D = std::to_string(L.Depth);
    const std::string In = Pad + "  ";
    OS << Pad << "{\n"
       << In << "const weft::index_t weft_lo" << D << " = (weft::index_t)("
       << expr(*L.Lower) << ");\n"
       << In << "const weft::index_t weft_hi" << D << " = (weft::index_t)("
       << expr(*L.Upper) << ")" << (L.Inclusive ? " + 1" : "") << ";\n"
       << In << "const weft::index_t weft_count" << D << " = weft_hi" << D
       << " > weft_lo" << D << " ? (weft_hi" << D << " - weft_lo" << D << " + "
       << (L.Step - 1) << ") / " << L.Step << " : 0;\n";
    const bool Staged = stage(L, In);
    const bool Split =
        L.Depth == 1 && Context->Split == MappingContext::SplitPartials;
    for (const ir::Reduction &R : L.Reductions) {
      if (!Split)
        OS << In << "const " << ir::spelling(R.Type) << " weft_init_"
           << R.Variable << " = " << R.Variable << ";\n";
      OS << In << R.Variable << " = weft::identity<" << reduceOp(R.Op) << ", "
         << ir::spelling(R.Type) << ">();\n";
    }
    OS << In << "for (weft::index_t weft_t" << D << " = " << loopStart(LM, Axis)
       << "; weft_t" << D << " < weft_count" << D << "; weft_t" << D
       << " += " << loopStride(LM, Axis) << ") {\n"
       << In << "  const " << T << " " << L.IndexName << " = (" << T
       << ")(weft_lo" << D << " + weft_t" << D
       << (L.Step != 1 ? " * " + std::to_string(L.Step) : "") << ");\n";
    body(L, In.size() / 2 + 1);
    OS << In << "}\n";
    // The threads of this dimension hold partial values: combine them, and
    // give every thread the result.
    const bool OneWarp = LM.Dim == map::Dimension::X && LM.BlockSize == 32;
    if (Split) {
      splitPartials(L, In);
      OS << Pad << "}\n";
      return;
    }
    for (const ir::Reduction &R : L.Reductions) {
      const std::string Type = ir::spelling(R.Type);
      std::string Combined;
      if (OneWarp) {
        Combined = "weft::warp_allreduce<" + reduceOp(R.Op) + ">(" +
                   R.Variable + ", WEFT_BLOCK_X)";
      } else {
        const std::string Scratch =
            "weft_scratch" + std::to_string(Context->Scratch.size());
        Context->Scratch.push_back("WEFT_SHARED weft::shared_array<" + Type +
                                   ", WEFT_BLOCK_THREADS> " + Scratch + ";");
        Combined = "weft::block_allreduce<" + reduceOp(R.Op) + ">(" +
                   R.Variable + ", " + Scratch + ", weft::linear_thread())";
      }
      OS << In << R.Variable << " = weft::combine<" << reduceOp(R.Op)
         << ">(weft_init_" << R.Variable << ", " << Combined << ");\n";
    }
    // The next iteration's staging must not overwrite what slower threads
    // still read.
    if (Staged)
      OS << In << "weft::barrier();\n";
    // What the group's threads wrote, the code after may read.
    else if (L.Reductions.empty()) {
      unsigned Threads = 1;
      for (const map::LevelMapping &Other : Context->Mapping->Levels)
        Threads *= Other.BlockSize;
      if (Threads == LM.BlockSize)
        OS << In << "weft::barrier();\n";
      else if (OneWarp)
        OS << In << "weft::warp_sync();\n";
    }
    OS << Pad << "}\n";
  }

  // ---- Tiles ----------------------------------------------------------------

  std::string axis(unsigned Depth) const {
    return std::to_string(Context->Axis[Depth]);
  }
  std::string block(unsigned Depth) const {
    return std::string("WEFT_BLOCK_") + AxisName[Context->Axis[Depth]];
  }

  /// Where a thread finds element k of its tile: row tiles (along the
  /// outer index) are [outer thread][k], padded to WEFT_TILE + 1; column
  /// tiles [k][inner thread], padded to the block's width + 1.
  std::string tileRead(std::size_t T) {
    const memory::TiledLoop &TL = *Context->Tiled;
    const std::string K = "((weft::index_t)(" + TL.Index + ") - weft_k0)";
    const std::string Name = "weft_tile" + std::to_string(T);
    if (TL.Tiles[T].AlongOuter)
      return Name + ".ld((weft::index_t)weft::thread_idx(" + axis(0) +
             ") * (WEFT_TILE + 1) + " + K + ")";
    return Name + ".ld(" + K + " * (" + block(1) + " + 1) + weft::thread_idx(" +
           axis(1) + "))";
  }

  /// The inner level of a tiled nest: blocks walk it together (so that all
  /// their threads reach the tiles' barriers), each thread active where its
  /// indices are in range.
  void tiledLevel(const ir::Level &L, const std::string &Pad) {
    const std::string T = ir::spelling(L.IndexType), In = Pad + "  ",
                      In2 = In + "  ";
    OS << Pad << "{\n"
       << In << "const weft::index_t weft_lo1 = (weft::index_t)("
       << expr(*L.Lower) << ");\n"
       << In << "const weft::index_t weft_hi1 = (weft::index_t)("
       << expr(*L.Upper) << ")" << (L.Inclusive ? " + 1" : "") << ";\n"
       << In
       << "const weft::index_t weft_count1 = weft_hi1 > weft_lo1 ? (weft_hi1 "
          "- weft_lo1 + "
       << (L.Step - 1) << ") / " << L.Step << " : 0;\n"
       << In << "for (weft::index_t weft_b1 = (weft::index_t)weft::block_idx("
       << axis(1) << ") * " << block(1)
       << "; weft_b1 < weft_count1; weft_b1 += (weft::index_t)weft::grid_dim("
       << axis(1) << ") * " << block(1) << ") {\n"
       << In2 << "const weft::index_t weft_t1 = weft_b1 + weft::thread_idx("
       << axis(1) << ");\n"
       << In2 << "const bool weft_in1 = weft_t1 < weft_count1;\n"
       << In2 << "const bool weft_active = weft_in0 && weft_in1;\n"
       << In2 << "const " << T << " " << L.IndexName << " = (" << T
       << ")(weft_lo1 + weft_t1"
       << (L.Step != 1 ? " * " + std::to_string(L.Step) : "") << ");\n";
    const unsigned Saved = Context->Depth;
    Context->Depth = L.Depth;
    const int Indent = static_cast<int>(In2.size() / 2);
    bool After = false;
    for (const ir::StmtPtr &S : L.Body) {
      if (S.get() == Context->Tiled->Loop) {
        tiledLoop(In2, Indent);
        // What follows the loop runs where the thread's indices are.
        OS << In2 << "if (weft_active) {\n";
        After = true;
        continue;
      }
      stmt(*S, After ? Indent + 1 : Indent);
    }
    OS << In2 << "}\n";
    Context->Depth = Saved;
    OS << In << "}\n" << Pad << "}\n";
  }

  /// for (k = lo; k < hi; ++k) as tiles of WEFT_TILE iterations: the block
  /// loads each tile, waits, computes on it, and waits again before the
  /// next load.
  void tiledLoop(const std::string &Pad, int Indent) {
    const memory::TiledLoop &TL = *Context->Tiled;
    const std::string KT = ir::spelling(TL.IndexType), In = Pad + "  ";
    const std::string Hi = "(weft::index_t)(" + expr(*TL.Upper) + ")";
    // WEFT_STAGING=0 builds the loop as written, reading global memory.
    OS << "#if WEFT_STAGING\n"
       << Pad << "for (weft::index_t weft_k0 = (weft::index_t)("
       << expr(*TL.Lower) << "); weft_k0 < " << Hi
       << "; weft_k0 += WEFT_TILE) {\n";
    for (std::size_t T = 0; T < TL.Tiles.size(); ++T) {
      const memory::Tile &Tile = TL.Tiles[T];
      Context->Renamed[TL.Index] = "((" + KT + ")(weft_k0 + weft_kk))";
      const std::string Source = N.Params[Tile.Param].Name + ".ld(" +
                                 expr(*Tile.Reads.front()->Operands[0]) + ")";
      Context->Renamed.erase(TL.Index);
      const std::string Name = "weft_tile" + std::to_string(T);
      const unsigned Loader = Tile.AlongOuter ? 1 : 0, Owner = 1 - Loader;
      OS << In << "for (weft::index_t weft_kk = weft::thread_idx("
         << axis(Loader)
         << "); weft_kk < WEFT_TILE; weft_kk += " << block(Loader) << ")\n"
         << In << "  if (weft_in" << Owner << " && weft_k0 + weft_kk < " << Hi
         << ")\n"
         << In << "    " << Name << "["
         << (Tile.AlongOuter ? "(weft::index_t)weft::thread_idx(" + axis(0) +
                                   ") * (WEFT_TILE + 1) + weft_kk"
                             : "weft_kk * (" + block(1) +
                                   " + 1) + weft::thread_idx(" + axis(1) + ")")
         << "] = " << Source << ";\n";
    }
    OS << In << "weft::barrier();\n"
       << In << "if (weft_active)\n"
       << In << "  for (" << KT << " " << TL.Index << " = (" << KT
       << ")weft_k0; (weft::index_t)" << TL.Index << " < " << Hi
       << " && (weft::index_t)" << TL.Index << " < weft_k0 + WEFT_TILE; ++"
       << TL.Index << ")\n";
    nested(*TL.Loop->Children[1], Indent + 2);
    OS << In << "weft::barrier();\n" << Pad << "}\n#else\n";
    std::map<const ir::Expr *, std::size_t> Tiles;
    std::swap(Tiles, Context->TileReads);
    OS << Pad << "if (weft_active)\n";
    stmt(*TL.Loop, Indent + 1);
    std::swap(Tiles, Context->TileReads);
    OS << "#endif\n";
  }

  /// The block loads each range staged for this level into shared memory
  /// (when it fits), then waits for all of it.
  bool stage(const ir::Level &L, const std::string &In) {
    bool Any = false;
    for (std::size_t I = 0; Context->Stages && I < Context->Stages->size();
         ++I) {
      const memory::Stage &S = (*Context->Stages)[I];
      if (S.Level != &L)
        continue;
      const ir::Param &P = N.Params[S.Param];
      const std::string K = std::to_string(I), Name = "weft_stage" + K;
      const std::string T = ir::typeName(N, P.Element, P.Struct);
      Context->Scratch.push_back("WEFT_SHARED weft::shared_array<" + T +
                                 ", WEFT_STAGE" + K + "> " + Name + "_buffer;");
      // The range the reads span: from every index at its lower bound to
      // every index at its last value.
      std::string Lo, Count = "1";
      for (const ir::Expr *B : S.Base)
        Lo += "(weft::index_t)(" + expr(*B) + ") + ";
      for (const memory::Stage::Term &Term : S.Terms) {
        const std::string C =
            Term.Coefficient
                ? "(weft::index_t)(" + expr(*Term.Coefficient) + ") * "
                : "";
        Lo += C + "(weft::index_t)(" + expr(*Term.Lower) + ") + ";
        Count += " + " + C + "((weft::index_t)(" + expr(*Term.Upper) +
                 ") - 1 - (weft::index_t)(" + expr(*Term.Lower) + "))";
      }
      Lo.resize(Lo.size() - 3);
      OS << In << "const weft::index_t " << Name << "_lo = " << Lo << ";\n"
         << In << "const weft::staged<" << T << ", WEFT_STAGE" << K
         << ", decltype(" << P.Name << ")> " << Name << "{" << Name
         << "_buffer, " << P.Name << ", " << Name << "_lo, " << Count
         << ", WEFT_STAGING != 0};\n"
         << In << Name << ".load(weft::linear_thread(), WEFT_BLOCK_THREADS);\n";
      Any = true;
    }
    if (Any)
      OS << In << "weft::barrier();\n";
    return Any;
  }

  /// The block's partial of each reduction, combined over its threads,
  /// written once to its slot.
  void splitPartials(const ir::Level &L, const std::string &In) {
    const std::string Axis = std::to_string(Context->Axis[L.Depth]);
    for (std::size_t I = 0; I < L.Reductions.size(); ++I) {
      const ir::Reduction &R = L.Reductions[I];
      const std::string Type = ir::spelling(R.Type);
      const std::string Scratch =
          "weft_scratch" + std::to_string(Context->Scratch.size());
      Context->Scratch.push_back("WEFT_SHARED weft::shared_array<" + Type +
                                 ", WEFT_BLOCK_THREADS> " + Scratch + ";");
      OS << In << "{\n"
         << In << "  const " << Type << " weft_r = weft::block_allreduce<"
         << reduceOp(R.Op) << ">(" << R.Variable << ", " << Scratch
         << ", weft::linear_thread());\n"
         << In << "  if (weft::linear_thread() == 0)\n"
         << In << "    weft_split" << I
         << "[weft_t0 * weft_splits + weft::block_idx(" << Axis
         << ")] = weft_r;\n"
         << In << "}\n";
    }
  }

  /// In the combining kernel, in place of the split level: its partials,
  /// folded in block order (the same result on every run).
  void combineSplit(const ir::Level &L, const std::string &Pad) {
    for (std::size_t I = 0; I < L.Reductions.size(); ++I) {
      const ir::Reduction &R = L.Reductions[I];
      const std::string Type = ir::spelling(R.Type), Op = reduceOp(R.Op);
      OS << Pad << "{\n"
         << Pad << "  " << Type << " weft_acc = weft::identity<" << Op << ", "
         << Type << ">();\n"
         << Pad
         << "  for (weft::index_t weft_k = 0; weft_k < weft_splits; ++weft_k)\n"
         << Pad << "    weft_acc = weft::combine<" << Op
         << ">(weft_acc, weft_split" << I
         << ".ld(weft_t0 * weft_splits + weft_k));\n"
         << Pad << "  " << R.Variable << " = weft::combine<" << Op << ">("
         << R.Variable << ", weft_acc);\n"
         << Pad << "}\n";
    }
  }

  void body(const ir::Level &L, int Indent) {
    unsigned Saved = 0;
    if (Context) {
      Saved = Context->Depth;
      Context->Depth = L.Depth;
    }
    for (const ir::StmtPtr &C : L.Body)
      stmt(*C, Indent);
    if (Context)
      Context->Depth = Saved;
  }

  static std::string loopStart(const map::LevelMapping &LM, int Axis) {
    const std::string A = std::to_string(Axis);
    if (LM.Dop.Kind == map::Parallelism::SpanAll)
      return "weft::thread_idx(" + A + ")";
    return "(weft::index_t)weft::block_idx(" + A + ") * WEFT_BLOCK_" +
           AxisName[Axis] + " + weft::thread_idx(" + A + ")";
  }
  static std::string loopStride(const map::LevelMapping &LM, int Axis) {
    if (LM.Dop.Kind == map::Parallelism::SpanAll)
      return std::string("WEFT_BLOCK_") + AxisName[Axis];
    return "(weft::index_t)weft::grid_dim(" + std::to_string(Axis) +
           ") * WEFT_BLOCK_" + AxisName[Axis];
  }

  /// "thread_idx(k) == 0" for every dimension of a level deeper than the
  /// current one; empty when there is none.
  std::string leaderGuard() const {
    std::string G;
    for (std::size_t D = Context->Depth + 1; D < Context->Axis.size(); ++D)
      if (Context->Axis[D] >= 0)
        G += (G.empty() ? "" : " && ") + std::string("weft::thread_idx(") +
             std::to_string(Context->Axis[D]) + ") == 0";
    return G;
  }

  static const ir::Expr &rootOf(const ir::Expr &E) {
    return E.Kind == ir::Expr::Member ? rootOf(*E.Operands[0]) : E;
  }

  bool sharedTarget(const ir::Expr &E) const {
    const ir::Expr &R = rootOf(E);
    return R.Kind == ir::Expr::SpanElement ||
           (R.Kind == ir::Expr::Local &&
            (Context->SpanAliases.count(R.Text) ||
             Context->ReductionVars.count(R.Text))) ||
           (R.Kind == ir::Expr::ParamRef &&
            Context->ReductionVars.count(N.Params[R.ParamIndex].Name));
  }

  bool writesSharedState(const ir::Expr &E) const {
    const bool Assigns = E.Kind == ir::Expr::Binary && E.Text.back() == '=' &&
                         E.Text != "==" && E.Text != "!=" && E.Text != "<=" &&
                         E.Text != ">=";
    const bool Steps =
        (E.Kind == ir::Expr::Unary || E.Kind == ir::Expr::Postfix) &&
        (E.Text == "++" || E.Text == "--");
    if ((Assigns || Steps) && sharedTarget(*E.Operands[0]))
      return true;
    if (E.Kind == ir::Expr::Call)
      for (const ir::ExprPtr &O : E.Operands)
        if (O->Kind == ir::Expr::SpanElement && O->LValue)
          return true; // bound to a reference parameter
    for (const ir::ExprPtr &O : E.Operands)
      if (writesSharedState(*O))
        return true;
    return false;
  }

  /// A per-iteration array: of constant size, in the thread's own memory;
  /// of run-time size, the thread's slice of a buffer the runtime allocates
  /// for the whole grid, interleaved (element j of thread g at
  /// [g + j * threads]) so that neighbouring threads touch neighbouring
  /// addresses. A thread runs its iterations one after another, so one
  /// slice serves them all, whichever level owns the array.
  void array(const ir::Stmt &S, const std::string &Pad) {
    const std::string T = ir::typeName(N, S.VarType.Scalar, S.VarType.Struct);
    const std::string Extent = expr(*S.ArrayExtent);
    if (S.ArrayExtent->Kind != ir::Expr::IntLiteral && Context) {
      const std::string B =
          "weft_buffer" + std::to_string(Context->Buffers.size());
      Context->Buffers.push_back(
          {T, elementBytes(N, S.VarType), S.ArrayExtent.get()});
      OS << Pad << "const weft::strided<" << T << "> " << S.Name << "{" << B
         << ".data() + weft::global_thread(), weft::global_threads()};\n";
    } else {
      OS << Pad << T << " " << S.Name << "[" << Extent << "]";
      if (S.Exprs[0] && !S.ArrayFill) {
        OS << " = {";
        for (std::size_t I = 0; I < S.Exprs[0]->Operands.size(); ++I)
          OS << (I ? ", " : "") << expr(*S.Exprs[0]->Operands[I]);
        OS << "}";
      }
      OS << ";\n";
    }
    if (S.ArrayFill)
      OS << Pad << "for (weft::index_t weft_k = 0; weft_k < " << Extent
         << "; ++weft_k)\n"
         << Pad << "  " << S.Name << "[weft_k] = " << expr(*S.Exprs[0])
         << ";\n";
  }

  std::string decl(const ir::Stmt &S) {
    std::string D = std::string(S.VarType.IsConst ? "const " : "") +
                    ir::typeName(N, S.VarType.Scalar, S.VarType.Struct) +
                    (S.VarType.IsReference ? " &" : " ") + S.Name;
    if (S.Exprs[0])
      D += " = " + expr(*S.Exprs[0]);
    return D;
  }
  /// A sub-statement; blocks print as they are, others one level deeper.
  void nested(const ir::Stmt &S, int Depth) {
    stmt(S, S.Kind == ir::Stmt::Block ? Depth : Depth + 1);
  }

  const ir::Nest &N;
  std::ostringstream &OS;
  MappingContext *Context;
};

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

std::string boundExpression(const ir::Expr &E) {
  auto Sub = [](const ir::Expr &X) { return boundExpression(X); };
  switch (E.Kind) {
  case ir::Expr::IntLiteral: {
    std::string Digits;
    for (char C : E.Text)
      if (std::isdigit(static_cast<unsigned char>(C)) || C == 'x' || C == 'X' ||
          std::isxdigit(static_cast<unsigned char>(C)))
        Digits += C;
      else
        break;
    return "(lit " + std::to_string(std::stoll(Digits, nullptr, 0)) + ")";
  }
  case ir::Expr::BoolLiteral:
    return E.Text == "true" ? "(lit 1)" : "(lit 0)";
  case ir::Expr::ParamRef:
    return "(arg " + std::to_string(E.ParamIndex) + ")";
  case ir::Expr::SpanSize:
    return "(size " + std::to_string(E.ParamIndex) + ")";
  case ir::Expr::Cast:
    return Sub(*E.Operands[0]);
  case ir::Expr::Unary:
    if (E.Text == "-")
      return "(neg " + Sub(*E.Operands[0]) + ")";
    if (E.Text == "+")
      return Sub(*E.Operands[0]);
    return "";
  case ir::Expr::Binary: {
    static const struct {
      const char *Op, *Name;
    } Ops[] = {
        {"+", "add"}, {"-", "sub"}, {"*", "mul"}, {"/", "div"}, {"%", "rem"}};
    for (const auto &O : Ops)
      if (E.Text == O.Op)
        return std::string("(") + O.Name + " " + Sub(*E.Operands[0]) + " " +
               Sub(*E.Operands[1]) + ")";
    return "";
  }
  case ir::Expr::Call:
    if ((E.Text == "weft::min" || E.Text == "weft::max") &&
        E.Operands.size() == 2)
      return "(" + E.Text.substr(6) + " " + Sub(*E.Operands[0]) + " " +
             Sub(*E.Operands[1]) + ")";
    return "";
  default:
    return "";
  }
}

namespace {

/// Threads per block of a combining kernel.
constexpr unsigned CombineBlock = 256;

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

  std::ostringstream Body;
  BodyPrinter Printer(N, Body, &Context);
  const map::LevelMapping &Root = M.Levels.front();
  const int Axis = Context.Axis[0];
  if (Tiled) {
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
      << (Tiled
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

  // The name hashes what makes the kernel distinct: where it comes from and
  // what it computes (two instantiations of one template differ in types).
  std::uint64_t Hash =
      llvm::xxh3_64bits(N.Location + "\n" + Functions.str() + Params.str() +
                        "\n" + KernelBody + CombineBody.str());
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

  std::ostringstream D;
  D << "weft 1\nkernel " << K.Name << "\nloc " << N.Location << "\n";
  for (std::size_t I = 0; I < N.Params.size(); ++I)
    D << "param " << memory::descriptorWord(Transfers[I]) << " "
      << (N.Params[I].Struct >= 0
              ? "bytes" + std::to_string(N.Structs[N.Params[I].Struct].Size)
              : std::string(ir::descriptorCode(N.Params[I].Element)))
      << " " << N.Params[I].Name << "\n";
  // Written spans the runtime need not copy in when a grid claim holds.
  for (std::size_t I = 0; I < N.Params.size(); ++I) {
    if (Transfers[I] != memory::Transfer::InOut ||
        N.Params[I].Kind != ir::ParamKind::WriteSpan)
      continue;
    if (std::optional<memory::GridCoverage> G =
            memory::writesEveryElementOfGrid(N, static_cast<unsigned>(I))) {
      const std::string Cols = boundExpression(*G->Cols),
                        Stride = boundExpression(*G->Stride);
      if (!Cols.empty() && !Stride.empty())
        D << "covers " << I << " " << Cols << " " << Stride << "\n";
    }
  }
  D << "level " << boundExpression(*L.Lower) << " " << boundExpression(*L.Upper)
    << " " << L.Step << " " << (L.Inclusive ? "le" : "lt") << "\n";
  // The grid: one line per dimension a level is spread over.
  for (const ir::Level *Level : ir::levels(N)) {
    const map::LevelMapping &LM = M.Levels[Level->Depth];
    if (LM.sequential() ||
        (Level->Depth > 0 && Level != firstAtDepth(N, Level->Depth)))
      continue;
    D << "map " << Level->Depth << " " << map::spelling(LM.Dim) << " "
      << LM.BlockSize << " "
      << (LM.Dop.Kind == map::Parallelism::Span      ? "span"
          : LM.Dop.Kind == map::Parallelism::SpanAll ? "all"
                                                     : "split")
      << " " << LM.Dop.N;
    if (Level->Depth > 0 && LM.Dop.Kind == map::Parallelism::Span)
      D << " " << boundExpression(*Level->Lower) << " "
        << boundExpression(*Level->Upper) << " " << Level->Step << " "
        << (Level->Inclusive ? "le" : "lt");
    D << "\n";
  }
  for (const ir::Reduction &R : L.Reductions)
    D << "reduce " << R.ParamIndex << " " << reductionWord(R.Op) << "\n";
  // The combining kernel (its block size), and the bytes of each split
  // reduction's partials.
  if (SplitLevel) {
    D << "combine " << K.Name << "_combine " << CombineBlock << "\n";
    for (const ir::Reduction &R : SplitLevel->Reductions)
      D << "split " << ir::byteSize(R.Type) << "\n";
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
      D << "tune "
        << "xyz"[TunedAxis];
      for (unsigned B :
           {Block[TunedAxis] / 2, Block[TunedAxis], Block[TunedAxis] * 2})
        if (B >= 32 && B <= 1024)
          D << " " << B;
      D << "\n";
    }
  }
  // Per-iteration arrays: bytes per element, and elements per thread.
  for (const MappingContext::Buffer &B : Context.Buffers)
    D << "buffer " << B.ElementBytes << " " << boundExpression(*B.Extent)
      << "\n";
  K.Descriptor = D.str();
  return K;
}

} // namespace weft::emit
