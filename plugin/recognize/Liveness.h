// Liveness.h: where a function may read a local's value again: after a loop,
// or at the start of one of its iterations (clang's live-variables analysis
// over the function's CFG), and whether its address escapes.
#ifndef WEFT_PLUGIN_RECOGNIZE_LIVENESS_H
#define WEFT_PLUGIN_RECOGNIZE_LIVENESS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>

namespace clang {
class AnalysisDeclContextManager;
class AnalysisDeclContext;
class CFGBlock;
class LiveVariables;
} // namespace clang

namespace weft::recognize {

class Liveness {
public:
  Liveness(clang::ASTContext &Ctx, const clang::FunctionDecl *Function);
  ~Liveness();

  /// Whether V's value may be read after Loop ends. True where the
  /// analysis cannot tell. Uses in the clauses of Directive (the OpenMP
  /// directive of Loop, where the launch replaces it) are not reads.
  bool liveAfter(const clang::Stmt *Loop, const clang::VarDecl *V,
                 const clang::Stmt *Directive = nullptr);
  /// Whether Loop may read the value V had before it.
  bool liveBefore(const clang::Stmt *Loop, const clang::VarDecl *V);
  /// Whether an iteration of Loop may read V before it assigns it.
  bool liveAtIteration(const clang::Stmt *Loop, const clang::VarDecl *V);
  /// Whether V's address or a reference to it may be kept anywhere in the
  /// function outside Inside (there a read would escape the analysis).
  bool escapes(const clang::VarDecl *V, const clang::Stmt *Inside);

private:
  /// The block a loop branches from: its successors are the first block of
  /// the body and the block after the loop.
  const clang::CFGBlock *branchOf(const clang::Stmt *Loop) const;
  bool liveIn(const clang::CFGBlock *B, const clang::VarDecl *V,
              const clang::Stmt *Directive = nullptr);

  const clang::FunctionDecl *Function;
  std::unique_ptr<clang::AnalysisDeclContextManager> Manager;
  clang::AnalysisDeclContext *Context = nullptr;
  clang::LiveVariables *Live = nullptr;
  /// The block each loop branches from, by the loop.
  llvm::DenseMap<const clang::Stmt *, const clang::CFGBlock *> Branches;
  /// What escapes() found, by the variable and the statement it skipped.
  llvm::DenseMap<std::pair<const clang::VarDecl *, const clang::Stmt *>, bool>
      Escaping;
};

} // namespace weft::recognize

#endif
