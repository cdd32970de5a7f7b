// NestIR.h: the nest IR, the plain data that the recognizer builds from
// Clang's AST and that the mapping, memory and emit stages consume.
#ifndef WEFT_PLUGIN_IR_NESTIR_H
#define WEFT_PLUGIN_IR_NESTIR_H

#include "contract/BoundExpr.h"
#include "contract/Vocabulary.h"
#include "ir/Polynomial.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace weft::ir {

enum class ScalarKind {
  Bool,
  Char,
  SChar,
  UChar,
  Short,
  UShort,
  Int,
  UInt,
  Long,
  ULong,
  LongLong,
  ULongLong,
  Float,
  Double,
  Key128 // an argmax or argmin key over 64-bit values (device.h's key128)
};

/// The C++ spelling of a scalar type, e.g. "unsigned int".
const char *spelling(ScalarKind K);
/// The descriptor's type for it (LP64 sizes).
contract::ScalarType descriptorType(ScalarKind K);
bool isFloating(ScalarKind K);
/// Its size in bytes (LP64, as on the host and the GPUs).
unsigned byteSize(ScalarKind K);

/// The type of a local variable in the kernel body. Struct >= 0 names one
/// of Nest::Structs, and Scalar is then unused.
struct LocalType {
  ScalarKind Scalar = ScalarKind::Int;
  bool IsConst = false;
  bool IsReference = false;
  int Struct = -1;
};

/// A trivially copyable struct used by the nest, emitted into the kernel
/// with the same fields in the same order, so that its layout matches the
/// host's.
struct StructDef {
  std::string Name;   // unique in the kernel text
  std::string Source; // as written, for the dump
  struct Field {
    std::string Name;
    ScalarKind Scalar = ScalarKind::Int;
    int Struct = -1;
  };
  std::vector<Field> Fields;
  unsigned Size = 0; // bytes, as the host lays it out
  /// <weft/device.h> defines it (weft::complex<float> for std::complex):
  /// the kernel text does not.
  bool FromPrelude = false;
};

enum class ParamKind {
  ReadSpan,
  WriteSpan,
  ReadWriteSpan,
  Scalar,
  ReductionTarget // a captured scalar that an outermost reduction updates
};
const char *spelling(ParamKind K);

struct Expr;

/// Every subscript of a span lies in [Lowest, Highest] wherever the nest's
/// loops run, as bounds the launch evaluates from its arguments.
struct SubscriptBounds {
  contract::BoundExpr Lowest, Highest;
};

/// A variable declared outside the nest and used inside it.
struct Param {
  std::string Name;
  ParamKind Kind = ParamKind::Scalar;
  ScalarKind Element = ScalarKind::Int; // Scalar's type, or span's element.
  bool ConstElement = false;            // std::span<const T>
  int Struct = -1; // the element's (or scalar's) struct, if it is one
  /// Rows held apart (a std::vector of std::vectors), which the launch
  /// gathers into one block: element j of row i is at the index the row
  /// offsets parameter gives for i, plus j.
  bool RowsApart = false;
  /// The row offsets of the rows held apart in that parameter: reads of a
  /// row's start, the same along the row (no data access of the loop's).
  int RowOffsetsOf = -1;
  /// The common length of the rows held apart in that parameter (-1 where
  /// they differ), which a nest recognized for uniform rows indexes them
  /// by.
  int CommonRowLengthOf = -1;
  /// The row length that the extent clause states for the rows held as
  /// pointers in that parameter (extent(w: rows, cols)), or that the launch
  /// sets from their subscripts (RowSubscripts), which the launch gathers
  /// them by.
  int StatedRowLengthOf = -1;
  /// A captured integer constant's value in terms of the other captures
  /// and literals (`const int End = Offset + 32`, where Offset is never
  /// assigned): the affine analysis sees through it, so that a loop up to
  /// End from Offset has 32 iterations. Null where it has none.
  std::shared_ptr<const Expr> Definition;
  /// A pointer without an extent clause: the bounds of its subscripts,
  /// which the launch sizes it by.
  std::optional<SubscriptBounds> Subscripts;
  /// Rows held as pointers without an extent clause: the bounds of their
  /// row and column subscripts, which the launch gathers them by.
  std::optional<SubscriptBounds> RowSubscripts, ColumnSubscripts;
  bool isSpan() const {
    return Kind != ParamKind::Scalar && Kind != ParamKind::ReductionTarget;
  }
};

enum class ElementUse : unsigned char { Read, Bound, Written };

/// The use of an element that a variable of type T is initialized from: a
/// reference binds it (and a non-const one may write it), a value copies it.
inline ElementUse elementUseOf(const LocalType &T) {
  return !T.IsReference ? ElementUse::Read
         : T.IsConst    ? ElementUse::Bound
                        : ElementUse::Written;
}

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct Expr {
  enum KindType {
    IntLiteral,   // Text: the literal with its suffix
    FloatLiteral, // Text: the literal, exactly round-tripping
    BoolLiteral,  // Text: "true" / "false"
    Local,        // Text: a variable declared in the nest (or its index)
    ParamRef,     // ParamIndex: a captured scalar
    SpanElement,  // ParamIndex, Operands[0]: the subscript; Use
    SpanSize,     // ParamIndex
    Unary,        // Text: the prefix operator
    Postfix,      // Text: "++" / "--"
    Binary,       // Text: the operator, including assignments
    Conditional,  // Operands: condition, true, false
    Call,         // Text: the device function (weft::sqrt, or one of
                  // Nest::Functions)
    Cast,         // Type: the target type
    Member,       // Operands[0].Text: a field of a struct value
    InitList,     // Operands: a struct's fields (or an array's elements)
    LocalElement, // Text: a per-iteration array; Operands[0]: the subscript
    Combine       // an array reduction's update, one atomic step: Text: the
                  // operator ("+", "min", ...); Operands[0]: the SpanElement it
                  // combines into; [1]: the value, of the element's type
  } Kind;
  ScalarKind Type = ScalarKind::Int;
  int Struct = -1; // the value's struct, if it is one
  std::string Text;
  unsigned ParamIndex = 0;
  /// SpanElement: how this use reaches the element. Read: its value.
  /// Bound: the element itself, bound to a const reference or the object
  /// of a const method; it is read through that, never written. Written:
  /// assigned, incremented, combined into, or bound to a reference (or a
  /// method's object) that may write it.
  ElementUse Use = ElementUse::Read;
  bool writes() const { return Use == ElementUse::Written; }
  /// The use names the element's storage, not a copy of its value.
  bool refersToElement() const { return Use != ElementUse::Read; }
  /// SpanElement: where it is written, as an opaque number the front end
  /// gives (clang's raw source location), for diagnostics; 0 if none.
  unsigned Origin = 0;
  std::vector<ExprPtr> Operands;
};

struct Stmt;
using StmtPtr = std::unique_ptr<Stmt>;
struct Level;

struct Stmt {
  enum KindType {
    Block,    // Children
    Decl,     // VarType, Name, Exprs[0]: initializer or null
    ExprStmt, // Exprs[0]
    If,       // Exprs[0]: condition; Children[0]: then, [1]: else or null
    For,      // Children[0]: init or null, Exprs: condition, increment (each
              // may be null); Children[1]: body
    While,    // Exprs[0]; Children[0]
    DoWhile,  // Children[0]; Exprs[0]
    Break,
    Continue,
    Return,     // Exprs[0] or null; in device functions only
    Switch,     // Exprs[0]: the value; Children[0]: the body (a Block)
    Case,       // Exprs[0]: the label's constant; null for default
    ParallelFor // Nested: a marked loop inside the nest, one level deeper
  } Kind;
  LocalType VarType;
  /// Decl: the variable; For of a range-for: its element variable, which
  /// the remarks name the loop by (its counter is the plugin's own).
  std::string Name;
  std::vector<ExprPtr> Exprs;
  std::vector<StmtPtr> Children;
  std::unique_ptr<Level> Nested;
  /// Decl of a per-iteration array: its extent (VarType is the element's);
  /// Exprs[0] is then an InitList, a value every element starts with
  /// (ArrayFill), or null.
  ExprPtr ArrayExtent;
  bool ArrayFill = false;
  /// For: file:line:col of the loop, where the front end gives it (a loop
  /// that reorderLoops may make a level says where it is).
  std::string Location;
};

/// The reduction operators of contract/ReduceOps.def: one enum from the
/// clause to the descriptor.
using ReductionOp = contract::ReduceOp;
inline const char *spelling(ReductionOp Op) { // "+", "min", "&&", ...
  return contract::reduceClause(Op);
}
/// The operator a clause or an Expr::Combine spells so; nullopt for none.
inline std::optional<ReductionOp>
reductionOpNamed(const std::string &Spelling) {
  return contract::parseReduceClause(Spelling);
}

/// reduction(op: Variable) on a level: Variable combines the level's
/// iterations with Op. It is a local of an enclosing level (the sumRows
/// pattern), or a captured scalar when the level is the outermost.
struct Reduction {
  ReductionOp Op = ReductionOp::Add;
  std::string Variable;
  ScalarKind Type = ScalarKind::Int;
  int ParamIndex = -1; // the captured target's parameter, or -1 for a local
  /// An element reduced through Variable, as the clause names it ("tmp[i]");
  /// empty for a variable.
  std::string Element;
  /// Where the body's updates imply it (`sum += x;`) and no clause names
  /// it, what the remarks say of it ("reduction(+: sum) from its
  /// updates"); else empty.
  std::string Inferred;
};

/// reduction(op: a) naming an array: the level's iterations combine into
/// its elements at subscripts known only at run time (a histogram's
/// `hist[bin(x)] += 1`), each update one atomic step (Expr::Combine).
struct ArrayReduction {
  ReductionOp Op = ReductionOp::Add;
  unsigned ParamIndex = 0;
};

/// What a level's clauses force on its mapping; absent fields are searched.
struct MappingClauses {
  char Dim = 0;       // 'x', 'y', 'z', or 0
  unsigned Block = 0; // block(N)
  int Span = -1;      // span(N); 0 for span(all)
  unsigned Split = 0; // split(K)
};

/// One parallel loop level: for (Index = Lower; Index < Upper; Index += Step).
struct Level {
  std::string IndexName;
  /// What the remarks call the index where IndexName is the plugin's own
  /// (a range-for's counter): its element variable; else empty.
  std::string Shown;
  ScalarKind IndexType = ScalarKind::Int;
  ExprPtr Lower, Upper;
  bool Inclusive = false; // '<=' rather than '<'
  /// Written counting down (`for (i = hi; i >= lo; --i)`): the level is the
  /// same indices counted up; what depends on the order (which index an
  /// argmax keeps on ties) follows the loop as written.
  bool CountsDown = false;
  std::int64_t Step = 1;
  std::vector<StmtPtr> Body;
  std::string Location; // file:line:col of the loop
  unsigned Depth = 0;   // 0 for the outermost level
  std::vector<Reduction> Reductions;
  std::vector<ArrayReduction> ArrayReductions;
  MappingClauses Forced;
};

/// The index as the remarks name it.
inline const std::string &shownIndex(const Level &L) {
  return L.Shown.empty() ? L.IndexName : L.Shown;
}

/// A span subscript as an affine function of the parallel levels' indices,
/// when it is one: sum of Coefficients[k] * index_k + Offset. Coefficients
/// (nonzero, in nest order) and the offset are polynomials in captured
/// values and the sequential locals the analysis cannot see through.
struct Access {
  unsigned ParamIndex = 0;
  bool Write = false, Read = false;
  std::string Subscript; // the subscript as the dump prints it
  bool Affine = false;
  std::vector<std::pair<std::string, Polynomial>> Coefficients;
  Polynomial Offset;
  unsigned Depth = 0;    // the deepest parallel level enclosing the access
  unsigned Branches = 0; // conditionals enclosing it inside the nest
  /// The indices of the parallel levels enclosing it, outermost first.
  std::vector<std::string> Levels;
  /// No conditional, sequential loop or switch encloses it inside the
  /// nest: every iteration of its levels makes it.
  bool EveryIteration = false;
  unsigned Origin = 0; // the element expression's Expr::Origin
  /// An array reduction's atomic update: iterations may share its element.
  bool Combined = false;
};

/// A function called from the nest, emitted into the kernel text.
struct Function {
  std::string Name;   // unique in the kernel text
  std::string Source; // the function's name as written, for the dump
  bool ReturnsValue = false;
  ScalarKind ReturnType = ScalarKind::Int;
  int ReturnStruct = -1;
  /// Returns its object by reference (`return *this;` of operator+=).
  bool ReturnsSelf = false;
  std::vector<std::pair<std::string, LocalType>> Params;
  std::vector<StmtPtr> Body;
};

/// A per-iteration array: one per iteration of its owning level; when its
/// extent is not constant, a slice per thread of a buffer preallocated for
/// the launch.
struct Allocation {
  std::string Name;
  LocalType Element;
  std::string Extent;          // as the dump prints it
  std::int64_t FixedSize = -1; // the extent when it is a constant
  bool HostEvaluable = false;  // the extent: of captured values only
  unsigned OwningLevel = 0;
  int FilledByLevel = -1; // the deepest level writing it, if deeper
};

/// A marked loop nest: its captures, its outermost level (which holds the
/// others in ParallelFor statements), the functions it calls (callees before
/// callers) and its span accesses.
struct Nest {
  std::string Location;     // file:line:col of the outermost marked loop
  std::string FunctionName; // the function it is in, as a profile names it
  std::vector<Param> Params;
  std::vector<StructDef> Structs; // a struct after those it contains
  Level Root;
  std::vector<Function> Functions;
  std::vector<Access> Accesses;
  std::vector<Allocation> Allocations;
  std::string Strategy = "auto"; // strategy(...) of the outermost level
  /// `#pragma weft sequential for`: Root is one iteration (one block), its
  /// body the loop, run in order by all the block's threads.
  bool Sequential = false;
  /// Span parameters that reorderLoops' proofs take as memory of their own
  /// (as restrict would): the loops it made or moved are right only where
  /// no other parameter shares the memory of one they write.
  std::set<unsigned> TakenApart;
  /// Rows held apart indexed as rows of one length (row i at i times their
  /// CommonRowLength parameter): right only where they are.
  bool UniformRows = false;
};

/// The levels of a nest in pre-order (the root first).
std::vector<const Level *> levels(const Nest &N);

/// Fills N.Accesses and N.Allocations from the nest's body.
void analyzeAccesses(Nest &N);

/// A write that two iterations of a parallel level provably make to the
/// same element: in every iteration, at a subscript affine in the indices
/// that does not involve the level's own.
struct WriteConflict {
  const Access *Write = nullptr;
  std::string Index; // the level's index
  std::string First; // two of its values: "0" and "0 + 1"
  std::string Second;
};
/// Every such write (after analyzeAccesses); none where the analysis cannot
/// decide (a subscript it cannot read, a write under a condition).
std::vector<WriteConflict> provableWriteConflicts(const Nest &N);

/// The value of an integer or bool literal (the recognizer writes integer
/// literals in decimal with their suffix); nullopt for anything else, or a
/// value beyond a signed 64-bit integer.
std::optional<std::int64_t> integerValue(const Expr &E);

/// The C++ spelling of a value type: a scalar, or a struct of the nest.
std::string typeName(const Nest &N, ScalarKind K, int Struct);

/// An expression as the dump prints it: captures as $name.
std::string exprText(const Nest &N, const Expr &E);

/// A stable, readable text form (-fplugin-arg-weft-dump-ir).
std::string dump(const Nest &N);

} // namespace weft::ir

#endif
