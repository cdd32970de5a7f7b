// RecognizeComplex.cpp: std::complex<float> and std::complex<double> in a
// loop: values of weft::complex<T> (<weft/device.h>), with <complex>'s
// constructors, operators, members and functions mapped onto its own.
#include "recognize/CallRecognizer.h"

#include "llvm/Support/SaveAndRestore.h"

namespace weft::recognize {
namespace {

/// The element type of the std::complex specialization T names.
std::optional<ir::ScalarKind> complexElement(QualType T) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl());
  if (!Spec || Spec->getName() != "complex" || !Spec->isInStdNamespace() ||
      Spec->getTemplateArgs().size() != 1)
    return std::nullopt;
  std::optional<ir::ScalarKind> K =
      scalarKind(Spec->getTemplateArgs()[0].getAsType());
  if (K != ir::ScalarKind::Float && K != ir::ScalarKind::Double)
    return std::nullopt;
  return K;
}

bool anyComplex(llvm::ArrayRef<const Expr *> Args) {
  return llvm::any_of(Args, [](const Expr *A) {
    return complexElement(A->getType()).has_value();
  });
}

} // namespace

int CallRecognizer::complexStruct(QualType T) {
  std::optional<ir::ScalarKind> K = complexElement(T);
  if (!K)
    return -1;
  const CXXRecordDecl *RD =
      T.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl();
  if (auto It = StructIndex.find(RD); It != StructIndex.end())
    return It->second;
  ir::StructDef Def;
  Def.Name = std::string("weft::complex<") + ir::spelling(*K) + ">";
  Def.Source = std::string("std::complex<") + ir::spelling(*K) + ">";
  Def.Fields = {{"re", *K, -1}, {"im", *K, -1}};
  Def.Size = 2 * ir::byteSize(*K);
  Def.FromPrelude = true;
  const int I = static_cast<int>(Structs.size());
  Structs.push_back(std::move(Def));
  StructIndex[RD] = I;
  return I;
}

ir::ExprPtr CallRecognizer::complexValue(const CXXConstructExpr *CE, int S) {
  // complex(re = 0, im = 0), a copy, or a conversion from another complex.
  if (CE->getNumArgs() == 1 && complexElement(CE->getArg(0)->getType())) {
    if (complexStruct(CE->getArg(0)->getType()) == S)
      return expr(CE->getArg(0));
    return failExpr(CE->getExprLoc(),
                    "converting between complex types is not supported in a "
                    "weft loop",
                    "convert the real and imaginary parts");
  }
  ir::ExprPtr Parts[2];
  for (unsigned I = 0; I < CE->getNumArgs() && I < 2; ++I)
    if (!(Parts[I] = expr(CE->getArg(I))))
      return nullptr;
  return complexOf(S, std::move(Parts[0]), std::move(Parts[1]));
}

ir::ExprPtr CallRecognizer::complexOf(int S, ir::ExprPtr Re, ir::ExprPtr Im) {
  auto R = make(ir::Expr::InitList, ir::ScalarKind::Char);
  R->Struct = S;
  for (ir::ExprPtr *Part : {&Re, &Im}) {
    auto Cast = make(ir::Expr::Cast, Structs[S].Fields[0].Scalar);
    Cast->Operands.push_back(
        *Part ? std::move(*Part)
              : make(ir::Expr::IntLiteral, ir::ScalarKind::Int, "0"));
    R->Operands.push_back(std::move(Cast));
  }
  return R;
}

ir::ExprPtr CallRecognizer::complexOperator(const CXXOperatorCallExpr *OC,
                                            std::optional<ir::ScalarKind> K) {
  llvm::ArrayRef<const Expr *> Args(OC->getArgs(), OC->getNumArgs());
  if (!anyComplex(Args))
    return nullptr;
  const std::string Op = getOperatorSpelling(OC->getOperator());
  static const llvm::StringSet<> Supported = {
      "+", "-", "*", "/", "+=", "-=", "*=", "/=", "=", "==", "!="};
  if (!Supported.contains(Op) || Args.size() > 2)
    return failExpr(OC->getExprLoc(),
                    "operator" + Op +
                        " of std::complex is not supported in a weft loop");
  const int S = K ? -1 : complexStruct(OC->getType());
  const bool Assigns = Op.back() == '=' && Op != "==" && Op != "!=";
  ir::ExprPtr Left = expr(Args[0], Op == "=" ? Access::Write
                                   : Assigns ? Access::ReadWrite
                                             : Access::Read);
  if (!Left)
    return nullptr;
  if (Args.size() == 1) {
    auto U = make(ir::Expr::Unary, K.value_or(ir::ScalarKind::Char), Op);
    U->Struct = S;
    U->Operands.push_back(std::move(Left));
    return U;
  }
  ir::ExprPtr Right = expr(Args[1]);
  if (!Right)
    return nullptr;
  if (Op == "=" && !complexElement(Args[1]->getType())) {
    // `z = x`: the real x, as <complex>'s assignment takes it.
    Right =
        complexOf(complexStruct(Args[0]->getType()), std::move(Right), nullptr);
  }
  auto B = make(ir::Expr::Binary, K.value_or(ir::ScalarKind::Char), Op);
  B->Struct = S;
  B->Operands.push_back(std::move(Left));
  B->Operands.push_back(std::move(Right));
  return B;
}

ir::ExprPtr CallRecognizer::complexCall(const CallExpr *Call,
                                        const FunctionDecl *FD,
                                        std::optional<ir::ScalarKind> K) {
  llvm::ArrayRef<const Expr *> Args(Call->getArgs(), Call->getNumArgs());
  if (!FD || !FD->getIdentifier() || !FD->isInStdNamespace() ||
      (!anyComplex(Args) && !complexElement(Call->getType())))
    return nullptr;
  static const llvm::StringSet<> Functions = {
      "real", "imag", "abs",   "arg", "norm", "conj", "polar", "exp",  "log",
      "sqrt", "pow",  "log10", "sin", "cos",  "tan",  "sinh",  "cosh", "tanh"};
  const std::string Name = FD->getName().str();
  if (!Functions.contains(Name))
    return failExpr(Call->getExprLoc(),
                    "std::" + Name +
                        " of std::complex is not supported in a weft loop",
                    "real, imag, abs, arg, norm, conj, polar, exp, log, "
                    "log10, sqrt, pow, sin, cos, tan, sinh, cosh and tanh "
                    "are");
  auto R =
      make(ir::Expr::Call, K.value_or(ir::ScalarKind::Char), "weft::" + Name);
  R->Struct = K ? -1 : complexStruct(Call->getType());
  for (const Expr *Arg : Args) {
    ir::ExprPtr A = expr(Arg);
    if (!A)
      return nullptr;
    R->Operands.push_back(std::move(A));
  }
  return R;
}

ir::ExprPtr CallRecognizer::complexMethod(const CXXMemberCallExpr *MC,
                                          std::optional<ir::ScalarKind> K) {
  const Expr *Object = MC->getImplicitObjectArgument();
  const CXXMethodDecl *M = MC->getMethodDecl();
  if (!Object || !complexElement(Object->getType()) || !M)
    return nullptr;
  const std::string Name = M->getName().str();
  if ((Name != "real" && Name != "imag") || MC->getNumArgs() > 1)
    return failExpr(MC->getExprLoc(),
                    "std::complex::" + Name +
                        " is not supported in a weft loop",
                    "real() and imag() are, and real(v), imag(v) set them");
  const bool Sets = MC->getNumArgs() == 1;
  auto R = make(ir::Expr::Call,
                Sets ? ir::ScalarKind::Int : K.value_or(ir::ScalarKind::Float),
                (Sets ? "weft::set_" : "weft::") + Name);
  ir::ExprPtr Self;
  {
    llvm::SaveAndRestore<bool> Binding(BindingReference, Sets);
    Self = expr(Object, Sets ? Access::ReadWrite : Access::Read);
  }
  if (!Self)
    return nullptr;
  R->Operands.push_back(std::move(Self));
  if (Sets) {
    ir::ExprPtr V = expr(MC->getArg(0));
    if (!V)
      return nullptr;
    R->Operands.push_back(std::move(V));
  }
  return R;
}

} // namespace weft::recognize
