// KernelEmitter.cpp: kernel text for single-level nests.
#include "emit/KernelEmitter.h"

#include "llvm/Support/xxhash.h"

#include <cctype>
#include <cstdio>
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

class BodyPrinter {
public:
  BodyPrinter(const ir::Nest &N, std::ostringstream &OS) : N(N), OS(OS) {}

  std::string expr(const ir::Expr &E) {
    switch (E.Kind) {
    case ir::Expr::IntLiteral:
    case ir::Expr::FloatLiteral:
    case ir::Expr::BoolLiteral:
    case ir::Expr::Local:
      return E.Text;
    case ir::Expr::ParamRef:
      return N.Params[E.ParamIndex].Name;
    case ir::Expr::SpanElement:
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
      return "(" + expr(*E.Operands[0]) + " ? " + expr(*E.Operands[1]) +
             " : " + expr(*E.Operands[2]) + ")";
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
      OS << Pad << decl(S) << ";\n";
      return;
    case ir::Stmt::ExprStmt:
      OS << Pad << expr(*S.Exprs[0]) << ";\n";
      return;
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
    case ir::Stmt::Return:
      OS << Pad << "return";
      if (S.Exprs[0])
        OS << " " << expr(*S.Exprs[0]);
      OS << ";\n";
      return;
    case ir::Stmt::ParallelFor: {
      // An inner level that the mapping keeps within its thread.
      const ir::Level &L = *S.Nested;
      const std::string T = ir::spelling(L.IndexType);
      OS << Pad << "for (" << T << " " << L.IndexName << " = (" << T << ")"
         << expr(*L.Lower) << "; " << L.IndexName
         << (L.Inclusive ? " <= " : " < ") << expr(*L.Upper) << "; "
         << L.IndexName << " += " << L.Step << ") {\n";
      for (const ir::StmtPtr &C : L.Body)
        stmt(*C, Depth + 1);
      OS << Pad << "}\n";
      return;
    }
    }
  }

private:
  /// A per-iteration array of constant size, in the thread's own memory.
  void array(const ir::Stmt &S, const std::string &Pad) {
    const std::string T = ir::typeName(N, S.VarType.Scalar, S.VarType.Struct);
    const std::string Extent = expr(*S.ArrayExtent);
    OS << Pad << T << " " << S.Name << "[" << Extent << "]";
    if (S.Exprs[0] && !S.ArrayFill) {
      OS << " = {";
      for (std::size_t I = 0; I < S.Exprs[0]->Operands.size(); ++I)
        OS << (I ? ", " : "") << expr(*S.Exprs[0]->Operands[I]);
      OS << "}";
    }
    OS << ";\n";
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
      if (std::isdigit(static_cast<unsigned char>(C)) || C == 'x' ||
          C == 'X' || std::isxdigit(static_cast<unsigned char>(C)))
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
    } Ops[] = {{"+", "add"}, {"-", "sub"}, {"*", "mul"}, {"/", "div"},
               {"%", "rem"}};
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

EmittedKernel emitKernel(const ir::Nest &N, const map::NestMapping &M,
                         const std::vector<memory::Transfer> &Transfers) {
  const ir::Level &L = N.Root;
  const map::LevelMapping &LM = M.Levels.front();

  std::ostringstream Body;
  BodyPrinter Printer(N, Body);
  Body << "  for (weft::index_t weft_t0 = weft::global_id_x(); weft_t0 < "
          "weft_count0;\n       weft_t0 += weft::global_size_x()) {\n";
  Body << "    const " << ir::spelling(L.IndexType) << " " << L.IndexName
       << " = (" << ir::spelling(L.IndexType) << ")(weft_lo0 + weft_t0";
  if (L.Step != 1)
    Body << " * " << L.Step;
  Body << ");\n    weft::begin_iteration(weft_t0);\n";
  for (const ir::StmtPtr &S : L.Body)
    Printer.stmt(*S, 2);
  Body << "  }\n}\n";

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
              << (F.ReturnsValue
                      ? ir::typeName(N, F.ReturnType, F.ReturnStruct)
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

  std::ostringstream Params;
  for (const ir::Param &P : N.Params)
    Params << paramDecl(N, P) << ", ";
  Params << "weft::index_t weft_lo0, weft::index_t weft_count0";

  // The name hashes what makes the kernel distinct: where it comes from and
  // what it computes (two instantiations of one template differ in types).
  std::uint64_t Hash =
      llvm::xxh3_64bits(N.Location + "\n" + Functions.str() + Params.str() +
                        "\n" + Body.str());
  char HashText[17];
  std::snprintf(HashText, sizeof HashText, "%016llx",
                static_cast<unsigned long long>(Hash));
  EmittedKernel K;
  K.Name = "weft_" + stemOf(N.Location) + "_L" + lineOf(N.Location) + "_" +
           std::string(HashText, 12);

  std::ostringstream Src;
  Src << "// weft kernel for the loop at " << N.Location << "\n"
      << "// level 0: dim " << map::spelling(LM.Dim) << ", block WEFT_BLOCK_X, "
      << map::spelling(LM.Dop) << ", grid-stride\n"
      << "#include <weft/device.h>\n\n"
      << "#ifndef WEFT_BLOCK_X\n#define WEFT_BLOCK_X " << LM.BlockSize
      << "\n#endif\n\n"
      << Functions.str() << "WEFT_KERNEL(" << K.Name << ", WEFT_BLOCK_X)\n(" << Params.str()
      << ") {\n"
      << Body.str();
  K.Source = Src.str();

  std::ostringstream D;
  D << "weft 1\nkernel " << K.Name << "\nloc " << N.Location << "\n";
  for (std::size_t I = 0; I < N.Params.size(); ++I)
    D << "param " << memory::descriptorWord(Transfers[I]) << " "
      << (N.Params[I].Struct >= 0
              ? "bytes" + std::to_string(N.Structs[N.Params[I].Struct].Size)
              : std::string(ir::descriptorCode(N.Params[I].Element)))
      << " " << N.Params[I].Name << "\n";
  D << "level " << boundExpression(*L.Lower) << " "
    << boundExpression(*L.Upper) << " " << L.Step << " "
    << (L.Inclusive ? "le" : "lt") << "\n";
  D << "block " << LM.BlockSize << "\n";
  K.Descriptor = D.str();
  return K;
}

} // namespace weft::emit
