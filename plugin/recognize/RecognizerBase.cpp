// RecognizerBase.cpp: the queries of the recognizer's state and of the AST
// that several of its parts ask.
#include "recognize/RecognizerBase.h"

#include "contract/Vocabulary.h"

namespace weft::recognize {

bool RecognizerBase::isParallelIndex(const VarDecl *VD) const {
  return std::find(Indices.begin(), Indices.end(), VD) != Indices.end();
}

const RecognizerBase::ArgReduction *
RecognizerBase::argReductionOf(const VarDecl *V) const {
  for (const ArgReduction &R : ArgReductions)
    if (R.Value == V || R.At == V)
      return &R;
  return nullptr;
}

const Expr *RecognizerBase::stripped(const Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else
      return E;
  }
}

std::string RecognizerBase::combineSpelling(ir::ReductionOp Op) {
  const std::string C = ir::spelling(Op);
  switch (contract::reduceKind(Op)) {
  case contract::ReduceKind::Order:
    return "v = std::" + C + "(v, ...)";
  case contract::ReduceKind::Logical:
    return "v = v " + C + " ...";
  default:
    return "v " + C + "= ...";
  }
}

ir::ExprPtr RecognizerBase::integer(std::int64_t V) {
  return make(ir::Expr::IntLiteral, ir::ScalarKind::Long,
              std::to_string(V) + "l");
}

const ClassTemplateSpecializationDecl *
RecognizerBase::stdTemplate(QualType T, llvm::StringRef Name) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl());
  return Spec && Spec->getName() == Name && Spec->isInStdNamespace() ? Spec
                                                                     : nullptr;
}

const FunctionDecl *RecognizerBase::definitionOf(const FunctionDecl *FD,
                                                 SourceLocation Loc) {
  const std::string Name = FD->getQualifiedNameAsString();
  auto *Callee = const_cast<FunctionDecl *>(FD);
  if (!Callee->getDefinition() && Callee->isImplicitlyInstantiable())
    S.InstantiateFunctionDefinition(Loc, Callee, /*Recursive=*/true,
                                    /*DefinitionRequired=*/false);
  const FunctionDecl *Def = Callee->getDefinition();
  if (!Def || !Def->hasBody())
    return fail(Loc,
                "the body of '" + Name +
                    "' is not visible here, so it cannot be compiled "
                    "into the kernel",
                "define it in this file or in a header"),
           nullptr;
  if (std::find(CallStack.begin(), CallStack.end(), Def) != CallStack.end())
    return fail(Loc,
                "recursive call to '" + Name +
                    "' cannot be compiled into a kernel",
                "rewrite the recursion as a loop"),
           nullptr;
  return Def;
}

Liveness &RecognizerBase::liveness() {
  if (!LiveVariables)
    LiveVariables = std::make_unique<Liveness>(Ctx, Function);
  return *LiveVariables;
}

const ParentMap &RecognizerBase::nestParents() {
  if (!NestParents)
    NestParents = std::make_unique<ParentMap>(Loop);
  return *NestParents;
}

} // namespace weft::recognize
