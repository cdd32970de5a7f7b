// BodyPrinter.cpp: kernel text for a nest's statements and expressions
// under a mapping (see BodyPrinter.h).
#include "emit/BodyPrinter.h"

namespace weft::emit {

std::string paramDecl(const ir::Nest &N, const ir::Param &P) {
  std::string T = ir::typeName(N, P.Element, P.Struct);
  if (!P.isSpan())
    return T + " " + P.Name;
  return "weft::dspan<" + std::string(P.ConstElement ? "const " : "") + T +
         "> " + P.Name;
}

unsigned elementBytes(const ir::Nest &N, const ir::LocalType &T) {
  if (T.Struct >= 0)
    return N.Structs[T.Struct].Size;
  return ir::byteSize(T.Scalar);
}

std::string reduceOp(ir::ReductionOp Op) {
  return std::string("weft::reduce_") +
         contract::reduceWord(ir::descriptorOp(Op));
}

const char *const AxisName[3] = {"X", "Y", "Z"};

std::string BodyPrinter::expr(const ir::Expr &E) {
  switch (E.Kind) {
  case ir::Expr::Local:
    if (Context)
      if (auto It = Context->Renamed.find(E.Text); It != Context->Renamed.end())
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
      if (auto It = Context->TileReads.find(&E); It != Context->TileReads.end())
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

void BodyPrinter::stmt(const ir::Stmt &S, int Depth) {
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
    std::string Guard =
        Context && writesSharedState(*S.Exprs[0]) ? leaderGuard() : "";
    // Threads whose outermost iteration is out of range only take part in
    // the inner level's combining.
    if (Context && Context->UniformOuter && Context->Depth == 0)
      Guard = Guard.empty() ? "weft_in0" : "weft_in0 && " + Guard;
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

void BodyPrinter::level(const ir::Level &L, const std::string &Pad) {
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
  // The simulator's checker tells iterations one level in apart (the
  // loop's claim of independence), whatever the mapping.
  const bool Checked = L.Depth == 1;
  if (Axis < 0) {
    if (Checked)
      OS << Pad << "weft::inner_level(true);\n";
    OS << Pad << "for (" << T << " " << L.IndexName << " = (" << T << ")"
       << expr(*L.Lower) << "; " << L.IndexName
       << (L.Inclusive ? " <= " : " < ") << expr(*L.Upper) << "; "
       << L.IndexName << " += " << L.Step << ") {\n";
    if (Checked)
      OS << Pad << "  weft::begin_inner_iteration((weft::index_t)"
         << L.IndexName << ");\n";
    body(L, Pad.size() / 2 + 1);
    OS << Pad << "}\n";
    if (Checked)
      OS << Pad << "weft::inner_level(false);\n";
    return;
  }
  const map::LevelMapping &LM = Context->Mapping->Levels[L.Depth];
  const std::string D = std::to_string(L.Depth);
  const std::string In = Pad + "  ";
  // Out of range, the bounds might read outside the spans: no iterations.
  const std::string InRange =
      Context->UniformOuter && L.Depth == 1 ? "!weft_in0 ? 0 : " : "";
  OS << Pad << "{\n"
     << In << "const weft::index_t weft_lo" << D << " = " << InRange
     << "(weft::index_t)(" << expr(*L.Lower) << ");\n"
     << In << "const weft::index_t weft_hi" << D << " = " << InRange
     << "(weft::index_t)(" << expr(*L.Upper) << ")"
     << (L.Inclusive ? " + 1" : "") << ";\n"
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
  if (Checked)
    OS << In << "weft::inner_level(true);\n";
  OS << In << "for (weft::index_t weft_t" << D << " = " << loopStart(LM, Axis)
     << "; weft_t" << D << " < weft_count" << D << "; weft_t" << D
     << " += " << loopStride(LM, Axis) << ") {\n"
     << In << "  const " << T << " " << L.IndexName << " = (" << T
     << ")(weft_lo" << D << " + weft_t" << D
     << (L.Step != 1 ? " * " + std::to_string(L.Step) : "") << ");\n";
  if (Checked)
    OS << In << "  weft::begin_inner_iteration(weft_t" << D << ");\n";
  body(L, In.size() / 2 + 1);
  OS << In << "}\n";
  if (Checked)
    OS << In << "weft::inner_level(false);\n";
  // The threads of this dimension hold partial values: combine them, and
  // give every thread the result.
  const bool OneWarp = isOneWarp(LM);
  if (Split) {
    splitPartials(L, In);
    OS << Pad << "}\n";
    return;
  }
  for (const ir::Reduction &R : L.Reductions) {
    const std::string Type = ir::spelling(R.Type);
    std::string Combined;
    if (OneWarp) {
      Combined = "weft::warp_allreduce<" + reduceOp(R.Op) + ">(" + R.Variable +
                 ", WEFT_BLOCK_X)";
    } else {
      const std::string Scratch =
          "weft_scratch" + std::to_string(Context->Scratch.size());
      Context->Scratch.push_back("WEFT_SHARED weft::shared_array<" + Type +
                                 ", WEFT_BLOCK_THREADS> " + Scratch + ";");
      if (Context->UniformOuter) {
        // The group is the block's threads along this axis; in
        // linear_thread() order they lie the lower axes' threads apart.
        std::string Stride = "1";
        for (int Lower = 0; Lower < Axis; ++Lower)
          Stride += std::string(" * WEFT_BLOCK_") + AxisName[Lower];
        Combined = "weft::axis_allreduce<" + reduceOp(R.Op) + ">(" +
                   R.Variable + ", " + Scratch + ", weft::thread_idx(" +
                   std::to_string(Axis) + "), " + Stride + ", " +
                   block(L.Depth) + ")";
      } else {
        Combined = "weft::block_allreduce<" + reduceOp(R.Op) + ">(" +
                   R.Variable + ", " + Scratch + ", weft::linear_thread())";
      }
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

std::string BodyPrinter::axis(unsigned Depth) const {
  return std::to_string(Context->Axis[Depth]);
}

std::string BodyPrinter::block(unsigned Depth) const {
  return std::string("WEFT_BLOCK_") + AxisName[Context->Axis[Depth]];
}

std::string BodyPrinter::tileRead(std::size_t T) {
  const memory::TiledLoop &TL = *Context->Tiled;
  const std::string K = "((weft::index_t)(" + TL.Index + ") - weft_k0)";
  const std::string Name = "weft_tile" + std::to_string(T);
  if (TL.Tiles[T].AlongOuter)
    return Name + ".ld((weft::index_t)weft::thread_idx(" + axis(0) +
           ") * (WEFT_TILE + 1) + " + K + ")";
  return Name + ".ld(" + K + " * (" + block(1) + " + 1) + weft::thread_idx(" +
         axis(1) + "))";
}

void BodyPrinter::tiledLevel(const ir::Level &L, const std::string &Pad) {
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
     << In << "weft::inner_level(true);\n"
     << In << "for (weft::index_t weft_b1 = (weft::index_t)weft::block_idx("
     << axis(1) << ") * " << block(1)
     << "; weft_b1 < weft_count1; weft_b1 += (weft::index_t)weft::grid_dim("
     << axis(1) << ") * " << block(1) << ") {\n"
     << In2 << "const weft::index_t weft_t1 = weft_b1 + weft::thread_idx("
     << axis(1) << ");\n"
     << In2 << "const bool weft_in1 = weft_t1 < weft_count1;\n"
     << In2 << "const bool weft_active = weft_in0 && weft_in1;\n"
     << In2 << "weft::begin_inner_iteration(weft_t1);\n"
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
  OS << In << "}\n" << In << "weft::inner_level(false);\n" << Pad << "}\n";
}

void BodyPrinter::tiledLoop(const std::string &Pad, int Indent) {
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
    OS << In << "for (weft::index_t weft_kk = weft::thread_idx(" << axis(Loader)
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

bool BodyPrinter::stage(const ir::Level &L, const std::string &In) {
  bool Any = false;
  for (std::size_t I = 0; Context->Stages && I < Context->Stages->size(); ++I) {
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
       << ", decltype(" << P.Name << ")> " << Name << "{" << Name << "_buffer, "
       << P.Name << ", " << Name << "_lo, " << Count
       << ", WEFT_STAGING != 0};\n"
       << In << Name << ".load(weft::linear_thread(), WEFT_BLOCK_THREADS);\n";
    Any = true;
  }
  if (Any)
    OS << In << "weft::barrier();\n";
  return Any;
}

void BodyPrinter::splitPartials(const ir::Level &L, const std::string &In) {
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

void BodyPrinter::combineSplit(const ir::Level &L, const std::string &Pad) {
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

void BodyPrinter::body(const ir::Level &L, int Indent) {
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

std::string BodyPrinter::leaderGuard() const {
  std::string G;
  for (std::size_t D = Context->Depth + 1; D < Context->Axis.size(); ++D)
    if (Context->Axis[D] >= 0)
      G += (G.empty() ? "" : " && ") + std::string("weft::thread_idx(") +
           std::to_string(Context->Axis[D]) + ") == 0";
  return G;
}

const ir::Expr &BodyPrinter::rootOf(const ir::Expr &E) {
  return E.Kind == ir::Expr::Member ? rootOf(*E.Operands[0]) : E;
}

bool BodyPrinter::sharedTarget(const ir::Expr &E) const {
  const ir::Expr &R = rootOf(E);
  return R.Kind == ir::Expr::SpanElement ||
         (R.Kind == ir::Expr::Local &&
          (Context->SpanAliases.count(R.Text) ||
           Context->ReductionVars.count(R.Text))) ||
         (R.Kind == ir::Expr::ParamRef &&
          Context->ReductionVars.count(N.Params[R.ParamIndex].Name));
}

bool BodyPrinter::writesSharedState(const ir::Expr &E) const {
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

void BodyPrinter::array(const ir::Stmt &S, const std::string &Pad) {
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
       << Pad << "  " << S.Name << "[weft_k] = " << expr(*S.Exprs[0]) << ";\n";
}

std::string BodyPrinter::decl(const ir::Stmt &S) {
  std::string D = std::string(S.VarType.IsConst ? "const " : "") +
                  ir::typeName(N, S.VarType.Scalar, S.VarType.Struct) +
                  (S.VarType.IsReference ? " &" : " ") + S.Name;
  if (S.Exprs[0])
    D += " = " + expr(*S.Exprs[0]);
  return D;
}

void BodyPrinter::nested(const ir::Stmt &S, int Depth) {
  stmt(S, S.Kind == ir::Stmt::Block ? Depth : Depth + 1);
}

} // namespace weft::emit
