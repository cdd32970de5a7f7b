// RecognizerBase.h: what every part of the recognizer shares: the state it
// reads and changes, the one-error rule, the queries of both that several
// parts ask, and the walk's entry points the parts below it re-enter.
#ifndef WEFT_PLUGIN_RECOGNIZE_RECOGNIZERBASE_H
#define WEFT_PLUGIN_RECOGNIZE_RECOGNIZERBASE_H

#include "ir/IrQueries.h"
#include "ir/NameSupply.h"
#include "recognize/AstHelpers.h"
#include "recognize/IrBuilders.h"
#include "recognize/RecognizerState.h"

#include "compat/ClangCompat.h"
#include "support/Diagnose.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace weft::recognize {

using namespace clang;

enum class Access { Read, Write, ReadWrite };

inline constexpr const char *NotSupportedYet =
    "this weft version does not support it yet";

/// The recognizer's parts, each a class over the one before it:
/// RecognizerBase, DataRecognizer, ReductionRecognizer, CallRecognizer,
/// BodyRecognizer, Recognizer. A part calls those below it directly, those
/// above it only through the entry points declared here.
class RecognizerBase : protected RecognizerState {
protected:
  using RecognizerState::RecognizerState;
  virtual ~RecognizerBase() = default;

  // The walk's entry points, which the parts above define.
  /// E into the nest IR, by its kind; null after a diagnostic.
  virtual ir::ExprPtr expr(const Expr *E, Access A = Access::Read) = 0;
  /// S into Out, by its kind.
  virtual void stmt(const Stmt *S, std::vector<ir::StmtPtr> &Out) = 0;
  virtual void body(const Stmt *S, std::vector<ir::StmtPtr> &Out) = 0;
  /// A subscript `Base[Index]` (an operator[] or a built-in one): a
  /// reduced element's stand-in, a per-iteration array's element, or an
  /// element of captured data.
  virtual ir::ExprPtr subscript(const Expr *E, const Expr *Base,
                                const Expr *Index, Access A,
                                std::optional<ir::ScalarKind> K) = 0;
  /// The index in Structs of the struct T names (registering it and the
  /// structs it holds), or -1 when T is no struct weft can take; then, with
  /// Diagnose, after an error at Loc.
  virtual int structIndex(QualType T, SourceLocation Loc,
                          bool Diagnose = true) = 0;
  /// Element Index of per-iteration array VD, of type K (or struct Struct).
  virtual ir::ExprPtr localArrayElement(const VarDecl *VD, ir::ScalarKind K,
                                        int Struct, ir::ExprPtr Index) = 0;
  /// A local of the nest, declared inside as many levels as enclose it now.
  virtual void declareLocal(const VarDecl *VD) = 0;
  /// A call of Def, a function taking pointers into the loop's data
  /// (`dot(&a[i * n], x, n)`), compiled into the loop: its parameters and
  /// body go into Hoisted, before the statement that makes the call, and
  /// the call's value is the local its return sets (a literal 0 for void).
  /// Object, for a method of an object that holds the loop's data: what
  /// `this` is in its body, in the loop's terms.
  virtual ir::ExprPtr inlineCall(const CallExpr *Call, const FunctionDecl *Def,
                                 llvm::ArrayRef<const Expr *> Args,
                                 const Expr *Object = nullptr) = 0;
  /// One parallel level: header, reductions, body.
  /// Literal: the string Clauses were written in, or null.
  virtual bool level(Stmt *Loop, const syntax::Clauses &Clauses,
                     const StringLiteral *Literal, ir::Level &L) = 0;

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
  bool isParallelIndex(const VarDecl *VD) const;

  /// FD's definition, instantiated where it is a template's; null after a
  /// diagnostic (not visible, or called recursively).
  const FunctionDecl *definitionOf(const FunctionDecl *FD, SourceLocation Loc);

  /// The kernel's name of a local: its own, or for a local of a function
  /// compiled into the loop, one no other local has.
  std::string localName(const VarDecl *VD) const {
    auto It = InlinedNames.find(VD);
    return It != InlinedNames.end() ? It->second : VD->getName().str();
  }
  static const Expr *stripped(const Expr *E);
  static std::string combineSpelling(ir::ReductionOp Op);
  const ArgReduction *argReductionOf(const VarDecl *V) const;

  /// The std:: class template T specializes, if its name is Name.
  static const ClassTemplateSpecializationDecl *
  stdTemplate(QualType T, llvm::StringRef Name);
  ir::ExprPtr integer(std::int64_t V);
  Liveness &liveness();
  const ParentMap &nestParents();
};

} // namespace weft::recognize

#endif
