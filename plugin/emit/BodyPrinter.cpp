// BodyPrinter.cpp: kernel text for a nest's statements and expressions
// (see BodyPrinter.h); levels, tiles, stages and splits have files of their
// own.
#include "emit/BodyPrinter.h"

#include "ir/IrQueries.h"

namespace weft::emit {

std::string paramDecl(const ir::Nest &N, const ir::Param &P) {
  std::string T = ir::typeName(N, P.Element, P.Struct);
  if (!P.isSpan())
    return T + " " + P.Name;
  return "weft::dspan<" + std::string(P.ConstElement ? "const " : "") + T +
         "> " + P.Name;
}

std::string reduceOp(ir::ReductionOp Op) {
  return std::string("weft::") + contract::reduceDeviceName(Op);
}

const char *const AxisName[3] = {"X", "Y", "Z"};

BodyPrinter::BodyPrinter(const ir::Nest &N, std::ostringstream &OS,
                         const plan::KernelPlan *Plan, Phase Mode)
    : N(N), OS(OS), Plan(Plan), Mode(Mode) {
  if (!Plan)
    return;
  for (const plan::DepthShape &D : Plan->Shape.Depths)
    Axis.push_back(Mode == Phase::Kernel ? D.Axis : -1);
  if (Mode == Phase::Combine)
    Axis[0] = 0;
  for (const ir::Level *L : ir::levels(N))
    if (L->Depth >= Axis.size() || Axis[L->Depth] >= 0 || Mode != Phase::Kernel)
      for (const ir::Reduction &R : L->Reductions)
        ReductionVars.insert(R.Variable);
  for (std::size_t B = 0; B < Plan->Buffers.size(); ++B)
    BufferOf[Plan->Buffers[B].Decl] = B;
  for (std::size_t R = 0; R < Plan->Registers.size(); ++R) {
    for (const ir::Expr *E : Plan->Registers[R].Accesses)
      RegisterOf[E] = R;
    LoopRegisters[Plan->Registers[R].Loop].push_back(R);
  }
  if (Mode != Phase::Kernel)
    return;
  for (std::size_t R = 0; R < Plan->Residents.size(); ++R)
    for (std::size_t U = 0; U < Plan->Residents[R].Block.Uses.size(); ++U)
      ResidentUses[Plan->Residents[R].Block.Uses[U].Element] = {R, U};
  for (std::size_t S = 0; S < Plan->Slices.size(); ++S)
    for (std::size_t U = 0; U < Plan->Slices[S].Slice.Uses.size(); ++U)
      SliceUses[Plan->Slices[S].Slice.Uses[U].Element] = {S, U};
  for (std::size_t S = 0; S < Plan->Stages.size(); ++S)
    for (const ir::Expr *Read : Plan->Stages[S].Reads)
      StagedReads[Read] = S;
  if (Plan->Tiled)
    for (std::size_t T = 0; T < Plan->Tiled->Tiles.size(); ++T)
      for (const ir::Expr *Read : Plan->Tiled->Tiles[T].Reads)
        TileReads[Read] = T;
  if (Plan->RegisterTile)
    for (const ir::Expr *Product : Plan->RegisterTile->ScaledProducts)
      for (const ir::ExprPtr &Operand : Product->Operands)
        if (auto It = TileReads.find(Operand.get()); It != TileReads.end())
          ScaledProducts[Product] = It->second;
}

std::string BodyPrinter::expr(const ir::Expr &E) {
  switch (E.Kind) {
  case ir::Expr::Local:
    if (auto It = Renamed.find(E.Text); It != Renamed.end())
      return It->second;
    return E.Text;
  case ir::Expr::IntLiteral:
  case ir::Expr::FloatLiteral:
  case ir::Expr::BoolLiteral:
    return E.Text;
  case ir::Expr::ParamRef:
    // A captured constant as its definition: the kernel's compiler sees
    // the loops' trip counts that the analysis sees.
    if (const ir::Expr *D = N.Params[E.ParamIndex].Definition.get())
      return "((" + ir::typeName(N, N.Params[E.ParamIndex].Element, -1) + ")(" +
             expr(*D) + "))";
    return N.Params[E.ParamIndex].Name;
  case ir::Expr::SpanElement:
    if (InSlices && SliceUses.count(&E))
      return sliceRead(E);
    if (InResidents && ResidentUses.count(&E))
      return residentRead(E);
    if (auto It = RegisterOf.find(&E); It != RegisterOf.end())
      return "weft_reg" + std::to_string(It->second) +
             (InRegisterTile && PerOutputRegisters.count(It->second)
                  ? "[weft_r][weft_c]"
                  : "");
    if (auto It = StagedReads.find(&E); It != StagedReads.end())
      return stagedRead(E, It->second);
    // A tile's read keeps its subscript for the simulator's check, except
    // in a register tile, whose outputs past the edge compute on unused.
    // A register tile's reads of a span the nest also writes are checked
    // for the outputs in range alone.
    if (auto It = TileReads.find(&E); It != TileReads.end()) {
      if (InRegisterTile && !Plan->Tiled->Tiles[It->second].Written)
        return tileRead(It->second);
      return std::string(InRegisterTile ? "WEFT_SPAN_READ_IF(weft_out_in, "
                                        : "WEFT_SPAN_READ(") +
             N.Params[E.ParamIndex].Name + ", (" + expr(*E.Operands[0]) +
             "), " + tileRead(It->second) + ")";
    }
    // ld() is a pure read: the simulator's checker tells reads and writes
    // apart by it.
    return N.Params[E.ParamIndex].Name +
           (E.refersToElement() ? "[" + expr(*E.Operands[0]) + "]"
                                : ".ld(" + expr(*E.Operands[0]) + ")");
  case ir::Expr::SpanSize:
    return N.Params[E.ParamIndex].Name + ".size()";
  case ir::Expr::Unary:
    return "(" + E.Text + expr(*E.Operands[0]) + ")";
  case ir::Expr::Postfix:
    return "(" + expr(*E.Operands[0]) + E.Text + ")";
  case ir::Expr::Binary:
    if (InSlices && ir::assigns(E) && SliceUses.count(E.Operands[0].get()))
      return sliceWrite(E);
    if (InResidents && ir::assigns(E) &&
        ResidentUses.count(E.Operands[0].get()))
      return residentWrite(E);
    if (auto It = ScaledProducts.find(&E);
        InRegisterTile && It != ScaledProducts.end())
      return tileRead(It->second); // staged scaled
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
  case ir::Expr::Combine: {
    // One atomic step: other iterations combine into the same element.
    const ir::Expr &Target = *E.Operands[0];
    return "weft::combine_into<" + reduceOp(*ir::reductionOpNamed(E.Text)) +
           ">(" + N.Params[Target.ParamIndex].Name + ".at(" +
           expr(*Target.Operands[0]) + "), (" + ir::spelling(E.Type) + ")(" +
           expr(*E.Operands[1]) + "))";
  }
  case ir::Expr::InitList: {
    std::string S = ir::typeName(N, E.Type, E.Struct) + "{";
    for (std::size_t I = 0; I < E.Operands.size(); ++I)
      S += (I ? ", " : "") + expr(*E.Operands[I]);
    return S + "}";
  }
  }
  return "";
}

void BodyPrinter::stmt(const ir::Stmt &S, int Indent) {
  std::string Pad(2 * Indent, ' ');
  switch (S.Kind) {
  case ir::Stmt::Block:
    OS << Pad << "{\n";
    for (const ir::StmtPtr &C : S.Children)
      stmt(*C, Indent + 1);
    OS << Pad << "}\n";
    return;
  case ir::Stmt::Decl:
    if (S.ArrayExtent) {
      array(S, Pad);
      return;
    }
    if (Plan && S.VarType.IsReference && S.Exprs[0] &&
        rootOf(*S.Exprs[0]).Kind == ir::Expr::SpanElement)
      SpanAliases.insert(S.Name);
    OS << Pad << decl(S) << ";\n";
    return;
  case ir::Stmt::ExprStmt: {
    // A write to shared state made by every thread of the deeper levels'
    // dimensions would happen once per thread: only their leader makes it.
    std::string Guard =
        Plan && writesSharedState(*S.Exprs[0]) ? leaderGuard() : "";
    // The other threads read what the leader writes, or wrote, only across
    // a barrier: without one, a later warp may read the element before the
    // write, or after it where it read it before (a value the thread then
    // works with in the levels inside).
    const bool ReadBack =
        !Guard.empty() && Mode == Phase::Kernel && readsBack(*S.Exprs[0]);
    const char *Fence = !ReadBack       ? nullptr
                        : blockShared() ? "weft::barrier();"
                        : warpShared()  ? "weft::warp_sync();"
                                        : nullptr;
    // Threads whose outermost iteration is out of range only take part in
    // the inner level's combining.
    if (Plan && Mode == Phase::Kernel && Plan->Shape.UniformOuter && Depth == 0)
      Guard = Guard.empty() ? "weft_in0" : "weft_in0 && " + Guard;
    if (Fence)
      OS << Pad << Fence << "\n";
    if (!Guard.empty())
      OS << Pad << "if (" << Guard << ")\n" << Pad << "  ";
    else
      OS << Pad;
    OS << expr(*S.Exprs[0]) << ";\n";
    if (Fence)
      OS << Pad << Fence << "\n";
    return;
  }
  case ir::Stmt::If:
    OS << Pad << "if (" << expr(*S.Exprs[0]) << ")\n";
    nested(*S.Children[0], Indent);
    if (S.Children[1]) {
      OS << Pad << "else\n";
      nested(*S.Children[1], Indent);
    }
    return;
  case ir::Stmt::For: {
    auto Registers = LoopRegisters.find(&S);
    if (Registers != LoopRegisters.end() && !RegistersHandled.count(&S)) {
      // The loop in a block of its own: its registers load before it and
      // store after it.
      OS << Pad << "{\n";
      loadRegisters(S, Pad + "  ");
      RegistersHandled.insert(&S);
      stmt(S, Indent + 1);
      RegistersHandled.erase(&S);
      storeRegisters(S, Pad + "  ");
      OS << Pad << "}\n";
      return;
    }
    if (Plan && Mode == Phase::Kernel && Plan->CountedFromZero.count(&S) &&
        unrollsHere(S)) {
      countedFromZero(S, Indent);
      return;
    }
    std::string Init;
    if (const ir::Stmt *I = S.Children[0].get())
      Init = I->Kind == ir::Stmt::Decl ? decl(*I) : expr(*I->Exprs[0]);
    if (Plan && Mode == Phase::Kernel && Plan->UnrolledSteps.count(&S) &&
        unrollsHere(S))
      OS << "#if WEFT_UNROLL_STEPS && !defined(WEFT_DIALECT_SIM)\n"
         << Pad << "#pragma unroll\n#endif\n";
    OS << Pad << "for (" << Init << "; "
       << (S.Exprs[0] ? expr(*S.Exprs[0]) : "") << "; "
       << (S.Exprs[1] ? expr(*S.Exprs[1]) : "") << ")\n";
    nested(*S.Children[1], Indent);
    return;
  }
  case ir::Stmt::While:
    OS << Pad << "while (" << expr(*S.Exprs[0]) << ")\n";
    nested(*S.Children[0], Indent);
    return;
  case ir::Stmt::DoWhile:
    OS << Pad << "do\n";
    nested(*S.Children[0], Indent);
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
    nested(*S.Children[0], Indent);
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

void BodyPrinter::body(const ir::Level &L, int Indent) {
  const unsigned Saved = Depth;
  Depth = L.Depth;
  slicedBody(L, Indent, [&](int At) {
    for (const ir::StmtPtr &C : L.Body)
      stmt(*C, At);
  });
  Depth = Saved;
}

void BodyPrinter::outerBody(int Indent) {
  residentBody(Indent, [&](int Outer) {
    slicedBody(N.Root, Outer, [&](int At) {
      for (const ir::StmtPtr &S : N.Root.Body) {
        stmt(*S, At);
        if (Plan->SplitLevel && S->Kind == ir::Stmt::ParallelFor)
          break; // The rest runs in the combining kernel.
      }
    });
  });
}

std::string BodyPrinter::leaderGuard() const {
  std::string G;
  for (std::size_t D = Depth + 1; D < Axis.size(); ++D)
    if (Axis[D] >= 0)
      G += (G.empty() ? "" : " && ") + std::string("weft::thread_idx(") +
           std::to_string(Axis[D]) + ") == 0";
  return G;
}

bool BodyPrinter::blockShared() const {
  for (unsigned D = 0; D <= Depth && D < Plan->Shape.Depths.size(); ++D)
    if (Plan->Shape.Depths[D].Axis >= 0 && Plan->Shape.Depths[D].Block != 1)
      return false;
  return true;
}

bool BodyPrinter::warpShared() const {
  unsigned Threaded = 0;
  bool OneWarp = false;
  for (std::size_t D = Depth + 1; D < Plan->Shape.Depths.size(); ++D)
    if (Plan->Shape.Depths[D].Axis >= 0) {
      ++Threaded;
      OneWarp = Plan->Shape.Depths[D].OneWarp;
    }
  return Threaded == 1 && OneWarp;
}

bool BodyPrinter::readsBack(const ir::Expr &Write) const {
  if (ir::assigns(Write) && !Write.Operands.empty())
    if (const ir::Expr &Target = rootOf(*Write.Operands[0]);
        Target.Kind == ir::Expr::SpanElement)
      return N.Params[Target.ParamIndex].Kind == ir::ParamKind::ReadWriteSpan;
  // Through a reference (a local or a call's parameter): any span the nest
  // reads and writes.
  for (const ir::Param &P : N.Params)
    if (P.Kind == ir::ParamKind::ReadWriteSpan)
      return true;
  return false;
}

const ir::Expr &BodyPrinter::rootOf(const ir::Expr &E) {
  return E.Kind == ir::Expr::Member ? rootOf(*E.Operands[0]) : E;
}

bool BodyPrinter::sharedTarget(const ir::Expr &E) const {
  const ir::Expr &R = rootOf(E);
  return R.Kind == ir::Expr::SpanElement ||
         (R.Kind == ir::Expr::Local &&
          (SpanAliases.count(R.Text) || ReductionVars.count(R.Text))) ||
         (R.Kind == ir::Expr::ParamRef &&
          ReductionVars.count(N.Params[R.ParamIndex].Name));
}

bool BodyPrinter::writesSharedState(const ir::Expr &E) const {
  if (ir::assigns(E) && sharedTarget(*E.Operands[0]))
    return true;
  if (E.Kind == ir::Expr::Call)
    for (const ir::ExprPtr &O : E.Operands)
      if (O->Kind == ir::Expr::SpanElement && O->writes())
        return true; // bound to a reference parameter that may write it
  for (const ir::ExprPtr &O : E.Operands)
    if (writesSharedState(*O))
      return true;
  return false;
}

void BodyPrinter::array(const ir::Stmt &S, const std::string &Pad) {
  const std::string T = ir::typeName(N, S.VarType.Scalar, S.VarType.Struct);
  const std::string Extent = expr(*S.ArrayExtent);
  if (auto B = BufferOf.find(&S); B != BufferOf.end()) {
    OS << Pad << "const weft::strided<" << T << "> " << S.Name << "{weft_buffer"
       << B->second
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

bool BodyPrinter::unrollsHere(const ir::Stmt &Loop) const {
  // Only in the branch where the resident blocks (or the register slices)
  // hold the span: the other runs where they do not fit, and would double
  // the kernel's code and its compile.
  if (Plan->SliceLoops.count(&Loop))
    return InSlices;
  return Plan->Residents.empty() || InResidents;
}

void BodyPrinter::countedFromZero(const ir::Stmt &S, int Indent) {
  const std::string Pad(2 * Indent, ' ');
  const ir::Stmt &Init = *S.Children[0];
  const ir::Expr &Lower = *Init.Exprs[0], &Upper = *S.Exprs[0]->Operands[1];
  const std::string T = ir::typeName(N, Init.VarType.Scalar, -1);
  const std::string Number = std::to_string(ZeroCounted++);
  const std::string Step = "weft_step" + Number, Steps = "weft_steps" + Number;
  OS << Pad << "for (" << T << " " << Step << " = 0, " << Steps << " = (" << T
     << ")((" << expr(Upper) << ") - (" << expr(Lower) << ")); " << Step
     << " < " << Steps << "; ++" << Step << ")\n";
  OS << Pad << "{\n";
  OS << Pad << "  " << T << " " << Init.Name << " = (" << T << ")(("
     << expr(Lower) << ") + " << Step << ");\n";
  const ir::Stmt &Body = *S.Children[1];
  if (Body.Kind == ir::Stmt::Block)
    for (const ir::StmtPtr &C : Body.Children)
      stmt(*C, Indent + 1);
  else
    stmt(Body, Indent + 1);
  OS << Pad << "}\n";
}

std::string BodyPrinter::decl(const ir::Stmt &S) {
  std::string D = std::string(S.VarType.IsConst ? "const " : "") +
                  ir::typeName(N, S.VarType.Scalar, S.VarType.Struct) +
                  (S.VarType.IsReference ? " &" : " ") + S.Name;
  if (S.Exprs[0])
    D += " = " + expr(*S.Exprs[0]);
  return D;
}

void BodyPrinter::loadRegisters(const ir::Stmt &Loop, const std::string &Pad,
                                const std::string &Guard) {
  auto It = LoopRegisters.find(&Loop);
  if (It == LoopRegisters.end())
    return;
  for (std::size_t R : It->second) {
    const ir::ReplacedElement &E = Plan->Registers[R];
    const ir::Param &P = N.Params[E.Param];
    const std::string T = ir::typeName(N, P.Element, P.Struct);
    const std::string Load = P.Name + ".ld(" + expr(*E.Subscript) + ")";
    OS << Pad << T << " weft_reg" << R << " = "
       << (Guard.empty() ? Load : Guard + " ? " + Load + " : " + T + "()")
       << "; // " << E.Description << "\n";
  }
}

void BodyPrinter::storeRegisters(const ir::Stmt &Loop, const std::string &Pad,
                                 const std::string &Guard) {
  auto It = LoopRegisters.find(&Loop);
  if (It == LoopRegisters.end())
    return;
  for (std::size_t R : It->second) {
    const ir::ReplacedElement &E = Plan->Registers[R];
    OS << Pad << (Guard.empty() ? "" : "if (" + Guard + ")\n" + Pad + "  ")
       << N.Params[E.Param].Name << "[" << expr(*E.Subscript) << "] = weft_reg"
       << R << ";\n";
  }
}

void BodyPrinter::nested(const ir::Stmt &S, int Indent) {
  stmt(S, S.Kind == ir::Stmt::Block ? Indent : Indent + 1);
}

} // namespace weft::emit
