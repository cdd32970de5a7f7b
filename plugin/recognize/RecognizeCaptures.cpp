// RecognizeCaptures.cpp: variables the loop uses: captured spans,
// scalars and members of `this` become kernel parameters; locals stay.
#include "recognize/DataRecognizer.h"

namespace weft::recognize {

std::optional<unsigned> DataRecognizer::capture(const DeclRefExpr *DRE,
                                                bool ReductionTarget) {
  // In a lambda's body compiled into the loop, a variable it captures is
  // named as a capture; the launch names it where the loop is, a capture
  // there only where the loop's own function is a lambda that captures it.
  const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
  const auto *InLambda = dyn_cast_or_null<CXXMethodDecl>(Function);
  const bool Enclosing = VD && InLambda && InLambda->getParent()->isLambda() &&
                         VD->getDeclContext() != Function;
  const Expr *Source = DRE;
  if (VD && DRE->refersToEnclosingVariableOrCapture() != Enclosing)
    Source = DeclRefExpr::Create(Ctx, DRE->getQualifierLoc(), SourceLocation(),
                                 const_cast<VarDecl *>(VD), Enclosing,
                                 DRE->getLocation(), DRE->getType(),
                                 DRE->getValueKind());
  return capture(DRE->getDecl(), Source, DRE->getLocation(), ReductionTarget);
}

const FieldDecl *DataRecognizer::memberOfThis(const Expr *E) {
  const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
  if (!ME || !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
    return nullptr;
  return dyn_cast<FieldDecl>(ME->getMemberDecl());
}

std::optional<DataRecognizer::MemberChain>
DataRecognizer::memberOfCapture(const Expr *E) const {
  const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
  const auto *F = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
  if (!F)
    return std::nullopt;
  const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
  MemberChain Chain;
  const char *Op = ME->isArrow() ? "->" : ".";
  if (isa<CXXThisExpr>(Base)) {
    Chain.Key = "this";
  } else if (const auto *DRE = dyn_cast<DeclRefExpr>(Base)) {
    // An object declared in the loop is the loop's own (a struct value).
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || Locals.contains(VD) || InFunction)
      return std::nullopt;
    Chain.Key = std::to_string(reinterpret_cast<std::uintptr_t>(VD));
    Chain.Name = VD->getName().str() + "_";
    Chain.Text = VD->getName().str() + Op;
  } else if (std::optional<MemberChain> Outer = memberOfCapture(Base)) {
    Chain.Key = std::move(Outer->Key);
    Chain.Name = std::move(Outer->Name) + "_";
    Chain.Text = std::move(Outer->Text) + Op;
  } else {
    return std::nullopt;
  }
  Chain.Text += F->getName().str();
  Chain.Field = F;
  Chain.Key += (ME->isArrow() ? "->" : ".") +
               std::to_string(reinterpret_cast<std::uintptr_t>(F));
  Chain.Name += F->getName().str();
  return Chain;
}

std::optional<unsigned>
DataRecognizer::capturedBefore(const ValueDecl *D,
                               const MemberChain *Chain) const {
  if (Chain) {
    if (auto It = MemberCaptureIndex.find(Chain->Key);
        It != MemberCaptureIndex.end())
      return It->second;
  } else if (auto It = CaptureIndex.find(D); It != CaptureIndex.end()) {
    return It->second;
  }
  return std::nullopt;
}

std::string DataRecognizer::freeParamName(const std::string &Name) const {
  std::string Free = Name;
  for (unsigned Suffix = 1;; ++Suffix) {
    bool Taken = false;
    for (const ir::Param &Q : Params)
      Taken = Taken || Q.Name == Free;
    if (!Taken)
      return Free;
    Free = Name + "_" + std::to_string(Suffix);
  }
}

std::optional<unsigned>
DataRecognizer::capture(const ValueDecl *D, const Expr *Source,
                        SourceLocation Loc, bool ReductionTarget,
                        const MemberChain *Chain, QualType Type) {
  if (std::optional<unsigned> Known = capturedBefore(D, Chain)) {
    if (ReductionTarget && Params[*Known].isSpan())
      return fail(Loc, "a span cannot be a reduction target");
    if (ReductionTarget)
      Params[*Known].Kind = ir::ParamKind::ReductionTarget;
    return Known;
  }
  ir::Param P;
  // Kernel parameters need distinct names (a member and a local may not).
  P.Name = freeParamName(Chain ? Chain->Name : D->getName().str());
  QualType T = (Type.isNull() ? D->getType() : Type).getNonReferenceType();
  std::optional<DataShape> Shape =
      ReductionTarget ? std::nullopt : dataShape(T);
  if (Shape && Shape->Refusal)
    return fail(Loc,
                "'" + P.Name + "' of type '" +
                    T.getAsString(Ctx.getPrintingPolicy()) +
                    "' cannot be captured: " + Shape->Refusal,
                "store the elements in one std::vector and index it "
                "i * n + j");
  DataExtents X;
  if (Shape && !dataExtents(D, Loc, Chain, P.Name, *Shape, X))
    return std::nullopt;
  if (!paramType(D, T, Loc, ReductionTarget, Shape, P))
    return std::nullopt;
  Capture C;
  C.Source = Source;
  C.Extent = X.Extent;
  C.Columns = X.Columns;
  C.InferredExtent = X.Unstated.has_value();
  const unsigned I =
      addParam(std::move(P), std::move(C), Shape.value_or(DataShape()));
  if (X.Unstated) {
    X.Unstated->Param = I;
    UnstatedExtents.push_back(std::move(*X.Unstated));
  }
  if (Chain)
    MemberCaptureIndex[Chain->Key] = I;
  else
    CaptureIndex[D] = I;
  if (X.Columns) {
    // The rows' length, a scalar the kernel indexes the gathered block by:
    // element j of row i is element i * columns + j, an affine subscript.
    Capture L;
    L.Source = X.InferredRows ? X.Columns
                              : extentExpr(*X.Stated->Columns, D->getName());
    L.Value = true;
    ir::Param Length;
    Length.Name = Params[I].Name + "_columns";
    Length.Kind = ir::ParamKind::Scalar;
    Length.Element =
        scalarKind(L.Source->getType()).value_or(ir::ScalarKind::Long);
    Length.StatedRowLengthOf = static_cast<int>(I);
    RowColumnParams[I] = addParam(std::move(Length), std::move(L));
    Uses.back().Read = true;
  }
  return I;
}

bool DataRecognizer::dataExtents(const ValueDecl *D, SourceLocation Loc,
                                 const MemberChain *Chain,
                                 const std::string &Name, DataShape &Shape,
                                 DataExtents &Out) {
  // Rows allocated one by one, their pointers in a float **, a
  // std::vector<float *> or a float *[N]: the launch gathers them where the
  // mark says how many rows of how many elements; the device cannot follow
  // the pointers otherwise.
  const bool PointerRows = Shape.Element->isPointerType() &&
                           Shape.Inner.empty() && !Shape.IsMdspan &&
                           !Shape.RowsApart;
  const syntax::Extent *&StatedExtent = Out.Stated;
  StatedExtent =
      Shape.IsPointer || PointerRows
          ? extentOf(Chain ? llvm::StringRef(Chain->Text) : D->getName())
          : nullptr;
  const Expr *&Columns = Out.Columns;
  // A float ** without an extent clause: the launch gathers the rows its
  // subscripts reach, and sets their length (a placeholder here).
  bool &InferredRows = Out.InferredRows;
  if (Shape.Element->isPointerType()) {
    const QualType Row = Shape.Element->getPointeeType();
    const bool RowsOfElements =
        !Row->isPointerType() && !Row->isVoidType() && !Row->isFunctionType();
    InferredRows = PointerRows && !StatedExtent && Shape.IsPointer &&
                   RowsOfElements && !Row->isArrayType();
    if (!InferredRows && (!PointerRows || !StatedExtent ||
                          !StatedExtent->Columns || !RowsOfElements))
      return fail(Loc,
                  "'" + Name + "' holds pointers ('" +
                      Shape.Element.getAsString(Ctx.getPrintingPolicy()) +
                      "'): the device cannot follow them",
                  PointerRows && !Row->isPointerType()
                      ? "state its rows and their length in the mark: "
                        "'extent(" +
                            Name + ": rows, columns)'"
                      : "hold the elements in one block (a std::vector of "
                        "n * m, a 2-D array, or a std::vector of "
                        "std::vectors) and index it i * m + j"),
             false;
    Shape.RowPointers = true;
    Shape.RowsApart = true;
    Shape.Element = Row;
    Columns = InferredRows ? IntegerLiteral::Create(Ctx, llvm::APInt(64, 0),
                                                    Ctx.LongLongTy, Loc)
                           : extentExpr(*StatedExtent->Columns, D->getName());
    if (!Columns)
      return false;
  } else if (StatedExtent && StatedExtent->Columns) {
    return fail(clauseAt(0, *StatedExtent->Columns),
                "'" + Name +
                    "' points to elements: a row length in 'extent' is for "
                    "rows held as pointers",
                "write extent(" + Name + ": n) for n elements"),
           false;
  }
  // A parameter declared as an array of N (`double a[N][M]`) decays to a
  // pointer, but its declaration says how many: N, as the programmer wrote.
  const auto *Parm = dyn_cast<ParmVarDecl>(D);
  const ConstantArrayType *Declared =
      Parm && !Columns ? Ctx.getAsConstantArrayType(Parm->getOriginalType())
                       : nullptr;
  if (Shape.IsPointer && !StatedExtent && Declared) {
    Out.Extent =
        IntegerLiteral::Create(Ctx,
                               llvm::APInt(Ctx.getTypeSize(Ctx.getSizeType()),
                                           Declared->getSize().getZExtValue()),
                               Ctx.getSizeType(), Parm->getLocation());
  } else if (Shape.IsPointer || Columns) {
    if (auto Why = NotPrivate.find(dyn_cast<VarDecl>(D));
        !StatedExtent && Why != NotPrivate.end())
      return fail(Loc,
                  "pointer '" + Name +
                      "', declared before the loop and set in it, cannot be "
                      "private to an iteration: " +
                      Why->second,
                  "declare it in the loop: '" +
                      cast<VarDecl>(D)->getType().getAsString(
                          Ctx.getPrintingPolicy()) +
                      Name + " = a + k;'"),
             false;
    if (StatedExtent) {
      Out.Extent = extentExpr(*StatedExtent, D->getName());
      if (!Out.Extent)
        return false;
    } else {
      // The loop's subscripts may say (inferExtents, once the nest is
      // read); else the clause is the way.
      // (Named as the loop names it: `img->pix` for a field.)
      const std::string Shown = Chain ? Chain->Text : D->getName().str();
      Out.Unstated = UnstatedExtent{
          0, Loc, Shown,
          InferredRows
              ? "state its rows and their length in the mark: '#pragma "
                "weft parallel for extent(" +
                    Shown + ": rows, columns)'"
              : "state it in the mark: '#pragma weft parallel for extent(" +
                    Shown + ": n)', n the number of " +
                    (Shape.Inner.empty()
                         ? std::string("elements")
                         : "rows of " + std::to_string(Shape.Inner[0]))};
    }
  }
  return true;
}

bool DataRecognizer::paramType(const ValueDecl *D, QualType T,
                               SourceLocation Loc, bool ReductionTarget,
                               const std::optional<DataShape> &Shape,
                               ir::Param &P) {
  if (Shape) {
    QualType E = Shape->Element;
    std::optional<ir::ScalarKind> K = scalarKind(E);
    const int S = K ? -1 : structIndex(E, Loc);
    if (!K && S < 0)
      return fail(Loc,
                  "'" + P.Name + "' of '" +
                      E.getAsString(Ctx.getPrintingPolicy()) +
                      "' cannot be captured",
                  "capture data of arithmetic types or of trivially "
                  "copyable structs of them"),
             false;
    P.Kind = ir::ParamKind::ReadSpan; // refined from its uses at the end
    P.Element = K.value_or(ir::ScalarKind::Char);
    P.Struct = S;
    P.ConstElement = E.isConstQualified();
    P.RowsApart = Shape->RowsApart;
  } else if (std::optional<ir::ScalarKind> K = scalarKind(T)) {
    P.Kind = ReductionTarget ? ir::ParamKind::ReductionTarget
                             : ir::ParamKind::Scalar;
    P.Element = *K;
  } else if (int S = ReductionTarget ? -1 : structIndex(T, Loc, false);
             S >= 0) {
    P.Kind = ir::ParamKind::Scalar;
    P.Struct = S;
  } else {
    std::string Hint = T->isRecordType()
                           ? "capture a std::span, std::vector or std::array "
                             "of its elements, or a struct of arithmetic "
                             "fields"
                           : "capture arithmetic scalars, structs of them "
                             "and data (std::span, std::vector, std::array, "
                             "C arrays, pointers with an extent clause)";
    return fail(Loc,
                std::string(isa<FieldDecl>(D) ? "member" : "variable") + " '" +
                    P.Name + "' of type '" +
                    T.getAsString(Ctx.getPrintingPolicy()) +
                    "' cannot be captured by a weft loop",
                Hint),
           false;
  }
  return true;
}

unsigned DataRecognizer::addParam(ir::Param P, Capture C) {
  return addParam(std::move(P), std::move(C), DataShape());
}

unsigned DataRecognizer::addParam(ir::Param P, Capture C, DataShape Shape) {
  Params.push_back(std::move(P));
  Uses.emplace_back();
  Captures.push_back(std::move(C));
  Shapes.push_back(std::move(Shape));
  return static_cast<unsigned>(Params.size() - 1);
}

ir::ExprPtr DataRecognizer::member(const MemberExpr *ME, const FieldDecl *F,
                                   Access A, const MemberChain *Chain) {
  std::optional<unsigned> P =
      capture(F, ME, ME->getMemberLoc(), /*ReductionTarget=*/false, Chain);
  if (!P)
    return nullptr;
  if (Params[*P].isSpan())
    return failExpr(ME->getMemberLoc(),
                    "'" + F->getName().str() +
                        "' can only be indexed or asked its size() in a "
                        "weft loop");
  if (A != Access::Read)
    return failExpr(ME->getMemberLoc(),
                    "assigning to member '" + F->getName().str() +
                        "' from parallel iterations is a data race",
                    "write results to a span");
  markUse(*P, A);
  auto E = make(ir::Expr::ParamRef, Params[*P].Element);
  E->ParamIndex = *P;
  return E;
}

void DataRecognizer::markUse(unsigned P, Access A) {
  if (A != Access::Write)
    Uses[P].Read = true;
  if (A != Access::Read)
    Uses[P].Written = true;
}

ir::ExprPtr DataRecognizer::variable(const DeclRefExpr *DRE, Access A) {
  const ValueDecl *D = DRE->getDecl();
  if (const auto *EC = dyn_cast<EnumConstantDecl>(D)) {
    std::optional<ir::ScalarKind> K = scalarKind(DRE->getType());
    if (!K)
      K = ir::ScalarKind::Int;
    return make(ir::Expr::IntLiteral, *K, literalText(EC->getInitVal(), *K));
  }
  if (isa<BindingDecl>(D)) {
    if (!capturedBinding(DRE))
      return failExpr(DRE->getLocation(),
                      "a structured binding declared in a weft loop, or in "
                      "a function it calls, cannot be used there yet",
                      "declare a variable for each element instead");
    return capturedVariable(DRE, A);
  }
  if (const auto *P = dyn_cast<ParmVarDecl>(D))
    if (auto It = LambdaArguments.find(P); It != LambdaArguments.end()) {
      // A substituted call's parameter: its argument, converted.
      if (A != Access::Read)
        return failExpr(DRE->getLocation(),
                        "a lambda called from a weft loop may not change "
                        "its parameter '" +
                            P->getName().str() + "' here",
                        "copy it into a local first");
      ir::ExprPtr V = expr(It->second, Access::Read);
      std::optional<ir::ScalarKind> T =
          scalarKind(P->getType().getNonReferenceType());
      return V && T ? ir::castTo(std::move(V), *T) : nullptr;
    }
  const auto *VD = dyn_cast<VarDecl>(D);
  if (!VD)
    return failExpr(DRE->getLocation(),
                    "'" + D->getNameAsString() +
                        "' cannot be used in a weft loop",
                    "use local variables, captured scalars and spans");
  if (RowViews.count(VD))
    return failExpr(DRE->getLocation(),
                    "the row '" + VD->getName().str() +
                        "' can only be indexed or asked its size() in a "
                        "weft loop",
                    "index its elements: " + VD->getName().str() + "[j]");
  std::optional<ir::ScalarKind> K = scalarKind(DRE->getType());
  if (const ArgReduction *R = argReductionOf(VD))
    return failExpr(DRE->getLocation(),
                    "'" + VD->getName().str() + "' of reduction(" +
                        (R->Max ? "argmax" : "argmin") +
                        ": ...) can be used in the loop only to find the "
                        "best element",
                    std::string("write 'if (x ") + (R->Max ? ">" : "<") + " " +
                        R->Value->getName().str() + ") { " +
                        R->Value->getName().str() + " = x; " +
                        R->At->getName().str() + " = i; }'");
  if (VD == HeaderIndex)
    return failExpr(DRE->getLocation(),
                    "a loop bound cannot depend on the loop's own index");
  if (auto It = HeaderValues.find(VD); It != HeaderValues.end())
    return A == Access::Read ? expr(It->second, A) : nullptr;
  if (!Locals.contains(VD) &&
      llvm::any_of(Companions,
                   [&](const HeaderCompanion &C) { return C.Var == VD; }))
    return failExpr(DRE->getLocation(),
                    "'" + VD->getName().str() +
                        "' steps with the loop's index: a bound of the "
                        "loop cannot depend on it",
                    "compare the index with a bound that stays the same");
  if (auto It = ActiveReductions.find(VD);
      It != ActiveReductions.end() && !AllowedReductionRefs.contains(DRE))
    return failExpr(
        DRE->getLocation(),
        "the partial value of reduction variable '" + VD->getName().str() +
            "' cannot be used inside the loop",
        std::string("combine into it with '") + combineSpelling(It->second) +
            "'" +
            (It->second == ir::ReductionOp::Max   ? " or 'if (x > v) v = x;'"
             : It->second == ir::ReductionOp::Min ? " or 'if (x < v) v = x;'"
                                                  : "") +
            " only");
  if (Locals.contains(VD) && A != Access::Read && !InFunction) {
    auto Declared = LocalDepth.find(VD);
    if (Declared != LocalDepth.end() && Declared->second < Indices.size() &&
        !ActiveReductions.count(VD))
      return failExpr(DRE->getLocation(),
                      "assigning to '" + VD->getName().str() +
                          "', declared outside this parallel loop, from "
                          "its iterations is a data race",
                      "declare it inside the loop, or use reduction(op: " +
                          VD->getName().str() + ")");
  }
  if (isParallelIndex(VD) || Locals.contains(VD)) {
    if (isParallelIndex(VD) && A != Access::Read)
      return failExpr(DRE->getLocation(),
                      "the index of a parallel loop cannot be modified in "
                      "its body",
                      "use a local copy of the index");
    const int S = K ? -1 : structIndex(DRE->getType(), DRE->getLocation());
    if (!K && S < 0)
      return nullptr;
    auto E =
        make(ir::Expr::Local, K.value_or(ir::ScalarKind::Char), localName(VD));
    E->Struct = S;
    return E;
  }
  // A constant the compiler folds (a const local, a constexpr global).
  if (DRE->isNonOdrUse() != NOUR_None ||
      (VD->hasGlobalStorage() && VD->isConstexpr())) {
    Expr::EvalResult R;
    if (K && A == Access::Read && DRE->EvaluateAsRValue(R, Ctx) &&
        R.Val.isInt())
      return make(ir::Expr::IntLiteral, *K, literalText(R.Val.getInt(), *K));
    if (K && A == Access::Read && DRE->EvaluateAsRValue(R, Ctx) &&
        R.Val.isFloat()) {
      auto *FL = FloatingLiteral::Create(Ctx, R.Val.getFloat(), false,
                                         DRE->getType(), DRE->getLocation());
      return make(ir::Expr::FloatLiteral, *K, literalText(FL, *K));
    }
  }
  if (InFunction && !VD->hasGlobalStorage())
    return failExpr(DRE->getLocation(),
                    "a function called from a weft loop can use only its "
                    "parameters and locals",
                    "pass '" + VD->getName().str() + "' as an argument");
  // A global (or static local) the loop only reads is captured by value,
  // as a local is: nothing in the kernel can change it while the loop
  // runs. One the loop writes would be written from every iteration,
  // unless the loop reduces into it.
  auto Known = CaptureIndex.find(VD);
  const bool Reduced =
      Known != CaptureIndex.end() &&
      Params[Known->second].Kind == ir::ParamKind::ReductionTarget;
  if (VD->hasGlobalStorage() && (InFunction || (A != Access::Read && !Reduced)))
    return failExpr(
        DRE->getLocation(),
        std::string(VD->isStaticLocal() ? "static local" : "global") +
            " variable '" + VD->getName().str() + "' cannot be " +
            (InFunction ? "used in a function called from a weft loop"
                        : "assigned in a weft loop"),
        InFunction ? "pass '" + VD->getName().str() + "' as an argument"
                   : std::string("write results to a span, or reduce into "
                                 "a local with reduction(op: v) and assign "
                                 "it after the loop"));
  return capturedVariable(DRE, A);
}

bool DataRecognizer::capturedBinding(const DeclRefExpr *DRE) const {
  const auto *B = dyn_cast<BindingDecl>(DRE->getDecl());
  return B && !InFunction &&
         SM.isBeforeInTranslationUnit(B->getLocation(), Loop->getBeginLoc());
}

ir::ExprPtr DataRecognizer::capturedVariable(const DeclRefExpr *DRE, Access A) {
  std::optional<unsigned> P = capture(DRE);
  if (!P)
    return nullptr;
  if (Params[*P].isSpan())
    return failExpr(DRE->getLocation(),
                    "'" + Params[*P].Name +
                        "' can only be indexed or asked its size() in a "
                        "weft loop");
  if (A != Access::Read && Params[*P].Kind != ir::ParamKind::ReductionTarget) {
    // Why it is not private to each iteration, where that was asked.
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    auto Why = NotPrivate.find(V);
    const std::string Name = Params[*P].Name;
    // Named in the directive's reduction clause yet set anew in each
    // iteration: what OpenMP leaves in it is its threads' last values
    // combined, which no launch reproduces.
    if (llvm::is_contained(ScratchReductions, V))
      return failExpr(
          DRE->getLocation(),
          "each iteration sets '" + Name +
              "' anew, so the directive's reduction combines the last "
              "value of each OpenMP thread" +
              (Why != NotPrivate.end() ? "; " + Why->second : ""),
          "declare '" + Name +
              "' inside the loop if its value after the loop is unused");
    return failExpr(DRE->getLocation(),
                    "assigning to captured variable '" + Name +
                        "' from parallel iterations is a data race" +
                        (Why != NotPrivate.end() ? ": " + Why->second : ""),
                    "declare the variable inside the loop, or use "
                    "reduction(op: " +
                        Name + ")");
  }
  markUse(*P, A);
  auto E = make(ir::Expr::ParamRef, Params[*P].Element);
  E->ParamIndex = *P;
  E->Struct = Params[*P].Struct;
  return E;
}

} // namespace weft::recognize
