// LoopRewriter.cpp: builds the launch call with Sema, so that template
// deduction, conversions and lambda captures are as if the user wrote it.
#include "rewrite/LoopRewriter.h"

#include "compat/ClangCompat.h"
#include "support/Diagnose.h"

#include "recognize/AstHelpers.h"
#include "syntax/OpenMPMarks.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Sema/Lookup.h"

using namespace clang;

namespace weft::rewrite {
namespace {

/// Looks Name up in DC (a namespace), or returns null.
NamedDecl *lookupIn(Sema &S, DeclContext *DC, llvm::StringRef Name,
                    Sema::LookupNameKind Kind, LookupResult &R) {
  R.clear(Kind);
  S.LookupQualifiedName(R, DC);
  return R.empty() ? nullptr : R.getRepresentativeDecl();
}

/// A reference to Ref's variable where the launch is, in FD's body: a
/// capture there only where FD is a lambda's call operator and the
/// variable a local of a function around it. Inside the loop the same
/// reference may be a capture of something the launch is outside of (an
/// OpenMP directive's region, a lambda compiled into the loop).
/// Inside an OpenMP region (InRegion: a team's launch), every local is
/// named as its captured statement sees it: a capture of the region's, or
/// one of its own locals or thread-private copies, which code generation
/// finds first.
DeclRefExpr *copyRef(ASTContext &Ctx, const DeclRefExpr *Ref,
                     SourceLocation Loc, const FunctionDecl *FD,
                     bool InRegion) {
  const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(FD);
  const bool Capture =
      V && V->hasLocalStorage() &&
      (InRegion ||
       (Method && Method->getParent()->isLambda() &&
        V->getDeclContext() != static_cast<const DeclContext *>(Method)));
  return DeclRefExpr::Create(Ctx, NestedNameSpecifierLoc(), SourceLocation(),
                             const_cast<ValueDecl *>(Ref->getDecl()), Capture,
                             Loc, Ref->getType(), Ref->getValueKind());
}

/// A copy of a captured variable, or of a member chain on one or on `this`
/// (m.rows, grid->cells, this->mesh.nodes), for the launch's arguments.
Expr *copyObject(ASTContext &Ctx, const Expr *E, SourceLocation Loc,
                 const FunctionDecl *FD, bool InRegion) {
  E = E->IgnoreParens();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    return copyRef(Ctx, Ref, Loc, FD, InRegion);
  if (const auto *Deref = dyn_cast<UnaryOperator>(E))
    // `*v`, v a pointer to the data.
    return UnaryOperator::Create(
        Ctx, copyObject(Ctx, Deref->getSubExpr(), Loc, FD, InRegion), UO_Deref,
        Deref->getType(), VK_LValue, OK_Ordinary, Loc, false,
        FPOptionsOverride());
  if (const auto *This = dyn_cast<CXXThisExpr>(E))
    return CXXThisExpr::Create(Ctx, Loc, This->getType(), /*IsImplicit=*/true);
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E)) {
    // p->f's load of p, or a derived object's base part.
    CXXCastPath Path;
    for (const CXXBaseSpecifier *Base : Cast->path())
      Path.push_back(const_cast<CXXBaseSpecifier *>(Base));
    return ImplicitCastExpr::Create(
        Ctx, Cast->getType(), Cast->getCastKind(),
        copyObject(Ctx, Cast->getSubExpr(), Loc, FD, InRegion), &Path,
        Cast->getValueKind(), FPOptionsOverride());
  }
  const auto *ME = cast<MemberExpr>(E);
  return MemberExpr::CreateImplicit(
      Ctx, copyObject(Ctx, ME->getBase(), Loc, FD, InRegion), ME->isArrow(),
      ME->getMemberDecl(), ME->getType(), ME->getValueKind(),
      ME->getObjectKind());
}

/// weft::detail::Name(Args...), declared by <weft/weft.hpp>. Null after an
/// error: Missing (with Hint) when the header does not declare it, Sema's
/// own when the arguments do not fit.
Expr *callDetail(Sema &S, NamespaceDecl *Detail, llvm::StringRef Name,
                 llvm::MutableArrayRef<Expr *> Args, SourceLocation Loc,
                 const char *Missing, const char *Hint) {
  LookupResult Found(S, &S.getASTContext().Idents.get(Name), Loc,
                     Sema::LookupOrdinaryName);
  CXXScopeSpec NoScope;
  ExprResult Callee =
      lookupIn(S, Detail, Name, Sema::LookupOrdinaryName, Found)
          ? S.BuildDeclarationNameExpr(NoScope, Found, /*NeedsADL=*/false)
          : ExprError();
  if (Callee.isInvalid()) {
    error(S.getASTContext().getDiagnostics(), Loc, Missing, Hint);
    return nullptr;
  }
  ExprResult Call = S.BuildCallExpr(nullptr, Callee.get(), Loc, Args, Loc);
  return Call.isInvalid() ? nullptr : Call.get();
}

/// A variable Launch names that code generation cannot find inside the
/// region Team (neither its capture, nor its own, nor a global), or null.
const VarDecl *unseenInRegion(const Stmt *E, const Stmt *Team) {
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
        V && V->hasLocalStorage() && !syntax::teamPrivate(V, Team) &&
        !cast<OMPExecutableDirective>(Team)
             ->getInnermostCapturedStmt()
             ->capturesVariable(V))
      return V;
  for (const Stmt *Child : E->children())
    if (const VarDecl *V = Child ? unseenInRegion(Child, Team) : nullptr)
      return V;
  return nullptr;
}

/// A reference to V inside S, or null.
const DeclRefExpr *findRef(const Stmt *S, const VarDecl *V) {
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S); Ref && Ref->getDecl() == V)
    return Ref;
  for (const Stmt *Child : S->children())
    if (const DeclRefExpr *Ref = Child ? findRef(Child, V) : nullptr)
      return Ref;
  return nullptr;
}

/// Where the region Team reaches V only through a lambda it captures
/// (`auto A_ = [&](int e) { return a[e]; };` before the region, `A_(i)` in
/// the loop, so the region captures A_ and not a): the lambda's capture of
/// V, as the loop's own calls reach it; else null.
Expr *throughClosure(ASTContext &Ctx, const VarDecl *V, const Stmt *Team,
                     const Stmt *Loop, SourceLocation Loc,
                     const FunctionDecl *FD) {
  const CapturedStmt *Region =
      cast<OMPExecutableDirective>(Team)->getInnermostCapturedStmt();
  for (const CapturedStmt::Capture &C : Region->captures()) {
    if (!C.capturesVariable() && !C.capturesVariableByCopy())
      continue;
    const VarDecl *Lambda = C.getCapturedVar();
    const CXXRecordDecl *Closure =
        Lambda->getType().getNonReferenceType()->getAsCXXRecordDecl();
    if (!Closure || !Closure->isLambda())
      continue;
    llvm::DenseMap<const ValueDecl *, FieldDecl *> Fields;
    FieldDecl *ThisField = nullptr;
    Closure->getCaptureFields(Fields, ThisField);
    FieldDecl *Field = Fields.lookup(V);
    const DeclRefExpr *Use = Field ? findRef(Loop, Lambda) : nullptr;
    if (!Use)
      continue;
    return MemberExpr::CreateImplicit(
        Ctx, copyRef(Ctx, Use, Loc, FD, /*InRegion=*/true), /*IsArrow=*/false,
        Field, Field->getType().getNonReferenceType(), VK_LValue, OK_Ordinary);
  }
  return nullptr;
}

/// In E, each variable the region Team does not capture but a lambda it
/// captures does, named through that lambda (throughClosure).
void reachThroughClosures(ASTContext &Ctx, Stmt *E, const Stmt *Team,
                          const Stmt *Loop, SourceLocation Loc,
                          const FunctionDecl *FD) {
  for (Stmt *&Child : E->children()) {
    if (!Child)
      continue;
    if (const VarDecl *V = unseenInRegion(Child, Team);
        V && isa<DeclRefExpr>(Child))
      if (Expr *Through = throughClosure(Ctx, V, Team, Loop, Loc, FD)) {
        Child = Through;
        continue;
      }
    reachThroughClosures(Ctx, Child, Team, Loop, Loc, FD);
  }
}

/// Whether the loop of Nest writes the object V names itself (a local
/// array or scalar it stores or combines into), not data V views.
bool writesObject(const recognize::RecognizedNest &Nest, const VarDecl *V) {
  if (recognize::isView(V->getType()))
    return false;
  for (std::size_t I = 0; I < Nest.Captures.size(); ++I) {
    const recognize::Capture &C = Nest.Captures[I];
    if (C.Value || recognize::rootVariable(C.Source) != V)
      continue;
    const ir::ParamKind Kind = Nest.Nest.Params[I].Kind;
    if (C.Stored || Kind == ir::ParamKind::WriteSpan ||
        Kind == ir::ParamKind::ReadWriteSpan)
      return true;
    for (const ir::Level *L : ir::levels(Nest.Nest))
      for (const ir::Reduction &Red : L->Reductions)
        if (Red.ParamIndex == static_cast<int>(I))
          return true;
  }
  return false;
}

/// What the threads of a team compare before one of them launches an
/// orphaned worksharing loop: each local of the function that Launch
/// names (each thread has its own), as its value, or as its address where
/// the launch must reach the object itself (one the loop writes, a
/// reference's referent); `this`, where Launch names it.
void voteValues(ASTContext &Ctx, const Stmt *E, const FunctionDecl *FD,
                const recognize::RecognizedNest &Nest, SourceLocation Loc,
                llvm::SmallPtrSetImpl<const Decl *> &Seen,
                llvm::SmallVectorImpl<Expr *> &Values) {
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
    if (!V || !V->hasLocalStorage() || !Seen.insert(V).second)
      return;
    Expr *Value = copyRef(Ctx, Ref, Loc, FD, /*InRegion=*/false);
    if (V->getType()->isReferenceType() || writesObject(Nest, V))
      Value = UnaryOperator::Create(
          Ctx, Value, UO_AddrOf, Ctx.getPointerType(Value->getType()),
          VK_PRValue, OK_Ordinary, Loc, false, FPOptionsOverride());
    Values.push_back(Value);
    return;
  }
  if (auto *This = dyn_cast<CXXThisExpr>(E)) {
    if (Seen.insert(nullptr).second)
      Values.push_back(const_cast<CXXThisExpr *>(This));
    return;
  }
  for (const Stmt *Child : E->children())
    if (Child)
      voteValues(Ctx, Child, FD, Nest, Loc, Seen, Values);
}

/// An orphaned worksharing loop launches where its team agrees on what
/// each thread's launch reads (Votes, from Args):
/// weft::detail::launchAgreed(site, condition, ...), its first two
/// arguments put before Args. Nothing where the launch reads no local.
void agreedLaunch(ASTContext &Ctx, const recognize::RecognizedNest &Nest,
                  const FunctionDecl *FD, llvm::StringRef Site,
                  SourceLocation Loc, llvm::SmallVectorImpl<Expr *> &Args,
                  llvm::SmallVectorImpl<Expr *> &Votes) {
  llvm::SmallPtrSet<const Decl *, 8> Seen;
  for (Expr *Arg : Args)
    voteValues(Ctx, Arg, FD, Nest, Loc, Seen, Votes);
  if (Votes.empty())
    return;
  if (!Nest.Condition)
    Args.insert(Args.begin(),
                CXXBoolLiteralExpr::Create(Ctx, true, Ctx.BoolTy, Loc));
  Args.insert(Args.begin(), compat::makeStringLiteral(Ctx, Site.str(), Loc));
}

/// The launch of a worksharing loop every thread of a team reaches
/// (`#pragma omp for` in a parallel region): thread 0 launches and
/// publishes whether it did under the site's lock, the team meets, each
/// thread reads the answer (running Original, the directive, where no
/// launch did), the team meets again, and thread 0 releases the site.
///   { if (teamLeader()) teamLead(site, launch(...));
///     #pragma omp barrier
///     if (!teamLaunched(site)) <directive>
///     #pragma omp barrier
///     if (teamLeader()) teamRelease(site); }
/// An orphaned one (Team null: its region, if any, is a caller's) reads
/// locals each thread holds its own of, so the team first votes on them,
/// and thread 0 launches only where all agree:
///   { if (teamLeader()) teamHold(site);
///     #pragma omp barrier
///     teamVoteOn(site, locals...);
///     #pragma omp barrier
///     if (teamLeader()) teamSettle(site, launchAgreed(site, ...));
///     ... as above from the second step }
/// (launchAgreed asks teamAgreed, and where the team disagrees makes the
/// host data the directive reads current first.)
Stmt *teamLaunch(Sema &S, NamespaceDecl *Detail, Expr *Launch, Stmt *Original,
                 const Stmt *Team, llvm::MutableArrayRef<Expr *> Votes,
                 llvm::StringRef Site) {
  ASTContext &Ctx = S.getASTContext();
  const SourceLocation Loc = Original->getBeginLoc();
  if (const VarDecl *V = Team ? unseenInRegion(Launch, Team) : nullptr) {
    error(Ctx.getDiagnostics(), Loc,
          "the launch would name '" + V->getName().str() +
              "', which the parallel region around the loop does not "
              "capture");
    return nullptr;
  }
  const char *Older = "this <weft/weft.hpp> is older than the plugin";
  const char *Installed = "use the weft headers installed with this plugin";
  auto SiteName = [&] {
    return compat::makeStringLiteral(Ctx, Site.str(), Loc);
  };
  auto Call = [&](llvm::StringRef Name,
                  llvm::MutableArrayRef<Expr *> Args) -> Expr * {
    return callDetail(S, Detail, Name, Args, Loc, Older, Installed);
  };
  auto When = [&](Expr *Condition, Stmt *Then) -> Stmt * {
    if (!Condition || !Then)
      return nullptr;
    return IfStmt::Create(Ctx, Loc, IfStatementKind::Ordinary, nullptr, nullptr,
                          Condition, Loc, Loc, Then);
  };
  auto Barrier = [&] { return OMPBarrierDirective::Create(Ctx, Loc, Loc); };
  llvm::SmallVector<Stmt *, 9> Steps;
  Expr *LeadArgs[] = {SiteName(), Launch};
  if (Votes.empty()) {
    Steps.push_back(When(Call("teamLeader", {}), Call("teamLead", LeadArgs)));
  } else {
    Expr *HoldArgs[] = {SiteName()};
    Steps.push_back(When(Call("teamLeader", {}), Call("teamHold", HoldArgs)));
    Steps.push_back(Barrier());
    llvm::SmallVector<Expr *, 8> VoteArgs = {SiteName()};
    VoteArgs.append(Votes.begin(), Votes.end());
    Steps.push_back(Call("teamVoteOn", VoteArgs));
    Steps.push_back(Barrier());
    Steps.push_back(When(Call("teamLeader", {}), Call("teamSettle", LeadArgs)));
  }
  Expr *TakenArgs[] = {SiteName()};
  Expr *Taken = Call("teamLaunched", TakenArgs);
  ExprResult NotTaken =
      Taken ? S.BuildUnaryOp(nullptr, Loc, UO_LNot, Taken) : ExprError();
  if (NotTaken.isInvalid())
    return nullptr;
  Expr *ReleaseArgs[] = {SiteName()};
  Steps.push_back(Barrier());
  Steps.push_back(When(NotTaken.get(), Original));
  Steps.push_back(Barrier());
  Steps.push_back(
      When(Call("teamLeader", {}), Call("teamRelease", ReleaseArgs)));
  if (llvm::is_contained(Steps, nullptr))
    return nullptr;
  return CompoundStmt::Create(Ctx, Steps, FPOptionsOverride(), Loc, Loc);
}

/// `{ <loop> weft::detail::hostLoopEnded(descriptor); }`: the runtime's
/// profile times host loops (the loop cannot leave by return, goto or
/// break; an exception leaves only a time untaken).
Stmt *hostLoopThenEnd(Sema &S, NamespaceDecl *Detail, Stmt *Original,
                      const std::string &Descriptor) {
  ASTContext &Ctx = S.getASTContext();
  const SourceLocation Loc = Original->getBeginLoc();
  Expr *EndArgs[] = {compat::makeStringLiteral(Ctx, Descriptor, Loc)};
  Expr *End = callDetail(S, Detail, "hostLoopEnded", EndArgs, Loc,
                         "this <weft/weft.hpp> is older than the plugin",
                         "use the weft headers installed with this plugin");
  if (!End)
    return nullptr;
  Stmt *Steps[] = {Original, End};
  return CompoundStmt::Create(Ctx, Steps, FPOptionsOverride(), Loc, Loc);
}

} // namespace

Stmt *buildLaunch(Sema &S, FunctionDecl *FD, Stmt *Original,
                  const recognize::RecognizedNest &Nest,
                  const std::string &Descriptor, const std::string &Source,
                  llvm::StringRef Site) {
  ASTContext &Ctx = S.getASTContext();
  SourceLocation Loc = Original->getBeginLoc();
  Sema::ContextRAII InFunction(S, FD);
  // (An orphaned worksharing loop, Team null, is in no region here.)
  const bool InRegion = Nest.TeamLaunch && Nest.Team;

  // weft::detail::launch, declared by <weft/weft.hpp>.
  LookupResult NsLookup(S, &Ctx.Idents.get("weft"), Loc,
                        Sema::LookupNamespaceName);
  auto *Weft = dyn_cast_or_null<NamespaceDecl>(
      lookupIn(S, Ctx.getTranslationUnitDecl(), "weft",
               Sema::LookupNamespaceName, NsLookup));
  LookupResult DetailLookup(S, &Ctx.Idents.get("detail"), Loc,
                            Sema::LookupNamespaceName);
  auto *Detail =
      Weft ? dyn_cast_or_null<NamespaceDecl>(lookupIn(
                 S, Weft, "detail", Sema::LookupNamespaceName, DetailLookup))
           : nullptr;
  if (!Detail) {
    error(Ctx.getDiagnostics(), Loc,
          "a weft loop needs the declarations of <weft/weft.hpp>",
          "add '#include <weft/weft.hpp>' to this file");
    return nullptr;
  }
  const char *Older = "this <weft/weft.hpp> is older than the plugin";
  const char *Installed = "use the weft headers installed with this plugin";
  llvm::SmallVector<Expr *, 8> Args;
  if (Nest.OpenMPTarget) {
    // weft::detail::onHostForOpenMP(data...): OpenMP holds none of the
    // loop's data on a device.
    llvm::SmallVector<Expr *, 8> Data;
    for (std::size_t I = 0; I < Nest.Captures.size(); ++I) {
      const recognize::Capture &C = Nest.Captures[I];
      if (Nest.Nest.Params[I].isSpan() && !C.Value && !C.RowOffsets &&
          !C.RowColumns && C.Rank < 0)
        Data.push_back(copyObject(Ctx, C.Source, Loc, FD, InRegion));
    }
    Expr *OnHost =
        callDetail(S, Detail, "onHostForOpenMP", Data, Loc, Older, Installed);
    if (!OnHost)
      return nullptr;
    Args.push_back(OnHost);
    Args.push_back(Nest.Condition ? Nest.Condition
                                  : CXXBoolLiteralExpr::Create(
                                        Ctx, true, Ctx.BoolTy, Loc));
  } else if (Nest.Condition) {
    Args.push_back(Nest.Condition);
  }
  Args.push_back(compat::makeStringLiteral(Ctx, Descriptor, Loc));
  Args.push_back(compat::makeStringLiteral(Ctx, Source, Loc));
  for (std::size_t I = 0; I < Nest.Captures.size(); ++I) {
    const recognize::Capture &C = Nest.Captures[I];
    Expr *Arg = C.Value ? const_cast<Expr *>(C.Source)
                        : copyObject(Ctx, C.Source, Loc, FD, InRegion);
    if (C.Stored) {
      // A flag: weft::detail::storedIf(changed, 1).
      Expr *FlagArgs[] = {
          Arg, IntegerLiteral::Create(Ctx, *C.Stored, Ctx.LongLongTy, Loc)};
      Arg = callDetail(S, Detail, "storedIf", FlagArgs, Loc, Older, Installed);
    } else if (!C.Pairing.empty()) {
      // reduction(argmax: v, at): weft::detail::argmaxFirst(v, at).
      Expr *PairArgs[] = {
          Arg, copyRef(Ctx, cast<DeclRefExpr>(C.ArgAt), Loc, FD, InRegion)};
      Arg = callDetail(S, Detail, C.Pairing, PairArgs, Loc, Older, Installed);
    } else if (const int Rank = C.Rank; Rank >= 0) {
      // A run-time extent of an mdspan: weft::detail::mdspanExtent(m, R).
      Expr *ExtentArgs[] = {
          Arg, IntegerLiteral::Create(
                   Ctx, llvm::APInt(Ctx.getTypeSize(Ctx.getSizeType()), Rank),
                   Ctx.getSizeType(), Loc)};
      Arg = callDetail(
          S, Detail, "mdspanExtent", ExtentArgs, Loc,
          "<weft/weft.hpp> declares no mdspan support here",
          "compile with a standard library that has <mdspan> (C++23)");
    } else if (C.RowOffsets || C.RowColumns) {
      // Where the rows held apart in v start, weft::detail::rowOffsets(v),
      // or their common length, weft::detail::rowColumns(v).
      Expr *RowsArgs[] = {Arg};
      Arg = callDetail(S, Detail, C.RowOffsets ? "rowOffsets" : "rowColumns",
                       RowsArgs, Loc, Older, Installed);
    } else if (C.InferredExtent) {
      // A pointer the launch sizes by its subscripts:
      // weft::detail::pointerArg(p).
      Expr *PointerArgs[] = {Arg};
      Arg = callDetail(S, Detail, "pointerArg", PointerArgs, Loc, Older,
                       Installed);
    } else if (Nest.Nest.Params[I].isSpan()) {
      // Captured data: weft::detail::dataArg(v), or (p, extent), or for
      // rows held as pointers (p, rows, columns); for a std::vector of
      // std::vectors, the rows (weft.hpp's overload).
      llvm::SmallVector<Expr *, 3> DataArgs = {Arg};
      if (const Expr *Extent = C.Extent)
        DataArgs.push_back(const_cast<Expr *>(Extent));
      if (const Expr *Columns = C.Columns)
        DataArgs.push_back(const_cast<Expr *>(Columns));
      Arg = callDetail(S, Detail, "dataArg", DataArgs, Loc, Older, Installed);
    } else if (Nest.Nest.Params[I].Kind == ir::ParamKind::Scalar) {
      // A scalar the kernel only reads: weft::detail::copyOf(x), so that
      // the launch takes the address of a copy. Were it x's own, x would
      // escape, and in the host loop behind the launch every store through
      // a pointer could change it: reloaded each iteration, a fallback ran
      // 27% slower than the same loop built without the plugin (hotspot).
      Expr *CopyArgs[] = {Arg};
      Arg = callDetail(S, Detail, "copyOf", CopyArgs, Loc, Older, Installed);
    }
    if (!Arg)
      return nullptr;
    Args.push_back(Arg);
  }

  llvm::SmallVector<Expr *, 8> Votes;
  if (Nest.TeamLaunch && !Nest.Team && !Nest.OpenMPTarget)
    agreedLaunch(Ctx, Nest, FD, Site, Loc, Args, Votes);
  const char *Launcher = Nest.OpenMPTarget ? "launchOpenMPTarget"
                         : !Votes.empty()  ? "launchAgreed"
                         : Nest.Condition  ? "launchIf"
                                           : "launch";

  // With an if clause, weft::detail::launchIf(condition, ...): the
  // condition is evaluated once, before the loop, as OpenMP's is.
  const bool Conditional =
      Nest.Condition || Nest.OpenMPTarget || !Votes.empty();
  Expr *Call = callDetail(
      S, Detail, Launcher, Args, Loc,
      Conditional ? Older
                  : "a weft loop needs the declarations of <weft/weft.hpp>",
      Conditional ? Installed : "add '#include <weft/weft.hpp>' to this file");
  if (!Call)
    return nullptr;
  if (Nest.TeamLaunch && Nest.Team)
    reachThroughClosures(Ctx, Call, Nest.Team, Original, Loc, FD);
  Stmt *Host = hostLoopThenEnd(S, Detail, Original, Descriptor);
  if (!Host)
    return nullptr;
  if (Nest.TeamLaunch)
    return teamLaunch(S, Detail, Call, Host, Nest.Team, Votes, Site);
  ExprResult Not = S.BuildUnaryOp(nullptr, Loc, UO_LNot, Call);
  if (Not.isInvalid())
    return nullptr;
  return IfStmt::Create(Ctx, Loc, IfStatementKind::Ordinary, nullptr, nullptr,
                        Not.get(), Loc, Loc, Host);
}

} // namespace weft::rewrite
