// RecognizeArgReductions.cpp: reduction(argmax: v, at) and argmin, the
// value and index of the best element as legacy code finds them,
// `if (x > v) { v = x; at = i; }`. Each element's value and index become one
// key (device.h's arg_key: 64 bits for values of at most 32 bits, two
// 64-bit halves for wider ones) reduced by max (min), so the pair needs no
// reduction of its own; ties go where the serial loop sends them (`>`: the
// first index, `>=`: the last; the other way round for a loop counting
// down). The key goes back into v and at after the
// loop: on the device for an inner level, at the launch for the outermost.
#include "recognize/ReductionRecognizer.h"

namespace weft::recognize {

namespace {

const char *const ArgForm = "set them as 'if (x > best) { best = x; at = i; }' "
                            "(argmin: '<'; '>=' or '<=' for ties to the last "
                            "index), i the index of the reducing loop";

} // namespace

std::string RecognizerState::ArgReduction::function(bool Finish) const {
  if (Finish)
    return std::string("weft::arg_finish<") + (Max ? "true" : "false") + ", " +
           (First > 0 ? "true" : "false") + ">";
  return std::string("arg") + (Max ? "max" : "min") +
         (First > 0 ? "First" : "Last");
}

bool ReductionRecognizer::argReduction(Stmt *Loop, const Stmt *Body,
                                       const syntax::Reduction &Clause,
                                       ir::Level &L) {
  const bool Max = Clause.Operator == "argmax";
  const DeclRefExpr *Refs[2];
  for (int I = 0; I < 2; ++I) {
    Refs[I] = findReference(Body, Clause.Variables[I]);
    if (!Refs[I])
      return fail(clauseAt(L.Depth, Clause.Offset),
                  "reduction variable '" + Clause.Variables[I] +
                      "' is not used in the loop",
                  ArgForm),
             false;
  }
  const auto *Value = cast<VarDecl>(Refs[0]->getDecl());
  const auto *At = cast<VarDecl>(Refs[1]->getDecl());
  const QualType VT = Value->getType().getNonReferenceType();
  std::optional<ir::ScalarKind> VK = scalarKind(VT);
  // The key holds the value's bits in 32 or 64.
  if (!VK || *VK == ir::ScalarKind::Bool ||
      (!VT->isIntegerType() && *VK != ir::ScalarKind::Float &&
       *VK != ir::ScalarKind::Double) ||
      Ctx.getTypeSize(VT) > 64)
    return fail(Refs[0]->getLocation(),
                "the value of reduction(" + Clause.Operator + ": " +
                    Clause.Variables[0] + ", " + Clause.Variables[1] +
                    ") must be a float, a double or an integer of at most "
                    "64 bits",
                "find the best value of another type in a loop of your own "
                "after the parallel one"),
           false;
  std::optional<ir::ScalarKind> AK =
      scalarKind(At->getType().getNonReferenceType());
  if (!AK || !isInteger(*AK) || *AK == ir::ScalarKind::Bool)
    return fail(Refs[1]->getLocation(), "the index of reduction(" +
                                            Clause.Operator +
                                            ": ...) must "
                                            "be an integer"),
           false;
  for (const VarDecl *V : {Value, At})
    if (L.Depth > 0 ? !Locals.contains(V)
                    : Locals.contains(V) || V->hasGlobalStorage())
      return fail(V == Value ? Refs[0]->getLocation() : Refs[1]->getLocation(),
                  L.Depth > 0 ? "the reduction of an inner parallel loop must "
                                "go into variables declared in the enclosing "
                                "loop's body"
                              : "the argmax and argmin of the outermost loop "
                                "go into local variables of the function",
                  ArgForm),
             false;
  ArgReduction R;
  R.Value = Value;
  R.At = At;
  R.Max = Max;
  R.ValueType = *VK;
  R.AtType = *AK;
  R.KeyType = Ctx.getTypeSize(VT) > 32 ? ir::ScalarKind::Key128
                                       : ir::ScalarKind::ULongLong;
  R.Depth = L.Depth;
  R.CountsDown = L.CountsDown;
  R.Key = Names.numbered("weft_argkey");
  if (L.Depth == 0) {
    // The key is a reduction target of its own, passed as
    // weft::detail::argmaxFirst(v, at) (weft.hpp), which writes v and at.
    ir::Param P;
    P.Name = R.Key;
    P.Kind = ir::ParamKind::ReductionTarget;
    P.Element = R.KeyType;
    Capture C;
    C.Source = Refs[0];
    C.ArgAt = Refs[1]; // its Pairing once the loop's `if` says which
    R.Param = static_cast<int>(addParam(std::move(P), std::move(C)));
  }
  ir::Reduction Reduced;
  Reduced.Op = Max ? ir::ReductionOp::Max : ir::ReductionOp::Min;
  Reduced.Variable = R.Key;
  Reduced.Type = R.KeyType;
  Reduced.ParamIndex = R.Param;
  L.Reductions.push_back(std::move(Reduced));
  ArgReductions.push_back(std::move(R));
  return true;
}

ir::ExprPtr ReductionRecognizer::argKeyRef(const ArgReduction &R) {
  if (R.Param < 0)
    return make(ir::Expr::Local, R.KeyType, R.Key);
  auto E = make(ir::Expr::ParamRef, R.KeyType);
  E->ParamIndex = static_cast<unsigned>(R.Param);
  markUse(E->ParamIndex, Access::ReadWrite);
  return E;
}

std::optional<ir::StmtPtr> ReductionRecognizer::argCombine(const IfStmt *If) {
  ArgReduction *R = nullptr;
  const Expr *Value = nullptr, *Ref = nullptr;
  bool ValueWhenTrue = false;
  for (ArgReduction &A : ArgReductions)
    if (comparesWithValue(If->getCond(), A.Value,
                          A.Max ? ir::ReductionOp::Max : ir::ReductionOp::Min,
                          Value, Ref, ValueWhenTrue)) {
      R = &A;
      break;
    }
  if (!R)
    return std::nullopt; // Not an argmax's if: another statement.
  const auto *Compare = cast<BinaryOperator>(stripped(If->getCond()));
  const char *Better = R->Max ? "keeps the smaller value: argmax keeps "
                                "the larger"
                              : "keeps the larger value: argmin keeps "
                                "the smaller";
  if (!ValueWhenTrue)
    return fail(Compare->getOperatorLoc(),
                std::string("this comparison ") + Better, ArgForm);
  // The two assignments, in either order.
  const auto *Block = dyn_cast<CompoundStmt>(If->getThen());
  const BinaryOperator *SetValue = nullptr, *SetAt = nullptr;
  if (Block && Block->size() == 2 && !If->getElse())
    for (const Stmt *S : Block->body()) {
      if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(S))
        S = Cleanups->getSubExpr();
      const auto *B = dyn_cast<BinaryOperator>(S);
      if (!B || B->getOpcode() != BO_Assign)
        continue;
      if (refersTo(B->getLHS(), R->Value))
        SetValue = B;
      else if (refersTo(B->getLHS(), R->At))
        SetAt = B;
    }
  const VarDecl *Index = Indices[R->Depth];
  const auto *IndexRef =
      SetAt ? dyn_cast<DeclRefExpr>(stripped(SetAt->getRHS())) : nullptr;
  if (!SetValue || !SetAt || !sameValue(SetValue->getRHS(), Value) || !Index ||
      !IndexRef || IndexRef->getDecl() != Index)
    return fail(If->getIfLoc(),
                "'" + R->Value->getName().str() + "' and '" +
                    R->At->getName().str() + "' of reduction(" +
                    (R->Max ? "argmax" : "argmin") +
                    ": ...) must be set together, to the compared value "
                    "and the loop's index",
                ArgForm);
  // The serial loop keeps the index it meets first (`>`) or last (`>=`);
  // counting down, it meets the greatest first.
  const bool Strict =
      Compare->getOpcode() == BO_GT || Compare->getOpcode() == BO_LT;
  const int First = Strict != R->CountsDown ? 1 : 0;
  if (R->First >= 0 && R->First != First)
    return fail(Compare->getOperatorLoc(),
                "ties go to the first index in one comparison of '" +
                    R->Value->getName().str() + "' and to the last in another",
                "use '>' ('<') everywhere, or '>=' ('<=')");
  R->First = First;
  ir::ExprPtr Compared = expr(Value, Access::Read);
  ir::ExprPtr At = Compared ? expr(IndexRef, Access::Read) : nullptr;
  if (!At)
    return nullptr;
  auto AsValue = make(ir::Expr::Cast, R->ValueType);
  AsValue->Operands.push_back(std::move(Compared));
  auto Key = make(ir::Expr::Call, R->KeyType,
                  std::string("weft::arg_key<") + (R->Max ? "true" : "false") +
                      ", " + (First ? "true" : "false") + ">");
  Key->Operands.push_back(std::move(AsValue));
  Key->Operands.push_back(std::move(At));
  auto Best =
      make(ir::Expr::Call, R->KeyType, R->Max ? "weft::max" : "weft::min");
  Best->Operands.push_back(argKeyRef(*R));
  Best->Operands.push_back(std::move(Key));
  auto Assign = make(ir::Expr::Binary, R->KeyType, "=");
  Assign->Operands.push_back(argKeyRef(*R));
  Assign->Operands.push_back(std::move(Best));
  auto S = std::make_unique<ir::Stmt>();
  S->Kind = ir::Stmt::ExprStmt;
  S->Exprs.push_back(std::move(Assign));
  return S;
}

bool ReductionRecognizer::finishArgReductions(unsigned Depth) {
  for (ArgReduction &R : ArgReductions) {
    if (R.Depth != Depth)
      continue;
    if (R.First < 0)
      return fail(LevelLocations.back(),
                  "the loop never sets '" + R.Value->getName().str() +
                      "' and '" + R.At->getName().str() + "' as " +
                      (R.Max ? "argmax" : "argmin") + " needs",
                  ArgForm),
             false;
    if (R.Param >= 0)
      Captures[static_cast<unsigned>(R.Param)].Pairing = R.function();
    else
      FinishedArgs.push_back(R);
  }
  llvm::erase_if(ArgReductions,
                 [&](const ArgReduction &R) { return R.Depth == Depth; });
  return true;
}

} // namespace weft::recognize
