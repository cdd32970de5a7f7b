// IndexedRegion.h: the proof behind reorderLoops' rewrites: the statements
// a level's iterations run share nothing written across its index.
#ifndef WEFT_PLUGIN_ANALYSIS_INDEXEDREGION_H
#define WEFT_PLUGIN_ANALYSIS_INDEXEDREGION_H

#include "ir/LoopHeader.h"
#include "ir/NestIR.h"
#include "ir/Polynomial.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace weft::ir {

/// Statements that the iterations of a marked level over Index run, taken
/// as one region: whether they write no variable of the code around them,
/// and every span they write they reach at one subscript naming a
/// different element for each value of Index (and the same element
/// wherever else the region is), so that no two values of Index share
/// anything written, whatever order the region's loops run in.
class IndexedRegion {
public:
  /// References: the names of the nest's references, whose reads reach
  /// what they bind (a span element the region may write, unseen).
  IndexedRegion(const Nest &N, const std::string &Index,
                const std::set<std::string> &References)
      : N(N), Index(Index), References(References) {
    Declared.insert(Index);
  }

  void add(const Stmt &S);

  /// The spans the region reaches, where it writes one: the proof takes
  /// them as memory of their own (N.TakenApart).
  void takeApart(Nest &Of) const;

  /// Every name declared inside the region, Index included.
  const std::set<std::string> &declared() const { return Declared; }

  /// Why independent() said no, in words.
  std::string Why;

  bool independent();

  /// Reads nothing the region declares or writes, and no memory but the
  /// row offsets of rows held apart (which no loop writes): the same value
  /// wherever in the region it is evaluated.
  bool fixed(const Expr &E) const;

private:
  /// A write the region may make: to its own locals and arrays, to a
  /// span (whose subscripts apart() checks), or to the outermost level's
  /// reduction target, into which the recognizer lets it only combine
  /// (any order of its iterations combines the same values).
  bool owns(const Expr &Root) const;

  bool fail(std::string Reason);

  /// What a write that the region may not make writes, in words.
  std::string named(const Expr &Root) const;

  bool scan(const Stmt &S, bool InLoop, bool InSwitch);

  bool scan(const Expr &E);

  /// A function of the nest writes what its non-const reference parameters
  /// bind (the object of a method among them); <weft/device.h>'s functions
  /// write none of their operands.
  bool callWritesOwn(const Expr &Call) const;

  /// One subscript for all of a written span's accesses, Index times a
  /// nonzero constant plus values the region never changes.
  bool apart(const std::vector<const Expr *> &All);

  /// Index's coefficient in E when E is affine in Index alone with a
  /// constant one (0 where E does not involve it).
  std::optional<std::int64_t> indexCoefficient(const Expr &E) const;

  /// Subscript, which reads nothing the region changes, names a different
  /// element of span Param for each value of Index: an affine form with a
  /// nonzero constant coefficient, or element C of row R of rows held
  /// apart (`rows[R] + C`, the rows gathered into one block, a row's
  /// elements apart from every other row's), R and C affine in Index with
  /// constant coefficients not both zero, or `rows[e / c][e % c]` (rows of
  /// c elements indexed as one flat range) with e apart.
  bool distinctForEachIndex(unsigned Param, const Expr &Subscript) const;

  /// E is a different value for each value of Index.
  bool distinct(const Expr &E) const;

  /// e where Row is `e / c` and Column `e % c` for one integer e and one
  /// constant c > 0: the pair is a different one for each e (e is
  /// (e / c) * c + e % c, whatever its sign).
  const Expr *chunkedIndex(const Expr &Row, const Expr &Column) const;

  /// Subscript is Index times c plus inner loops' indices t, each over w
  /// values, times coefficients T, and |c| exceeds the most those terms
  /// can move, the sum of |T| (w - 1): no two values of Index meet (`k *
  /// 480 + j * 24 + i` of a C array `double u[16][20][24]`, i < 24, for
  /// each j; `(c * h + y) * w + x` for each y, x < w). Where w and T are
  /// polynomials over the captures, |c| - that sum must be a positive
  /// constant, and T a constant or a constant times the widths of the
  /// subscript's loops (at least 1 wherever the access runs: its sign is
  /// the constant's).
  bool apartByBounds(const Expr &Subscript) const;

  /// T's sign wherever the access runs: a constant's, or a constant times
  /// symbols each the width of a loop of Coefficients' (nonzero there).
  std::optional<int>
  signAtAccess(const Polynomial &T,
               const std::map<std::string, Polynomial> &Coefficients) const;

  /// A loop's values: within w of Lo, where its bounds are affine in
  /// captures and what the region does not change (the first loop of an
  /// index; bounded() takes indices declared once). (A step of c reaches
  /// some of them: the most it moves is still w - 1.)
  void addRange(const LoopHeader &L);

  /// V is the index of a counted loop in the region, with bounds it does
  /// not change, declared nowhere else in it.
  bool bounded(const std::string &V) const;

  const Nest &N;
  const std::string Index;
  const std::set<std::string> &References;
  std::vector<const Stmt *> Roots;
  std::set<std::string> Declared;
  std::map<unsigned, std::vector<const Expr *>> Accesses;
  std::set<unsigned> Written;
  /// The region's counted loops with bounds it does not change: each
  /// index's count of values (Upper - Lower), a polynomial over the
  /// captures.
  std::map<std::string, Polynomial> Widths;
  std::map<std::string, int> Declarations;
};

} // namespace weft::ir

#endif
