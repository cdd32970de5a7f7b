// LoopHeader.h: an unmarked loop's header read in the forms a marked loop's
// may take (counting down, `<=`, `!=`, a bound or indices set beside the
// index), and the level that runs the same iterations.
#ifndef WEFT_PLUGIN_IR_LOOPHEADER_H
#define WEFT_PLUGIN_IR_LOOPHEADER_H

#include "ir/NestIR.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace weft::ir {

/// `for (T i = start; i < bound; ++i) B` and its kin, as S holds it: the
/// For itself, or (several variables declared in the header) a Block of
/// their declarations and the For. The index steps by a positive constant
/// up (`<`, `<=`, `!=` with a step of 1) or down (`>=`, `>`; an unsigned
/// index by one and `>` only, as `i >= 0` never ends); each
/// other variable of the header is a bound set once or an integer stepped
/// by a value set before the loop, and B writes none of them, nor the
/// index.
struct LoopHeader {
  const Stmt *Loop = nullptr; // the For
  std::string Index;
  ScalarKind IndexType = ScalarKind::Int;
  /// The level's range: [Lower, Upper), or [Lower, Upper] where Inclusive;
  /// counted down, Upper is the start.
  const Expr *Lower = nullptr, *Upper = nullptr;
  /// Counted down, the least index is one past Lower (`i > lo`).
  bool PastLower = false;
  bool Inclusive = false;
  bool CountsDown = false;
  std::int64_t Step = 1;
  /// The other variables of the header, in order: a bound set once, or an
  /// integer each step moves By (null: 1), back where Back (`k -= c`).
  struct Beside {
    const Stmt *Decl = nullptr;
    bool Steps = false;
    const Expr *By = nullptr;
    bool Back = false;
  };
  std::vector<Beside> Besides;
  /// Every expression of the header the level reads before its iterations
  /// or in each (bounds, initial values, steps): none may change inside
  /// the loop.
  std::vector<const Expr *> reads() const;
};

/// S read as a level's header, or nullopt where it is not one of those
/// forms. Functions: the nest's (a call may write what a reference
/// parameter binds). AssignedIndex: also C's `for (i = 0; ...)` over an
/// integer declared before the loop (for what the loop's iterations index;
/// such a loop is never made a level, which would leave i unset after it).
std::optional<LoopHeader> loopHeader(const Stmt &S,
                                     const std::vector<Function> &Functions,
                                     bool AssignedIndex = false);

/// The level that runs H's iterations, taking the body of S (which H was
/// read from): each iteration declares the header's other variables with
/// their values in it (a bound its value, `int k = k0` stepped `k += c`:
/// `k0 + (i - start) / step * c`), then runs the body.
std::unique_ptr<Level> levelOf(Stmt &S, const LoopHeader &H, unsigned Depth);

} // namespace weft::ir

#endif
