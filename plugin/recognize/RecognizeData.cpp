// RecognizeData.cpp: the data a loop indexes, held as legacy code holds it
// (std::span, std::vector, std::array, C arrays, pointers with an extent),
// captured as one flat block of elements; subscripts of nested arrays are
// flattened so that the affine analysis sees one index.
#include "recognize/DataRecognizer.h"

#include "ir/RowsApart.h"

#include <algorithm>

namespace weft::recognize {

std::optional<DataRecognizer::DataShape>
DataRecognizer::dataShape(QualType T) const {
  T = T.getNonReferenceType();
  DataShape Shape;
  QualType E;
  // A const container (not a span, whose constness is its own) holds
  // const elements.
  bool ConstContainer = T.isConstQualified();
  if (const auto *Span = spanDecl(T)) {
    E = Span->getTemplateArgs()[0].getAsType();
    ConstContainer = false;
  } else if (const auto *Vector = stdTemplate(T, "vector")) {
    E = Vector->getTemplateArgs()[0].getAsType();
    if (E->isBooleanType())
      Shape.Refusal = "std::vector<bool> packs its elements into bits";
    if (const auto *Row = stdTemplate(E, "vector")) {
      // Rows held apart: the launch gathers them into one block.
      Shape.RowsApart = true;
      E = Row->getTemplateArgs()[0].getAsType();
      if (E->isBooleanType())
        Shape.Refusal = "std::vector<bool> packs its elements into bits";
      else if (stdTemplate(E, "vector"))
        Shape.Refusal = "rows of std::vectors are not blocks of elements";
    }
  } else if (const auto *Array = stdTemplate(T, "array")) {
    E = Array->getTemplateArgs()[0].getAsType();
  } else if (const auto *Md = stdTemplate(T, "mdspan")) {
    return mdspanShape(Md);
  } else if (const ConstantArrayType *CAT = Ctx.getAsConstantArrayType(T)) {
    E = CAT->getElementType();
  } else if (const auto *PT = T->getAs<PointerType>()) {
    E = PT->getPointeeType();
    if (E->isFunctionType() || E->isVoidType())
      return std::nullopt;
    Shape.IsPointer = true;
    ConstContainer = false;
  } else {
    return std::nullopt;
  }
  bool Const = ConstContainer || E.isConstQualified();
  // Rows of nested arrays: float[N][M], std::array<std::array<T, M>, N>.
  while (true) {
    if (const ConstantArrayType *CAT = Ctx.getAsConstantArrayType(E)) {
      Shape.Inner.push_back(CAT->getSize().getZExtValue());
      E = CAT->getElementType();
    } else if (const auto *Array = stdTemplate(E, "array")) {
      Shape.Inner.push_back(
          Array->getTemplateArgs()[1].getAsIntegral().getZExtValue());
      E = Array->getTemplateArgs()[0].getAsType();
    } else {
      break;
    }
    Const = Const || E.isConstQualified();
  }
  Shape.Element = Const ? E.withConst() : E;
  return Shape;
}

std::optional<DataRecognizer::DataShape>
DataRecognizer::mdspanShape(const ClassTemplateSpecializationDecl *Md) const {
  DataShape Shape;
  Shape.IsMdspan = true;
  const TemplateArgumentList &Args = Md->getTemplateArgs();
  Shape.Element = Args[0].getAsType();
  const auto *Extents = stdTemplate(Args[1].getAsType(), "extents");
  const auto *Layout = Args[2].getAsType()->getAsCXXRecordDecl();
  const auto *Accessor = stdTemplate(Args[3].getAsType(), "default_accessor");
  if (!Extents || !Layout || Layout->getName() != "layout_right" || !Accessor) {
    Shape.Refusal = "only a std::mdspan with layout_right and the default "
                    "accessor is one row-major block";
    return Shape;
  }
  const TemplateArgumentList &E = Extents->getTemplateArgs();
  Shape.IndexType =
      scalarKind(E[0].getAsType()).value_or(ir::ScalarKind::ULong);
  for (const TemplateArgument &N : E[1].getPackAsArray()) {
    const llvm::APSInt V = N.getAsIntegral();
    // std::dynamic_extent is the largest size_t.
    Shape.Extents.push_back(V.isMaxValue() ? -1 : V.getExtValue());
  }
  return Shape;
}

ir::ExprPtr DataRecognizer::mdspanExtent(unsigned P, unsigned R) {
  const DataShape Shape = Shapes[P]; // a copy: captures grow the vector
  if (Shape.Extents[R] >= 0)
    return integer(Shape.Extents[R]);
  auto [It, New] = ExtentParams.try_emplace({P, R}, Params.size());
  if (New) {
    ir::Param E;
    E.Name = Params[P].Name + "_extent" + std::to_string(R);
    E.Kind = ir::ParamKind::Scalar;
    E.Element = Shape.IndexType;
    Capture C;
    C.Source = Captures[P].Source;
    C.Rank = static_cast<int>(R);
    addParam(std::move(E), std::move(C));
    Uses.back().Read = true;
  }
  auto Ref = make(ir::Expr::ParamRef, Shape.IndexType);
  Ref->ParamIndex = It->second;
  return Ref;
}

std::optional<unsigned>
DataRecognizer::pointedData(const UnaryOperator *Deref) {
  const auto *DRE =
      dyn_cast<DeclRefExpr>(Deref->getSubExpr()->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  std::optional<DataShape> Shape = dataShape(Deref->getType());
  if (!VD || Locals.contains(VD) || InFunction || !Shape || Shape->IsPointer)
    return fail(Deref->getBeginLoc(),
                "only captured data can be indexed in a weft loop",
                "index a std::span, std::vector, std::array, C array, or a "
                "pointer whose extent the mark states");
  MemberChain Chain;
  Chain.Key = "*" + std::to_string(reinterpret_cast<std::uintptr_t>(VD));
  Chain.Name = VD->getName().str();
  Chain.Text = "*" + VD->getName().str();
  return capture(VD, Deref, Deref->getExprLoc(), false, &Chain,
                 Deref->getType());
}

std::optional<unsigned> DataRecognizer::spanOperand(const Expr *E) {
  E = inLoopTerms(E);
  if (const auto *Deref = dyn_cast<UnaryOperator>(E->IgnoreParenImpCasts());
      Deref && Deref->getOpcode() == UO_Deref &&
      Deref->getType()->isRecordType())
    return pointedData(Deref);
  // Data reached only through const objects (`const Matrix &M`, a const
  // method's `this`) is read through a span of const elements: a struct
  // element bound to a reference is then a read.
  auto Through = [&](std::optional<unsigned> P) {
    if (P) {
      bool &AllConst = MembersThroughConst.try_emplace(*P, true).first->second;
      AllConst =
          AllConst && E->IgnoreParenImpCasts()->getType().isConstQualified();
    }
    return P;
  };
  if (const FieldDecl *F = memberOfThis(E))
    return Through(capture(F, cast<MemberExpr>(E->IgnoreParenImpCasts()),
                           E->getExprLoc(), false));
  if (std::optional<MemberChain> Chain = memberOfCapture(E))
    return Through(capture(Chain->Field, E->IgnoreParenImpCasts(),
                           E->getExprLoc(), false, &*Chain));
  if (isa<MemberExpr>(E->IgnoreParenImpCasts()))
    return fail(E->getBeginLoc(), "members cannot be used in a weft loop yet",
                "copy the member into a local variable (a std::span for "
                "data) before the loop");
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (VD && Locals.contains(VD))
    return fail(E->getBeginLoc(),
                LocalArrays.count(VD)
                    ? "per-iteration arrays of more than one dimension are "
                      "not supported"
                    : "data declared inside a weft loop cannot be indexed",
                LocalArrays.count(VD)
                    ? "flatten it: t[i * M + j]"
                    : "declare it before the loop, or use a per-iteration "
                      "array");
  // Globals, too: the launch passes them as it passes locals.
  if ((VD && (!VD->hasGlobalStorage() || dataShape(VD->getType()))) ||
      (DRE && capturedBinding(DRE)))
    return capture(DRE); // Diagnoses the variable's type.
  return fail(E->getBeginLoc(),
              "only captured data can be indexed in a weft loop",
              "index a std::span, std::vector, std::array, C array, or a "
              "pointer whose extent the mark states");
}

ir::ExprPtr DataRecognizer::dataElement(const Expr *E, Access A,
                                        std::optional<ir::ScalarKind> K) {
  // a[i][j][k]: the indices outermost first, and a.
  llvm::SmallVector<const Expr *, 3> Subscripts;
  const Expr *Root = E;
  while (true) {
    const Expr *X = Root->IgnoreParenImpCasts();
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(X);
        OC && OC->getOperator() == OO_Subscript && OC->getNumArgs() >= 2 &&
        !onObjectHoldingData(
            dyn_cast_or_null<CXXMethodDecl>(OC->getDirectCallee()),
            OC->getArg(0)->getType())) {
      // A[i, j]: the indices of one subscript, written outermost first.
      for (unsigned I = OC->getNumArgs() - 1; I >= 1; --I)
        Subscripts.push_back(OC->getArg(I));
      Root = OC->getArg(0);
    } else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(X)) {
      Subscripts.push_back(AS->getIdx());
      Root = AS->getBase();
    } else {
      break;
    }
  }
  std::reverse(Subscripts.begin(), Subscripts.end());
  // Through a pointer into a per-iteration array (`double lhs[5][5]`, a
  // parameter of a function compiled into the loop): one flat index.
  if (const RowView *View = rowViewOf(Root); View && View->LocalArray) {
    const llvm::SmallVector<std::int64_t, 4> Strides =
        elementStrides(Ctx, Root->getType());
    if (Strides.size() != Subscripts.size())
      return failExpr(E->getBeginLoc(),
                      "a weft loop indexes the elements of a per-iteration "
                      "array, not its rows",
                      "index every dimension");
    ir::ExprPtr Flat;
    for (std::size_t D = 0; D < Subscripts.size(); ++D) {
      ir::ExprPtr Each = expr(Subscripts[D], Access::Read);
      if (!Each)
        return nullptr;
      Each = converted(std::move(Each));
      if (Strides[D] != 1)
        Each = operation("*", std::move(Each), integer(Strides[D]));
      Flat = Flat ? operation("+", std::move(Flat), std::move(Each))
                  : std::move(Each);
    }
    return pointedElement(
        PointerInto{0, make(ir::Expr::Local, ir::ScalarKind::Long, View->Local),
                    View->LocalArray},
        std::move(Flat), A, E);
  }
  // Through a pointer into data of one dimension: `Row[j]`, `(p + k)[j]`.
  if (const Expr *Bare = Root->IgnoreParenImpCasts();
      Subscripts.size() == 1 &&
      (isa<BinaryOperator, UnaryOperator, CXXMemberCallExpr>(Bare) ||
       (isa<CXXOperatorCallExpr>(Bare) && Bare->getType()->isPointerType()) ||
       (rowViewOf(Root) && rowViewOf(Root)->Offset))) {
    if (std::optional<PointerInto> Ptr = pointerInto(Root)) {
      ir::ExprPtr Index = expr(Subscripts[0], Access::Read);
      return Index ? pointedElement(std::move(*Ptr), std::move(Index), A, E)
                   : nullptr;
    }
    if (Failed)
      return nullptr;
  }
  // A row bound to a reference (`auto &Row = a[i]`): its data, and the row
  // index the declaration kept, as the first subscript.
  ir::ExprPtr ViewRow;
  std::optional<unsigned> P;
  if (const RowView *View = rowViewOf(Root)) {
    P = View->Param;
    ViewRow = make(ir::Expr::Local, ir::ScalarKind::Long, View->Local);
  } else {
    P = spanOperand(Root);
  }
  if (!P)
    return nullptr;
  if (stripped(E) != CombinedElement)
    PlainArrayUses.try_emplace(*P, E->getBeginLoc());
  if (Shapes[*P].IsMdspan)
    return mdspanElement(E, *P, Subscripts, A);
  // A copy: a subscript may capture more variables, which grows the
  // per-capture vectors under a reference.
  const llvm::SmallVector<std::uint64_t, 2> Inner = Shapes[*P].Inner;
  const bool RowsApart = Shapes[*P].RowsApart;
  const std::size_t Dimensions = Inner.size() + 1 + RowsApart;
  if (Subscripts.size() + (ViewRow != nullptr) != Dimensions)
    return failExpr(
        E->getBeginLoc(),
        "'" + Params[*P].Name + "' has " + std::to_string(Dimensions) +
            " dimensions: a weft loop indexes its elements, "
            "not its rows",
        ViewRow ? "index every dimension of the row"
                : "index every dimension, as in " + Params[*P].Name +
                      std::string("[i][j]") + (Dimensions > 2 ? "[k]" : ""));
  std::vector<ir::ExprPtr> Indices;
  if (ViewRow)
    Indices.push_back(std::move(ViewRow));
  for (const Expr *S : Subscripts) {
    Indices.push_back(expr(S, Access::Read));
    if (!Indices.back())
      return nullptr;
  }
  (void)K;
  return spanElement(*P, flatIndex(*P, std::move(Indices)), A, E);
}

ir::ExprPtr DataRecognizer::spanElement(unsigned P, ir::ExprPtr Flat, Access A,
                                        const Expr *E) {
  markUse(P, A);
  auto R = make(ir::Expr::SpanElement, Params[P].Element);
  R->ParamIndex = P;
  R->Struct = Params[P].Struct;
  R->Use = A != Access::Read  ? ir::ElementUse::Written
           : BindingReference ? ir::ElementUse::Bound
                              : ir::ElementUse::Read;
  R->Origin = E->getBeginLoc().getRawEncoding();
  R->Operands.push_back(std::move(Flat));
  return R;
}

std::optional<DataRecognizer::PointerInto>
DataRecognizer::pointerInto(const Expr *E, bool IntoLocalArrays) {
  const Expr *X = E->IgnoreParenImpCasts();
  // An offset and what it offsets: a view, p + k, k + p, p - k.
  if (const RowView *View = rowViewOf(X)) {
    if (!View->Offset)
      return std::nullopt;
    return PointerInto{View->Param,
                       make(ir::Expr::Local, ir::ScalarKind::Long, View->Local),
                       View->LocalArray};
  }
  if (IntoLocalArrays)
    if (std::optional<PointerInto> Local = intoLocalArray(X))
      return Local;
  // A method returning a pointer into its object's data (`m.row(i)`,
  // `m[i]`), or the address of the element one returns (`&m(i, j)`): the
  // pointer its expression makes.
  const auto *AddressOf = dyn_cast<UnaryOperator>(X);
  if (AddressOf && AddressOf->getOpcode() != UO_AddrOf)
    AddressOf = nullptr;
  const Expr *Called = AddressOf ? AddressOf->getSubExpr()->IgnoreParens() : X;
  if (const MethodCall C = methodCallOf(Called);
      C.Method &&
      (AddressOf ? Called->isLValue() : X->getType()->isPointerType()) &&
      onObjectHoldingData(C.Method, C.Object->getType())) {
    const auto *Def = cast_or_null<CXXMethodDecl>(
        definitionOf(C.Method, Called->getExprLoc()));
    const Expr *Object = Def ? callObject(C) : nullptr;
    if (!Object)
      return std::nullopt;
    const Expr *Value = enterMethodExpression(C, Def, Object);
    if (!Value)
      return std::nullopt;
    std::optional<PointerInto> Ptr = pointerInto(
        AddressOf ? UnaryOperator::Create(
                        Ctx, const_cast<Expr *>(Value), UO_AddrOf,
                        AddressOf->getType(), VK_PRValue, OK_Ordinary,
                        AddressOf->getOperatorLoc(), false, FPOptionsOverride())
                  : Value,
        IntoLocalArrays);
    leaveMethodExpression();
    return Ptr;
  }
  // A part of a span: `s.subspan(k)[j]`, `s.last(2)[0]`.
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(X);
      MC && spanDecl(MC->getType()))
    if (std::optional<SpanInto> Part = spanInto(MC))
      return PointerInto{Part->Param, std::move(Part->Offset)};
  auto Offset = [&](std::optional<PointerInto> Ptr, const Expr *By,
                    bool Minus) -> std::optional<PointerInto> {
    if (!Ptr)
      return std::nullopt;
    ir::ExprPtr K = By ? expr(By, Access::Read) : integer(0);
    if (!K)
      return std::nullopt;
    K = converted(std::move(K));
    if (Minus)
      K = operation("-", integer(0), std::move(K));
    Ptr->Offset = Ptr->Offset
                      ? operation("+", std::move(Ptr->Offset), std::move(K))
                      : std::move(K);
    return Ptr;
  };
  if (const auto *B = dyn_cast<BinaryOperator>(X);
      B && B->getType()->isPointerType() &&
      (B->getOpcode() == BO_Add || B->getOpcode() == BO_Sub)) {
    const bool Left = B->getLHS()->getType()->isPointerType();
    if (!Left && B->getOpcode() == BO_Sub)
      return std::nullopt;
    return Offset(
        pointerInto(Left ? B->getLHS() : B->getRHS(), IntoLocalArrays),
        Left ? B->getRHS() : B->getLHS(), B->getOpcode() == BO_Sub);
  }
  if (const auto *U = dyn_cast<UnaryOperator>(X);
      U && U->getOpcode() == UO_AddrOf) {
    const Expr *Element = U->getSubExpr()->IgnoreParens();
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Element))
      return Offset(pointerInto(AS->getBase(), IntoLocalArrays), AS->getIdx(),
                    false);
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Element);
        OC && OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2)
      return Offset(pointerInto(OC->getArg(0), IntoLocalArrays), OC->getArg(1),
                    false);
    return std::nullopt;
  }
  // v.data() of a container; the data itself.
  const Expr *Data = X;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(X)) {
    const CXXMethodDecl *M = MC->getMethodDecl();
    if (!M || M->getName() != "data" || MC->getNumArgs() != 0)
      return std::nullopt;
    Data = MC->getImplicitObjectArgument()->IgnoreParenImpCasts();
  }
  if (isa<ArraySubscriptExpr, CXXOperatorCallExpr>(Data))
    return rowStart(Data);
  const auto *DRE = dyn_cast<DeclRefExpr>(Data);
  const auto *Local = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (Local && Locals.contains(Local))
    return IntoLocalArrays && LocalArrays.count(Local)
               ? std::optional(PointerInto{0, nullptr, Local})
               : std::nullopt; // per-iteration arrays stay arrays
  if (!DRE && !isa<MemberExpr>(Data))
    return std::nullopt;
  std::optional<DataShape> Shape = dataShape(Data->getType());
  if (!Shape || Shape->Refusal || Shape->IsMdspan || Shape->RowsApart ||
      !Shape->Inner.empty() || Shape->Element->isPointerType())
    return std::nullopt;
  std::optional<unsigned> P = spanOperand(Data);
  if (!P)
    return std::nullopt;
  return PointerInto{*P, nullptr};
}

std::optional<DataRecognizer::PointerInto>
DataRecognizer::rowStart(const Expr *Row) {
  // A[i] (or A[i][j] of three dimensions), one subscript short of an
  // element: the row's first element, flat offset (i * M + ...) * K.
  llvm::SmallVector<const Expr *, 3> Subscripts;
  const Expr *Root = Row;
  while (true) {
    const Expr *X = Root->IgnoreParenImpCasts();
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(X)) {
      Subscripts.push_back(AS->getIdx());
      Root = AS->getBase();
    } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(X);
               OC && OC->getOperator() == OO_Subscript &&
               OC->getNumArgs() == 2) {
      Subscripts.push_back(OC->getArg(1));
      Root = OC->getArg(0);
    } else {
      break;
    }
  }
  Root = Root->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(Root);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  std::optional<DataShape> Shape = dataShape(Root->getType());
  if ((!DRE && !isa<MemberExpr>(Root)) || (VD && Locals.contains(VD)) ||
      !Shape || Shape->Refusal || Shape->IsMdspan || Shape->RowsApart ||
      Shape->Element->isPointerType() || Shape->Inner.empty() ||
      Subscripts.size() != Shape->Inner.size())
    return std::nullopt;
  std::optional<unsigned> P = spanOperand(Root);
  if (!P)
    return std::nullopt;
  std::reverse(Subscripts.begin(), Subscripts.end());
  std::vector<ir::ExprPtr> Indices;
  for (const Expr *S : Subscripts) {
    ir::ExprPtr I = expr(S, Access::Read);
    if (!I)
      return std::nullopt;
    Indices.push_back(std::move(I));
  }
  Indices.push_back(integer(0));
  return PointerInto{*P, flatIndex(*P, std::move(Indices))};
}

const VarDecl *DataRecognizer::localArrayIndexed(
    const Expr *E, llvm::SmallVectorImpl<const Expr *> &Subscripts,
    llvm::SmallVector<std::int64_t, 4> &Strides) {
  E = E->IgnoreParenImpCasts();
  while (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    Subscripts.push_back(AS->getIdx());
    E = AS->getBase()->IgnoreParenImpCasts();
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !LocalArrays.count(VD))
    return nullptr;
  Strides = Ctx.getAsConstantArrayType(VD->getType())
                ? elementStrides(Ctx, VD->getType())
                : llvm::SmallVector<std::int64_t, 4>{1};
  return VD;
}

std::optional<DataRecognizer::PointerInto>
DataRecognizer::intoLocalArray(const Expr *X) {
  X = X->IgnoreParenImpCasts();
  // p + k over a row pointer moves k rows.
  if (const auto *B = dyn_cast<BinaryOperator>(X);
      B && B->getType()->isPointerType() &&
      (B->getOpcode() == BO_Add || B->getOpcode() == BO_Sub)) {
    const bool Left = B->getLHS()->getType()->isPointerType();
    if (!Left && B->getOpcode() == BO_Sub)
      return std::nullopt;
    std::optional<PointerInto> Ptr =
        intoLocalArray(Left ? B->getLHS() : B->getRHS());
    if (!Ptr)
      return std::nullopt;
    ir::ExprPtr K = expr(Left ? B->getRHS() : B->getLHS(), Access::Read);
    if (!K)
      return std::nullopt;
    const std::int64_t Stride = elementStrides(Ctx, B->getType()).front();
    K = converted(std::move(K));
    if (Stride != 1)
      K = operation("*", std::move(K), integer(Stride));
    if (B->getOpcode() == BO_Sub)
      K = operation("-", integer(0), std::move(K));
    Ptr->Offset = Ptr->Offset
                      ? operation("+", std::move(Ptr->Offset), std::move(K))
                      : std::move(K);
    return Ptr;
  }
  // &a[i][j], a[i] (a row), a: the element its subscripts reach.
  const Expr *Root = X;
  if (const auto *U = dyn_cast<UnaryOperator>(Root);
      U && U->getOpcode() == UO_AddrOf)
    Root = U->getSubExpr()->IgnoreParenImpCasts();
  llvm::SmallVector<const Expr *, 4> Subscripts;
  llvm::SmallVector<std::int64_t, 4> Strides;
  const VarDecl *VD = localArrayIndexed(Root, Subscripts, Strides);
  if (!VD)
    return std::nullopt;
  if (Subscripts.size() > Strides.size())
    return std::nullopt;
  ir::ExprPtr Offset;
  for (std::size_t D = 0; D < Subscripts.size(); ++D) {
    ir::ExprPtr Each =
        expr(Subscripts[Subscripts.size() - 1 - D], Access::Read);
    if (!Each)
      return std::nullopt;
    Each = converted(std::move(Each));
    if (Strides[D] != 1)
      Each = operation("*", std::move(Each), integer(Strides[D]));
    Offset = Offset ? operation("+", std::move(Offset), std::move(Each))
                    : std::move(Each);
  }
  return PointerInto{0, std::move(Offset), VD};
}

ir::ExprPtr DataRecognizer::pointedElement(PointerInto Ptr, ir::ExprPtr Index,
                                           Access A, const Expr *E) {
  if (!Index && !Ptr.Offset)
    Index = integer(0);
  ir::ExprPtr Flat = !Ptr.Offset ? std::move(Index)
                     : !Index    ? std::move(Ptr.Offset)
                                 : operation("+", std::move(Ptr.Offset),
                                             converted(std::move(Index)));
  if (const VarDecl *VD = Ptr.LocalArray) {
    const QualType Element = Ctx.getBaseElementType(VD->getType());
    const std::optional<ir::ScalarKind> K = scalarKind(Element);
    return localArrayElement(VD, K.value_or(ir::ScalarKind::Char),
                             K ? -1
                               : structIndex(Element, E->getBeginLoc(), false),
                             std::move(Flat));
  }
  return spanElement(Ptr.Param, std::move(Flat), A, E);
}

ir::ExprPtr DataRecognizer::flatIndex(unsigned P,
                                      std::vector<ir::ExprPtr> Subscripts) {
  const llvm::SmallVector<std::uint64_t, 2> Inner = Shapes[P].Inner;
  // Rows held apart: element j of row i is at the row's offset plus j.
  ir::ExprPtr Row;
  if (Shapes[P].RowsApart) {
    ir::ExprPtr RowIndex = std::move(Subscripts.front());
    Subscripts.erase(Subscripts.begin());
    // Rows held as pointers, of one length, start at i * columns. (Rows
    // held apart capture their offsets and common length here, for the
    // nest's form for rows of one length: ir::indexRowsAsOneLength.)
    if (Shapes[P].RowPointers) {
      const unsigned Columns = RowColumnParams.lookup(P);
      Row = ir::rowStartOfOneLength(std::move(RowIndex), Columns,
                                    Params[Columns].Element);
    } else {
      rowOffsets(P);
      Row = rowStart(P, std::move(RowIndex));
    }
  }
  // Row-major: ((i * M) + j) * K + k, in 64 bits as the host's address
  // arithmetic is.
  ir::ExprPtr Flat;
  for (std::size_t D = 0; D < Subscripts.size(); ++D) {
    ir::ExprPtr Index = std::move(Subscripts[D]);
    if (Subscripts.size() == 1 && !Row)
      return Index;
    ir::ExprPtr Wide = converted(std::move(Index));
    Flat =
        Flat ? operation(
                   "+",
                   operation("*", std::move(Flat),
                             integer(static_cast<std::int64_t>(Inner[D - 1]))),
                   std::move(Wide))
             : std::move(Wide);
  }
  return Row ? operation("+", std::move(Row), std::move(Flat))
             : std::move(Flat);
}

ir::ExprPtr
DataRecognizer::mdspanElement(const Expr *E, unsigned P,
                              llvm::ArrayRef<const Expr *> Subscripts,
                              Access A) {
  const DataShape Shape = Shapes[P]; // a copy: subscripts may capture
  if (Subscripts.size() != Shape.Extents.size())
    return failExpr(E->getBeginLoc(),
                    "'" + Params[P].Name + "' has " +
                        std::to_string(Shape.Extents.size()) +
                        " dimensions: index every one",
                    "write " + Params[P].Name + "[i, j] for two");
  // Row-major (layout_right): ((i * E1) + j) * E2 + k, in 64 bits.
  ir::ExprPtr Flat;
  for (std::size_t D = 0; D < Subscripts.size(); ++D) {
    ir::ExprPtr Index = expr(Subscripts[D], Access::Read);
    if (!Index)
      return nullptr;
    ir::ExprPtr Wide = converted(std::move(Index));
    Flat = Flat ? operation("+",
                            operation("*", std::move(Flat),
                                      converted(mdspanExtent(
                                          P, static_cast<unsigned>(D)))),
                            std::move(Wide))
                : std::move(Wide);
  }
  return spanElement(P, std::move(Flat), A, E);
}

ir::ExprPtr DataRecognizer::dataSize(const Expr *Object,
                                     std::optional<ir::ScalarKind> K) {
  if (std::optional<ir::ExprPtr> Row = rowSize(Object, K))
    return std::move(*Row);
  std::optional<unsigned> P = spanOperand(Object);
  if (!P)
    return nullptr; // A size query reads no element.
  if (Shapes[*P].RowPointers)
    return failExpr(Object->getExprLoc(),
                    "the size of rows held as pointers is the row count "
                    "the 'extent' clause states",
                    "use that count");
  if (Shapes[*P].RowsApart) {
    // The rows: one offset fewer than the offsets.
    auto Offsets = make(ir::Expr::SpanSize, K.value_or(ir::ScalarKind::ULong));
    Offsets->ParamIndex = rowOffsets(*P);
    const ir::ScalarKind Type = Offsets->Type;
    return operation("-", std::move(Offsets), integer(1), Type);
  }
  auto R = make(ir::Expr::SpanSize, K.value_or(ir::ScalarKind::ULong));
  R->ParamIndex = *P;
  std::int64_t Row = 1;
  for (std::uint64_t N : Shapes[*P].Inner)
    Row *= static_cast<std::int64_t>(N);
  if (Row == 1)
    return R;
  const ir::ScalarKind Type = R->Type;
  return operation("/", std::move(R), integer(Row), Type);
}

} // namespace weft::recognize
