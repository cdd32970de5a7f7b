// TilingPlan.cpp: keeps the tiles of a tileable loop that the mapping's
// threads share, and sizes them within the shared memory budget.
#include "memory/TilingPlan.h"

#include <algorithm>

namespace weft::memory {

namespace {

unsigned elementBytes(const ir::Nest &N, const Tile &T) {
  const ir::Param &P = N.Params[T.Param];
  return P.Struct >= 0 ? N.Structs[P.Struct].Size : ir::byteSize(P.Element);
}

/// A loop in tiles the whole block reads: the outer levels' indices the
/// same in each block (one thread along their dimensions, or in the
/// thread), the innermost level's threads sharing the tiles; as many
/// iterations as threads, up to 256, within 24 KiB.
std::optional<TiledLoop> planWholeBlockTiling(const ir::Nest &N,
                                              const map::NestMapping &M) {
  std::optional<TiledLoop> Found = ir::findWholeBlockTileableLoop(N);
  if (!Found || M.Levels.size() != Found->Inner->Depth + 1)
    return std::nullopt;
  const map::LevelMapping &L = M.Levels.back();
  if (L.sequential() || L.Dop.Kind != map::Parallelism::Span || L.BlockSize < 2)
    return std::nullopt;
  for (std::size_t D = 0; D + 1 < M.Levels.size(); ++D)
    if (!M.Levels[D].sequential() &&
        (M.Levels[D].BlockSize != 1 || M.Levels[D].Dim == L.Dim))
      return std::nullopt;
  std::size_t BytesPerIteration = 0;
  for (const Tile &T : Found->Tiles)
    BytesPerIteration += elementBytes(N, T);
  Found->Width = static_cast<unsigned>(std::min<std::size_t>(
      std::min(256u, L.BlockSize), 24 * 1024 / BytesPerIteration));
  if (Found->Width < 4)
    return std::nullopt;
  return Found;
}

std::optional<TiledLoop> planPairTiling(const ir::Nest &N,
                                        const map::NestMapping &M);

} // namespace

std::optional<TiledLoop> planTiling(const ir::Nest &N,
                                    const map::NestMapping &M) {
  // The two-level tiles first: a register tile builds on them.
  if (std::optional<TiledLoop> Pair = planPairTiling(N, M))
    return Pair;
  return planWholeBlockTiling(N, M);
}

namespace {

/// Tiles of a two-level nest spread over a 2-D block.
std::optional<TiledLoop> planPairTiling(const ir::Nest &N,
                                        const map::NestMapping &M) {
  if (M.Levels.size() != 2)
    return std::nullopt;
  const map::LevelMapping &L0 = M.Levels[0], &L1 = M.Levels[1];
  if (L0.sequential() || L1.sequential() ||
      L0.Dop.Kind != map::Parallelism::Span ||
      L1.Dop.Kind != map::Parallelism::Span || L0.Dim == L1.Dim)
    return std::nullopt;
  std::optional<TiledLoop> Found = ir::findTileableLoop(N);
  if (!Found)
    return std::nullopt;
  TiledLoop &T = *Found;
  // A tile pays when threads share it: a row along the inner dimension's
  // threads, a column along the outer's.
  std::vector<Tile> Shared;
  for (Tile &Candidate : T.Tiles)
    if ((Candidate.AlongOuter ? L1.BlockSize : L0.BlockSize) >= 2)
      Shared.push_back(std::move(Candidate));
  T.Tiles = std::move(Shared);
  if (T.Tiles.empty())
    return std::nullopt;
  // The loop's iterations per tile: up to 32, within 24 KiB of shared
  // memory (a row of a tile padded by one element).
  std::size_t BytesPerIteration = 0;
  for (const Tile &Candidate : T.Tiles) {
    BytesPerIteration +=
        elementBytes(N, Candidate) *
        (Candidate.AlongOuter ? 2 * L0.BlockSize : L1.BlockSize + 1);
  }
  T.Width = static_cast<unsigned>(
      std::min<std::size_t>(32, 24 * 1024 / BytesPerIteration));
  if (T.Width < 4)
    return std::nullopt;
  return Found;
}

} // namespace

} // namespace weft::memory
