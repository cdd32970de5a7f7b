// BoundScope.h: what the subscript-bounds walk knows where it stands: the
// names in scope with their intervals, the facts the loops around give, and
// the conditions around that bound expressions (narrowed while they hold).
#ifndef WEFT_PLUGIN_ANALYSIS_BOUNDSCOPE_H
#define WEFT_PLUGIN_ANALYSIS_BOUNDSCOPE_H

#include "analysis/BoundInterval.h"
#include "ir/NestIR.h"
#include "ir/Polynomial.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace weft::ir::interval {

class BoundScope {
public:
  explicit BoundScope(const Nest &N) : N(N) {}
  BoundScope(const BoundScope &) = delete;
  BoundScope &operator=(const BoundScope &) = delete;

protected:
  friend class Narrowing;

  /// A name in scope: a loop index (its interval), a local set once (its
  /// initializer, read where it is used, so that conditions on what it
  /// reads count), or a local the analysis cannot bound (neither).
  struct Binding {
    std::string Name;
    std::optional<Interval> Range;
    const Expr *Definition = nullptr;
  };
  static constexpr std::size_t None = ~std::size_t(0);

  /// A comparison that bounds an expression rather than a binding
  /// (`i0 * n1 + i1 - 1 >= 0`): a subscript, or a part of a sum in one,
  /// that is the same expression up to a constant takes its bounds.
  struct Constraint {
    Polynomial Form;
    std::map<std::string, std::size_t> Names; // the bindings it reads
    std::set<std::size_t> Reads;
    std::optional<BoundExpr> Lo, Hi;
    bool Used = false;
  };

  /// The innermost binding of Name among the first Limit.
  std::size_t lookup(const std::string &Name, std::size_t Limit) const;

  void bind(std::string Name, std::optional<Interval> Range,
            const Expr *Definition = nullptr);

  std::optional<Interval> range(const Expr &E);

  /// E's interval, its names bound by the first Limit bindings, within
  /// the bounds conditions around put on it.
  std::optional<Interval> range(const Expr &E, std::size_t Limit);

  std::optional<Interval> rangeOf(const Expr &E, std::size_t Limit);

  std::optional<Interval> binary(const Expr &V, std::size_t Limit);

  /// E as a polynomial of its names (bindings, parameters, sizes), Names
  /// the bindings they resolve to; nullopt for anything but integer sums
  /// and products.
  std::optional<Polynomial> formOf(const Expr &E, std::size_t Limit,
                                   std::map<std::string, std::size_t> &Names);

  /// The constraints whose expression Form (its names resolved as Names)
  /// is, up to a constant: each with that constant, to add to its bounds.
  std::vector<std::pair<Constraint *, std::int64_t>>
  matching(const Polynomial &Form,
           const std::map<std::string, std::size_t> &Names);

  /// R within the bounds of the constraints Matches names.
  Interval
  within(Interval R,
         const std::vector<std::pair<Constraint *, std::int64_t>> &Matches);

  Interval constrained(const Expr &V, std::size_t Limit, Interval R);

  /// A sum whose first or last terms a constraint bounds (`r * w + x + dx
  /// - 2` under `x + dx - 2 >= 0`): those terms within its bounds, plus
  /// the others.
  std::optional<Interval> splitSum(const Expr &V, std::size_t Limit);

  /// The bindings whose values E reads by arithmetic (not through a
  /// span's or array's element), through the locals it reads.
  void variables(const Expr &E, std::size_t Limit,
                 std::set<std::size_t> &Out) const;

  /// An index's interval from its loop's bounds: [Lower, Upper), or
  /// [Lower, Upper] where Inclusive, Lower one up where PastLower.
  /// Inside the loop, its index's interval is not empty: a fact the signs
  /// of the subscripts' factors are read from (inside `j < m` from 0, m is
  /// at least 1).
  std::optional<Interval> indexRange(const Expr &Lower, const Expr &Upper,
                                     bool Inclusive, bool PastLower);

  /// Whether an index's interval is empty whatever the launch's values
  /// (`for (k = 1; k < 1; ++k)`): its loop's body never runs.
  bool neverRuns(const Interval &R) const;

  /// C is at least 0: a constant that is, or a constant above a fact.
  bool nonNegative(const BoundExpr &C) const;

  const Nest &N;
  std::vector<Binding> Scope;
  /// Polynomials at least 0 here: the widths of the loops around.
  std::vector<Polynomial> Facts;
  const SignOracle NonNegative = [this](const BoundExpr &C) {
    return nonNegative(C);
  };
  /// Comparisons around that bound expressions.
  std::vector<Constraint> Constraints;
  /// Bindings that conditions around keep in ranges no bound says.
  std::vector<std::set<std::size_t>> Guarded;
};

/// While it lives, the bindings narrowed to where condition C holds (or
/// fails, where Holds is false): `i > 0` raises i's least value to 1. A
/// part of C it cannot read as a bound on a binding makes the bindings it
/// reads unknown for subscripts (Guarded), so that a subscript kept in
/// range by it is not taken for one that reaches farther.
class Narrowing {
public:
  Narrowing(BoundScope &W, const Expr &C, bool Holds);
  ~Narrowing();

private:
  void narrow(const Expr &C, bool Holds);

  /// Bounds expression Side by `Side Op Other` (a constraint), where
  /// Side reads bindings and Other has an interval.
  bool constrain(const Expr &Side, const std::string &Op, const Expr &Other);

  /// What narrowing by C alone does: the bindings' intervals, and the
  /// bindings C makes unknown.
  struct Parts {
    std::map<std::size_t, Interval> Ranges;
    std::vector<std::set<std::size_t>> Guarded;
  };
  Parts part(const Expr &C, bool Holds);

  void set(std::size_t At, Interval To);

  /// Narrows Side (a binding plus a value the loops do not change) by
  /// `Side Op Other`; false where Side is no such form.
  bool bound(const Expr &Side, const std::string &Op, const Expr &Other);

  BoundScope &W;
  const std::size_t GuardMark, ConstraintMark;
  std::vector<std::pair<std::size_t, BoundScope::Binding>> Saved;
};

} // namespace weft::ir::interval

#endif // WEFT_PLUGIN_ANALYSIS_BOUNDSCOPE_H
