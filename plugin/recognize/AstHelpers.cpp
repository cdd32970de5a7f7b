// AstHelpers.cpp: what the recognizer asks of Clang's types, callees and
// literals: scalar kinds, std::span, device math functions, literal text.
#include "recognize/AstHelpers.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

namespace weft::recognize {

std::optional<ir::ScalarKind> scalarKind(QualType T) {
  const auto *BT = T.getCanonicalType()->getAs<BuiltinType>();
  if (!BT)
    return std::nullopt;
  switch (BT->getKind()) {
  case BuiltinType::Bool:
    return ir::ScalarKind::Bool;
  case BuiltinType::Char_S:
  case BuiltinType::Char_U:
    return ir::ScalarKind::Char;
  case BuiltinType::SChar:
    return ir::ScalarKind::SChar;
  case BuiltinType::UChar:
    return ir::ScalarKind::UChar;
  case BuiltinType::Short:
    return ir::ScalarKind::Short;
  case BuiltinType::UShort:
    return ir::ScalarKind::UShort;
  case BuiltinType::Int:
    return ir::ScalarKind::Int;
  case BuiltinType::UInt:
    return ir::ScalarKind::UInt;
  case BuiltinType::Long:
    return ir::ScalarKind::Long;
  case BuiltinType::ULong:
    return ir::ScalarKind::ULong;
  case BuiltinType::LongLong:
    return ir::ScalarKind::LongLong;
  case BuiltinType::ULongLong:
    return ir::ScalarKind::ULongLong;
  case BuiltinType::Float:
    return ir::ScalarKind::Float;
  case BuiltinType::Double:
    return ir::ScalarKind::Double;
  default:
    return std::nullopt;
  }
}

bool isInteger(ir::ScalarKind K) {
  return !ir::isFloating(K) && K != ir::ScalarKind::Bool;
}

/// The std::span specialization T names, if any.
const ClassTemplateSpecializationDecl *spanDecl(QualType T) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl());
  if (!Spec || Spec->getName() != "span" || !Spec->isInStdNamespace())
    return nullptr;
  return Spec;
}

const BinaryOperator *variableAssignment(const Stmt *S,
                                         const VarDecl *&Variable) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  const auto *B = E ? dyn_cast<BinaryOperator>(E->IgnoreParens()) : nullptr;
  const auto *L = B && B->getOpcode() == BO_Assign
                      ? dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParens())
                      : nullptr;
  Variable = L ? dyn_cast<VarDecl>(L->getDecl()) : nullptr;
  return Variable ? B : nullptr;
}

void commaOperands(const Expr *E, llvm::SmallVectorImpl<const Expr *> &Out) {
  E = E->IgnoreParens();
  if (const auto *B = dyn_cast<BinaryOperator>(E);
      B && B->getOpcode() == BO_Comma) {
    commaOperands(B->getLHS(), Out);
    commaOperands(B->getRHS(), Out);
    return;
  }
  Out.push_back(E);
}

ir::StmtPtr declarationOf(const VarDecl *VD, std::string Name,
                          std::optional<ir::ScalarKind> K, int Struct) {
  const QualType T = VD->getType();
  auto D = std::make_unique<ir::Stmt>();
  D->Kind = ir::Stmt::Decl;
  D->Name = std::move(Name);
  D->VarType.Scalar = K.value_or(ir::ScalarKind::Char);
  D->VarType.Struct = Struct;
  D->VarType.IsReference = T->isReferenceType();
  D->VarType.IsConst = T.getNonReferenceType().isConstQualified();
  return D;
}

const BinaryOperator *initializerAssignmentTo(const Stmt *S, const VarDecl *V) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  if (!E)
    return nullptr;
  llvm::SmallVector<const Expr *, 2> Parts;
  commaOperands(E, Parts);
  // (Only where every part sets a variable, as the loop's declarations
  // then replace them all.)
  const BinaryOperator *Found = nullptr;
  for (const Expr *Part : Parts) {
    const VarDecl *Assigned;
    const BinaryOperator *B = variableAssignment(Part, Assigned);
    if (!B)
      return nullptr;
    if (Assigned == V && !Found)
      Found = B;
  }
  return Found;
}

namespace {

class ReferenceCollector : public RecursiveASTVisitor<ReferenceCollector> {
public:
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (const auto *V = dyn_cast<VarDecl>(E->getDecl()))
      Refs[V].push_back(E);
    return true;
  }
  References Refs;
};

} // namespace

References referencesIn(const Stmt *S) {
  ReferenceCollector Collector;
  Collector.TraverseStmt(const_cast<Stmt *>(S));
  return std::move(Collector.Refs);
}

bool isView(QualType T) {
  if (T->isPointerType() || T->isReferenceType())
    return true;
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getCanonicalType()->getAsCXXRecordDecl());
  return Spec && Spec->isInStdNamespace() &&
         (Spec->getName() == "span" || Spec->getName() == "mdspan");
}

llvm::SmallVector<std::int64_t, 4> elementStrides(const ASTContext &Ctx,
                                                  QualType T) {
  llvm::SmallVector<std::int64_t, 4> Strides;
  QualType Step;
  if (T->isPointerType())
    Step = T->getPointeeType();
  else if (const ArrayType *A = Ctx.getAsConstantArrayType(T))
    Step = A->getElementType();
  else
    return Strides;
  const QualType Base = Ctx.getBaseElementType(Step);
  if (Base->isIncompleteType() || Base->isDependentType() ||
      Step->isIncompleteType() || Step->isDependentType())
    return Strides;
  const std::int64_t Size = Ctx.getTypeSizeInChars(Base).getQuantity();
  while (Size > 0) {
    Strides.push_back(Ctx.getTypeSizeInChars(Step).getQuantity() / Size);
    const ArrayType *A = Ctx.getAsConstantArrayType(Step);
    if (!A)
      break;
    Step = A->getElementType();
  }
  return Strides;
}

const VarDecl *rootVariable(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(Ref->getDecl());
    if (const auto *M = dyn_cast<MemberExpr>(E))
      E = M->getBase();
    else if (const auto *U = dyn_cast<UnaryOperator>(E);
             U && U->getOpcode() == UO_Deref)
      E = U->getSubExpr();
    else
      return nullptr;
  }
  return nullptr;
}

llvm::SmallVector<const Stmt *, 8> subStatements(const Stmt *S) {
  llvm::SmallVector<const Stmt *, 8> Out;
  if (!S)
    return Out;
  for (const Stmt *C : S->children())
    Out.push_back(C);
  if (const auto *Captured = dyn_cast<CapturedStmt>(S))
    Out.push_back(Captured->getCapturedStmt());
  return Out;
}

/// Maps a callee to its device function: std::sqrt, ::sqrtf -> weft::sqrt.
std::optional<std::string> deviceFunction(const FunctionDecl *FD) {
  static const llvm::StringSet<> Math = {
      "sqrt",     "cbrt",      "exp",    "exp2",    "expm1",    "log",
      "log2",     "log10",     "log1p",  "sin",     "cos",      "tan",
      "asin",     "acos",      "atan",   "sinh",    "cosh",     "tanh",
      "asinh",    "acosh",     "atanh",  "erf",     "erfc",     "tgamma",
      "lgamma",   "fabs",      "floor",  "ceil",    "round",    "trunc",
      "pow",      "atan2",     "fmod",   "fmin",    "fmax",     "hypot",
      "copysign", "fma",       "abs",    "min",     "max",      "clamp",
      "rint",     "nearbyint", "lround", "llround", "lrint",    "llrint",
      "fdim",     "remainder", "isnan",  "isinf",   "isfinite", "signbit"};
  if (!FD || !FD->getIdentifier())
    return std::nullopt;
  const DeclContext *DC = FD->getDeclContext()->getRedeclContext();
  if (!DC->isTranslationUnit() && !DC->isStdNamespace() &&
      !(DC->isNamespace() && cast<NamespaceDecl>(DC)->isInStdNamespace()))
    return std::nullopt;
  llvm::StringRef Name = FD->getName();
  // The compiler's own spellings (__builtin_fabs, as C code and macros of
  // <math.h> write them) are the library's functions.
  if (FD->getBuiltinID())
    Name.consume_front("__builtin_");
  if (!Math.contains(Name) && Name.ends_with("f") &&
      Math.contains(Name.drop_back()) && DC->isTranslationUnit())
    Name = Name.drop_back(); // sqrtf -> sqrt: the argument is already float
  if (!Math.contains(Name))
    return std::nullopt;
  return "weft::" + Name.str();
}

std::string literalText(const FloatingLiteral *FL, ir::ScalarKind K) {
  llvm::APFloat V = FL->getValue();
  llvm::SmallString<32> Decimal;
  V.toString(Decimal);
  std::string S(Decimal.str());
  // Decimal when it reads back to the same bits, hexadecimal otherwise.
  llvm::APFloat Back(V.getSemantics());
  auto Status = Back.convertFromString(S, llvm::APFloat::rmNearestTiesToEven);
  if (!Status || !Back.bitwiseIsEqual(V)) {
    char Hex[64];
    V.convertToHexString(Hex, 0, false, llvm::APFloat::rmNearestTiesToEven);
    S = Hex;
  } else if (S.find_first_of(".eEn") == std::string::npos) {
    S += ".0";
  }
  if (K == ir::ScalarKind::Float)
    S += "f";
  return S;
}

std::string literalText(const llvm::APInt &V, ir::ScalarKind K) {
  bool Signed = isInteger(K) && K != ir::ScalarKind::UInt &&
                K != ir::ScalarKind::ULong && K != ir::ScalarKind::ULongLong;
  std::string S = llvm::toString(V, 10, Signed);
  switch (K) {
  case ir::ScalarKind::UInt:
    return S + "u";
  case ir::ScalarKind::Long:
    return S + "l";
  case ir::ScalarKind::ULong:
    return S + "ul";
  case ir::ScalarKind::LongLong:
    return S + "ll";
  case ir::ScalarKind::ULongLong:
    return S + "ull";
  default:
    return S;
  }
}

std::string locationText(const SourceManager &SM, SourceLocation Loc) {
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
  if (P.isInvalid())
    return "<unknown>:0:0";
  return std::string(P.getFilename()) + ":" + std::to_string(P.getLine()) +
         ":" + std::to_string(P.getColumn());
}

std::string functionShownAs(const FunctionDecl *F) {
  if (!F)
    return {};
  // A lambda's body: named by the function the lambda is written in.
  if (const auto *M = dyn_cast<CXXMethodDecl>(F);
      M && M->getParent()->isLambda()) {
    const auto *Outer =
        dyn_cast_or_null<FunctionDecl>(M->getParent()->getDeclContext());
    return Outer ? "a lambda in " + functionShownAs(Outer) : "a lambda";
  }
  return F->getQualifiedNameAsString();
}

bool failedAssertion(const ConditionalOperator *Check) {
  const auto *Pass =
      dyn_cast<ExplicitCastExpr>(Check->getTrueExpr()->IgnoreParens());
  const auto *Fail =
      dyn_cast<CallExpr>(Check->getFalseExpr()->IgnoreParenImpCasts());
  const FunctionDecl *Callee = Fail ? Fail->getDirectCallee() : nullptr;
  static const llvm::StringSet<> Reporters = {"__assert_fail", "__assert_rtn",
                                              "_assert", "__assert"};
  return Pass && Pass->getType()->isVoidType() && Callee &&
         Callee->getIdentifier() && Reporters.contains(Callee->getName());
}

bool spanLike(QualType T) {
  if (spanDecl(T.getNonReferenceType()))
    return true;
  const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return T->isReferenceType() && RD && RD->getIdentifier() &&
         (RD->getName() == "vector" || RD->getName() == "array") &&
         RD->isInStdNamespace();
}

} // namespace weft::recognize
