// DataRecognizer.h: the recognizer's part that reads what the loop reaches
// outside itself: captures and their extents, elements of the loop's data,
// rows and views into it, methods of objects holding it, clause expressions.
#ifndef WEFT_PLUGIN_RECOGNIZE_DATARECOGNIZER_H
#define WEFT_PLUGIN_RECOGNIZE_DATARECOGNIZER_H

#include "recognize/RecognizerBase.h"

namespace weft::recognize {

class DataRecognizer : public RecognizerBase {
protected:
  using RecognizerBase::RecognizerBase;

  /// Sets the Definition of each captured integer constant that is an
  /// affine expression of other captures keeping their values
  /// (RecognizeConstants.cpp).
  void defineCapturedConstants(std::vector<ir::Param> &Out);

  /// The length of P's rows held as pointers (extent(p: rows, cols)), or
  /// the common length of rows held apart, in their innermost elements.
  ir::ExprPtr rowColumns(unsigned P) {
    const unsigned Columns = RowColumnParams.lookup(P);
    auto Length = make(ir::Expr::ParamRef, Params[Columns].Element);
    Length->ParamIndex = Columns;
    return Length;
  }

  /// Where byte Offset of the clauses of the mark at Depth was written; the
  /// loop where that is not known.
  SourceLocation clauseAt(unsigned Depth, std::size_t Offset) const;

  /// Where E, an expression of a clause at Depth, starts.
  SourceLocation clauseAt(unsigned Depth, const syntax::HostExpr &E) const;
  std::optional<unsigned> capture(const DeclRefExpr *DRE,
                                  bool ReductionTarget = false);

  /// A member reached through `this`, when E is one.
  static const FieldDecl *memberOfThis(const Expr *E);

  /// The chain E is (`m.rows`, `grid->cells`, `this->mesh.nodes`), if it is
  /// one: the launch reads it on the host.
  std::optional<MemberChain> memberOfCapture(const Expr *E) const;

  /// Captures D (a variable, or a member through `this` or the end of
  /// Chain); Source is the expression the rewrite copies to pass it to the
  /// runtime.
  /// Type, where given, is the captured object's (the vector `*v` names).
  std::optional<unsigned> capture(const ValueDecl *D, const Expr *Source,
                                  SourceLocation Loc, bool ReductionTarget,
                                  const MemberChain *Chain = nullptr,
                                  QualType Type = QualType());

  /// The parameter D (or the end of Chain) is captured as already, if any.
  std::optional<unsigned> capturedBefore(const ValueDecl *D,
                                         const MemberChain *Chain) const;

  /// Name, or Name_1, Name_2, ...: the first no parameter has.
  std::string freeParamName(const std::string &Name) const;

  /// How the launch sizes captured data: a pointer's extent (stated,
  /// declared with its parameter, or left to the subscripts), rows held
  /// as pointers and their length.
  struct DataExtents {
    const Expr *Extent = nullptr, *Columns = nullptr;
    const syntax::Extent *Stated = nullptr;
    bool InferredRows = false;
    std::optional<UnstatedExtent> Unstated;
  };

  /// Those of D, data of Shape named Name (Shape then holds rows held as
  /// pointers as rows); false after a diagnostic.
  bool dataExtents(const ValueDecl *D, SourceLocation Loc,
                   const MemberChain *Chain, const std::string &Name,
                   DataShape &Shape, DataExtents &Out);

  /// P's kind and element: of data of Shape, else of a scalar or a struct
  /// of type T; false after a diagnostic.
  bool paramType(const ValueDecl *D, QualType T, SourceLocation Loc,
                 bool ReductionTarget, const std::optional<DataShape> &Shape,
                 ir::Param &P);

  /// `*v`, v a pointer to data (a `std::vector<float> *out`, as Google's
  /// style passes outputs), captured as the data it points to.
  std::optional<unsigned> pointedData(const UnaryOperator *Deref);

  /// A scalar member of a captured object, captured by value like a
  /// variable.
  ir::ExprPtr member(const MemberExpr *ME, const FieldDecl *F, Access A,
                     const MemberChain *Chain = nullptr);
  void markUse(unsigned P, Access A);

  /// A reference to a variable.
  ir::ExprPtr variable(const DeclRefExpr *DRE, Access A);

  /// A variable (or structured binding) of the code around the loop, as a
  /// kernel parameter.
  ir::ExprPtr capturedVariable(const DeclRefExpr *DRE, Access A);

  /// DRE names a structured binding declared before the loop (in the
  /// function around it): captured as a variable is.
  bool capturedBinding(const DeclRefExpr *DRE) const;

  /// T's shape as captured data; nullopt where T is none.
  std::optional<DataShape> dataShape(QualType T) const;
  std::optional<DataShape>
  mdspanShape(const ClassTemplateSpecializationDecl *Md) const;

  /// The extent clause that names Pointer, if any.
  const syntax::Extent *extentOf(llvm::StringRef Pointer) const;

  /// An extent, as an expression the launch evaluates; null after an error.
  const Expr *extentExpr(const syntax::HostExpr &E, llvm::StringRef Pointer);

  /// The condition of an if clause, as the launch's first argument (a
  /// bool); null after an error.
  Expr *conditionExpr(const syntax::HostExpr &E);

  /// A host expression of the outermost mark's clauses, built by Sema at
  /// the loop, each part located where it was written; Clause names it in
  /// diagnostics. SizeConstants: integer constants are size_t (an extent),
  /// else typed as C types them. Null after an error.
  Expr *hostExpr(const syntax::HostExpr &E, llvm::StringRef Clause,
                 bool SizeConstants);

  /// A constant of a host expression, typed as C types it (as size_t where
  /// SizeConstants).
  Expr *hostNumber(llvm::StringRef Text, SourceLocation Loc,
                   bool SizeConstants);

  /// A variable (or a chain of fields from one: `img->w`) a host
  /// expression names, as a reference at the loop.
  Expr *hostName(const syntax::ExprToken &T, SourceLocation Loc,
                 llvm::StringRef Clause);

  /// The variable T names alone.
  Expr *hostVariable(const syntax::ExprToken &T, SourceLocation Loc,
                     llvm::StringRef Clause);

  /// The captured data a subscript or size() applies to.
  std::optional<unsigned> spanOperand(const Expr *E);

  /// An element of captured data: `v[i]`, `a[i][j]` (flattened), `p[i]`.
  ir::ExprPtr dataElement(const Expr *E, Access A,
                          std::optional<ir::ScalarKind> K);

  /// `A[i, j]` of the mdspan captured as P, flattened.
  ir::ExprPtr mdspanElement(const Expr *E, unsigned P,
                            llvm::ArrayRef<const Expr *> Subscripts, Access A);

  /// `A.extent(R)` of the mdspan captured as P: a constant, or a scalar
  /// the launch passes (captured on first use).
  ir::ExprPtr mdspanExtent(unsigned P, unsigned R);

  /// The length of View, a span of its own length.
  ir::ExprPtr viewLength(const RowView &View);
  std::optional<SpanInto> spanInto(const Expr *E);

  /// E as a PointerInto (`p`, `p + k`, `&v[k]`, `v.data() + k`, a
  /// pointer view; with IntoLocalArrays, into a per-iteration array too);
  /// nullopt for anything else (also after a diagnostic).
  std::optional<PointerInto> pointerInto(const Expr *E,
                                         bool IntoLocalArrays = false);
  /// A pointer into a per-iteration array: the array, a row of it, the
  /// address of an element, any of those moved by k.
  std::optional<PointerInto> intoLocalArray(const Expr *E);
  /// The per-iteration array E indexes (`a[i][j]`, a row `a[i]`, `a`), its
  /// subscripts appended to Subscripts innermost first, and the elements
  /// each of its dimensions steps by (elementStrides; {1} for a VLA); null
  /// where E indexes none.
  const VarDecl *
  localArrayIndexed(const Expr *E,
                    llvm::SmallVectorImpl<const Expr *> &Subscripts,
                    llvm::SmallVector<std::int64_t, 4> &Strides);

  /// A row of captured data of more dimensions, one subscript short of an
  /// element (`A[i]` of `float A[N][M]`, `A[i].data()` of nested
  /// std::arrays), as a pointer to its first element.
  std::optional<PointerInto> rowStart(const Expr *Row);

  /// `const long weft_rowN_<name> = offset;`: VD points into Ptr's data.
  ir::StmtPtr pointerView(const VarDecl *VD, PointerInto Ptr);

  /// Element Offset + Index (Index or Offset may be null: 0) of P.
  ir::ExprPtr pointedElement(PointerInto Ptr, ir::ExprPtr Index, Access A,
                             const Expr *E);

  /// The element of P at the flat index Flat, as E accesses it.
  ir::ExprPtr spanElement(unsigned P, ir::ExprPtr Flat, Access A,
                          const Expr *E);

  /// The row view E names, if any.
  const RowView *rowViewOf(const Expr *E) const;

  /// `const long weft_rowN_<name> = Row;`, VD a view of row Row of P.
  ir::StmtPtr bindRowView(const VarDecl *VD, unsigned P, ir::ExprPtr Row);

  /// VD's declaration when it binds a row: the local of the row's index;
  /// nullopt for any other declaration (null after a diagnostic).
  std::optional<ir::StmtPtr> rowView(const VarDecl *VD);

  /// The subscripts of an element of P (a row's index first), flattened
  /// into one 64-bit index.
  ir::ExprPtr flatIndex(unsigned P, std::vector<ir::ExprPtr> Subscripts);

  /// The length of row Index of P (rows held apart or nested arrays).
  ir::ExprPtr rowLength(unsigned P, ir::ExprPtr Index,
                        std::optional<ir::ScalarKind> K);

  /// The row offsets of P, captured rows held apart: a parameter of
  /// Rows + 1 offsets the launch passes, and after it their common length
  /// (or -1), both captured on first use.
  unsigned rowOffsets(unsigned P);

  /// Row R of P's offsets, as a 64-bit index.
  ir::ExprPtr rowStart(unsigned P, ir::ExprPtr R);

  /// `a[i].size()` for rows held apart: row i's length; nullopt where
  /// Object is no such row (a null after a diagnostic).
  std::optional<ir::ExprPtr> rowSize(const Expr *Object,
                                     std::optional<ir::ScalarKind> K);

  /// `v.size()`: the elements of captured data (rows, for nested arrays).
  ir::ExprPtr dataSize(const Expr *Object, std::optional<ir::ScalarKind> K);

  /// V keeps its value through the function: const, or only ever read.
  bool keepsItsValue(const VarDecl *V) const;

  /// E as literals and captures that keep their values, added, subtracted
  /// and multiplied; null otherwise.
  ir::ExprPtr constantDefinition(const Expr *E, unsigned Depth);

  // Methods of objects that hold the loop's data (RecognizeObjectMethods.cpp):
  // a class with a std::vector inside, as legacy C++ wraps its matrices
  // (`m(i, j)`, `g.at(i, j)`, `at(i, j)` in a method of the class). Each
  // call is compiled into the loop, `this` in its body the call's object,
  // so that the fields it reaches are the loop's captures. A body of one
  // `return e;` is the expression e itself, its parameters the arguments
  // (a reference it returns is then the element, to read or assign).
  /// Whether a call of M on an object of type ObjectType is one: M an
  /// instance method of a class weft cannot copy to the device as a struct.
  bool onObjectHoldingData(const CXXMethodDecl *M, QualType ObjectType);

  /// Call, a call of a method onObjectHoldingData.
  ir::ExprPtr objectMethodCall(const CallExpr *Call, Access A);
  static MethodCall methodCallOf(const Expr *E);

  /// Where the body of Def (C's method) is `return e;` after asserts
  /// alone, e and C's arguments without side effects: e, read from here on
  /// in Def's frame with `this` Object (until leaveMethodExpression), the
  /// asserts compiled in before the statement; else null.
  const Expr *enterMethodExpression(const MethodCall &C,
                                    const CXXMethodDecl *Def,
                                    const Expr *Object);
  void leaveMethodExpression();

  /// C's object in the loop's terms, where the launch can pass it (`this`,
  /// a variable the loop does not declare, or a member of one); else null.
  const Expr *callObject(const MethodCall &C);

  /// Frame, whose method's body is read from here on (Caller set here),
  /// until leaveFrame.
  void enterFrame(MethodFrame Frame);
  void leaveFrame();

  /// E (of the method being compiled in) in the loop's terms: `this` the
  /// call's object, a member of `this` that object's, a parameter taken
  /// for its argument; E itself where it names none of those.
  const Expr *inLoopTerms(const Expr *E);

  /// The argument standing for Ref, a parameter of a method compiled in as
  /// its expression, and the frame the argument is written in.
  std::optional<std::pair<const Expr *, int>>
  argumentFor(const DeclRefExpr *Ref) const;

  /// Binds P, a pointer or span parameter of a function compiled into the
  /// loop, to Arg as a view into the captured data, its declarations into
  /// Out; false after an error (Why: the call's own words).
  bool bindView(const ParmVarDecl *P, const Expr *Arg, const std::string &Why,
                std::vector<ir::StmtPtr> &Out);

  /// V, a std::span, as the view Part: its offset and its length in locals
  /// of their own, declared into Out.
  void bindSpanView(const VarDecl *V, SpanInto Part,
                    std::vector<ir::StmtPtr> &Out);

  /// Whether Def takes a pointer, a span or data by reference: such a
  /// function is compiled into the loop at each call (its accesses are
  /// then the loop's own, which every analysis sees).
  static bool takesViews(const FunctionDecl *Def);

  /// Whether Call is evaluated whenever HoistRoot is (not in a branch of
  /// ?:, nor after && or ||).
  bool evaluatedUnconditionally(const Expr *Call) const;

  /// Adds a kernel parameter with what goes with it; returns its index.
  unsigned addParam(ir::Param P, Capture C, DataShape Shape);
  unsigned addParam(ir::Param P, Capture C); // not data
};

} // namespace weft::recognize

#endif
