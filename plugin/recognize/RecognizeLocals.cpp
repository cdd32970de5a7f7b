// RecognizeLocals.cpp: the nest's locals into the nest IR: scalars,
// privates first set in the loop, and per-iteration arrays.
#include "recognize/BodyRecognizer.h"

#include "llvm/Support/SaveAndRestore.h"

namespace weft::recognize {

std::optional<ir::StmtPtr> BodyRecognizer::localArray(const VarDecl *VD,
                                                      bool WithInitializer) {
  QualType T = VD->getType();
  QualType Element;
  ir::ExprPtr Extent;
  const Expr *Init = WithInitializer ? VD->getInit() : nullptr;
  ir::ExprPtr Fill;
  if (Ctx.getAsConstantArrayType(T)) {
    // Of several dimensions, one of all their elements: its subscripts
    // make one index (localElement).
    Element = Ctx.getBaseElementType(T);
    Extent =
        integer(elementStrides(Ctx, T).front() *
                static_cast<std::int64_t>(
                    Ctx.getAsConstantArrayType(T)->getSize().getZExtValue()));
  } else if (const VariableArrayType *VAT = Ctx.getAsVariableArrayType(T)) {
    Element = VAT->getElementType();
    Extent = expr(VAT->getSizeExpr());
  } else if (const auto *Array = stdTemplate(T, "array")) {
    Element = Array->getTemplateArgs()[0].getAsType();
    Extent = integer(Array->getTemplateArgs()[1].getAsIntegral().getExtValue());
  } else if (const auto *Vector = stdTemplate(T, "vector")) {
    Element = Vector->getTemplateArgs()[0].getAsType();
    const auto *CE = dyn_cast_or_null<CXXConstructExpr>(
        Init ? Init->IgnoreImplicit() : nullptr);
    if (!CE || CE->getNumArgs() == 0 ||
        isa<CXXStdInitializerListExpr>(CE->getArg(0)->IgnoreImplicit()) ||
        !CE->getArg(0)->getType()->isIntegerType())
      return fail(VD->getLocation(),
                  "a std::vector in a weft loop must be sized where it is "
                  "declared",
                  "write 'std::vector<T> " + VD->getName().str() +
                      "(n)' or '(n, value)'"),
             std::nullopt;
    Extent = expr(CE->getArg(0));
    const bool HasValue =
        CE->getNumArgs() > 1 && !isa<CXXDefaultArgExpr>(CE->getArg(1));
    Fill = HasValue ? expr(CE->getArg(1))
                    : make(ir::Expr::IntLiteral, ir::ScalarKind::Int, "0");
    Init = nullptr;
  } else {
    return std::nullopt;
  }
  if (!Extent)
    return std::nullopt;
  if (T->isReferenceType())
    return fail(VD->getLocation(), "references to arrays are not supported "
                                   "in a weft loop"),
           std::nullopt;
  std::optional<ir::ScalarKind> K = scalarKind(Element);
  const int S = K ? -1 : structIndex(Element, VD->getLocation(), false);
  if (!K && S < 0)
    return fail(VD->getLocation(),
                "per-iteration array '" + VD->getName().str() +
                    "' has elements of type '" + Element.getAsString() + "'",
                "use arithmetic elements or structs of them"),
           std::nullopt;
  auto R = std::make_unique<ir::Stmt>();
  R->Kind = ir::Stmt::Decl;
  R->Name = localName(VD);
  R->VarType.Scalar = K.value_or(ir::ScalarKind::Char);
  R->VarType.Struct = S;
  R->ArrayExtent = std::move(Extent);
  if (Fill) {
    R->ArrayFill = true;
    R->Exprs.push_back(std::move(Fill));
  } else if (const auto *IL = dyn_cast_or_null<InitListExpr>(
                 Init ? Init->IgnoreImplicit() : nullptr)) {
    // std::array's braces hold its member array's.
    if (IL->getNumInits() == 1 && isa<InitListExpr>(IL->getInit(0)) &&
        stdTemplate(T, "array"))
      IL = cast<InitListExpr>(IL->getInit(0));
    auto List = make(ir::Expr::InitList, R->VarType.Scalar);
    if (!flatInitializer(IL, *List))
      return std::nullopt;
    R->Exprs.push_back(std::move(List));
  } else if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(
                 Init ? Init->IgnoreImplicit() : nullptr);
             Init && !(CE && CE->getNumArgs() == 0)) {
    // A copy of another array (`std::array<float, 3> q = p[i];`).
    return fail(VD->getLocation(),
                "per-iteration array '" + VD->getName().str() +
                    "' can start from a list of values only",
                "copy the elements one by one, or index the source "
                "directly"),
           std::nullopt;
  } else {
    R->Exprs.push_back(nullptr);
  }
  declareLocal(VD);
  LocalArrays[VD] = R->ArrayExtent.get();
  return R;
}

bool BodyRecognizer::flatInitializer(const InitListExpr *IL, ir::Expr &List,
                                     bool Row) {
  // Braces of a row of several dimensions: its elements, then zeros up to
  // the row's end, as `= {...}` makes them.
  const std::size_t Start = List.Operands.size();
  for (const Expr *E : IL->inits()) {
    if (const auto *Inner = dyn_cast<InitListExpr>(E->IgnoreImplicit());
        Inner && Ctx.getAsConstantArrayType(Inner->getType())) {
      if (!flatInitializer(Inner, List, /*Row=*/true))
        return false;
      continue;
    }
    // The rest is zero, as `= {...}` makes it (inside a row: up to its end).
    if (isa<ImplicitValueInitExpr>(E) && (!Row || !E->getType()->isArrayType()))
      break;
    if (E->getType()->isArrayType() || isa<ImplicitValueInitExpr>(E)) {
      for (std::int64_t I = 0, N = elementStrides(Ctx, E->getType()).front() *
                                   static_cast<std::int64_t>(
                                       Ctx.getAsConstantArrayType(E->getType())
                                           ->getSize()
                                           .getZExtValue());
           I < N; ++I)
        List.Operands.push_back(integer(0));
      continue;
    }
    ir::ExprPtr V = expr(E);
    if (!V)
      return false;
    List.Operands.push_back(std::move(V));
  }
  // A row past its last value given: zeros to its end, so that the next
  // row starts where it does (the whole list stops: `= {...}` zeroes it).
  if (const ConstantArrayType *A = Ctx.getAsConstantArrayType(IL->getType());
      Row && A)
    for (std::int64_t
             I = static_cast<std::int64_t>(List.Operands.size() - Start),
             N = elementStrides(Ctx, IL->getType()).front() *
                 static_cast<std::int64_t>(A->getSize().getZExtValue());
         I < N; ++I)
      List.Operands.push_back(integer(0));
  return true;
}

ir::ExprPtr BodyRecognizer::localElement(const Expr *Subscript,
                                         const Expr *Base, const Expr *Index,
                                         std::optional<ir::ScalarKind> K) {
  // a[i][j][k]: the subscripts innermost first, down to the array.
  llvm::SmallVector<const Expr *, 4> Subscripts{Index};
  llvm::SmallVector<std::int64_t, 4> Strides;
  const VarDecl *VD = localArrayIndexed(Base, Subscripts, Strides);
  if (!VD)
    return nullptr;
  if (Subscripts.size() != Strides.size())
    return failExpr(Subscript->getBeginLoc(),
                    "'" + VD->getName().str() + "' has " +
                        std::to_string(Strides.size()) +
                        " dimensions: a weft loop indexes its elements, not "
                        "its rows, except to pass them to a function",
                    "index every dimension");
  ir::ExprPtr I;
  for (std::size_t D = 0; D < Strides.size(); ++D) {
    ir::ExprPtr Each = expr(Subscripts[Strides.size() - 1 - D], Access::Read);
    if (!Each)
      return nullptr;
    if (Strides[D] != 1)
      Each = operation("*", converted(std::move(Each)), integer(Strides[D]));
    I = I ? operation("+", std::move(I), converted(std::move(Each)))
          : std::move(Each);
  }
  return localArrayElement(
      VD, K.value_or(ir::ScalarKind::Char),
      K ? -1
        : structIndex(Subscript->getType(), Subscript->getExprLoc(), false),
      std::move(I));
}

ir::ExprPtr BodyRecognizer::localArrayElement(const VarDecl *VD,
                                              ir::ScalarKind K, int Struct,
                                              ir::ExprPtr Index) {
  auto R = make(ir::Expr::LocalElement, K, localName(VD));
  R->Struct = Struct;
  R->Operands.push_back(std::move(Index));
  return R;
}

ir::StmtPtr BodyRecognizer::privateDeclaration(const VarDecl *VD,
                                               const Expr *Init) {
  if (VD->getType()->isPointerType()) {
    std::optional<PointerInto> Ptr = pointerInto(Init);
    if (!Ptr)
      return fail(Init->getBeginLoc(),
                  "'" + VD->getName().str() +
                      "' can point only into captured data of one "
                      "dimension in a weft loop",
                  "set it to an element of such data: 'p = a + k' or "
                  "'p = &a[k]'"),
             nullptr;
    return pointerView(VD, std::move(*Ptr));
  }
  ir::StmtPtr D =
      declarationOf(VD, localName(VD), scalarKind(VD->getType()), -1);
  D->Exprs.push_back(Init ? expr(Init, Access::Read) : nullptr);
  declareLocal(VD);
  return D;
}

void BodyRecognizer::declareLocal(const VarDecl *VD) {
  Locals.insert(VD);
  LocalDepth[VD] = static_cast<unsigned>(Indices.size());
}

ir::StmtPtr BodyRecognizer::local(const Decl *D) {
  const auto *VD = dyn_cast<VarDecl>(D);
  if (!VD) {
    if (isa<TypedefNameDecl>(D) || isa<UsingDecl>(D) ||
        isa<StaticAssertDecl>(D))
      return nullptr;
    return fail(D->getLocation(), "this declaration is not supported in a "
                                  "weft loop"),
           nullptr;
  }
  if (VD->isStaticLocal() || VD->hasGlobalStorage())
    return fail(VD->getLocation(), "static variables cannot be declared in "
                                   "a weft loop"),
           nullptr;
  QualType T = VD->getType();
  // A lambda: nothing to declare in the kernel; its calls compile its
  // body (captures are diagnosed there).
  if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl(); RD && RD->isLambda())
    return nullptr;
  if (std::optional<ir::StmtPtr> View = rowView(VD))
    return std::move(*View);
  // `auto row = out.subspan(y * w, w)`: a part of captured data, a view as
  // a span parameter of a function compiled into the loop is (declared
  // before the statement, with what it hoists).
  if (spanDecl(T) && VD->getInit() && Hoisted) {
    std::optional<SpanInto> Part = spanInto(VD->getInit());
    if (!Part)
      return fail(VD->getLocation(),
                  "span '" + VD->getName().str() +
                      "' can be only a part of captured data of one "
                      "dimension in a weft loop",
                  "set it to such data, 'a.subspan(k, n)' or "
                  "'std::span(&a[k], n)'"),
             nullptr;
    bindSpanView(VD, std::move(*Part), *Hoisted);
    return nullptr;
  }
  if (std::optional<ir::StmtPtr> Array = localArray(VD))
    return std::move(*Array);
  if (Failed)
    return nullptr;
  std::optional<ir::ScalarKind> K = scalarKind(T.getNonReferenceType());
  const int Struct = K ? -1 : structIndex(T, VD->getLocation(), false);
  if (!K && Struct < 0) {
    if (T->isRecordType() && !spanDecl(T) &&
        !T->getAsCXXRecordDecl()->isLambda() &&
        structIndex(T, VD->getLocation(), true) < 0 && Failed)
      return nullptr; // diagnosed: a struct weft cannot take
    std::string Hint =
        T->isArrayType() || T->isRecordType()
            ? std::string(NotSupportedYet) +
                  "; arithmetic locals, structs of them, C arrays, "
                  "std::array and sized std::vector are"
            : "declare arithmetic locals";
    return fail(VD->getLocation(),
                "local variable '" + VD->getName().str() + "' of type '" +
                    T.getAsString() + "' is not supported in a weft loop",
                Hint),
           nullptr;
  }
  ir::StmtPtr R = declarationOf(VD, localName(VD), K, Struct);
  if (R->VarType.IsReference && !VD->getInit())
    return nullptr;
  // `Particle p;`: a struct left uninitialized, as in the source (where
  // no constructor or default member initializer sets it).
  if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(VD->getInit());
      CE && Struct >= 0 && CE->getNumArgs() == 0 &&
      CE->getConstructor()->isTrivial() && !CE->requiresZeroInitialization()) {
    R->Exprs.push_back(nullptr);
    declareLocal(VD);
    return R;
  }
  Access A = R->VarType.IsReference && !R->VarType.IsConst ? Access::ReadWrite
                                                           : Access::Read;
  {
    llvm::SaveAndRestore<bool> Binding(BindingReference,
                                       R->VarType.IsReference);
    R->Exprs.push_back(VD->getInit() ? expr(VD->getInit(), A) : nullptr);
  }
  declareLocal(VD);
  return R;
}

} // namespace weft::recognize
