// Mapping.h: how each parallel level of a nest maps onto the GPU's threads
// (Lee et al., MICRO 2014): a logical dimension, a block size and a degree of
// parallelism per level.
#ifndef WEFT_PLUGIN_MAP_MAPPING_H
#define WEFT_PLUGIN_MAP_MAPPING_H

#include "ir/NestIR.h"

#include <string>
#include <vector>

namespace weft::map {

enum class Dimension { X, Y, Z };

/// Span(1) (one index per thread), Span(n), Span(all) or Split(k).
struct Parallelism {
  enum KindType { Span, SpanAll, Split } Kind = Span;
  unsigned N = 1; // n of Span(n), k of Split(k)
};

struct LevelMapping {
  Dimension Dim = Dimension::X;
  unsigned BlockSize = 256;
  Parallelism Dop;
  /// The level runs as a loop inside one thread of the enclosing level.
  bool Sequential = false;
  /// Why this mapping was chosen, one line per deciding constraint.
  std::vector<std::string> Reasons;
};

struct NestMapping {
  std::vector<LevelMapping> Levels;
};

/// What the user forced with clauses (block(N), ...); absent means search.
struct MappingRequest {
  unsigned BlockSize = 0;
};

/// Chooses the mapping of a nest: the outermost level on dimension x,
/// Span(1) over a grid-stride loop, block size 256 unless requested; inner
/// levels sequential within its threads. The search over all four degrees of
/// parallelism (Lee et al.) replaces this.
NestMapping chooseMapping(const ir::Nest &N, const MappingRequest &Request);

const char *spelling(Dimension D);
std::string spelling(const Parallelism &P);

} // namespace weft::map

#endif
