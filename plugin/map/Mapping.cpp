// Mapping.cpp: the mapping of single-level nests.
#include "map/Mapping.h"

namespace weft::map {

NestMapping chooseMapping(const ir::Nest &N, const MappingRequest &Request) {
  NestMapping M;
  for (const ir::Level *Level : ir::levels(N)) {
    LevelMapping L;
    if (Level->Depth > 0) {
      L.Sequential = true;
      L.BlockSize = 1;
      L.Dop.Kind = Parallelism::SpanAll;
      L.Reasons.push_back("runs within each thread of the level enclosing "
                          "it: nested levels are not mapped onto threads "
                          "yet");
      M.Levels.push_back(std::move(L));
      continue;
    }
    if (Request.BlockSize) {
      L.BlockSize = Request.BlockSize;
      L.Reasons.push_back("block size " + std::to_string(L.BlockSize) +
                          " requested by block(...)");
    } else {
      L.Reasons.push_back("block size 256: a multiple of the warp width "
                          "that fills an SM with 8 blocks");
    }
    L.Reasons.push_back("dimension x, Span(1): the only parallel level, one "
                        "iteration per thread, grid-stride beyond the grid");
    M.Levels.push_back(std::move(L));
  }
  return M;
}

const char *spelling(Dimension D) {
  switch (D) {
  case Dimension::X:
    return "x";
  case Dimension::Y:
    return "y";
  case Dimension::Z:
    return "z";
  }
  return "?";
}

std::string spelling(const Parallelism &P) {
  switch (P.Kind) {
  case Parallelism::Span:
    return "Span(" + std::to_string(P.N) + ")";
  case Parallelism::SpanAll:
    return "Span(all)";
  case Parallelism::Split:
    return "Split(" + std::to_string(P.N) + ")";
  }
  return "?";
}

} // namespace weft::map
