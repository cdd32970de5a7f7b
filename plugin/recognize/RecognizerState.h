// RecognizerState.h: what the recognizer knows of a nest while it walks it,
// apart from what it does (the parts RecognizerBase.h lists): they share it.
#ifndef WEFT_PLUGIN_RECOGNIZE_RECOGNIZERSTATE_H
#define WEFT_PLUGIN_RECOGNIZE_RECOGNIZERSTATE_H

#include "ir/NameSupply.h"
#include "recognize/Liveness.h"
#include "recognize/NestRecognizer.h"

#include "clang/AST/ParentMap.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace weft::recognize {

using namespace clang;

/// The AST the nest is read from; the kernel's parameters, captures and
/// structs so far; the levels, reductions, locals and device functions in
/// scope where the walk stands. The recognizer's parts read and change it;
/// it does nothing itself.
struct RecognizerState {
  RecognizerState(Sema &S, const FunctionDecl *Function, Stmt *Loop,
                  const VariableSet *OnlyRead)
      : S(S), Ctx(S.getASTContext()), Diags(Ctx.getDiagnostics()),
        SM(Ctx.getSourceManager()), Function(Function), Loop(Loop),
        OnlyRead(OnlyRead) {}

  Sema &S;
  ASTContext &Ctx;
  DiagnosticsEngine &Diags;
  const SourceManager &SM;
  const FunctionDecl *Function; // whose body holds the loop
  Stmt *Loop;

  struct Use {
    bool Read = false, Written = false;
  };

  /// Per depth, the string the mark's clauses were written in (or null).
  std::vector<const StringLiteral *> ClauseLiterals;

  /// A variable a parallel loop's header sets beside its index, stepping
  /// where Steps by By (null: one) each iteration, back where Back; else a
  /// value computed once, the `n` of `for (int i = 0, n = v.size(); i < n;
  /// ++i)`.
  struct HeaderCompanion {
    const VarDecl *Var;
    const Expr *Init;
    bool Steps;
    const Expr *By;
    bool Back;
  };
  std::vector<HeaderCompanion> Companions;

  /// Companions of step 0 while the header's bounds are read: a bound
  /// naming one reads its initial value.
  llvm::DenseMap<const VarDecl *, const Expr *> HeaderValues;

  /// A loop counting its index down by a positive constant Step to a
  /// lower bound, Strict where the bound is (`i > lo`).
  struct Descent {
    bool Strict = false;
    std::int64_t Step = 1;
  };

  /// A chain of fields from an object the loop does not declare.
  struct MemberChain {
    const FieldDecl *Field = nullptr; // the last
    std::string Key;  // the objects and fields, to capture each chain once
    std::string Name; // the parameter's: m_rows, so objects stay apart
    std::string Text; // as an extent clause names it: img->pix, m.rows
  };

  /// How captured data holds its elements: the innermost element, the
  /// extents of the arrays nested in each element (float[N][4][3]: 4, 3),
  /// whether it is a pointer (which needs an extent clause), or why a
  /// standard container cannot be captured.
  struct DataShape {
    QualType Element;
    llvm::SmallVector<std::uint64_t, 2> Inner;
    bool IsPointer = false;
    /// A std::vector of std::vectors: rows held apart, indexed through a
    /// parameter of row offsets (rowOffsets).
    bool RowsApart = false;
    /// Of those, rows held as pointers (float ** with extent(p: rows,
    /// cols)): all of one length, indexed through a parameter of it.
    bool RowPointers = false;
    const char *Refusal = nullptr;
    /// A std::mdspan (layout_right): every rank's extent, -1 where it is
    /// known at run time only, and the type of its indices.
    bool IsMdspan = false;
    llvm::SmallVector<std::int64_t, 4> Extents;
    ir::ScalarKind IndexType = ir::ScalarKind::ULong;
  };

  /// A row of captured data bound to a reference (`auto &Row = a[i]`,
  /// `const std::vector<float> &Row = rows[i]`, `float *Row = m[i]`): the
  /// data, and the local the declaration keeps the row's index in; or, for
  /// a pointer into data of one dimension (`float *Row = a + i * n`,
  /// `&a[i * n]`), the element it points to.
  struct RowView {
    unsigned Param = 0;
    std::string Local;
    bool Offset = false;
    /// Instead of Param: a per-iteration array the view points into (a
    /// pointer parameter of a function compiled into the loop, passed one).
    const VarDecl *LocalArray = nullptr;
    /// A span of its own length (a std::span parameter of a function
    /// compiled into the loop, a local std::span): the local holding it,
    /// and its value where that is the same in every thread (`w` of
    /// `a.subspan(y * w, w)`), which a loop's bound reads instead, so that
    /// the launch can size a grid by it.
    std::string Length;
    std::shared_ptr<const ir::Expr> UniformLength;
  };

  /// A part of captured data of one dimension, as a std::span argument
  /// names it (`a.subspan(i * n, n)`, `std::span(&a[k], n)`, `v`).
  struct SpanInto {
    unsigned Param = 0;
    ir::ExprPtr Offset, Length;
  };

  /// A pointer into captured data of one dimension: the data, and the
  /// element it points to (null for the first).
  struct PointerInto {
    unsigned Param = 0;
    ir::ExprPtr Offset;
    /// Instead of Param: a per-iteration array (for memset and memcpy).
    const VarDecl *LocalArray = nullptr;
  };
  llvm::DenseMap<const VarDecl *, RowView> RowViews;

  /// A method compiled into the loop whose body is being read: its object
  /// in the loop's terms, and what its parameters stand for.
  struct MethodFrame {
    const CXXMethodDecl *Method = nullptr;
    const Expr *Object = nullptr; // in the loop's terms
    /// Parameters taken for their arguments (empty where the body is
    /// compiled in as statements, the parameters locals).
    llvm::DenseMap<const ParmVarDecl *, const Expr *> Arguments;
    /// The call, where the body is compiled in as its expression.
    const CallExpr *Call = nullptr;
    int Caller = -1; // the frame the call is written in; -1: the loop
  };

  /// A method's call: `o.f(x)`, or an operator's (`m(i, j)`, `f[i]`).
  struct MethodCall {
    const CallExpr *Call = nullptr;
    const CXXMethodDecl *Method = nullptr;
    const Expr *Object = nullptr;
    llvm::ArrayRef<const Expr *> Args;
  };

  /// Why enterMethodExpression returned null last: the fix, in words.
  std::string Refusal;
  std::vector<MethodFrame> MethodFrames;
  int CurrentFrame = -1;

  /// The arguments a substituted call's parameters stand for.
  llvm::DenseMap<const ParmVarDecl *, const Expr *> LambdaArguments;

  /// Where the calls compiled into the loop for the statement being read
  /// go (see Recognizer::HoistedCalls), and the expression they are
  /// evaluated unconditionally under.
  std::vector<ir::StmtPtr> *Hoisted = nullptr;
  const Stmt *HoistRoot = nullptr;
  llvm::DenseMap<const VarDecl *, std::string> InlinedNames;

  /// `reduction(+: tmp[i])`: the element, reduced as a scalar through a
  /// local of the enclosing level that stands for it (Stand, named Name):
  /// loaded before the level, stored after (RecognizeStatements).
  struct ReducedElement {
    const Expr *Element = nullptr;
    const VarDecl *Stand = nullptr;
    std::string Name;
    ir::ScalarKind Type = ir::ScalarKind::Int;
    unsigned Depth = 0; // the reduced level's
  };
  std::vector<ReducedElement> ReducedElements;

  /// Those of the level just read, for the statement around it.
  std::vector<ReducedElement> FinishedElements;

  /// An array a level reduces (`reduction(+: a)`): by what, and where.
  struct ReducedArray {
    ir::ReductionOp Op = ir::ReductionOp::Add;
    bool Active = true; // its level is being read
    SourceLocation Loop;
  };
  std::map<unsigned, ReducedArray> ReducedArrays; // by parameter

  /// Each captured array's first use other than a combine.
  std::map<unsigned, SourceLocation> PlainArrayUses;

  /// The element a combine updates, while it is read.
  const Expr *CombinedElement = nullptr;

  /// The expression of the expression statement being read: its value is
  /// unused.
  const Expr *UnusedValue = nullptr;

  /// reduction(argmax: v, at) / argmin on a level (RecognizeArgReductions).
  struct ArgReduction {
    const VarDecl *Value = nullptr, *At = nullptr;
    bool Max = true;
    int First = -1;          // ties to the first index (`>`); -1 until the `if`
    bool CountsDown = false; // its loop's: `>` keeps the last index then
    ir::ScalarKind ValueType = ir::ScalarKind::Float;
    ir::ScalarKind AtType = ir::ScalarKind::Int;
    /// 64 bits for values of at most 32, a key128 for wider ones.
    ir::ScalarKind KeyType = ir::ScalarKind::ULongLong;
    std::string Key; // the reduced key, a local or (outermost) a parameter
    unsigned Depth = 0;
    int Param = -1;
    /// weft.hpp's argmaxFirst (...), or with Finish device.h's arg_finish.
    std::string function(bool Finish = false) const;
  };
  std::vector<ArgReduction> ArgReductions; // of the enclosing levels
  std::vector<ArgReduction> FinishedArgs;  // of the inner level just read

  /// The extent clauses of the outermost mark.
  const std::vector<syntax::Extent> *Extents = nullptr;
  bool Failed = false;

  /// The indices of the enclosing parallel levels, outermost first (null
  /// for a range-for's synthesized index).
  std::vector<const VarDecl *> Indices;

  /// The index whose loop header is being read, and its first value.
  const VarDecl *HeaderIndex = nullptr;
  const Expr *HeaderStart = nullptr;
  const Expr *HeaderInc = nullptr;

  /// Variables declared before the nest that an iteration sets before it
  /// reads them (a C89 function's `int i, j; double sum;`), private to the
  /// iteration as locals of a level; the statements that declare them in
  /// the kernel (a loop whose initializer assigns one, or the assignment
  /// that first sets one in a block); why others are not.
  llvm::SmallPtrSet<const VarDecl *, 8> Privates;

  /// The OpenMP directive the nest is marked by (else null), and the
  /// variables of its reduction clauses each iteration sets first: those
  /// are private where nothing but the directive's own clause reads them
  /// after the loop.
  const Stmt *Directive = nullptr;
  std::vector<const VarDecl *> ScratchReductions;
  llvm::DenseMap<const Stmt *, llvm::SmallVector<const VarDecl *, 1>>
      DeclaringStmts;
  llvm::DenseMap<const VarDecl *, std::string> NotPrivate;
  std::unique_ptr<Liveness> LiveVariables;

  /// The parents of the statements in the nest (built once, when asked).
  std::unique_ptr<ParentMap> NestParents;

  /// The flags of the outermost level, and their keys' parameters.
  llvm::DenseMap<const VarDecl *, unsigned> Flags;

  /// Reduction variables of the enclosing levels, the references that the
  /// combining statement being read may make to them, and the plain
  /// assignment `m = x` that a guarding `if (x > m)` makes a combination.
  llvm::DenseMap<const VarDecl *, ir::ReductionOp> ActiveReductions;
  llvm::SmallPtrSet<const Expr *, 4> AllowedReductionRefs;
  const BinaryOperator *GuardedCombine = nullptr;

  /// Device functions: converted ones by definition, in callee-first order,
  /// and the chain of calls being converted (to catch recursion).
  llvm::DenseMap<const FunctionDecl *, std::string> FunctionNames;
  std::vector<ir::Function> Functions;
  std::vector<const FunctionDecl *> CallStack;
  bool InFunction = false;
  bool InConstructor = false; // `return;` returns the object

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

  /// Members of captured objects, by the chain that reaches them.
  std::map<std::string, unsigned> MemberCaptureIndex;

  /// Data members indexed, by parameter: whether every access reached
  /// them through a const object.
  llvm::DenseMap<unsigned, bool> MembersThroughConst;
  std::vector<ir::Param> Params;
  std::vector<Use> Uses;

  /// Per parameter, alongside Params and Uses: how the rewrite passes it,
  /// and for data, how it holds its elements.
  std::vector<Capture> Captures;
  std::vector<DataShape> Shapes;

  /// A pointer without an extent clause: where the loop first indexes it,
  /// and the clause to suggest where its subscripts do not bound it.
  struct UnstatedExtent {
    unsigned Param = 0;
    SourceLocation Loc;
    std::string Shown; // as the loop names it
    std::string Hint;
  };
  std::vector<UnstatedExtent> UnstatedExtents;
  llvm::DenseMap<std::pair<unsigned, unsigned>, unsigned> ExtentParams;
  llvm::DenseMap<unsigned, unsigned> RowOffsetParams;

  /// Per rows held as pointers, the parameter of their length; per rows
  /// held apart, that of their common length (-1 where they differ).
  llvm::DenseMap<unsigned, unsigned> RowColumnParams;

  /// The function's variables that its body only reads (null: unknown).
  const VariableSet *OnlyRead;
  std::vector<SourceLocation> LevelLocations;

  /// Where each sequential loop of the nest is, by its ir::Stmt::Location.
  std::map<std::string, SourceLocation> LoopLocations;
  int SequentialDepth = 0;
  int SwitchDepth = 0; // 'break' inside a switch leaves only the switch

  /// Set while converting what a reference binds (a reference's
  /// initializer, a reference parameter's argument, a method's object):
  /// an element reached through glvalues from there is Bound, not Read;
  /// expr() clears it below the first value (prvalue) on the way.
  bool BindingReference = false;

  /// Set while reading a level's bounds: there an element or field of a
  /// global read at constant subscripts (NAS's `grid_points[0]`) is a
  /// value the launch reads, so that the outermost level's bounds are
  /// evaluated before the launch and the inner levels' extents are known
  /// to it.
  bool InLevelBound = false;
  /// Each such value: the global and the fields on the way to it (`dims.n`:
  /// n). The loop may not write the object it is part of.
  struct BoundRead {
    const VarDecl *Global;
    std::vector<const FieldDecl *> Fields;
    SourceLocation Loc;
  };
  std::vector<BoundRead> BoundReads;

  /// Every name the nest's kernel gets from the plugin, not the program.
  ir::NameSupply Names;
};

} // namespace weft::recognize

#endif
