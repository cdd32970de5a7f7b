// WeftPlugin.cpp: the plugin's entry: its arguments, and the AST consumer
// that runs the pipeline (recognize, map, plan memory, emit, rewrite) on each
// marked loop before code generation.
#include "compat/ClangCompat.h"
#include "emit/KernelEmitter.h"
#include "map/Mapping.h"
#include "memory/TransferPlan.h"
#include "recognize/NestRecognizer.h"
#include "rewrite/LoopRewriter.h"
#include "support/Diagnose.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace weft {
namespace {

struct PluginOptions {
  std::string EmitDir;
  bool DumpIR = false;
  bool Remarks = false;
};

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
    if (Body && Functions.insert(FD).second)
      rewriteChildren(FD, Body);
  }

private:
  void rewriteChildren(FunctionDecl *FD, Stmt *Parent) {
    for (Stmt *&Child : Parent->children()) {
      // A lambda's body is rewritten with its call operator as context.
      if (!Child || isa<LambdaExpr>(Child))
        continue;
      if (std::optional<compat::Mark> M = compat::findMark(Child)) {
        if (!Loops.insert(M->Loop).second)
          continue;
        if (Stmt *Replacement = runPipeline(FD, *M))
          Child = Replacement;
        continue; // Nested marks belong to this nest.
      }
      rewriteChildren(FD, Child);
    }
  }

  Stmt *runPipeline(FunctionDecl *FD, const compat::Mark &M) {
    std::optional<recognize::RecognizedNest> R =
        recognize::recognizeNest(CI.getSema(), M.Loop, M.Clauses);
    if (!R)
      return nullptr;
    if (Options.DumpIR)
      llvm::outs() << ir::dump(R->Nest);
    for (const ir::Allocation &A : R->Nest.Allocations)
      if (A.FixedSize < 0) {
        error(CI.getDiagnostics(), M.Loop->getBeginLoc(),
              "per-iteration arrays of run-time size (here '" + A.Name +
                  "[" + A.Extent + "]') are not generated yet",
              "give the array a constant size, or remove the mark: the loop "
              "then runs on the host as written");
        return nullptr;
      }
    for (const ir::Reduction &Red : R->Nest.Root.Reductions)
      if (Red.ParamIndex >= 0) {
        error(CI.getDiagnostics(), M.Loop->getBeginLoc(),
              "reductions over the outermost parallel loop (into '" +
                  Red.Variable + "') are not generated yet",
              "remove the mark or the reduction clause: the loop then runs "
              "on the host as written");
        return nullptr;
      }

    map::MappingRequest Request;
    if (R->Clauses.Block)
      Request.BlockSize = R->Clauses.Block->Value;
    warnIgnoredClauses(*R, M.Loop->getBeginLoc());
    map::NestMapping Mapping = map::chooseMapping(R->Nest, Request);
    std::vector<memory::Transfer> Transfers = memory::planTransfers(R->Nest);
    emit::EmittedKernel K = emit::emitKernel(R->Nest, Mapping, Transfers);
    if (Options.Remarks)
      remark(M.Loop->getBeginLoc(), K, Mapping);
    if (!Options.EmitDir.empty())
      writeKernel(K, M.Loop->getBeginLoc());
    return rewrite::buildLaunch(CI.getSema(), FD, M.Replaced, *R,
                                K.Descriptor, K.Source);
  }

  void warnIgnoredClauses(const recognize::RecognizedNest &R,
                          SourceLocation Loc) {
    const syntax::Clauses &C = R.Clauses;
    for (const char *Name : {C.Strategy ? "strategy" : nullptr,
                             C.Dim ? "dim" : nullptr,
                             C.Span ? "span" : nullptr,
                             C.Split ? "split" : nullptr,
                             C.If ? "if" : nullptr})
      if (Name)
        diagnose(CI.getDiagnostics(), Loc, DiagnosticsEngine::Warning,
                 std::string("clause '") + Name +
                     "' has no effect yet: this weft version maps a "
                     "single-level loop one iteration per thread");
  }

  void remark(SourceLocation Loc, const emit::EmittedKernel &K,
              const map::NestMapping &M) {
    std::string Text = "weft: kernel " + K.Name;
    for (std::size_t I = 0; I < M.Levels.size(); ++I) {
      const map::LevelMapping &L = M.Levels[I];
      Text += "; level " + std::to_string(I) + ": ";
      Text += L.Sequential ? std::string("sequential")
                           : std::string("dim ") + map::spelling(L.Dim) +
                                 ", block " + std::to_string(L.BlockSize) +
                                 ", " + map::spelling(L.Dop);
      for (const std::string &Why : L.Reasons)
        Text += " [" + Why + "]";
    }
    diagnose(CI.getDiagnostics(), Loc, DiagnosticsEngine::Remark, Text);
  }

  void writeKernel(const emit::EmittedKernel &K, SourceLocation Loc) {
    llvm::sys::fs::create_directories(Options.EmitDir);
    std::string Path = Options.EmitDir + "/" + K.Name + ".cu";
    std::error_code EC;
    llvm::raw_fd_ostream Out(Path, EC);
    if (EC) {
      diagnose(CI.getDiagnostics(), Loc, DiagnosticsEngine::Warning,
               "cannot write kernel to '" + Path + "': " + EC.message());
      return;
    }
    Out << K.Source;
  }

  CompilerInstance &CI;
  const PluginOptions &Options;
  llvm::DenseSet<const FunctionDecl *> Functions;
  llvm::DenseSet<const Stmt *> Loops;
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

class WeftConsumer final : public ASTConsumer {
public:
  WeftConsumer(CompilerInstance &CI, PluginOptions Options)
      : Options(std::move(Options)), Pipeline(CI, this->Options) {}

  // Runs before CodeGen sees each declaration (the plugin's consumer comes
  // first), and Sema passes template instantiations through here too.
  bool HandleTopLevelDecl(DeclGroupRef DG) override {
    FunctionFinder Finder(Pipeline);
    for (Decl *D : DG)
      Finder.TraverseDecl(D);
    return true;
  }
  void HandleInlineFunctionDefinition(FunctionDecl *FD) override {
    FunctionFinder(Pipeline).TraverseDecl(FD);
  }
  void HandleCXXImplicitFunctionInstantiation(FunctionDecl *FD) override {
    FunctionFinder(Pipeline).TraverseDecl(FD);
  }

private:
  PluginOptions Options;
  NestPipeline Pipeline;
};

class WeftAction final : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    return std::make_unique<WeftConsumer>(CI, Options);
  }

  bool ParseArgs(const CompilerInstance &CI,
                 const std::vector<std::string> &Args) override {
    for (const std::string &Arg : Args) {
      llvm::StringRef A(Arg);
      if (A.consume_front("emit-dir=")) {
        Options.EmitDir = A.str();
      } else if (A == "dump-ir") {
        Options.DumpIR = true;
      } else if (A == "remarks") {
        Options.Remarks = true;
      } else if (A == "help") {
        llvm::errs()
            << "weft plugin arguments (-fplugin-arg-weft-NAME):\n"
               "  emit-dir=DIR  write each generated kernel to DIR/NAME.cu\n"
               "  dump-ir       print the nest IR of each marked loop\n"
               "  remarks       explain each loop's mapping as a remark\n"
               "  help          print this list\n";
      } else {
        DiagnosticsEngine &D = CI.getDiagnostics();
        D.Report(D.getCustomDiagID(DiagnosticsEngine::Error,
                                   "unknown weft plugin argument '%0' "
                                   "(try -fplugin-arg-weft-help)"))
            << Arg;
        return false;
      }
    }
    return true;
  }

  ActionType getActionType() override { return AddBeforeMainAction; }

private:
  PluginOptions Options;
};

} // namespace
} // namespace weft

static FrontendPluginRegistry::Add<weft::WeftAction>
    RegisterWeft("weft", "compile marked loop nests into GPU kernels");
