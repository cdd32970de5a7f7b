// RecognizeHostExpressions.cpp: the clauses' expressions (extents, if
// conditions) built as host expressions at the loop, each part located where
// it was written, for the launch to evaluate.
#include "recognize/DataRecognizer.h"
#include "support/ClauseLocations.h"

#include "llvm/ADT/StringSwitch.h"

#include <algorithm>

namespace weft::recognize {

const syntax::Extent *DataRecognizer::extentOf(llvm::StringRef Pointer) const {
  if (!Extents)
    return nullptr;
  for (const syntax::Extent &E : *Extents)
    for (const std::string &P : E.Pointers)
      if (P == Pointer)
        return &E;
  return nullptr;
}

namespace {

/// The declarations of Name in scope at Target inside S, the innermost
/// last: those of the statements that enclose Target and precede it.
bool visibleDecls(const Stmt *S, const Stmt *Target, llvm::StringRef Name,
                  const ValueDecl *&Found) {
  if (S == Target)
    return true;
  for (const Stmt *Child : subStatements(S)) {
    if (!Child)
      continue;
    const ValueDecl *Before = Found;
    if (visibleDecls(Child, Target, Name, Found))
      return true;
    Found = Before; // the child's own declarations end with it
    if (const auto *DS = dyn_cast<DeclStmt>(Child))
      for (const Decl *D : DS->decls()) {
        if (const auto *VD = dyn_cast<VarDecl>(D);
            VD && VD->getIdentifier() && VD->getName() == Name)
          Found = VD;
        // `auto [n, m] = dims;`: its names.
        if (const auto *DD = dyn_cast<DecompositionDecl>(D))
          for (const BindingDecl *B : DD->bindings())
            if (B->getIdentifier() && B->getName() == Name)
              Found = B;
      }
  }
  return false;
}

BinaryOperatorKind binaryKind(llvm::StringRef Op) {
  return llvm::StringSwitch<BinaryOperatorKind>(Op)
      .Case("+", BO_Add)
      .Case("-", BO_Sub)
      .Case("*", BO_Mul)
      .Case("/", BO_Div)
      .Case("%", BO_Rem)
      .Case("<<", BO_Shl)
      .Case(">>", BO_Shr)
      .Case("<", BO_LT)
      .Case("<=", BO_LE)
      .Case(">", BO_GT)
      .Case(">=", BO_GE)
      .Case("==", BO_EQ)
      .Case("!=", BO_NE)
      .Case("&", BO_And)
      .Case("^", BO_Xor)
      .Case("|", BO_Or)
      .Case("&&", BO_LAnd)
      .Default(BO_LOr);
}

/// The value of the constant template parameter Name in the instantiation
/// F: of its own template, or of a class template around it.
std::optional<TemplateArgument> templateArgument(const FunctionDecl *F,
                                                 llvm::StringRef Name) {
  auto Find = [&](const TemplateParameterList *Params,
                  llvm::ArrayRef<TemplateArgument> Args)
      -> std::optional<TemplateArgument> {
    for (unsigned I = 0; I < Params->size() && I < Args.size(); ++I)
      if (const auto *P =
              dyn_cast<NonTypeTemplateParmDecl>(Params->getParam(I));
          P && P->getIdentifier() && P->getName() == Name &&
          Args[I].getKind() == TemplateArgument::Integral)
        return Args[I];
    return std::nullopt;
  };
  if (const FunctionTemplateSpecializationInfo *Info =
          F->getTemplateSpecializationInfo())
    if (auto A = Find(Info->getTemplate()->getTemplateParameters(),
                      Info->TemplateArguments->asArray()))
      return A;
  for (const DeclContext *DC = F->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(DC))
      if (auto A = Find(Spec->getSpecializedTemplate()->getTemplateParameters(),
                        Spec->getTemplateArgs().asArray()))
        return A;
  return std::nullopt;
}

UnaryOperatorKind unaryKind(llvm::StringRef Op) {
  return Op == "!" ? UO_LNot : Op == "-" ? UO_Minus : UO_Not;
}

} // namespace

Expr *DataRecognizer::hostName(const syntax::ExprToken &T, SourceLocation Loc,
                               llvm::StringRef Clause) {
  // `img->w`, `g.n`: the variable, then its fields one by one.
  llvm::StringRef Rest = T.Text;
  const std::size_t First = Rest.find_first_of(".-");
  syntax::ExprToken Head = T;
  Head.Text = Rest.substr(0, First).str();
  Expr *Base = hostVariable(Head, Loc, Clause);
  Rest = First == llvm::StringRef::npos ? "" : Rest.substr(First);
  while (Base && !Rest.empty()) {
    const bool Arrow = Rest.starts_with("->");
    Rest = Rest.drop_front(Arrow ? 2 : 1);
    const std::size_t End = Rest.find_first_of(".-");
    const llvm::StringRef Name = Rest.substr(0, End);
    Rest = End == llvm::StringRef::npos ? "" : Rest.substr(End);
    QualType Object = Base->getType();
    if (Arrow && Object->isPointerType()) {
      Base = ImplicitCastExpr::Create(Ctx, Object, CK_LValueToRValue, Base,
                                      nullptr, VK_PRValue, FPOptionsOverride());
      Object = Object->getPointeeType();
    }
    const RecordDecl *RD = Object->getAsRecordDecl();
    const FieldDecl *Field = nullptr;
    if (RD && Arrow == Base->getType()->isPointerType())
      for (const NamedDecl *D : RD->lookup(&Ctx.Idents.get(Name)))
        Field = Field ? Field : dyn_cast<FieldDecl>(D);
    if (!Field)
      return fail(Loc,
                  "'" + T.Text + "' in '" + Clause.str() +
                      "' names no field '" + Name.str() + "' of '" +
                      Object.getAsString(Ctx.getPrintingPolicy()) + "'",
                  "'" + Clause.str() +
                      "' takes variables and the fields of structs they hold "
                      "or point to"),
             nullptr;
    Base = MemberExpr::CreateImplicit(
        Ctx, Base, Arrow, const_cast<FieldDecl *>(Field),
        Field->getType().getNonReferenceType(), VK_LValue, OK_Ordinary);
  }
  return Base;
}

Expr *DataRecognizer::hostVariable(const syntax::ExprToken &T,
                                   SourceLocation Loc, llvm::StringRef Clause) {
  if (T.Text == "true" || T.Text == "false")
    return CXXBoolLiteralExpr::Create(Ctx, T.Text == "true", Ctx.BoolTy, Loc);
  // A local or parameter of the function, then a member of its class, then
  // a variable of the namespaces around it.
  const ValueDecl *Found = nullptr;
  if (Function) {
    for (const ParmVarDecl *P : Function->parameters())
      if (P->getIdentifier() && P->getName() == T.Text)
        Found = P;
    if (Function->getBody())
      visibleDecls(Function->getBody(), Loop, T.Text, Found);
  }
  // In a lambda, a variable of the functions around it that it captures.
  bool Captured = false;
  if (const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Function);
      !Found && Method && Method->getParent()->isLambda()) {
    llvm::DenseMap<const ValueDecl *, FieldDecl *> Fields;
    FieldDecl *ThisField = nullptr;
    Method->getParent()->getCaptureFields(Fields, ThisField);
    for (const auto &[V, Field] : Fields)
      if (V->getIdentifier() && V->getName() == T.Text)
        Found = V, Captured = true;
  }
  if (const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Function);
      !Found && Method && Method->isInstance())
    for (const NamedDecl *D :
         Method->getParent()->lookup(&Ctx.Idents.get(T.Text)))
      if (const auto *F = dyn_cast<FieldDecl>(D)) {
        Expr *This = CXXThisExpr::Create(Ctx, Loc, Method->getThisType(),
                                         /*IsImplicit=*/true);
        return MemberExpr::CreateImplicit(Ctx, This, /*IsArrow=*/true,
                                          const_cast<FieldDecl *>(F),
                                          F->getType(), VK_LValue, OK_Ordinary);
      }
  if (std::optional<TemplateArgument> Value =
          Found || !Function ? std::nullopt
                             : templateArgument(Function, T.Text)) {
    // A template's constant: its value in this instantiation.
    const llvm::APSInt &V = Value->getAsIntegral();
    QualType Type = Value->getIntegralType();
    if (Type->isBooleanType())
      return CXXBoolLiteralExpr::Create(Ctx, V.getBoolValue(), Ctx.BoolTy, Loc);
    if (const auto *Enum = Type->getAs<EnumType>())
      Type = Enum->getDecl()->getIntegerType();
    return IntegerLiteral::Create(Ctx, V.extOrTrunc(Ctx.getIntWidth(Type)),
                                  Type, Loc);
  }
  for (const DeclContext *DC = Function ? Function->getDeclContext() : nullptr;
       !Found && DC; DC = DC->getParent())
    for (const NamedDecl *D : DC->lookup(&Ctx.Idents.get(T.Text)))
      if (isa<VarDecl, EnumConstantDecl>(D))
        Found = cast<ValueDecl>(D);
  if (!Found) {
    fail(Loc,
         "no variable '" + T.Text + "' is visible at this loop (in '" +
             Clause.str() + "')",
         "'" + Clause.str() +
             "' takes the variables in scope at the loop (in a lambda, "
             "those it captures) and constants");
    return nullptr;
  }
  QualType Type = Found->getType().getNonReferenceType();
  return DeclRefExpr::Create(
      Ctx, NestedNameSpecifierLoc(), SourceLocation(),
      const_cast<ValueDecl *>(Found), Captured, Loc, Type,
      isa<EnumConstantDecl>(Found) ? VK_PRValue : VK_LValue);
}

Expr *DataRecognizer::hostNumber(llvm::StringRef Text, SourceLocation Loc,
                                 bool SizeConstants) {
  const std::size_t SuffixAt = Text.find_last_not_of("uUlLfF") + 1;
  const std::string Digits = Text.substr(0, SuffixAt).str();
  const std::string Suffix = Text.substr(SuffixAt).lower();
  if (Digits.find_first_not_of("0123456789") != std::string::npos) {
    QualType Type = Suffix == "f"   ? Ctx.FloatTy
                    : Suffix == "l" ? Ctx.LongDoubleTy
                                    : Ctx.DoubleTy;
    llvm::APFloat V(Ctx.getFloatTypeSemantics(Type), Digits);
    return FloatingLiteral::Create(Ctx, V, /*isexact=*/false, Type, Loc);
  }
  // C's type for a decimal constant: the first that holds it of int, long,
  // long long (unsigned ones with a u; from long with an l, from long long
  // with ll). The parser allows 18 digits.
  const unsigned long long V = std::stoull(Digits);
  const bool Unsigned = Suffix.find('u') != std::string::npos;
  const auto Longs = std::count(Suffix.begin(), Suffix.end(), 'l');
  QualType Type = Ctx.LongLongTy;
  if (SizeConstants) {
    Type = Ctx.getSizeType();
  } else {
    const QualType Signed[] = {Ctx.IntTy, Ctx.LongTy, Ctx.LongLongTy};
    const QualType Unsigneds[] = {Ctx.UnsignedIntTy, Ctx.UnsignedLongTy,
                                  Ctx.UnsignedLongLongTy};
    for (auto I = Longs; I < 3; ++I) {
      const QualType Candidate = Unsigned ? Unsigneds[I] : Signed[I];
      const unsigned Bits = Ctx.getIntWidth(Candidate) - (Unsigned ? 0 : 1);
      if (Bits >= 64 || V < (1ULL << Bits)) {
        Type = Candidate;
        break;
      }
    }
  }
  return IntegerLiteral::Create(Ctx, llvm::APInt(Ctx.getTypeSize(Type), V),
                                Type, Loc);
}

SourceLocation DataRecognizer::clauseAt(unsigned Depth,
                                        std::size_t Offset) const {
  const StringLiteral *Literal =
      Depth < ClauseLiterals.size() ? ClauseLiterals[Depth] : nullptr;
  SourceLocation Loc = Literal ? support::clauseLocation(*Literal, Offset, Ctx)
                               : Loop->getBeginLoc();
  return Loc.isValid() ? Loc : Loop->getBeginLoc();
}

SourceLocation DataRecognizer::clauseAt(unsigned Depth,
                                        const syntax::HostExpr &E) const {
  std::size_t Start = ~std::size_t(0);
  for (const syntax::ExprToken &T : E.Postfix)
    Start = std::min(Start, T.Offset);
  return clauseAt(Depth, E.Postfix.empty() ? 0 : Start);
}

Expr *DataRecognizer::hostExpr(const syntax::HostExpr &E,
                               llvm::StringRef Clause, bool SizeConstants) {
  Sema::ContextRAII InFunction(S, const_cast<FunctionDecl *>(Function));
  std::vector<Expr *> Stack;
  for (const syntax::ExprToken &T : E.Postfix) {
    const SourceLocation Loc = clauseAt(0, T.Offset);
    ExprResult Built;
    if (T.Kind == syntax::ExprToken::Number) {
      Built = hostNumber(T.Text, Loc, SizeConstants);
    } else if (T.Kind == syntax::ExprToken::Name) {
      Built = hostName(T, Loc, Clause);
      if (!Built.get())
        return nullptr;
    } else if (T.Kind == syntax::ExprToken::Unary) {
      Expr *Operand = Stack.back();
      Stack.pop_back();
      Built = S.BuildUnaryOp(nullptr, Loc, unaryKind(T.Text), Operand);
    } else {
      Expr *R = Stack.back();
      Stack.pop_back();
      Expr *L = Stack.back();
      Stack.pop_back();
      Built = S.BuildBinOp(nullptr, Loc, binaryKind(T.Text), L, R);
    }
    if (Built.isInvalid() || !Built.get())
      return fail(Loc,
                  "'" + E.Text + "' in '" + Clause.str() +
                      "' is not an expression of numbers",
                  "'" + Clause.str() +
                      "' takes arithmetic variables and constants"),
             nullptr;
    Stack.push_back(Built.get());
  }
  return Stack.back();
}

Expr *DataRecognizer::conditionExpr(const syntax::HostExpr &E) {
  Expr *Condition = hostExpr(E, "if", /*SizeConstants=*/false);
  const SourceLocation Loc = clauseAt(0, E);
  if (!Condition)
    return nullptr;
  QualType Type = Condition->getType();
  if (!Type->isArithmeticType() && !Type->isPointerType() &&
      !Type->isEnumeralType())
    return fail(Loc,
                "the condition '" + E.Text + "' of 'if' is of type '" +
                    Type.getAsString(Ctx.getPrintingPolicy()) +
                    "', not a number, bool or pointer",
                "compute the condition into a bool before the loop"),
           nullptr;
  Sema::ContextRAII InFunction(S, const_cast<FunctionDecl *>(Function));
  ExprResult AsBool = S.PerformContextuallyConvertToBool(Condition);
  if (AsBool.isInvalid())
    return fail(Loc, "the condition '" + E.Text + "' of 'if' is not a bool",
                "compute the condition into a bool before the loop"),
           nullptr;
  return AsBool.get();
}

const Expr *DataRecognizer::extentExpr(const syntax::HostExpr &E,
                                       llvm::StringRef Pointer) {
  Expr *Result = hostExpr(E, "extent", /*SizeConstants=*/true);
  const SourceLocation Loc = clauseAt(0, E);
  if (!Result)
    return nullptr;
  if (!Result->getType()->isIntegerType())
    return fail(Loc,
                "the extent '" + E.Text + "' of '" + Pointer.str() +
                    "' is not an integer",
                "state how many elements '" + Pointer.str() + "' points to"),
           nullptr;
  return Result;
}

} // namespace weft::recognize
