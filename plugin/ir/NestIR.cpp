// NestIR.cpp: type spellings and the IR's text dump.
#include "ir/NestIR.h"

#include <sstream>

namespace weft::ir {

namespace {
using contract::ScalarType;
struct ScalarInfo {
  const char *Spelling;
  ScalarType Type;
  unsigned Bytes;
};
constexpr ScalarInfo Scalars[] = {{"bool", ScalarType::Bool, 1},
                                  {"char", ScalarType::I8, 1},
                                  {"signed char", ScalarType::I8, 1},
                                  {"unsigned char", ScalarType::U8, 1},
                                  {"short", ScalarType::I16, 2},
                                  {"unsigned short", ScalarType::U16, 2},
                                  {"int", ScalarType::I32, 4},
                                  {"unsigned int", ScalarType::U32, 4},
                                  {"long", ScalarType::I64, 8},
                                  {"unsigned long", ScalarType::U64, 8},
                                  {"long long", ScalarType::I64, 8},
                                  {"unsigned long long", ScalarType::U64, 8},
                                  {"float", ScalarType::F32, 4},
                                  {"double", ScalarType::F64, 8},
                                  {"weft::key128", ScalarType::K128, 16}};
} // namespace

const char *spelling(ScalarKind K) {
  return Scalars[static_cast<int>(K)].Spelling;
}
contract::ScalarType descriptorType(ScalarKind K) {
  return Scalars[static_cast<int>(K)].Type;
}
unsigned byteSize(ScalarKind K) { return Scalars[static_cast<int>(K)].Bytes; }
bool isFloating(ScalarKind K) {
  return K == ScalarKind::Float || K == ScalarKind::Double;
}

const char *spelling(ParamKind K) {
  switch (K) {
  case ParamKind::ReadSpan:
    return "read span";
  case ParamKind::WriteSpan:
    return "written span";
  case ParamKind::ReadWriteSpan:
    return "read-written span";
  case ParamKind::Scalar:
    return "scalar";
  case ParamKind::ReductionTarget:
    return "reduction target";
  }
  return "?";
}

static void collectLevels(const Level &L, std::vector<const Level *> &Out);

static void collectLevels(const std::vector<StmtPtr> &Body,
                          std::vector<const Level *> &Out) {
  for (const StmtPtr &S : Body) {
    if (!S)
      continue;
    if (S->Nested)
      collectLevels(*S->Nested, Out);
    collectLevels(S->Children, Out);
  }
}

static void collectLevels(const Level &L, std::vector<const Level *> &Out) {
  Out.push_back(&L);
  collectLevels(L.Body, Out);
}

std::vector<const Level *> levels(const Nest &N) {
  std::vector<const Level *> Out;
  collectLevels(N.Root, Out);
  return Out;
}

std::string typeName(const Nest &N, ScalarKind K, int Struct) {
  return Struct >= 0 ? N.Structs[Struct].Name : std::string(spelling(K));
}

std::string exprText(const Nest &N, const Expr &E) {
  auto Sub = [&](std::size_t I) { return exprText(N, *E.Operands[I]); };
  switch (E.Kind) {
  case Expr::IntLiteral:
  case Expr::FloatLiteral:
  case Expr::BoolLiteral:
  case Expr::Local:
    return E.Text;
  case Expr::ParamRef:
    return "$" + N.Params[E.ParamIndex].Name;
  case Expr::SpanElement:
    return "$" + N.Params[E.ParamIndex].Name + "[" + Sub(0) + "]";
  case Expr::SpanSize:
    return "size($" + N.Params[E.ParamIndex].Name + ")";
  case Expr::Unary:
    return "(" + E.Text + Sub(0) + ")";
  case Expr::Postfix:
    return "(" + Sub(0) + E.Text + ")";
  case Expr::Binary:
    return "(" + Sub(0) + " " + E.Text + " " + Sub(1) + ")";
  case Expr::Conditional:
    return "(" + Sub(0) + " ? " + Sub(1) + " : " + Sub(2) + ")";
  case Expr::Call: {
    std::string S = E.Text + "(";
    for (std::size_t I = 0; I < E.Operands.size(); ++I)
      S += (I ? ", " : "") + Sub(I);
    return S + ")";
  }
  case Expr::Cast:
    return std::string(spelling(E.Type)) + "(" + Sub(0) + ")";
  case Expr::Member:
    return Sub(0) + "." + E.Text;
  case Expr::LocalElement:
    return E.Text + "[" + Sub(0) + "]";
  case Expr::Combine:
    return "combine(" + E.Text + ": " + Sub(0) + ", " + Sub(1) + ")";
  case Expr::InitList: {
    // A struct's initializer names its type; an array's does not.
    std::string S = (E.Struct >= 0 ? typeName(N, E.Type, E.Struct) : "") + "{";
    for (std::size_t I = 0; I < E.Operands.size(); ++I)
      S += (I ? ", " : "") + Sub(I);
    return S + "}";
  }
  }
  return "?";
}

namespace {

class Dumper {
public:
  explicit Dumper(const Nest &N) : N(N) {}

  std::string run() {
    OS << "nest at " << N.Location << (N.Sequential ? " (sequential)" : "")
       << "\n";
    for (std::size_t I = 0; I < N.Params.size(); ++I) {
      const Param &P = N.Params[I];
      OS << "  param " << I << " " << P.Name << ": " << spelling(P.Kind)
         << " of " << (P.ConstElement ? "const " : "")
         << typeName(N, P.Element, P.Struct);
      if (P.Definition)
        OS << " = " << exprText(N, *P.Definition);
      OS << "\n";
    }
    for (const StructDef &S : N.Structs) {
      OS << "  struct " << S.Name << " (" << S.Source << ", " << S.Size
         << " bytes):";
      for (const StructDef::Field &F : S.Fields)
        OS << " " << typeName(N, F.Scalar, F.Struct) << " " << F.Name << ";";
      OS << "\n";
    }
    for (const Function &F : N.Functions) {
      OS << "  function " << F.Name << " (" << F.Source << "): "
         << (F.ReturnsValue ? typeName(N, F.ReturnType, F.ReturnStruct)
                            : std::string("void"))
         << (F.ReturnsSelf ? "&" : "") << "(";
      for (std::size_t I = 0; I < F.Params.size(); ++I) {
        const LocalType &T = F.Params[I].second;
        OS << (I ? ", " : "") << (T.IsConst ? "const " : "")
           << typeName(N, T.Scalar, T.Struct) << (T.IsReference ? "& " : " ")
           << F.Params[I].first;
      }
      OS << ")\n";
      for (const StmtPtr &S : F.Body)
        stmt(*S, 2);
    }
    level(N.Root, 1);
    for (const Access &A : N.Accesses) {
      OS << "  access $" << N.Params[A.ParamIndex].Name << "[" << A.Subscript
         << "] "
         << (A.Read && A.Write ? "read-write"
             : A.Write         ? "write"
                               : "read")
         << " in level " << A.Depth << ": ";
      if (!A.Affine) {
        OS << "not affine\n";
        continue;
      }
      OS << "affine";
      for (const auto &[Index, Coef] : A.Coefficients)
        OS << " " << Index << "*" << Coef.text();
      OS << " + " << A.Offset.text() << "\n";
    }
    for (const Allocation &A : N.Allocations) {
      OS << "  allocation " << A.Name << ": "
         << typeName(N, A.Element.Scalar, A.Element.Struct) << "[" << A.Extent
         << "] per iteration of level " << A.OwningLevel;
      if (A.FilledByLevel >= 0)
        OS << ", filled by level " << A.FilledByLevel;
      OS << (A.FixedSize >= 0 ? ", constant size" : ", run-time size") << "\n";
    }
    return OS.str();
  }

private:
  std::string expr(const Expr &E) { return exprText(N, E); }

  void level(const Level &L, int Depth) {
    OS << std::string(2 * Depth, ' ') << "level " << L.Depth << " at "
       << L.Location << ": " << spelling(L.IndexType) << " " << L.IndexName
       << " in [" << expr(*L.Lower) << ", " << expr(*L.Upper)
       << (L.Inclusive ? "]" : ")") << " step " << L.Step
       << (L.CountsDown ? " (written counting down)" : "");
    for (const Reduction &R : L.Reductions)
      OS << ", reduction(" << spelling(R.Op) << ": " << R.Variable
         << (R.Inferred.empty() ? "" : ", inferred") << ")";
    for (const ArrayReduction &R : L.ArrayReductions)
      OS << ", reduction(" << spelling(R.Op) << ": $"
         << N.Params[R.ParamIndex].Name << ", atomic)";
    OS << "\n";
    for (const StmtPtr &S : L.Body)
      stmt(*S, Depth + 1);
  }

  void stmt(const Stmt &S, int Depth) {
    std::string Pad(2 * Depth, ' ');
    switch (S.Kind) {
    case Stmt::Block:
      OS << Pad << "block\n";
      for (const StmtPtr &C : S.Children)
        stmt(*C, Depth + 1);
      return;
    case Stmt::Decl:
      OS << Pad << "decl " << (S.VarType.IsConst ? "const " : "")
         << typeName(N, S.VarType.Scalar, S.VarType.Struct)
         << (S.VarType.IsReference ? "& " : " ") << S.Name;
      if (S.ArrayExtent)
        OS << "[" << expr(*S.ArrayExtent) << "]";
      if (S.Exprs[0])
        OS << (S.ArrayFill ? " filled with " : " = ") << expr(*S.Exprs[0]);
      OS << "\n";
      return;
    case Stmt::ExprStmt:
      OS << Pad << expr(*S.Exprs[0]) << "\n";
      return;
    case Stmt::If:
      OS << Pad << "if " << expr(*S.Exprs[0]) << "\n";
      stmt(*S.Children[0], Depth + 1);
      if (S.Children[1]) {
        OS << Pad << "else\n";
        stmt(*S.Children[1], Depth + 1);
      }
      return;
    case Stmt::For:
      OS << Pad << "for (sequential)\n";
      if (S.Children[0])
        stmt(*S.Children[0], Depth + 1);
      OS << Pad << "  cond " << (S.Exprs[0] ? expr(*S.Exprs[0]) : "-") << "\n";
      OS << Pad << "  step " << (S.Exprs[1] ? expr(*S.Exprs[1]) : "-") << "\n";
      stmt(*S.Children[1], Depth + 1);
      return;
    case Stmt::While:
      OS << Pad << "while " << expr(*S.Exprs[0]) << "\n";
      stmt(*S.Children[0], Depth + 1);
      return;
    case Stmt::DoWhile:
      OS << Pad << "do\n";
      stmt(*S.Children[0], Depth + 1);
      OS << Pad << "while " << expr(*S.Exprs[0]) << "\n";
      return;
    case Stmt::Break:
      OS << Pad << "break\n";
      return;
    case Stmt::Continue:
      OS << Pad << "continue\n";
      return;
    case Stmt::ParallelFor:
      level(*S.Nested, Depth);
      return;
    case Stmt::Switch:
      OS << Pad << "switch " << expr(*S.Exprs[0]) << "\n";
      stmt(*S.Children[0], Depth + 1);
      return;
    case Stmt::Case:
      if (S.Exprs[0])
        OS << Pad << "case " << expr(*S.Exprs[0]) << "\n";
      else
        OS << Pad << "default\n";
      return;
    case Stmt::Return:
      OS << Pad << "return";
      if (S.Exprs[0])
        OS << " " << expr(*S.Exprs[0]);
      OS << "\n";
      return;
    }
  }

  const Nest &N;
  std::ostringstream OS;
};

} // namespace

std::string dump(const Nest &N) { return Dumper(N).run(); }

std::optional<std::int64_t> integerValue(const Expr &E) {
  if (E.Kind == Expr::BoolLiteral)
    return E.Text == "true" ? 1 : 0;
  if (E.Kind != Expr::IntLiteral)
    return std::nullopt;
  const std::string &T = E.Text;
  const bool Negative = !T.empty() && T[0] == '-';
  std::size_t I = Negative ? 1 : 0;
  const std::size_t First = I;
  std::uint64_t Magnitude = 0;
  for (; I < T.size() && T[I] >= '0' && T[I] <= '9'; ++I) {
    const unsigned Digit = static_cast<unsigned>(T[I] - '0');
    if (Magnitude > (UINT64_MAX - Digit) / 10)
      return std::nullopt;
    Magnitude = Magnitude * 10 + Digit;
  }
  if (I == First ||
      Magnitude > static_cast<std::uint64_t>(INT64_MAX) + (Negative ? 1 : 0))
    return std::nullopt;
  return Negative ? static_cast<std::int64_t>(0 - Magnitude)
                  : static_cast<std::int64_t>(Magnitude);
}

} // namespace weft::ir
