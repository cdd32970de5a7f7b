// RecognizeByteCopies.cpp: memset and memcpy as C code clears and copies
// its small arrays (`memset(tmp, 0, sizeof tmp)`, `memcpy(row, &a[i * n],
// n * sizeof(float))`): loops over the elements, which the kernel can run
// and the analyses can read.
#include "recognize/BodyRecognizer.h"

namespace weft::recognize {
namespace {

/// The element type a memset or memcpy operand points to (or, for an
/// array, holds).
QualType pointee(const Expr *E) {
  const QualType T = E->IgnoreParenImpCasts()->getType();
  if (const auto *A = T->getAsArrayTypeUnsafe())
    return A->getElementType();
  return T->isPointerType() ? T->getPointeeType() : QualType();
}

} // namespace

bool BodyRecognizer::byteCopy(const CallExpr *Call,
                              std::vector<ir::StmtPtr> &Out) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->getIdentifier() || Call->getNumArgs() != 3)
    return false;
  const DeclContext *DC = FD->getDeclContext()->getRedeclContext();
  const llvm::StringRef Name = FD->getName();
  const bool Set = Name == "memset";
  if (!(DC->isTranslationUnit() || DC->isStdNamespace()) ||
      !(Set || Name == "memcpy"))
    return false;
  const SourceLocation Loc = Call->getExprLoc();
  const QualType Element = pointee(Call->getArg(0));
  const std::optional<ir::ScalarKind> K =
      Element.isNull() ? std::nullopt : scalarKind(Element);
  if (!K || (!Set &&
             (pointee(Call->getArg(1)).isNull() ||
              !Ctx.hasSameUnqualifiedType(pointee(Call->getArg(1)), Element))))
    return fail(Loc,
                "'" + Name.str() + "' in a weft loop must " +
                    (Set ? "clear" : "copy between") +
                    " arrays of one arithmetic type",
                "write the loop over the elements"),
           true;
  // How many elements: a constant number of bytes, or n * sizeof(T).
  const std::int64_t Size = Ctx.getTypeSizeInChars(Element).getQuantity();
  const Expr *Bytes = Call->getArg(2)->IgnoreParenImpCasts();
  ir::ExprPtr Count;
  Expr::EvalResult R;
  if (Bytes->EvaluateAsInt(R, Ctx)) {
    const std::int64_t N = R.Val.getInt().getExtValue();
    if (N % Size == 0)
      Count = integer(N / Size);
  } else if (const auto *M = dyn_cast<BinaryOperator>(Bytes);
             M && M->getOpcode() == BO_Mul) {
    for (const auto &[Of, By] : {std::pair(M->getLHS(), M->getRHS()),
                                 std::pair(M->getRHS(), M->getLHS())}) {
      Expr::EvalResult S;
      if (isa<UnaryExprOrTypeTraitExpr>(Of->IgnoreParenImpCasts()) &&
          Of->EvaluateAsInt(S, Ctx) && S.Val.getInt().getExtValue() == Size) {
        Count = expr(By, Access::Read);
        if (!Count)
          return true;
        break;
      }
    }
  }
  if (!Count)
    return fail(Call->getArg(2)->getBeginLoc(),
                "weft cannot tell how many elements this '" + Name.str() +
                    "' " + (Set ? "clears" : "copies"),
                "give the bytes as 'n * sizeof(" +
                    Element.getAsString(Ctx.getPrintingPolicy()) +
                    ")' or a constant"),
           true;
  // Byte values other than zero mean an element's value only for bytes.
  ir::ExprPtr Value;
  if (Set) {
    Expr::EvalResult V;
    if (Size != 1 &&
        !(Call->getArg(1)->EvaluateAsInt(V, Ctx) && V.Val.getInt().isZero()))
      return fail(Call->getArg(1)->getBeginLoc(),
                  "'memset' in a weft loop may set only bytes to a value, "
                  "or elements to zero",
                  "write the loop over the elements"),
             true;
    Value = expr(Call->getArg(1), Access::Read);
    if (!Value)
      return true;
    auto Cast = make(ir::Expr::Cast, *K);
    Cast->Operands.push_back(std::move(Value));
    Value = std::move(Cast);
  }
  // for (long weft_bN = 0; weft_bN < count; ++weft_bN)
  //   dst[weft_bN] = value (or src[weft_bN]);
  const std::string Counter = Names.numbered("weft_b");
  auto At = [&] {
    return make(ir::Expr::Local, ir::ScalarKind::Long, Counter);
  };
  // Operand I's element at the counter, or an error saying what it must be.
  auto Operand = [&](unsigned I, Access A) {
    std::optional<PointerInto> Ptr =
        pointerInto(Call->getArg(I), /*IntoLocalArrays=*/true);
    ir::ExprPtr E =
        Ptr ? pointedElement(std::move(*Ptr), At(), A, Call->getArg(I))
            : nullptr;
    if (!E && !Failed)
      fail(Call->getArg(I)->getBeginLoc(),
           "'" + Name.str() + "' in a weft loop must " +
               (A == Access::Write ? "write" : "read") +
               " a per-iteration array or captured data of one dimension",
           "write the loop over the elements");
    return E;
  };
  ir::ExprPtr Target = Operand(0, Access::Write);
  if (Target && !Set)
    Value = Operand(1, Access::Read);
  if (!Target || !Value)
    return true;
  ir::StmtPtr Loop = indexLoop(Counter, std::move(Count));
  auto Assign = make(ir::Expr::Binary, *K, "=");
  Assign->Operands.push_back(std::move(Target));
  Assign->Operands.push_back(std::move(Value));
  auto Body = std::make_unique<ir::Stmt>();
  Body->Kind = ir::Stmt::ExprStmt;
  Body->Exprs.push_back(std::move(Assign));
  Loop->Children.push_back(std::move(Body));
  Out.push_back(std::move(Loop));
  return true;
}

} // namespace weft::recognize
