// NestRecognizer.cpp: the AST walk behind recognizeNest.
#include "recognize/NestRecognizer.h"

#include "compat/ClangCompat.h"
#include "support/Diagnose.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <cstdio>

using namespace clang;

namespace weft::recognize {
namespace {

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

/// Maps a callee to its device function: std::sqrt, ::sqrtf -> weft::sqrt.
std::optional<std::string> deviceFunction(const FunctionDecl *FD) {
  static const llvm::StringSet<> Math = {
      "sqrt",  "cbrt",     "exp",    "exp2",   "expm1", "log",   "log2",
      "log10", "log1p",    "sin",    "cos",    "tan",   "asin",  "acos",
      "atan",  "sinh",     "cosh",   "tanh",   "asinh", "acosh", "atanh",
      "erf",   "erfc",     "tgamma", "lgamma", "fabs",  "floor", "ceil",
      "round", "trunc",    "pow",    "atan2",  "fmod",  "fmin",  "fmax",
      "hypot", "copysign", "fma",    "abs",    "min",   "max",   "clamp"};
  if (!FD || !FD->getIdentifier())
    return std::nullopt;
  const DeclContext *DC = FD->getDeclContext()->getRedeclContext();
  if (!DC->isTranslationUnit() && !DC->isStdNamespace() &&
      !(DC->isNamespace() && cast<NamespaceDecl>(DC)->isInStdNamespace()))
    return std::nullopt;
  llvm::StringRef Name = FD->getName();
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

enum class Access { Read, Write, ReadWrite };

const char *const NotSupportedYet = "this weft version does not support it yet";

class Recognizer {
public:
  Recognizer(Sema &S, Stmt *Loop)
      : S(S), Ctx(S.getASTContext()), Diags(Ctx.getDiagnostics()),
        SM(Ctx.getSourceManager()), Loop(Loop) {}

  std::optional<RecognizedNest> run(const std::string &ClauseText) {
    RecognizedNest R;
    syntax::ClauseError CE;
    // The syntax stage validated the text already.
    syntax::parseClauses(ClauseText, R.Clauses, CE);
    if (!level(Loop, R.Clauses, R.Nest.Root) || Failed)
      return std::nullopt;
    R.Nest.Location = R.Nest.Root.Location;
    if (R.Clauses.Strategy)
      R.Nest.Strategy = R.Clauses.Strategy->Value;
    for (std::size_t I = 0; I < Params.size(); ++I) {
      ir::Param P = Params[I];
      if (P.isSpan())
        P.Kind = Uses[I].Written ? (Uses[I].Read ? ir::ParamKind::ReadWriteSpan
                                                 : ir::ParamKind::WriteSpan)
                                 : ir::ParamKind::ReadSpan;
      R.Nest.Params.push_back(std::move(P));
    }
    R.CaptureSources = CaptureSources;
    R.LevelLocations = LevelLocations;
    R.Nest.Functions = std::move(Functions);
    R.Nest.Structs = std::move(Structs);
    ir::analyzeAccesses(R.Nest);
    return R;
  }

private:
  struct Use {
    bool Read = false, Written = false;
  };

  std::nullopt_t fail(SourceLocation Loc, const std::string &Message,
                      const std::string &Hint = "") {
    if (!Failed) // One error per loop: the rest would be consequences.
      error(Diags, Loc.isValid() ? Loc : Loop->getBeginLoc(), Message, Hint);
    Failed = true;
    return std::nullopt;
  }
  ir::ExprPtr failExpr(SourceLocation Loc, const std::string &Message,
                       const std::string &Hint = "") {
    fail(Loc, Message, Hint);
    return nullptr;
  }

  static ir::ExprPtr make(ir::Expr::KindType K, ir::ScalarKind T,
                          std::string Text = "") {
    auto E = std::make_unique<ir::Expr>();
    E->Kind = K;
    E->Type = T;
    E->Text = std::move(Text);
    return E;
  }

  // ---- Levels -----------------------------------------------------------

  /// One parallel level: header, reductions, body.
  bool level(Stmt *Loop, const syntax::Clauses &Clauses, ir::Level &L) {
    L.Depth = static_cast<unsigned>(Indices.size());
    L.Location = locationText(SM, compat::loopLocation(Loop));
    LevelLocations.push_back(Loop->getBeginLoc());
    if (L.Depth >= 4)
      return fail(Loop->getBeginLoc(),
                  "a weft nest has at most 4 parallel levels",
                  "remove the mark from one of the inner loops: it then runs "
                  "sequentially"),
             false;
    const Stmt *Body;
    if (auto *F = dyn_cast<ForStmt>(Loop)) {
      if (!header(F, L))
        return false;
      Body = F->getBody();
    } else {
      auto *RF = cast<CXXForRangeStmt>(Loop);
      if (!rangeHeader(RF, L))
        return false;
      Body = RF->getBody();
    }
    if (Clauses.Dim)
      L.Forced.Dim = Clauses.Dim->Value;
    if (Clauses.Block)
      L.Forced.Block = Clauses.Block->Value;
    if (Clauses.Span)
      L.Forced.Span = static_cast<int>(Clauses.Span->Value);
    if (Clauses.Split)
      L.Forced.Split = Clauses.Split->Value;
    std::vector<const VarDecl *> Reducing;
    for (const syntax::Reduction &R : Clauses.Reductions)
      for (const std::string &Name : R.Variables)
        if (const VarDecl *V = reduction(Loop, Body, R.Operator, Name, L))
          Reducing.push_back(V);
    if (Failed)
      return false;
    const int SavedDepth = SequentialDepth, SavedSwitch = SwitchDepth;
    SequentialDepth = SwitchDepth = 0; // 'break' may not leave this level
    body(Body, L.Body);
    SequentialDepth = SavedDepth;
    SwitchDepth = SavedSwitch;
    for (const VarDecl *V : Reducing)
      ActiveReductions.erase(V);
    Indices.pop_back();
    return !Failed;
  }

  /// Checks and records `reduction(Op: Name)` on level L.
  const VarDecl *reduction(Stmt *Loop, const Stmt *Body, const std::string &Op,
                           const std::string &Name, ir::Level &L) {
    // The variable is the one the loop's body refers to by that name.
    const DeclRefExpr *Ref = findReference(Body, Name);
    if (!Ref)
      return fail(Loop->getBeginLoc(),
                  "reduction variable '" + Name + "' is not used in the loop",
                  "name a variable that the loop combines, as in "
                  "'reduction(+: sum)'"),
             nullptr;
    const auto *V = cast<VarDecl>(Ref->getDecl());
    std::optional<ir::ScalarKind> K =
        scalarKind(V->getType().getNonReferenceType());
    static const std::pair<const char *, ir::ReductionOp> Ops[] = {
        {"+", ir::ReductionOp::Add},    {"*", ir::ReductionOp::Mul},
        {"min", ir::ReductionOp::Min},  {"max", ir::ReductionOp::Max},
        {"&", ir::ReductionOp::BitAnd}, {"|", ir::ReductionOp::BitOr},
        {"^", ir::ReductionOp::BitXor}, {"&&", ir::ReductionOp::And},
        {"||", ir::ReductionOp::Or}};
    ir::Reduction R;
    for (const auto &[Spelling, Kind] : Ops)
      if (Op == Spelling)
        R.Op = Kind;
    const bool Bitwise = R.Op == ir::ReductionOp::BitAnd ||
                         R.Op == ir::ReductionOp::BitOr ||
                         R.Op == ir::ReductionOp::BitXor;
    if (!K || (Bitwise && ir::isFloating(*K)))
      return fail(Ref->getLocation(),
                  "reduction variable '" + Name + "' must be " +
                      (Bitwise ? "an integer" : "an arithmetic scalar"),
                  ""),
             nullptr;
    R.Variable = Name;
    R.Type = *K;
    if (!Locals.contains(V)) {
      if (L.Depth > 0)
        return fail(Ref->getLocation(),
                    "the reduction of an inner parallel loop must go into a "
                    "variable declared in the enclosing loop's body",
                    "declare '" + Name +
                        "' inside the outer loop, or reduce the outer loop "
                        "too"),
               nullptr;
      if (V->hasGlobalStorage())
        return fail(Ref->getLocation(),
                    "global variable '" + Name +
                        "' cannot be a reduction target",
                    "reduce into a local variable"),
               nullptr;
      std::optional<unsigned> P = capture(Ref, /*ReductionTarget=*/true);
      if (!P)
        return nullptr;
      R.ParamIndex = static_cast<int>(*P);
    }
    ActiveReductions[V] = R.Op;
    L.Reductions.push_back(std::move(R));
    return V;
  }

  static const DeclRefExpr *findReference(const Stmt *S,
                                          const std::string &Name) {
    if (!S)
      return nullptr;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (isa<VarDecl>(DRE->getDecl()) && DRE->getDecl()->getName() == Name)
        return DRE;
    for (const Stmt *C : S->children())
      if (const DeclRefExpr *R = findReference(C, Name))
        return R;
    return nullptr;
  }

  // ---- Loop headers ----------------------------------------------------

  bool header(ForStmt *F, ir::Level &L) {
    const char *Form = "write the loop as 'for (int i = lo; i < hi; ++i)'";
    auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit());
    const VarDecl *IV = DS && DS->isSingleDecl()
                            ? dyn_cast<VarDecl>(DS->getSingleDecl())
                            : nullptr;
    std::optional<ir::ScalarKind> IT =
        IV ? scalarKind(IV->getType()) : std::nullopt;
    if (!IV || !IV->getInit() || !IT || !isInteger(*IT))
      return fail(F->getInit() ? F->getInit()->getBeginLoc() : F->getForLoc(),
                  "a parallel loop must declare an integer index with an "
                  "initial value",
                  Form),
             false;
    HeaderIndex = IV;
    L.IndexName = IV->getName().str();
    L.IndexType = *IT;
    L.Lower = bound(IV->getInit());

    const auto *Cond = dyn_cast_or_null<BinaryOperator>(
        F->getCond() ? F->getCond()->IgnoreParenImpCasts() : nullptr);
    const Expr *Upper = nullptr;
    std::optional<llvm::APSInt> Offset; // `i + c < n` is `i < n - c`
    if (Cond) {
      BinaryOperatorKind Op = Cond->getOpcode();
      const auto *Sum =
          dyn_cast<BinaryOperator>(Cond->getLHS()->IgnoreParenImpCasts());
      if (Sum && Sum->getOpcode() == BO_Add && isIndex(Sum->getLHS()) &&
          (Op == BO_LT || Op == BO_LE) &&
          (Offset = Sum->getRHS()->getIntegerConstantExpr(Ctx))) {
        Upper = Cond->getRHS();
        L.Inclusive = Op == BO_LE;
      } else if (isIndex(Cond->getLHS()) &&
                 (Op == BO_LT || Op == BO_LE || Op == BO_NE)) {
        Upper = Cond->getRHS();
        L.Inclusive = Op == BO_LE;
      } else if (isIndex(Cond->getRHS()) && (Op == BO_GT || Op == BO_GE)) {
        Upper = Cond->getLHS();
        L.Inclusive = Op == BO_GE;
      }
    }
    if (!Upper)
      return fail(F->getCond() ? F->getCond()->getBeginLoc() : F->getForLoc(),
                  "the condition of a parallel loop must compare its index "
                  "with an upper bound ('i < n' or 'i <= n')",
                  Form),
             false;
    L.Upper = bound(Upper);
    if (L.Upper && Offset) {
      ir::ScalarKind T = L.Upper->Type;
      auto Diff = make(ir::Expr::Binary, T, "-");
      Diff->Operands.push_back(std::move(L.Upper));
      Diff->Operands.push_back(
          make(ir::Expr::IntLiteral, T, literalText(*Offset, T)));
      L.Upper = std::move(Diff);
    }

    const Expr *Inc = F->getInc() ? F->getInc()->IgnoreParens() : nullptr;
    std::optional<llvm::APSInt> Step;
    if (const auto *U = dyn_cast_or_null<UnaryOperator>(Inc)) {
      if (U->isIncrementOp() && isIndex(U->getSubExpr()))
        Step = llvm::APSInt::get(1);
    } else if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc)) {
      if (CA->getOpcode() == BO_AddAssign && isIndex(CA->getLHS()))
        Step = CA->getRHS()->getIntegerConstantExpr(Ctx);
    } else if (const auto *A = dyn_cast_or_null<BinaryOperator>(Inc)) {
      const auto *Sum =
          dyn_cast<BinaryOperator>(A->getRHS()->IgnoreParenImpCasts());
      if (A->getOpcode() == BO_Assign && isIndex(A->getLHS()) && Sum &&
          Sum->getOpcode() == BO_Add && isIndex(Sum->getLHS()))
        Step = Sum->getRHS()->getIntegerConstantExpr(Ctx);
    }
    if (!Step || Step->getSExtValue() <= 0 ||
        (Cond->getOpcode() == BO_NE && Step->getSExtValue() != 1))
      return fail(Inc ? Inc->getBeginLoc() : F->getForLoc(),
                  "a parallel loop must step its index forward by a positive "
                  "constant ('++i', 'i++' or 'i += c')",
                  Form),
             false;
    L.Step = Step->getSExtValue();
    Indices.push_back(IV);
    HeaderIndex = nullptr;
    return !Failed;
  }

  bool rangeHeader(CXXForRangeStmt *RF, ir::Level &L) {
    const Expr *Range = RF->getRangeInit();
    if (!spanDecl(Range->getType()) ||
        !(isa<DeclRefExpr>(Range->IgnoreParenImpCasts()) ||
          memberOfThis(Range)))
      return fail(Range->getBeginLoc(),
                  "a range-based parallel loop must iterate over a std::span "
                  "variable",
                  "capture a std::span so that its extent is known"),
             false;
    std::optional<unsigned> P = spanOperand(Range);
    if (!P)
      return false;
    const VarDecl *LoopVar = RF->getLoopVariable();
    QualType VT = LoopVar->getType();
    std::optional<ir::ScalarKind> K = scalarKind(VT.getNonReferenceType());
    const int Struct =
        K ? -1 : structIndex(VT.getNonReferenceType(), LoopVar->getLocation());
    if (!K && Struct < 0)
      return fail(LoopVar->getLocation(),
                  "the loop variable must be an arithmetic value, a struct "
                  "of them, or a reference to one"),
             false;
    ir::LocalType T;
    T.Scalar = K.value_or(ir::ScalarKind::Char);
    T.Struct = Struct;
    T.IsReference = VT->isReferenceType();
    T.IsConst = VT.getNonReferenceType().isConstQualified();
    markUse(*P, T.IsReference && !T.IsConst ? Access::ReadWrite : Access::Read);

    L.IndexName = "weft_i" + std::to_string(L.Depth);
    Indices.push_back(nullptr); // synthesized: the body cannot name it
    L.IndexType = ir::ScalarKind::LongLong;
    L.Lower = make(ir::Expr::IntLiteral, ir::ScalarKind::LongLong, "0");
    L.Upper = make(ir::Expr::SpanSize, ir::ScalarKind::ULong);
    L.Upper->ParamIndex = *P;
    auto Decl = std::make_unique<ir::Stmt>();
    Decl->Kind = ir::Stmt::Decl;
    Decl->VarType = T;
    Decl->Name = LoopVar->getName().str();
    auto Elem = make(ir::Expr::SpanElement, T.Scalar);
    Elem->ParamIndex = *P;
    Elem->Struct = Struct;
    Elem->LValue = T.IsReference;
    Elem->Operands.push_back(
        make(ir::Expr::Local, ir::ScalarKind::LongLong, L.IndexName));
    Decl->Exprs.push_back(std::move(Elem));
    L.Body.push_back(std::move(Decl));
    declareLocal(LoopVar);
    return true;
  }

  /// E names the index of the level whose header is being read.
  bool isIndex(const Expr *E) const {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && HeaderIndex && DRE->getDecl() == HeaderIndex;
  }

  bool isParallelIndex(const VarDecl *VD) const {
    return std::find(Indices.begin(), Indices.end(), VD) != Indices.end();
  }

  /// A loop bound. The outermost level's are evaluated by the runtime
  /// before the launch, from the captured values alone.
  ir::ExprPtr bound(const Expr *E) {
    ir::ExprPtr B = expr(E, Access::Read);
    if (B && Indices.empty() && !ir::isHostEvaluable(*B))
      return failExpr(E->getBeginLoc(),
                      "a parallel loop's bounds must be integer expressions "
                      "of captured scalars, span sizes and constants",
                      "compute the bound into a local variable before the "
                      "loop");
    return B;
  }

  // ---- Captures ---------------------------------------------------------

  std::optional<unsigned> capture(const DeclRefExpr *DRE,
                                  bool ReductionTarget = false) {
    return capture(DRE->getDecl(), DRE, DRE->getLocation(), ReductionTarget);
  }

  /// A member reached through `this`, when E is one.
  static const FieldDecl *memberOfThis(const Expr *E) {
    const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
    if (!ME || !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      return nullptr;
    return dyn_cast<FieldDecl>(ME->getMemberDecl());
  }

  /// Captures D (a variable, or a member through `this`); Source is the
  /// expression the rewrite copies to pass it to the runtime.
  std::optional<unsigned> capture(const ValueDecl *D, const Expr *Source,
                                  SourceLocation Loc, bool ReductionTarget) {
    auto It = CaptureIndex.find(D);
    if (It != CaptureIndex.end()) {
      if (ReductionTarget && Params[It->second].isSpan())
        return fail(Loc, "a span cannot be a reduction target");
      if (ReductionTarget)
        Params[It->second].Kind = ir::ParamKind::ReductionTarget;
      return It->second;
    }
    ir::Param P;
    P.Name = D->getName().str();
    // Kernel parameters need distinct names (a member and a local may not).
    for (unsigned Suffix = 1;; ++Suffix) {
      bool Taken = false;
      for (const ir::Param &Q : Params)
        Taken = Taken || Q.Name == P.Name;
      if (!Taken)
        break;
      P.Name = D->getName().str() + "_" + std::to_string(Suffix);
    }
    QualType T = D->getType().getNonReferenceType();
    if (const auto *Span = spanDecl(T)) {
      QualType E = Span->getTemplateArgs()[0].getAsType();
      std::optional<ir::ScalarKind> K = scalarKind(E);
      const int S = K ? -1 : structIndex(E, Loc);
      if (!K && S < 0)
        return fail(Loc,
                    "std::span '" + P.Name + "' of '" + E.getAsString() +
                        "' cannot be captured",
                    "capture spans of arithmetic types or of trivially "
                    "copyable structs of them");
      P.Kind = ir::ParamKind::ReadSpan; // refined from its uses at the end
      P.Element = K.value_or(ir::ScalarKind::Char);
      P.Struct = S;
      P.ConstElement = E.isConstQualified();
    } else if (std::optional<ir::ScalarKind> K = scalarKind(T)) {
      P.Kind = ReductionTarget ? ir::ParamKind::ReductionTarget
                               : ir::ParamKind::Scalar;
      P.Element = *K;
    } else if (int S = ReductionTarget ? -1 : structIndex(T, Loc, false);
               S >= 0) {
      P.Kind = ir::ParamKind::Scalar;
      P.Struct = S;
    } else {
      std::string Hint =
          T->isPointerType() || T->isArrayType() || T->isRecordType()
              ? "capture a std::span so that its extent is "
                "known"
              : "capture arithmetic scalars and std::spans";
      return fail(Loc,
                  std::string(isa<FieldDecl>(D) ? "member" : "variable") +
                      " '" + P.Name + "' of type '" + T.getAsString() +
                      "' cannot be captured by a weft loop",
                  Hint);
    }
    unsigned I = static_cast<unsigned>(Params.size());
    Params.push_back(std::move(P));
    Uses.emplace_back();
    CaptureSources.push_back(Source);
    CaptureIndex[D] = I;
    return I;
  }

  /// A scalar member through `this`, captured by value like a variable.
  ir::ExprPtr member(const MemberExpr *ME, const FieldDecl *F, Access A) {
    std::optional<unsigned> P =
        capture(F, ME, ME->getMemberLoc(), /*ReductionTarget=*/false);
    if (!P)
      return nullptr;
    if (Params[*P].isSpan())
      return failExpr(ME->getMemberLoc(),
                      "span '" + F->getName().str() +
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

  void markUse(unsigned P, Access A) {
    if (A != Access::Write)
      Uses[P].Read = true;
    if (A != Access::Read)
      Uses[P].Written = true;
  }

  /// A reference to a variable.
  ir::ExprPtr variable(const DeclRefExpr *DRE, Access A) {
    const ValueDecl *D = DRE->getDecl();
    if (const auto *EC = dyn_cast<EnumConstantDecl>(D)) {
      std::optional<ir::ScalarKind> K = scalarKind(DRE->getType());
      if (!K)
        K = ir::ScalarKind::Int;
      return make(ir::Expr::IntLiteral, *K, literalText(EC->getInitVal(), *K));
    }
    const auto *VD = dyn_cast<VarDecl>(D);
    if (!VD)
      return failExpr(DRE->getLocation(),
                      "'" + D->getNameAsString() +
                          "' cannot be used in a weft loop",
                      "use local variables, captured scalars and spans");
    std::optional<ir::ScalarKind> K = scalarKind(DRE->getType());
    if (VD == HeaderIndex)
      return failExpr(DRE->getLocation(),
                      "a loop bound cannot depend on the loop's own index");
    if (auto It = ActiveReductions.find(VD);
        It != ActiveReductions.end() && DRE != AllowedReductionRef)
      return failExpr(DRE->getLocation(),
                      "the partial value of reduction variable '" +
                          VD->getName().str() +
                          "' cannot be used inside the loop",
                      std::string("combine into it with '") +
                          combineSpelling(It->second) + "' only");
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
      auto E = make(ir::Expr::Local, K.value_or(ir::ScalarKind::Char),
                    VD->getName().str());
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
    if (VD->hasGlobalStorage())
      return failExpr(
          DRE->getLocation(),
          std::string(VD->isStaticLocal() ? "static local" : "global") +
              " variable '" + VD->getName().str() +
              "' cannot be used in a weft loop",
          "copy it into a local variable, or capture a "
          "std::span, before the loop");
    if (isa<BindingDecl>(D))
      return failExpr(DRE->getLocation(),
                      "structured bindings cannot be captured");
    std::optional<unsigned> P = capture(DRE);
    if (!P)
      return nullptr;
    if (Params[*P].isSpan())
      return failExpr(DRE->getLocation(),
                      "span '" + Params[*P].Name +
                          "' can only be indexed or asked its size() in a "
                          "weft loop");
    if (A != Access::Read && Params[*P].Kind != ir::ParamKind::ReductionTarget)
      return failExpr(DRE->getLocation(),
                      "assigning to captured variable '" + Params[*P].Name +
                          "' from parallel iterations is a data race",
                      "declare the variable inside the loop, or use "
                      "reduction(op: " +
                          Params[*P].Name + ")");
    markUse(*P, A);
    auto E = make(ir::Expr::ParamRef, Params[*P].Element);
    E->ParamIndex = *P;
    E->Struct = Params[*P].Struct;
    return E;
  }

  /// The span a subscript or size() applies to.
  std::optional<unsigned> spanOperand(const Expr *E) {
    if (const FieldDecl *F = memberOfThis(E))
      return capture(F, cast<MemberExpr>(E->IgnoreParenImpCasts()),
                     E->getExprLoc(), false);
    if (isa<MemberExpr>(E->IgnoreParenImpCasts()))
      return fail(E->getBeginLoc(), "members cannot be used in a weft loop yet",
                  "copy the member into a local variable (a std::span for "
                  "data) before the loop");
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (VD && !spanDecl(VD->getType()) && !Locals.contains(VD) &&
        !VD->hasGlobalStorage())
      return capture(DRE); // Diagnoses the variable's type.
    if (!VD || !spanDecl(VD->getType()))
      return fail(E->getBeginLoc(),
                  "only captured std::span variables can be indexed in a "
                  "weft loop",
                  "capture a std::span so that its extent is known");
    if (Locals.contains(VD))
      return fail(E->getBeginLoc(), "spans declared inside a weft loop are "
                                    "not supported");
    return capture(DRE);
  }

  // ---- Expressions ------------------------------------------------------

  ir::ExprPtr expr(const Expr *E, Access A = Access::Read) {
    if (!E || Failed)
      return nullptr;
    E = E->IgnoreParens();
    if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
      return expr(EWC->getSubExpr(), A);
    if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(E))
      return expr(MTE->getSubExpr(), A);
    if (const auto *CE = dyn_cast<ConstantExpr>(E))
      return expr(CE->getSubExpr(), A);
    // Inside a method: `this` and `*this` are the object, its first
    // parameter.
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        SelfStruct >= 0 && UO && UO->getOpcode() == UO_Deref &&
        isa<CXXThisExpr>(UO->getSubExpr()->IgnoreParenImpCasts()))
      E = UO->getSubExpr()->IgnoreParenImpCasts();
    if (SelfStruct >= 0 && isa<CXXThisExpr>(E)) {
      auto R = make(ir::Expr::Local, ir::ScalarKind::Char, SelfName);
      R->Struct = SelfStruct;
      return R;
    }

    std::optional<ir::ScalarKind> K = scalarKind(E->getType());
    SourceLocation Loc = E->getExprLoc();
    if (const auto *IL = dyn_cast<IntegerLiteral>(E))
      return make(ir::Expr::IntLiteral, *K, literalText(IL->getValue(), *K));
    // sizeof and alignof are constants.
    if (const auto *TT = dyn_cast<UnaryExprOrTypeTraitExpr>(E)) {
      Expr::EvalResult R;
      if (K && TT->EvaluateAsInt(R, Ctx))
        return make(ir::Expr::IntLiteral, *K, literalText(R.Val.getInt(), *K));
    }
    // T{}, T(), and the fields an initializer leaves out: zero.
    if (K &&
        (isa<ImplicitValueInitExpr>(E) || isa<CXXScalarValueInitExpr>(E) ||
         (isa<InitListExpr>(E) && cast<InitListExpr>(E)->getNumInits() == 0))) {
      auto C = make(ir::Expr::Cast, *K);
      C->Operands.push_back(
          make(ir::Expr::IntLiteral, ir::ScalarKind::Int, "0"));
      return C;
    }
    if (const auto *IL = dyn_cast<InitListExpr>(E);
        K && IL && IL->getNumInits() == 1)
      return expr(IL->getInit(0), A); // int{v}
    if (const auto *CL = dyn_cast<CharacterLiteral>(E))
      return make(ir::Expr::IntLiteral, ir::ScalarKind::Int,
                  std::to_string(CL->getValue()));
    if (const auto *FL = dyn_cast<FloatingLiteral>(E)) {
      if (!K)
        return failExpr(Loc, "long double is not supported on GPUs",
                        "use float or double");
      return make(ir::Expr::FloatLiteral, *K, literalText(FL, *K));
    }
    if (const auto *BL = dyn_cast<CXXBoolLiteralExpr>(E))
      return make(ir::Expr::BoolLiteral, ir::ScalarKind::Bool,
                  BL->getValue() ? "true" : "false");
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return variable(DRE, A);
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E))
      return conversion(ICE, ICE->getCastKind(), ICE->getSubExpr(), K, A);
    if (!K) {
      if (ir::ExprPtr S = structValue(E, A))
        return S;
      if (Failed)
        return nullptr;
    }
    if (const auto *ECE = dyn_cast<ExplicitCastExpr>(E)) {
      if (!K)
        return failExpr(Loc,
                        "casts to '" + E->getType().getAsString() +
                            "' are not supported in a weft loop",
                        "cast between arithmetic types only");
      auto C = make(ir::Expr::Cast, *K);
      ir::ExprPtr Sub = expr(ECE->getSubExpr(), A);
      if (!Sub)
        return nullptr;
      C->Operands.push_back(std::move(Sub));
      return C;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E))
      return unary(U, K);
    if (const auto *B = dyn_cast<BinaryOperator>(E))
      return binary(B, K);
    if (const auto *C = dyn_cast<ConditionalOperator>(E)) {
      auto R = make(ir::Expr::Conditional, K.value_or(ir::ScalarKind::Int));
      for (const Expr *Sub :
           {C->getCond(), C->getTrueExpr(), C->getFalseExpr()}) {
        ir::ExprPtr S = expr(Sub, Access::Read);
        if (!S)
          return nullptr;
        R->Operands.push_back(std::move(S));
      }
      return R;
    }
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E)) {
      if (OC->getOperator() == OO_Subscript) {
        if (ir::ExprPtr R = localElement(OC, OC->getArg(0), OC->getArg(1), K))
          return R;
        if (Failed)
          return nullptr;
        std::optional<unsigned> P = spanOperand(OC->getArg(0));
        if (!P)
          return nullptr;
        ir::ExprPtr Sub = expr(OC->getArg(1), Access::Read);
        if (!Sub)
          return nullptr;
        markUse(*P, A);
        auto R = make(ir::Expr::SpanElement, Params[*P].Element);
        R->ParamIndex = *P;
        R->Struct = Params[*P].Struct;
        R->LValue = A != Access::Read || BindingReference;
        R->Operands.push_back(std::move(Sub));
        return R;
      }
      if (OC->getOperator() == OO_Call)
        if (const auto *MD =
                dyn_cast_or_null<CXXMethodDecl>(OC->getDirectCallee());
            MD && MD->getParent()->isLambda()) {
          if (MD->getParent()->capture_size() != 0)
            return failExpr(Loc,
                            "a lambda called from a weft loop cannot capture "
                            "variables",
                            "pass what it needs as arguments");
          return userCall(OC, MD, 1, K);
        }
      if (isOutputStream(OC->getArg(0)->getType()))
        return failExpr(Loc, "I/O is not supported in a weft loop",
                        "kernels cannot print: write results to a span and "
                        "print them after the loop");
      return failExpr(Loc, "overloaded operators are not supported in a weft "
                           "loop");
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      const CXXMethodDecl *M = MC->getMethodDecl();
      if (const auto *DRE = dyn_cast<DeclRefExpr>(
              MC->getImplicitObjectArgument()->IgnoreParenImpCasts());
          M && M->getName() == "size" && DRE)
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
            VD && LocalArrays.count(VD)) {
          auto C = make(ir::Expr::Cast, K.value_or(ir::ScalarKind::ULong));
          C->Operands.push_back(cloneExpr(*LocalArrays.lookup(VD)));
          return C;
        }
      if (M && M->getName() == "size" &&
          spanDecl(MC->getImplicitObjectArgument()->getType())) {
        std::optional<unsigned> P =
            spanOperand(MC->getImplicitObjectArgument());
        if (!P)
          return nullptr; // A size query reads no element.
        auto R = make(ir::Expr::SpanSize, K.value_or(ir::ScalarKind::ULong));
        R->ParamIndex = *P;
        return R;
      }
      if (M && M->isVirtual())
        return failExpr(Loc,
                        "virtual call to '" + M->getQualifiedNameAsString() +
                            "' cannot be made from a weft loop",
                        "call a non-virtual function");
      // A method of a struct the kernel knows: a device function taking
      // the object by reference first.
      if (M && !M->isStatic() && !M->getParent()->isLambda() &&
          structIndex(MC->getObjectType(), Loc, false) >= 0)
        return userCall(MC, M, 0, K);
      return failExpr(
          Loc,
          "calls to '" +
              (M ? M->getQualifiedNameAsString() : std::string("<member>")) +
              "' are not supported in a weft loop",
          std::string(NotSupportedYet) +
              "; methods of structs of arithmetic fields are, and "
              "spans support operator[] and size()");
    }
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *FD = Call->getDirectCallee();
      // Branch hints: the value itself.
      if (FD && Call->getNumArgs() >= 1 &&
          (FD->getName() == "__builtin_expect" ||
           FD->getName() == "__builtin_expect_with_probability")) {
        ir::ExprPtr V = expr(Call->getArg(0), A);
        if (!V || !K)
          return V;
        auto C = make(ir::Expr::Cast, *K);
        C->Operands.push_back(std::move(V));
        return C;
      }
      std::optional<std::string> Device = deviceFunction(FD);
      if (!Device && FD)
        return userCall(Call, FD, 0, K);
      if (!Device || !K)
        return failExpr(Loc,
                        "call to '" +
                            (FD ? FD->getQualifiedNameAsString()
                                : std::string("<indirect>")) +
                            "' is not supported in a weft loop",
                        std::string(NotSupportedYet) +
                            "; std math functions, std::min, std::max, "
                            "std::abs and std::clamp are");
      auto R = make(ir::Expr::Call, *K, *Device);
      for (const Expr *Arg : Call->arguments()) {
        ir::ExprPtr S = expr(Arg, Access::Read);
        if (!S)
          return nullptr;
        R->Operands.push_back(std::move(S));
      }
      return R;
    }
    if (const FieldDecl *F = memberOfThis(E); F && !InFunction)
      return member(cast<MemberExpr>(E), F, A);
    if (const auto *ME = dyn_cast<MemberExpr>(E);
        ME && SelfStruct >= 0 && memberOfThis(E)) {
      // A field of the object a method was called on.
      auto R = make(ir::Expr::Member, K.value_or(ir::ScalarKind::Char),
                    ME->getMemberDecl()->getName().str());
      R->Struct = K ? -1 : structIndex(ME->getType(), Loc);
      auto Self = make(ir::Expr::Local, ir::ScalarKind::Char, SelfName);
      Self->Struct = SelfStruct;
      R->Operands.push_back(std::move(Self));
      return R;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E);
        ME && !memberOfThis(E) &&
        structIndex(ME->getBase()->getType(), Loc, false) >= 0) {
      // A field of a struct value: a span element, a local, a parameter.
      const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
      ir::ExprPtr Base = F ? expr(ME->getBase(), A) : nullptr;
      if (!Base)
        return F ? nullptr
                 : failExpr(Loc, "only fields of a struct can be used here");
      auto R = make(ir::Expr::Member, K.value_or(ir::ScalarKind::Char),
                    F->getName().str());
      R->Struct = K ? -1 : structIndex(ME->getType(), Loc);
      R->Operands.push_back(std::move(Base));
      return R;
    }
    if (isa<CXXThisExpr>(E) || isa<MemberExpr>(E))
      return failExpr(Loc, "members cannot be used in a weft loop yet",
                      "copy the member into a local variable (a std::span "
                      "for data) before the loop");
    if (isa<CXXThrowExpr>(E))
      return failExpr(Loc, "exceptions cannot be thrown in a weft loop");
    if (isa<CXXNewExpr>(E) || isa<CXXDeleteExpr>(E))
      return failExpr(Loc, "new and delete cannot be used in a weft loop",
                      "allocate before the loop");
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
      if (ir::ExprPtr R = localElement(AS, AS->getBase(), AS->getIdx(), K))
        return R;
    if (Failed)
      return nullptr;
    if (isa<ArraySubscriptExpr>(E))
      return failExpr(Loc,
                      "pointers and arrays cannot be indexed in a weft "
                      "loop",
                      "capture a std::span so that its extent is known");
    return failExpr(Loc,
                    std::string("this expression (") + E->getStmtClassName() +
                        ") is not supported in a weft loop",
                    NotSupportedYet);
  }

  /// Expressions whose value is a struct: copies, aggregate initializers,
  /// assignments. Null (without failing) when E is none of those.
  ir::ExprPtr structValue(const Expr *E, Access A) {
    const int S = structIndex(E->getType(), E->getExprLoc(), false);
    if (S < 0)
      return nullptr;
    if (isa<ImplicitValueInitExpr>(E)) { // a field left out: zero
      auto R = make(ir::Expr::InitList, ir::ScalarKind::Char);
      R->Struct = S;
      return R;
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      if (CE->getNumArgs() == 1 &&
          CE->getConstructor()->isCopyOrMoveConstructor())
        return expr(CE->getArg(0), A);
      if (CE->getNumArgs() == 0) {
        auto R = make(ir::Expr::InitList, ir::ScalarKind::Char);
        R->Struct = S;
        return R;
      }
      return failExpr(E->getExprLoc(),
                      "constructors cannot be called in a "
                      "weft loop",
                      "initialize the struct with {...}");
    }
    if (const auto *IL = dyn_cast<InitListExpr>(E)) {
      auto R = make(ir::Expr::InitList, ir::ScalarKind::Char);
      R->Struct = S;
      for (const Expr *Init : IL->inits()) {
        ir::ExprPtr V = expr(Init, Access::Read);
        if (!V)
          return nullptr;
        R->Operands.push_back(std::move(V));
      }
      return R;
    }
    if (const auto *ECE = dyn_cast<ExplicitCastExpr>(E))
      return expr(ECE->getSubExpr(), A); // Particle{...}, Particle(p)
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
        OC && OC->getOperator() == OO_Equal) {
      ir::ExprPtr L = expr(OC->getArg(0), Access::Write);
      ir::ExprPtr R = L ? expr(OC->getArg(1), Access::Read) : nullptr;
      if (!R)
        return nullptr;
      auto B = make(ir::Expr::Binary, ir::ScalarKind::Char, "=");
      B->Struct = S;
      B->Operands.push_back(std::move(L));
      B->Operands.push_back(std::move(R));
      return B;
    }
    if (const auto *C = dyn_cast<ConditionalOperator>(E)) {
      auto R = make(ir::Expr::Conditional, ir::ScalarKind::Char);
      R->Struct = S;
      for (const Expr *Sub :
           {C->getCond(), C->getTrueExpr(), C->getFalseExpr()}) {
        ir::ExprPtr X = expr(Sub, Access::Read);
        if (!X)
          return nullptr;
        R->Operands.push_back(std::move(X));
      }
      return R;
    }
    return nullptr;
  }

  /// The index in Structs of the struct T names (registering it and the
  /// structs it holds), or -1 when T is no struct weft can take; then, with
  /// Diagnose, after an error at Loc.
  int structIndex(QualType T, SourceLocation Loc, bool Diagnose = true) {
    T = T.getNonReferenceType().getCanonicalType().getUnqualifiedType();
    const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
    if (!RD || spanDecl(T) || RD->isLambda() || !RD->hasDefinition())
      return -1;
    if (auto It = StructIndex.find(RD); It != StructIndex.end())
      return It->second;
    const std::string Source = RD->getQualifiedNameAsString();
    auto Reject = [&](const std::string &Why) {
      if (Diagnose)
        fail(Loc,
             "struct '" + Source + "' cannot be used in a weft loop: " + Why,
             "use trivially copyable structs of arithmetic fields");
      return -1;
    };
    if (RD->isUnion() || RD->isPolymorphic() || RD->getNumBases() != 0 ||
        !RD->isTriviallyCopyable())
      return Reject("it is not a plain trivially copyable struct");
    ir::StructDef Def;
    Def.Source = Source;
    for (const FieldDecl *F : RD->fields()) {
      ir::StructDef::Field Field;
      Field.Name = F->getName().str();
      if (std::optional<ir::ScalarKind> K = scalarKind(F->getType()))
        Field.Scalar = *K;
      else if ((Field.Struct = structIndex(F->getType(), Loc, Diagnose)) < 0)
        return Reject("field '" + Field.Name + "' has type '" +
                      F->getType().getAsString() + "'");
      if (F->isBitField())
        return Reject("field '" + Field.Name + "' is a bit-field");
      Def.Fields.push_back(std::move(Field));
    }
    std::string Key = Source;
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
      for (const TemplateArgument &A : Spec->getTemplateArgs().asArray()) {
        llvm::raw_string_ostream OS(Key);
        A.print(Ctx.getPrintingPolicy(), OS, /*IncludeType=*/true);
      }
    char Hash[9];
    std::snprintf(Hash, sizeof Hash, "%08x",
                  static_cast<unsigned>(llvm::xxh3_64bits(Key)));
    Def.Name = "weft_st_" + RD->getNameAsString() + "_" + Hash;
    Def.Size = static_cast<unsigned>(Ctx.getTypeSizeInChars(T).getQuantity());
    const int I = static_cast<int>(Structs.size());
    Structs.push_back(std::move(Def));
    StructIndex[RD] = I;
    return I;
  }

  static bool isOutputStream(QualType T) {
    const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
    return RD && RD->getName().contains("ostream");
  }

  /// A call of a function with a visible body: converted once into a
  /// device function of the kernel. FirstArg skips a lambda's object.
  ir::ExprPtr userCall(const CallExpr *Call, const FunctionDecl *FD,
                       unsigned FirstArg, std::optional<ir::ScalarKind> K) {
    SourceLocation Loc = Call->getExprLoc();
    const std::string Name = FD->getQualifiedNameAsString();
    static const llvm::StringSet<> Io = {"printf",  "fprintf", "puts",
                                         "putchar", "fputs",   "scanf",
                                         "perror",  "write"};
    if (Io.contains(FD->getName()))
      return failExpr(Loc, "I/O is not supported in a weft loop",
                      "kernels cannot print: write results to a span and "
                      "print them after the loop");
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD);
        MD && MD->isVirtual() && !isa<CXXOperatorCallExpr>(Call))
      return failExpr(
          Loc, "virtual call to '" + Name + "' cannot be made from a weft loop",
          "call a non-virtual function");
    auto *Callee = const_cast<FunctionDecl *>(FD);
    if (!Callee->getDefinition() && Callee->isImplicitlyInstantiable())
      S.InstantiateFunctionDefinition(Loc, Callee, /*Recursive=*/true,
                                      /*DefinitionRequired=*/false);
    const FunctionDecl *Def = Callee->getDefinition();
    if (!Def || !Def->hasBody())
      return failExpr(Loc,
                      "the body of '" + Name +
                          "' is not visible here, so it cannot be compiled "
                          "into the kernel",
                      "define it in this file or in a header");
    if (std::find(CallStack.begin(), CallStack.end(), Def) != CallStack.end())
      return failExpr(Loc,
                      "recursive call to '" + Name +
                          "' cannot be compiled into a kernel",
                      "rewrite the recursion as a loop");
    auto It = FunctionNames.find(Def);
    std::string Emitted;
    if (It != FunctionNames.end()) {
      Emitted = It->second;
    } else {
      std::optional<std::string> N = convertFunction(Def, Loc);
      if (!N)
        return nullptr;
      Emitted = *N;
    }
    auto R = make(ir::Expr::Call, K.value_or(ir::ScalarKind::Int), Emitted);
    R->Struct = K ? -1 : structIndex(Call->getType(), Loc, false);
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
      // The object, bound to the function's first (reference) parameter.
      const bool Mutates = !cast<CXXMethodDecl>(Def)->isConst();
      BindingReference = true;
      ir::ExprPtr Self = expr(MC->getImplicitObjectArgument(),
                              Mutates ? Access::ReadWrite : Access::Read);
      BindingReference = false;
      if (!Self)
        return nullptr;
      R->Operands.push_back(std::move(Self));
    }
    for (unsigned I = FirstArg; I < Call->getNumArgs(); ++I) {
      const ParmVarDecl *P = Def->getParamDecl(I - FirstArg);
      QualType T = P->getType();
      const bool ByReference =
          T->isReferenceType() && !T.getNonReferenceType().isConstQualified();
      BindingReference = T->isReferenceType();
      ir::ExprPtr A =
          expr(Call->getArg(I), ByReference ? Access::ReadWrite : Access::Read);
      BindingReference = false;
      if (!A)
        return nullptr;
      R->Operands.push_back(std::move(A));
    }
    return R;
  }

  /// Converts Def's body into a device function; returns its name.
  std::optional<std::string> convertFunction(const FunctionDecl *Def,
                                             SourceLocation CallLoc) {
    ir::Function F;
    F.Source = Def->getQualifiedNameAsString();
    std::string Key = F.Source + Def->getType().getAsString();
    if (const TemplateArgumentList *Args = Def->getTemplateSpecializationArgs())
      for (const TemplateArgument &A : Args->asArray()) {
        llvm::raw_string_ostream OS(Key);
        A.print(Ctx.getPrintingPolicy(), OS, /*IncludeType=*/true);
      }
    std::string Stem;
    const auto *Method = dyn_cast<CXXMethodDecl>(Def);
    if (!Method || !Method->getParent()->isLambda())
      for (char C : Def->getNameAsString())
        Stem += std::isalnum(static_cast<unsigned char>(C)) ? C : '_';
    char Hash[9];
    std::snprintf(Hash, sizeof Hash, "%08x",
                  static_cast<unsigned>(llvm::xxh3_64bits(Key)));
    F.Name =
        "weft_fn_" + (Stem.empty() ? std::string("lambda") : Stem) + "_" + Hash;
    QualType Ret = Def->getReturnType();
    if (!Ret->isVoidType()) {
      std::optional<ir::ScalarKind> RK = scalarKind(Ret);
      const int RS = RK ? -1 : structIndex(Ret, Def->getLocation(), false);
      if ((!RK && RS < 0) || Ret->isReferenceType())
        return fail(Def->getLocation(),
                    "'" + F.Source +
                        "' is called from a weft loop, so it must return "
                        "void, an arithmetic value or a struct of them"),
               std::nullopt;
      F.ReturnsValue = true;
      F.ReturnType = RK.value_or(ir::ScalarKind::Char);
      F.ReturnStruct = RS;
    }
    // The function sees its parameters and locals only.
    auto SavedLocals = std::move(Locals);
    auto SavedIndices = std::move(Indices);
    auto SavedReductions = std::move(ActiveReductions);
    const int SavedDepth = SequentialDepth, SavedSwitch = SwitchDepth;
    const bool SavedInFunction = InFunction;
    Locals.clear();
    Indices.clear();
    ActiveReductions.clear();
    SequentialDepth = SwitchDepth = 0;
    InFunction = true;
    CallStack.push_back(Def);
    const int SavedSelf = SelfStruct;
    SelfStruct = -1;
    if (Method && !Method->isStatic() && !Method->getParent()->isLambda()) {
      // `this` becomes the first parameter, a reference to the object.
      ir::LocalType Self;
      Self.Struct = structIndex(Method->getThisType()->getPointeeType(),
                                Def->getLocation(), false);
      Self.IsReference = true;
      Self.IsConst = Method->isConst();
      if (Self.Struct < 0)
        fail(Def->getLocation(),
             "'" + F.Source +
                 "' is a method of a type weft cannot copy to "
                 "the device",
             "use a struct of arithmetic fields");
      F.Params.emplace_back(SelfName, Self);
      SelfStruct = Self.Struct;
    }
    for (const ParmVarDecl *P : Def->parameters()) {
      QualType T = P->getType();
      std::optional<ir::ScalarKind> PK = scalarKind(T.getNonReferenceType());
      const int PS = PK ? -1 : structIndex(T, P->getLocation(), false);
      if (!PK && PS < 0) {
        fail(P->getLocation(),
             "parameter '" + P->getName().str() + "' of '" + F.Source +
                 "' has type '" + T.getAsString() +
                 "': functions called from a weft loop take arithmetic "
                 "values",
             NotSupportedYet);
        break;
      }
      ir::LocalType LT;
      LT.Scalar = PK.value_or(ir::ScalarKind::Char);
      LT.Struct = PS;
      LT.IsReference = T->isReferenceType();
      LT.IsConst = T.getNonReferenceType().isConstQualified();
      F.Params.emplace_back(P->getName().str(), LT);
      Locals.insert(P);
    }
    if (!Failed)
      body(Def->getBody(), F.Body);
    CallStack.pop_back();
    SelfStruct = SavedSelf;
    Locals = std::move(SavedLocals);
    Indices = std::move(SavedIndices);
    ActiveReductions = std::move(SavedReductions);
    SequentialDepth = SavedDepth;
    SwitchDepth = SavedSwitch;
    InFunction = SavedInFunction;
    if (Failed) {
      // Point back at the call that brought this function in.
      diagnose(Diags, CallLoc, DiagnosticsEngine::Note,
               "called from the weft loop here");
      return std::nullopt;
    }
    FunctionNames[Def] = F.Name;
    Functions.push_back(std::move(F));
    return FunctionNames[Def];
  }

  ir::ExprPtr conversion(const Expr *E, CastKind CK, const Expr *Sub,
                         std::optional<ir::ScalarKind> K, Access A) {
    switch (CK) {
    case CK_LValueToRValue:
    case CK_NoOp:
    case CK_FunctionToPointerDecay:
    case CK_BuiltinFnToFnPtr:
      return expr(Sub, A);
    case CK_IntegralCast:
    case CK_IntegralToFloating:
    case CK_FloatingToIntegral:
    case CK_FloatingCast:
    case CK_IntegralToBoolean:
    case CK_FloatingToBoolean:
    case CK_BooleanToSignedIntegral: {
      if (!K)
        break;
      ir::ExprPtr S = expr(Sub, A);
      if (!S)
        return nullptr;
      auto C = make(ir::Expr::Cast, *K);
      C->Operands.push_back(std::move(S));
      return C;
    }
    default:
      break;
    }
    return failExpr(E->getExprLoc(),
                    std::string("conversion '") +
                        CastExpr::getCastKindName(CK) +
                        "' is not supported in a weft loop",
                    NotSupportedYet);
  }

  ir::ExprPtr unary(const UnaryOperator *U, std::optional<ir::ScalarKind> K) {
    UnaryOperatorKind Op = U->getOpcode();
    if (Op == UO_AddrOf || Op == UO_Deref)
      return failExpr(U->getOperatorLoc(),
                      "pointers are not supported in a weft loop",
                      "capture a std::span so that its extent is known");
    if (!K || Op == UO_Real || Op == UO_Imag || Op == UO_Extension ||
        Op == UO_Coawait)
      return failExpr(U->getOperatorLoc(), "this operator is not supported in "
                                           "a weft loop");
    // ++v and v-- combine a sum.
    if (const VarDecl *V = reductionVariable(U->getSubExpr());
        V && U->isIncrementDecrementOp() &&
        ActiveReductions.lookup(V) == ir::ReductionOp::Add)
      AllowedReductionRef = cast<DeclRefExpr>(stripped(U->getSubExpr()));
    ir::ExprPtr S =
        expr(U->getSubExpr(),
             U->isIncrementDecrementOp() ? Access::ReadWrite : Access::Read);
    AllowedReductionRef = nullptr;
    if (!S)
      return nullptr;
    auto R = make(U->isPostfix() ? ir::Expr::Postfix : ir::Expr::Unary, *K,
                  UnaryOperator::getOpcodeStr(Op).str());
    R->Operands.push_back(std::move(S));
    return R;
  }

  static const Expr *stripped(const Expr *E) {
    while (true) {
      E = E->IgnoreParenImpCasts();
      if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
        E = M->getSubExpr();
      else
        return E;
    }
  }

  /// The active reduction variable E names, if any.
  const VarDecl *reductionVariable(const Expr *E) const {
    const auto *DRE = dyn_cast<DeclRefExpr>(stripped(E));
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    return V && ActiveReductions.count(V) ? V : nullptr;
  }

  static const char *combineSpelling(ir::ReductionOp Op) {
    switch (Op) {
    case ir::ReductionOp::Add:
      return "v += ...";
    case ir::ReductionOp::Mul:
      return "v *= ...";
    case ir::ReductionOp::Min:
      return "v = std::min(v, ...)";
    case ir::ReductionOp::Max:
      return "v = std::max(v, ...)";
    case ir::ReductionOp::BitAnd:
      return "v &= ...";
    case ir::ReductionOp::BitOr:
      return "v |= ...";
    case ir::ReductionOp::BitXor:
      return "v ^= ...";
    case ir::ReductionOp::And:
      return "v = v && ...";
    case ir::ReductionOp::Or:
      return "v = v || ...";
    }
    return "";
  }

  /// In `v = <RHS>`, the reference to v that combines it with Op, if RHS
  /// has that form (v + e, e + v, std::min(v, e), ...).
  const DeclRefExpr *combiningOperand(const Expr *RHS, const VarDecl *V,
                                      ir::ReductionOp Op) const {
    RHS = stripped(RHS);
    auto IsV = [&](const Expr *E) -> const DeclRefExpr * {
      const auto *DRE = dyn_cast<DeclRefExpr>(stripped(E));
      return DRE && DRE->getDecl() == V ? DRE : nullptr;
    };
    if (const auto *B = dyn_cast<BinaryOperator>(RHS)) {
      static const std::pair<ir::ReductionOp, BinaryOperatorKind> Ops[] = {
          {ir::ReductionOp::Add, BO_Add},    {ir::ReductionOp::Mul, BO_Mul},
          {ir::ReductionOp::BitAnd, BO_And}, {ir::ReductionOp::BitOr, BO_Or},
          {ir::ReductionOp::BitXor, BO_Xor}, {ir::ReductionOp::And, BO_LAnd},
          {ir::ReductionOp::Or, BO_LOr}};
      for (const auto &[R, BO] : Ops)
        if (R == Op && B->getOpcode() == BO) {
          if (const DeclRefExpr *D = IsV(B->getLHS()))
            return D;
          return IsV(B->getRHS());
        }
      return nullptr;
    }
    if (const auto *C = dyn_cast<CallExpr>(RHS)) {
      const FunctionDecl *FD = C->getDirectCallee();
      if (!FD || !FD->getIdentifier() || C->getNumArgs() != 2)
        return nullptr;
      llvm::StringRef Name = FD->getName();
      const bool Min = Name == "min" || Name == "fmin" || Name == "fminf";
      const bool Max = Name == "max" || Name == "fmax" || Name == "fmaxf";
      if ((Op == ir::ReductionOp::Min && Min) ||
          (Op == ir::ReductionOp::Max && Max)) {
        if (const DeclRefExpr *D = IsV(C->getArg(0)))
          return D;
        return IsV(C->getArg(1));
      }
    }
    return nullptr;
  }

  /// `v op= e` or `v = v op e` on an active reduction variable v.
  ir::ExprPtr combine(const BinaryOperator *B, const VarDecl *V,
                      std::optional<ir::ScalarKind> K) {
    const ir::ReductionOp Op = ActiveReductions.lookup(V);
    static const std::pair<ir::ReductionOp, BinaryOperatorKind> Compound[] = {
        {ir::ReductionOp::Add, BO_AddAssign},
        {ir::ReductionOp::Mul, BO_MulAssign},
        {ir::ReductionOp::BitAnd, BO_AndAssign},
        {ir::ReductionOp::BitOr, BO_OrAssign},
        {ir::ReductionOp::BitXor, BO_XorAssign}};
    bool Matches = false;
    for (const auto &[R, BO] : Compound)
      Matches = Matches || (R == Op && B->getOpcode() == BO);
    const DeclRefExpr *Self = nullptr;
    if (B->getOpcode() == BO_Assign)
      Matches = (Self = combiningOperand(B->getRHS(), V, Op)) != nullptr;
    if (!Matches)
      return failExpr(B->getOperatorLoc(),
                      "reduction variable '" + V->getName().str() +
                          "' must be combined with '" + combineSpelling(Op) +
                          "' inside the loop",
                      "the loop's iterations each add their part; any other "
                      "use of the partial value depends on their order");
    AllowedReductionRef = cast<DeclRefExpr>(stripped(B->getLHS()));
    ir::ExprPtr L =
        expr(B->getLHS(),
             B->getOpcode() == BO_Assign ? Access::Write : Access::ReadWrite);
    AllowedReductionRef = Self;
    ir::ExprPtr R = L ? expr(B->getRHS(), Access::Read) : nullptr;
    AllowedReductionRef = nullptr;
    if (!R)
      return nullptr;
    auto E = make(ir::Expr::Binary, K.value_or(ir::ScalarKind::Int),
                  BinaryOperator::getOpcodeStr(B->getOpcode()).str());
    E->Operands.push_back(std::move(L));
    E->Operands.push_back(std::move(R));
    return E;
  }

  ir::ExprPtr binary(const BinaryOperator *B, std::optional<ir::ScalarKind> K) {
    BinaryOperatorKind Op = B->getOpcode();
    if (B->isAssignmentOp())
      if (const VarDecl *V = reductionVariable(B->getLHS()))
        return combine(B, V, K);
    if (Op == BO_Comma || Op == BO_PtrMemD || Op == BO_PtrMemI || Op == BO_Cmp)
      return failExpr(B->getOperatorLoc(),
                      "this operator is not supported in a weft loop",
                      NotSupportedYet);
    Access LHSAccess = Op == BO_Assign               ? Access::Write
                       : B->isCompoundAssignmentOp() ? Access::ReadWrite
                                                     : Access::Read;
    ir::ExprPtr L = expr(B->getLHS(), LHSAccess);
    ir::ExprPtr R = L ? expr(B->getRHS(), Access::Read) : nullptr;
    if (!R)
      return nullptr;
    auto E = make(ir::Expr::Binary, K.value_or(ir::ScalarKind::Int),
                  BinaryOperator::getOpcodeStr(Op).str());
    E->Operands.push_back(std::move(L));
    E->Operands.push_back(std::move(R));
    return E;
  }

  // ---- Statements -------------------------------------------------------

  void body(const Stmt *S, std::vector<ir::StmtPtr> &Out) {
    if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *C : CS->body())
        stmt(C, Out);
    } else {
      stmt(S, Out);
    }
  }

  ir::StmtPtr single(const Stmt *S) {
    std::vector<ir::StmtPtr> Out;
    stmt(S, Out);
    auto B = std::make_unique<ir::Stmt>();
    B->Kind = ir::Stmt::Block;
    B->Children = std::move(Out);
    return B;
  }

  void stmt(const Stmt *S, std::vector<ir::StmtPtr> &Out) {
    if (!S || Failed)
      return;
    auto Make = [](ir::Stmt::KindType K) {
      auto R = std::make_unique<ir::Stmt>();
      R->Kind = K;
      return R;
    };
    if (isa<NullStmt>(S))
      return;
    if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
      auto B = Make(ir::Stmt::Block);
      for (const Stmt *C : CS->body())
        stmt(C, B->Children);
      Out.push_back(std::move(B));
      return;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (ir::StmtPtr V = local(D))
          Out.push_back(std::move(V));
      return;
    }
    if (const auto *E = dyn_cast<Expr>(S)) {
      ir::ExprPtr X = expr(E, Access::Read);
      if (!X)
        return;
      auto R = Make(ir::Stmt::ExprStmt);
      R->Exprs.push_back(std::move(X));
      Out.push_back(std::move(R));
      return;
    }
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      if (If->getInit() || If->getConditionVariable() || If->isConsteval())
        return (void)fail(If->getIfLoc(),
                          "'if' with an initializer or a declaration is not "
                          "supported in a weft loop",
                          "declare the variable before the 'if'");
      auto R = Make(ir::Stmt::If);
      R->Exprs.push_back(expr(If->getCond()));
      R->Children.push_back(single(If->getThen()));
      R->Children.push_back(If->getElse() ? single(If->getElse()) : nullptr);
      Out.push_back(std::move(R));
      return;
    }
    if (std::optional<compat::Mark> M =
            compat::findMark(const_cast<Stmt *>(S))) {
      syntax::Clauses Clauses;
      syntax::ClauseError CE;
      syntax::parseClauses(M->Clauses, Clauses, CE);
      auto R = Make(ir::Stmt::ParallelFor);
      R->Nested = std::make_unique<ir::Level>();
      if (level(M->Loop, Clauses, *R->Nested))
        Out.push_back(std::move(R));
      return;
    }
    if (const auto *F = dyn_cast<ForStmt>(S)) {
      if (F->getConditionVariable())
        return (void)fail(F->getForLoc(), "a declaration in a loop condition "
                                          "is not supported in a weft loop");
      auto R = Make(ir::Stmt::For);
      std::vector<ir::StmtPtr> Init;
      if (F->getInit())
        stmt(F->getInit(), Init);
      if (Init.size() > 1)
        return (void)fail(F->getInit()->getBeginLoc(),
                          "declare one variable in a loop's initializer");
      R->Children.push_back(Init.empty() ? nullptr : std::move(Init[0]));
      R->Exprs.push_back(F->getCond() ? expr(F->getCond()) : nullptr);
      R->Exprs.push_back(F->getInc() ? expr(F->getInc()) : nullptr);
      ++SequentialDepth;
      R->Children.push_back(single(F->getBody()));
      --SequentialDepth;
      Out.push_back(std::move(R));
      return;
    }
    if (const auto *AS = dyn_cast<AttributedStmt>(S))
      return stmt(AS->getSubStmt(), Out);
    if (const auto *W = dyn_cast<WhileStmt>(S)) {
      if (W->getConditionVariable())
        return (void)fail(W->getWhileLoc(), "a declaration in a loop "
                                            "condition is not supported in a "
                                            "weft loop");
      auto R = Make(ir::Stmt::While);
      R->Exprs.push_back(expr(W->getCond()));
      ++SequentialDepth;
      R->Children.push_back(single(W->getBody()));
      --SequentialDepth;
      Out.push_back(std::move(R));
      return;
    }
    if (const auto *D = dyn_cast<DoStmt>(S)) {
      auto R = Make(ir::Stmt::DoWhile);
      ++SequentialDepth;
      R->Children.push_back(single(D->getBody()));
      --SequentialDepth;
      R->Exprs.push_back(expr(D->getCond()));
      Out.push_back(std::move(R));
      return;
    }
    if (const auto *Sw = dyn_cast<SwitchStmt>(S)) {
      if (Sw->getInit() || Sw->getConditionVariable())
        return (void)fail(Sw->getSwitchLoc(),
                          "'switch' with an initializer or a declaration is "
                          "not supported in a weft loop",
                          "declare the variable before the 'switch'");
      auto R = Make(ir::Stmt::Switch);
      R->Exprs.push_back(expr(Sw->getCond()));
      ++SwitchDepth; // 'break' leaves the switch, not the loop
      R->Children.push_back(single(Sw->getBody()));
      --SwitchDepth;
      Out.push_back(std::move(R));
      return;
    }
    if (const auto *C = dyn_cast<SwitchCase>(S)) {
      // A label, then the statement it labels.
      auto R = Make(ir::Stmt::Case);
      if (const auto *CS = dyn_cast<CaseStmt>(C)) {
        if (CS->getRHS())
          return (void)fail(CS->getBeginLoc(),
                            "case ranges are not supported in a weft loop");
        Expr::EvalResult V;
        std::optional<ir::ScalarKind> K = scalarKind(CS->getLHS()->getType());
        if (!K || !CS->getLHS()->EvaluateAsInt(V, Ctx))
          return (void)fail(CS->getBeginLoc(), "a case label must be an "
                                               "integer constant");
        R->Exprs.push_back(
            make(ir::Expr::IntLiteral, *K, literalText(V.Val.getInt(), *K)));
      } else {
        R->Exprs.push_back(nullptr);
      }
      Out.push_back(std::move(R));
      stmt(C->getSubStmt(), Out);
      return;
    }
    if (isa<BreakStmt>(S)) {
      if (SequentialDepth == 0 && SwitchDepth == 0)
        return (void)fail(S->getBeginLoc(),
                          "'break' cannot leave a parallel loop: its "
                          "iterations run at the same time",
                          "use 'continue' to skip the rest of an iteration");
      Out.push_back(Make(ir::Stmt::Break));
      return;
    }
    if (isa<ContinueStmt>(S)) {
      Out.push_back(Make(ir::Stmt::Continue));
      return;
    }
    if (const auto *Ret = dyn_cast<ReturnStmt>(S); Ret && InFunction) {
      auto R = Make(ir::Stmt::Return);
      R->Exprs.push_back(Ret->getRetValue() ? expr(Ret->getRetValue())
                                            : nullptr);
      Out.push_back(std::move(R));
      return;
    }
    if (isa<ReturnStmt>(S))
      return (void)fail(S->getBeginLoc(),
                        "'return' cannot leave a parallel loop",
                        "use 'continue' to skip the rest of an iteration");
    if (isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S) || isa<LabelStmt>(S))
      return (void)fail(S->getBeginLoc(), "'goto' is not allowed in a weft "
                                          "loop");
    if (isa<CXXTryStmt>(S))
      return (void)fail(S->getBeginLoc(),
                        "exceptions are not supported in a weft loop");
    if (const auto *RF = dyn_cast<CXXForRangeStmt>(S))
      return (void)fail(RF->getForLoc(),
                        "a range-based 'for' inside a weft loop is not "
                        "supported yet",
                        "write it as an index loop");
    fail(S->getBeginLoc(),
         std::string("this statement (") + S->getStmtClassName() +
             ") is not supported in a weft loop",
         NotSupportedYet);
  }

  /// The std:: class template T specializes, if its name is Name.
  static const ClassTemplateSpecializationDecl *
  stdTemplate(QualType T, llvm::StringRef Name) {
    const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
        T.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl());
    return Spec && Spec->getName() == Name && Spec->isInStdNamespace()
               ? Spec
               : nullptr;
  }

  ir::ExprPtr integer(std::int64_t V) {
    return make(ir::Expr::IntLiteral, ir::ScalarKind::Long,
                std::to_string(V) + "l");
  }

  /// A per-iteration array (C array, VLA, std::array, std::vector sized at
  /// its declaration); nullopt when VD is none of those.
  std::optional<ir::StmtPtr> localArray(const VarDecl *VD) {
    QualType T = VD->getType();
    QualType Element;
    ir::ExprPtr Extent;
    const Expr *Init = VD->getInit();
    ir::ExprPtr Fill;
    if (const ConstantArrayType *CAT = Ctx.getAsConstantArrayType(T)) {
      Element = CAT->getElementType();
      Extent =
          integer(static_cast<std::int64_t>(CAT->getSize().getZExtValue()));
    } else if (const VariableArrayType *VAT = Ctx.getAsVariableArrayType(T)) {
      Element = VAT->getElementType();
      Extent = expr(VAT->getSizeExpr());
    } else if (const auto *Array = stdTemplate(T, "array")) {
      Element = Array->getTemplateArgs()[0].getAsType();
      Extent =
          integer(Array->getTemplateArgs()[1].getAsIntegral().getExtValue());
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
    R->Name = VD->getName().str();
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
      for (const Expr *E : IL->inits()) {
        if (isa<ImplicitValueInitExpr>(E))
          break; // the rest is zero, as `= {...}` makes it
        ir::ExprPtr V = expr(E);
        if (!V)
          return std::nullopt;
        List->Operands.push_back(std::move(V));
      }
      R->Exprs.push_back(std::move(List));
    } else {
      R->Exprs.push_back(nullptr);
    }
    declareLocal(VD);
    LocalArrays[VD] = R->ArrayExtent.get();
    return R;
  }

  /// Subscript, an element of a per-iteration array, when Base names one.
  ir::ExprPtr localElement(const Expr *Subscript, const Expr *Base,
                           const Expr *Index, std::optional<ir::ScalarKind> K) {
    const auto *DRE = dyn_cast<DeclRefExpr>(Base->IgnoreParenImpCasts());
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD || !LocalArrays.count(VD))
      return nullptr;
    ir::ExprPtr I = expr(Index, Access::Read);
    if (!I)
      return nullptr;
    auto R = make(ir::Expr::LocalElement, K.value_or(ir::ScalarKind::Char),
                  VD->getName().str());
    R->Struct =
        K ? -1
          : structIndex(Subscript->getType(), Subscript->getExprLoc(), false);
    R->Operands.push_back(std::move(I));
    return R;
  }

  ir::ExprPtr cloneExpr(const ir::Expr &E) {
    auto C = make(E.Kind, E.Type, E.Text);
    C->Struct = E.Struct;
    C->ParamIndex = E.ParamIndex;
    C->LValue = E.LValue;
    for (const ir::ExprPtr &O : E.Operands)
      C->Operands.push_back(cloneExpr(*O));
    return C;
  }

  /// A local of the nest, declared inside as many levels as enclose it now.
  void declareLocal(const VarDecl *VD) {
    Locals.insert(VD);
    LocalDepth[VD] = static_cast<unsigned>(Indices.size());
  }

  ir::StmtPtr local(const Decl *D) {
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
    auto R = std::make_unique<ir::Stmt>();
    R->Kind = ir::Stmt::Decl;
    R->Name = VD->getName().str();
    R->VarType.Scalar = K.value_or(ir::ScalarKind::Char);
    R->VarType.Struct = Struct;
    R->VarType.IsReference = T->isReferenceType();
    R->VarType.IsConst = T.getNonReferenceType().isConstQualified();
    if (R->VarType.IsReference && !VD->getInit())
      return nullptr;
    // `Particle p;`: a struct left uninitialized, as in the source.
    if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(VD->getInit());
        CE && Struct >= 0 && CE->getNumArgs() == 0) {
      R->Exprs.push_back(nullptr);
      declareLocal(VD);
      return R;
    }
    Access A = R->VarType.IsReference && !R->VarType.IsConst ? Access::ReadWrite
                                                             : Access::Read;
    BindingReference = R->VarType.IsReference;
    R->Exprs.push_back(VD->getInit() ? expr(VD->getInit(), A) : nullptr);
    BindingReference = false;
    declareLocal(VD);
    return R;
  }

  Sema &S;
  ASTContext &Ctx;
  DiagnosticsEngine &Diags;
  const SourceManager &SM;
  Stmt *Loop;
  bool Failed = false;
  /// The indices of the enclosing parallel levels, outermost first (null
  /// for a range-for's synthesized index).
  std::vector<const VarDecl *> Indices;
  /// The index whose loop header is being read.
  const VarDecl *HeaderIndex = nullptr;
  /// Reduction variables of the enclosing levels, and the one reference
  /// that the combining statement being read may make to them.
  llvm::DenseMap<const VarDecl *, ir::ReductionOp> ActiveReductions;
  const DeclRefExpr *AllowedReductionRef = nullptr;
  /// Device functions: converted ones by definition, in callee-first order,
  /// and the chain of calls being converted (to catch recursion).
  llvm::DenseMap<const FunctionDecl *, std::string> FunctionNames;
  std::vector<ir::Function> Functions;
  std::vector<const FunctionDecl *> CallStack;
  bool InFunction = false;
  /// Inside a method converted to a device function: the struct `this`
  /// points to (the function's first parameter), else -1.
  int SelfStruct = -1;
  static constexpr const char *SelfName = "weft_self";
  /// Structs the nest uses, each after those it contains.
  llvm::DenseMap<const CXXRecordDecl *, int> StructIndex;
  /// Per-iteration arrays in scope, with their extents (for size()).
  llvm::DenseMap<const VarDecl *, const ir::Expr *> LocalArrays;
  /// How many parallel levels enclose each local's declaration.
  llvm::DenseMap<const VarDecl *, unsigned> LocalDepth;
  std::vector<ir::StructDef> Structs;
  llvm::SmallPtrSet<const VarDecl *, 16> Locals;
  llvm::DenseMap<const ValueDecl *, unsigned> CaptureIndex;
  std::vector<ir::Param> Params;
  std::vector<Use> Uses;
  std::vector<const Expr *> CaptureSources;
  std::vector<SourceLocation> LevelLocations;
  int SequentialDepth = 0;
  int SwitchDepth = 0; // 'break' inside a switch leaves only the switch
  /// Set while converting the initializer of a reference: its span element
  /// must stay an lvalue even when only read.
  bool BindingReference = false;
};

} // namespace

std::optional<RecognizedNest> recognizeNest(Sema &S, Stmt *Loop,
                                            const std::string &ClauseText) {
  return Recognizer(S, Loop).run(ClauseText);
}

} // namespace weft::recognize
