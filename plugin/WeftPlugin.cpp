// WeftPlugin.cpp: the plugin's entry: its arguments, and the AST consumer
// that runs the pipeline (recognize, map, plan memory, emit, rewrite) on each
// marked loop before code generation.
#include "PluginOptions.h"
#include "compat/ClangCompat.h"
#include "emit/KernelEmitter.h"
#include "emit/KernelImages.h"
#include "ir/BoundAlgebra.h"
#include "map/ExtentScenarios.h"
#include "map/Mapping.h"
#include "plan/Explain.h"
#include "plan/KernelPlan.h"
#include "plan/KernelShape.h"
#include "recognize/NestRecognizer.h"
#include "rewrite/LoopRewriter.h"
#include "support/Diagnose.h"
#include "syntax/OpenMPMarks.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/OpenMPKinds.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Sema/Sema.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cassert>
#include <map>
#include <set>

using namespace clang;

namespace weft {
namespace {

class NestPipeline {
public:
  NestPipeline(CompilerInstance &CI, const PluginOptions &Options)
      : CI(CI), Options(Options) {}

  /// Replaces every marked loop in FD's body.
  void runOnFunction(FunctionDecl *FD) {
    if (!FD->doesThisDeclarationHaveABody() || FD->isDependentContext() ||
        FD->isInvalidDecl())
      return;
    Stmt *Body = FD->getBody();
    if (Body && Functions.insert(FD).second) {
      // Before any of its loops is replaced (the launch takes the
      // captures' addresses).
      OnlyRead[FD] = recognize::variablesOnlyRead(FD);
      rewriteChildren(FD, Body);
    }
  }

private:
  void rewriteChildren(FunctionDecl *FD, Stmt *Parent) {
    for (Stmt *&Child : Parent->children())
      rewriteStatement(FD, Child);
  }

  /// Replaces S if it is a marked loop, else the marked loops inside it.
  void rewriteStatement(FunctionDecl *FD, Stmt *&S) {
    // A lambda's body is rewritten with its call operator as context.
    if (!S || isa<LambdaExpr>(S))
      return;
    if (std::optional<compat::Mark> M =
            syntax::findLoopMark(S, CI.getASTContext())) {
      if (!Loops.insert(M->Loop).second)
        return;
      if (M->TeamLaunch) {
        if (std::optional<syntax::OpenMPLoop> L =
                syntax::teamRefusal(*M->Replaced, Enclosing, M->Team)) {
          if (Options.Remarks)
            stayRemark(L->Where, L->Refusal, L->Hint);
          return;
        }
      } else if (!Enclosing.empty()) {
        // Inside an OpenMP construct a launch would run as often as the
        // construct runs the statement (once per thread of a region).
        const std::string Why =
            "weft takes a loop inside an OpenMP construct only as a "
            "'#pragma omp for' of a parallel region";
        if (M->FromOpenMP) {
          if (Options.Remarks)
            stayRemark(M->Replaced->getBeginLoc(), Why, "");
        } else {
          diagnose(CI.getDiagnostics(), M->Replaced->getBeginLoc(),
                   DiagnosticsEngine::Warning,
                   "this weft loop runs as written: " + Why,
                   "mark the loop '#pragma omp for' instead, or move it "
                   "out of the construct");
        }
        return;
      }
      if (Stmt *Replacement = tryPipeline(FD, *M))
        S = Replacement;
      return; // Nested marks belong to this nest.
    }
    if (std::optional<syntax::OpenMPLoop> L =
            syntax::openMPLoop(S, CI.getASTContext());
        L && Options.Remarks && Loops.insert(S).second)
      stayRemark(L->Where, L->Refusal, L->Hint);
    rewriteInside(FD, S);
  }

  /// Replaces the marked loops inside S.
  void rewriteInside(FunctionDecl *FD, Stmt *S) {
    auto *D = dyn_cast<OMPExecutableDirective>(S);
    auto *Region = D && D->hasAssociatedStmt()
                       ? dyn_cast<CapturedStmt>(D->getAssociatedStmt())
                       : nullptr;
    if (!Region) {
      rewriteChildren(FD, S);
      return;
    }
    // (-fplugin-arg-weft-openmp=off: what OpenMP's constructs hold is
    // OpenMP's.)
    if (!syntax::openMPLoopsTaken())
      return;
    // The statement a directive's captured regions hold (a CapturedStmt's
    // children are its captures alone), which cannot be replaced itself:
    // a parallel region of several statements holds them in braces, and
    // one of a lone worksharing loop is a marked loop of its own. The
    // directives around a worksharing loop say whose team runs it.
    while (auto *Inner = dyn_cast<CapturedStmt>(Region->getCapturedStmt()))
      Region = Inner;
    Enclosing.push_back(D);
    Stmt *Body = Region->getCapturedStmt();
    if (isa<CompoundStmt>(Body)) {
      rewriteChildren(FD, Body);
    } else if (!isa<OMPParallelDirective>(D) ||
               !isa<OMPForDirective, OMPForSimdDirective>(Body)) {
      // (A region's lone worksharing loop is the region's mark, reported
      // with it.) A marked loop here is inside the construct: reported,
      // never replaced.
      Stmt *Same = Body;
      rewriteStatement(FD, Same);
      assert(Same == Body && "a loop inside a construct is not replaced");
    }
    Enclosing.pop_back();
  }

  /// The OpenMP directives around the statement the walk is at, outermost
  /// first.
  std::vector<const Stmt *> Enclosing;

  /// A claim the affine analysis disproves: two iterations of a parallel
  /// loop write one element (the simulator's checker covers what the
  /// analysis cannot decide, at run time).
  void warnWriteConflicts(const recognize::RecognizedNest &R) {
    for (const ir::WriteConflict &C : ir::provableWriteConflicts(R.Nest)) {
      const ir::Access &A = *C.Write;
      diagnose(CI.getDiagnostics(),
               SourceLocation::getFromRawEncoding(A.Origin),
               DiagnosticsEngine::Warning,
               "iterations " + C.Index + " = " + C.First + " and " + C.Index +
                   " = " + C.Second + " of the parallel loop over '" + C.Index +
                   "' both write this element of '" +
                   R.Nest.Params[A.ParamIndex].Name +
                   "': its index does not depend on '" + C.Index + "'",
               A.Read ? "combine into it with a reduction clause naming the "
                        "array (reduction(+: " +
                            R.Nest.Params[A.ParamIndex].Name +
                            "), atomic updates), accumulate into a local "
                            "and write it once, or mark the loop whose "
                            "index the element follows"
                      : "accumulate into a local with a reduction clause "
                        "and write it once, or mark the loop whose index "
                        "the element follows");
    }
  }

  /// The pipeline on M; a loop OpenMP runs that weft cannot take stays
  /// with OpenMP, and the remarks say why.
  Stmt *tryPipeline(FunctionDecl *FD, const compat::Mark &M) {
    if (!M.FromOpenMP)
      return runPipeline(FD, M);
    std::optional<HeldError> Why;
    Stmt *Replacement;
    {
      HeldErrors Held;
      Replacement = runPipeline(FD, M);
      Why = Held.first();
    }
    if (Replacement || !Why || !Options.Remarks)
      return Replacement;
    // Found in a function the loop calls: the remark at the loop, a note
    // where in that function, and one at each call on the way there.
    const SourceManager &SM = CI.getSourceManager();
    // (A directive's own range is its line alone.)
    const bool InLoop =
        Why->Loc.isInvalid() ||
        SM.isPointWithin(SM.getExpansionLoc(Why->Loc),
                         SM.getExpansionLoc(M.Replaced->getBeginLoc()),
                         SM.getExpansionLoc(M.Loop->getEndLoc()));
    stayRemark(InLoop ? Why->Loc : M.Replaced->getBeginLoc(), Why->Message,
               Why->Hint);
    if (!InLoop)
      diagnose(CI.getDiagnostics(), Why->Loc, DiagnosticsEngine::Note,
               "found here, in a function the loop calls");
    for (const auto &[Loc, Text] : Why->Notes)
      diagnose(CI.getDiagnostics(), Loc, DiagnosticsEngine::Note, Text);
    return Replacement;
  }

  void stayRemark(SourceLocation Where, const std::string &Why,
                  const std::string &Hint) {
    diagnose(CI.getDiagnostics(), Where, DiagnosticsEngine::Remark,
             "weft: this OpenMP loop stays with OpenMP: " + Why, Hint);
  }

  Stmt *runPipeline(FunctionDecl *FD, const compat::Mark &M) {
    std::optional<recognize::RecognizedNest> R =
        recognize::recognizeNest(CI.getSema(), FD, M, &OnlyRead[FD]);
    if (!R)
      return nullptr;
    // (A sequential loop's nest runs in one block: no baseline maps it.)
    if (!Options.Strategy.empty() && R->Nest.Strategy == "auto" &&
        !R->Nest.Sequential)
      R->Nest.Strategy = Options.Strategy;
    if (Options.DumpIR)
      llvm::outs() << ir::dump(R->Nest);
    warnWriteConflicts(*R);
    for (const ir::Allocation &A : R->Nest.Allocations)
      if (A.FixedSize < 0 && !A.HostEvaluable) {
        // The runtime sizes the buffer before the launch.
        error(CI.getDiagnostics(), M.Loop->getBeginLoc(),
              "per-iteration arrays of run-time size (here '" + A.Name + "[" +
                  A.Extent + "]') must be sized by values the loop captures",
              "give the array a constant size, or one computed from "
              "captured variables and span sizes only (an upper bound will "
              "do)");
        return nullptr;
      }

    // Only mappings the kernel generator builds.
    std::optional<map::ScenarioChoice> Choice = mapNest(*R, M, true);
    if (!Choice)
      return nullptr;
    // Rows held apart of one length are one block of rows by columns: the
    // same nest indexed so (affine subscripts: tiles, coalescing) leads,
    // and this one's best mapping serves rows of differing lengths.
    const recognize::RecognizedNest *Uniform = R->OneLengthRows.get();
    std::optional<map::ScenarioChoice> UniformChoice;
    if (Uniform)
      UniformChoice = mapNest(*Uniform, M, false);
    std::vector<contract::KernelInfo> Kernels;
    std::string Source;
    if (UniformChoice) {
      if (!emitKernels(*Uniform, *UniformChoice, UniformChoice->Mappings.size(),
                       M, Kernels, Source) ||
          !emitKernels(*R, *Choice, 1, M, Kernels, Source))
        return nullptr;
      addChoice(*UniformChoice, Kernels.front());
    } else {
      if (!emitKernels(*R, *Choice, Choice->Mappings.size(), M, Kernels,
                       Source))
        return nullptr;
      addChoice(*Choice, Kernels.front());
    }
    // One source holds every kernel's text; each descriptor says where.
    if (Kernels.size() == 1)
      Kernels.front().TextOffset = Kernels.front().TextLength = 0;
    // Images built with the program (offload-arch): what could not be built
    // is said once a translation unit, at the first loop it concerns.
    std::set<std::string> Problems;
    emit::addKernelImages(Options.Images, Kernels, Source, Problems);
    for (const std::string &Problem : Problems)
      if (ImageProblems.insert(Problem).second)
        diagnose(CI.getDiagnostics(), M.Loop->getBeginLoc(),
                 DiagnosticsEngine::Warning, "weft: offload-arch: " + Problem,
                 "the kernels that have no image compile when the program "
                 "runs, where a compiler is");
    const std::string Descriptor = contract::writeDescriptors(Kernels);
    if (!Options.EmitDir.empty())
      writeFile(Kernels.front().Name + ".desc", Descriptor,
                M.Loop->getBeginLoc());
    return rewrite::buildLaunch(CI.getSema(), FD, M.Replaced, *R, Descriptor,
                                Source, Kernels.front().Name);
  }

  /// R's mappings for the sizes it may meet, or nullopt (after an error
  /// where Report says).
  std::optional<map::ScenarioChoice> mapNest(const recognize::RecognizedNest &R,
                                             const compat::Mark &M,
                                             bool Report) {
    const map::MappingInput Input = plan::buildableOnly(R.Nest, {});
    map::NestMapping Chosen = map::chooseMapping(R.Nest, Input);
    if (!Chosen.Error.empty()) {
      if (!Report)
        return std::nullopt;
      // At the first loop of the depth whose clause cannot be met.
      SourceLocation Where = M.Loop->getBeginLoc();
      const std::vector<const ir::Level *> Levels = ir::levels(R.Nest);
      for (std::size_t I = 0; I < Levels.size(); ++I)
        if (static_cast<int>(Levels[I]->Depth) == Chosen.ErrorDepth &&
            I < R.LevelLocations.size()) {
          Where = R.LevelLocations[I];
          break;
        }
      error(CI.getDiagnostics(), Where, Chosen.Error,
            Chosen.ErrorHint.empty()
                ? "relax the dim/block/span/split clauses of this nest"
                : Chosen.ErrorHint);
      return std::nullopt;
    }
    // Sizes the plugin cannot know may call for other mappings: one kernel
    // for each, and the runtime takes the one mapped for the nearest sizes.
    return map::chooseForScenarios(R.Nest, Input, std::move(Chosen));
  }

  /// The kernels of R's first Count mappings, appended to Kernels and their
  /// texts to Source, with their remarks; false after an error.
  bool emitKernels(const recognize::RecognizedNest &R,
                   const map::ScenarioChoice &Choice, std::size_t Count,
                   const compat::Mark &M,
                   std::vector<contract::KernelInfo> &Kernels,
                   std::string &Source) {
    const bool ForRaggedRows = !Kernels.empty();
    for (std::size_t I = 0; I < Count; ++I) {
      std::string Error;
      std::optional<plan::KernelPlan> Plan =
          plan::planKernel(R.Nest, Choice.Mappings[I], Error);
      if (!Plan) {
        // Only a fixed strategy with clauses gets here: the search keeps
        // to what the generator builds.
        error(CI.getDiagnostics(), M.Loop->getBeginLoc(), Error,
              "choose another strategy, or relax the dim/block/span/split "
              "clauses of this nest");
        return false;
      }
      if (const std::string Data = emit::writtenReadOnlyData(R.Nest);
          !Data.empty()) {
        error(CI.getDiagnostics(), M.Loop->getBeginLoc(),
              "weft's kernel for this loop would write '" + Data +
                  "', which the loop only reads (a weft bug: the loop is "
                  "refused rather than compiled wrong)",
              "report it; '#pragma weft parallel for' removed, the loop "
              "runs as written");
        return false;
      }
      emit::EmittedKernel K = emit::emitKernel(*Plan);
      if (Options.Remarks) {
        if (ForRaggedRows)
          raggedRowsRemark(R, Choice, K);
        else if (I == 0)
          remark(R, K, *Plan);
        else
          alternativeRemark(R, Choice, I, K, *Plan);
      }
      if (!Options.EmitDir.empty())
        writeFile(K.Name + ".cu", K.Source, M.Loop->getBeginLoc());
      K.Descriptor.TextOffset = Source.size();
      K.Descriptor.TextLength = K.Source.size();
      Kernels.push_back(std::move(K.Descriptor));
      Source += K.Source;
    }
    return true;
  }

  /// A remark at the nest for the kernel that serves rows of differing
  /// lengths.
  void raggedRowsRemark(const recognize::RecognizedNest &R,
                        const map::ScenarioChoice &Choice,
                        const emit::EmittedKernel &K) {
    diagnose(CI.getDiagnostics(), R.LevelLocations[0],
             DiagnosticsEngine::Remark,
             plan::explainRaggedRows(Choice, K.Name));
  }

  /// The sizes a launch reads to choose among the mappings, and the
  /// scenarios each mapping serves.
  static void addChoice(const map::ScenarioChoice &Choice,
                        contract::KernelInfo &First) {
    if (Choice.Mappings.size() < 2)
      return;
    for (const map::ScenarioChoice::Symbol &S : Choice.Symbols)
      First.Choice.Vary.push_back(S.IsSize ? contract::BoundExpr::size(S.Param)
                                           : contract::BoundExpr::arg(S.Param));
    for (const map::ScenarioChoice::Scenario &S : Choice.Scenarios)
      First.Choice.Scenarios.push_back({S.Mapping, S.Values});
  }

  /// A remark at the nest for each mapping beyond the first.
  void alternativeRemark(const recognize::RecognizedNest &R,
                         const map::ScenarioChoice &Choice, std::size_t I,
                         const emit::EmittedKernel &K,
                         const plan::KernelPlan &P) {
    diagnose(CI.getDiagnostics(), R.LevelLocations[0],
             DiagnosticsEngine::Remark,
             plan::explainAlternative(Choice, I, P, K.Name));
  }

  /// One remark per level, at its loop: the mapping the search chose and
  /// why (plan/Explain).
  void remark(const recognize::RecognizedNest &R, const emit::EmittedKernel &K,
              const plan::KernelPlan &P) {
    plan::ExplainContext C;
    C.Reorders = &R.Reorders;
    C.KernelName = K.Name;
    if (R.Clauses.If)
      C.LaunchedWhen = R.Clauses.If->Value.Text;
    C.OpenMPTarget = R.OpenMPTarget;
    const std::vector<std::string> Texts = plan::explainLevels(R.Nest, P, C);
    for (std::size_t I = 0; I < Texts.size(); ++I)
      diagnose(CI.getDiagnostics(), R.LevelLocations[I],
               DiagnosticsEngine::Remark, Texts[I]);
  }

  /// EmitDir/Name: a kernel's text or its loop's descriptor.
  void writeFile(const std::string &Name, const std::string &Text,
                 SourceLocation Loc) {
    llvm::sys::fs::create_directories(Options.EmitDir);
    std::string Path = Options.EmitDir + "/" + Name;
    std::error_code EC;
    llvm::raw_fd_ostream Out(Path, EC);
    if (EC) {
      diagnose(CI.getDiagnostics(), Loc, DiagnosticsEngine::Warning,
               "cannot write '" + Path + "': " + EC.message());
      return;
    }
    Out << Text;
  }

  CompilerInstance &CI;
  const PluginOptions &Options;
  std::set<std::string> ImageProblems; // said already
  llvm::DenseSet<const FunctionDecl *> Functions;
  llvm::DenseSet<const Stmt *> Loops;
  /// Per function rewritten, the variables it only reads (a std::map:
  /// a set handed to the recognizer stays where it is).
  std::map<const FunctionDecl *, recognize::VariableSet> OnlyRead;
};

/// Finds every function body, template instantiation and lambda.
class FunctionFinder : public RecursiveASTVisitor<FunctionFinder> {
public:
  explicit FunctionFinder(NestPipeline &P) : Pipeline(P) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    Pipeline.runOnFunction(FD);
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *LE) {
    CXXMethodDecl *Call = LE->getCallOperator();
    Pipeline.runOnFunction(Call);
    if (FunctionTemplateDecl *T = Call->getDescribedFunctionTemplate())
      for (FunctionDecl *Spec : T->specializations())
        Pipeline.runOnFunction(Spec);
    return true;
  }

private:
  NestPipeline &Pipeline;
};

/// Where Text last appears to define a function Name (npos: nowhere): the
/// name, its parenthesized parameters, then a body (`{`, after any
/// qualifiers or a trailing return type). Only what decides whether a
/// function waits for the end of the file; either way is correct.
std::size_t lastDefinitionInText(llvm::StringRef Text, llvm::StringRef Name) {
  auto IsIdent = [](char C) { return llvm::isAlnum(C) || C == '_'; };
  std::size_t Last = llvm::StringRef::npos;
  for (std::size_t At = Text.find(Name); At != llvm::StringRef::npos;
       At = Text.find(Name, At + 1)) {
    if ((At > 0 && IsIdent(Text[At - 1])) ||
        (At + Name.size() < Text.size() && IsIdent(Text[At + Name.size()])))
      continue;
    std::size_t I = At + Name.size();
    while (I < Text.size() && llvm::isSpace(Text[I]))
      ++I;
    if (I >= Text.size() || Text[I] != '(')
      continue;
    int Depth = 0;
    for (; I < Text.size(); ++I) {
      Depth += Text[I] == '(' ? 1 : Text[I] == ')' ? -1 : 0;
      if (Depth == 0)
        break;
    }
    // Past the parameters: qualifiers and a trailing return type, up to
    // the body or anything else.
    for (++I; I < Text.size(); ++I) {
      const char C = Text[I];
      if (C == '{') {
        Last = At;
        break;
      }
      if (C == ';' || C == ',' || C == ')' || C == '=' || C == '}')
        break;
    }
  }
  return Last;
}

/// Whether a loop of FD's body that may be marked (any loop, an attribute
/// or an OpenMP loop directive) calls a function of the program whose body
/// is not parsed yet but is written further down the same file: FD's
/// loops are then rewritten at the end of the translation unit, when that
/// body is in view.
bool waitsForLaterDefinition(
    const FunctionDecl *FD, const SourceManager &SM,
    llvm::DenseMap<const FunctionDecl *, std::size_t> &Definitions) {
  if (!FD->doesThisDeclarationHaveABody() || FD->isDependentContext() ||
      FD->isConstexpr() || FD->isInlined() ||
      FD->getTemplateSpecializationKind() != TSK_Undeclared)
    return false;
  const SourceLocation End = SM.getExpansionLoc(FD->getEndLoc());
  if (!SM.isInMainFile(End))
    return false;
  const llvm::StringRef Text = SM.getBufferData(SM.getMainFileID());
  const std::size_t From = SM.getFileOffset(End);
  llvm::SmallVector<std::pair<const Stmt *, bool>, 32> Work = {
      {FD->getBody(), false}};
  while (!Work.empty()) {
    auto [S, Marked] = Work.pop_back_val();
    if (!S)
      continue;
    // (A loop may be marked by a pragma clang 19 keeps no node of.)
    if (isa<AttributedStmt, ForStmt, CXXForRangeStmt>(S) ||
        (isa<OMPExecutableDirective>(S) &&
         isOpenMPLoopDirective(
             cast<OMPExecutableDirective>(S)->getDirectiveKind())))
      Marked = true;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *Callee = Call->getDirectCallee();
          Marked && Callee && Callee->getIdentifier() && !Callee->isDefined() &&
          !Callee->getBuiltinID() &&
          !SM.isInSystemHeader(Callee->getLocation())) {
        // (Searched once a callee: the file's text does not change.)
        auto [It, New] = Definitions.try_emplace(Callee->getCanonicalDecl());
        if (New)
          It->second = lastDefinitionInText(Text, Callee->getName());
        if (It->second != llvm::StringRef::npos && It->second > From)
          return true;
      }
    if (const auto *Captured = dyn_cast<CapturedStmt>(S))
      Work.push_back({Captured->getCapturedStmt(), Marked});
    for (const Stmt *Child : S->children())
      Work.push_back({Child, Marked});
  }
  return false;
}

class WeftConsumer final : public ASTConsumer {
public:
  WeftConsumer(CompilerInstance &CI, PluginOptions Options)
      : CI(CI), Options(std::move(Options)), Pipeline(CI, this->Options) {}

  // Runs before CodeGen sees each declaration (the plugin's consumer comes
  // first), and Sema passes template instantiations through here too.
  bool HandleTopLevelDecl(DeclGroupRef DG) override {
    FunctionFinder Finder(Pipeline);
    for (Decl *D : DG) {
      auto *FD = dyn_cast<FunctionDecl>(D);
      if (FD && !Finishing &&
          waitsForLaterDefinition(FD, CI.getSourceManager(), Definitions)) {
        // Held back from code generation (which then sees no body) until
        // the end of the file; willHaveBody keeps it a definition to Sema.
        Deferred.push_back({FD, FD->getBody()});
        FD->setBody(nullptr);
        FD->setWillHaveBody(true);
        continue;
      }
      Finder.TraverseDecl(D);
    }
    return true;
  }

  // Before CodeGen's (the plugin's consumer comes first): the functions
  // held back are rewritten, the templates their launches instantiate are
  // instantiated, and each goes to code generation as if just parsed.
  void HandleTranslationUnit(ASTContext &) override {
    if (Deferred.empty())
      return;
    Finishing = true;
    // Every body back first: one held back may call another.
    for (auto [FD, Body] : Deferred) {
      FD->setWillHaveBody(false);
      FD->setBody(Body);
    }
    for (auto [FD, Body] : Deferred)
      FunctionFinder(Pipeline).TraverseDecl(FD);
    if (CI.hasSema())
      CI.getSema().PerformPendingInstantiations();
    for (auto [FD, Body] : Deferred)
      CI.getASTConsumer().HandleTopLevelDecl(DeclGroupRef(FD));
    Deferred.clear();
  }
  void HandleInlineFunctionDefinition(FunctionDecl *FD) override {
    FunctionFinder(Pipeline).TraverseDecl(FD);
  }
  void HandleCXXImplicitFunctionInstantiation(FunctionDecl *FD) override {
    FunctionFinder(Pipeline).TraverseDecl(FD);
  }

private:
  CompilerInstance &CI;
  PluginOptions Options;
  NestPipeline Pipeline;
  /// Functions held back until the end of the file, with their bodies.
  std::vector<std::pair<FunctionDecl *, Stmt *>> Deferred;
  /// Passing them on: the consumer they reach again is this one too.
  bool Finishing = false;
  /// Per callee not yet defined, where the file's text last defines it.
  llvm::DenseMap<const FunctionDecl *, std::size_t> Definitions;
};

class WeftAction final : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    // OpenMP programs do not include <weft/weft.hpp>, whose declarations
    // the launches need: the predefines (read when the main file is
    // entered, after this) include it where it is on the include path.
    const LangOptions &Lang = CI.getLangOpts();
    if (syntax::openMPLoopsTaken() && Lang.OpenMP && Lang.CPlusPlus17 &&
        CI.hasPreprocessor()) {
      Preprocessor &PP = CI.getPreprocessor();
      PP.setPredefines(PP.getPredefines() +
                       "\n#if __has_include(<weft/weft.hpp>)\n"
                       "#include <weft/weft.hpp>\n#endif\n");
    }
    return std::make_unique<WeftConsumer>(CI, Options);
  }

  bool ParseArgs(const CompilerInstance &CI,
                 const std::vector<std::string> &Args) override {
    return parsePluginArguments(CI.getDiagnostics(), Args, Options);
  }

  ActionType getActionType() override { return AddBeforeMainAction; }

private:
  PluginOptions Options;
};

} // namespace
} // namespace weft

static FrontendPluginRegistry::Add<weft::WeftAction>
    RegisterWeft("weft", "compile marked loop nests into GPU kernels");
