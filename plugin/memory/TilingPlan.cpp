// TilingPlan.cpp: keeps the tiles of a tileable loop that the mapping's
// threads share, and sizes them within the shared memory budget.
#include "memory/TilingPlan.h"

#include "ir/IrQueries.h"

#include <algorithm>
#include <set>

namespace weft::memory {

namespace {

unsigned elementBytes(const ir::Nest &N, const Tile &T) {
  return ir::elementBytes(N, N.Params[T.Param]);
}

/// A loop in tiles the whole block reads: every level of the chain on the
/// grid (Span), walked by blocks together; a tile whose subscript reads an
/// outer index needs that level one thread a block (else the block's
/// threads would want different elements), and so do the levels' bounds
/// (else their threads would walk different counts past the barriers); as
/// many iterations as threads, up to 256, within 24 KiB.
std::optional<TiledLoop> planWholeBlockTiling(const ir::Nest &N,
                                              const map::NestMapping &M) {
  std::optional<TiledLoop> Found = ir::findWholeBlockTileableLoop(N);
  if (!Found || M.Levels.size() != Found->Inner->Depth + 1)
    return std::nullopt;
  unsigned Threads = 1;
  std::set<std::string> Shared;
  std::vector<const ir::Level *> Chain = ir::levels(N);
  for (std::size_t D = 0; D < M.Levels.size(); ++D) {
    const map::LevelMapping &L = M.Levels[D];
    if (L.sequential() || L.Dop.Kind != map::Parallelism::Span)
      return std::nullopt;
    Threads *= L.BlockSize;
    if (D > 0 && (!ir::readsOnly(*Chain[D]->Lower, Shared) ||
                  !ir::readsOnly(*Chain[D]->Upper, Shared)))
      return std::nullopt;
    if (L.BlockSize == 1 && D + 1 < M.Levels.size())
      Shared.insert(Chain[D]->IndexName);
  }
  if (Threads < 2 || !ir::readsOnly(*Found->Lower, Shared) ||
      !ir::readsOnly(*Found->Upper, Shared))
    return std::nullopt;
  Shared.insert(Found->Index);
  std::vector<Tile> Kept;
  for (Tile &T : Found->Tiles)
    if (ir::readsOnly(*T.Reads.front()->Operands[0], Shared))
      Kept.push_back(std::move(T));
  Found->Tiles = std::move(Kept);
  if (Found->Tiles.empty())
    return std::nullopt;
  ir::groupRecords(N, *Found);
  std::size_t BytesPerIteration = 0;
  for (const Tile &T : Found->Tiles)
    if (T.Leader < 0)
      BytesPerIteration += T.RecordWidth * elementBytes(N, T);
  Found->Width = static_cast<unsigned>(std::min<std::size_t>(
      std::min(256u, Threads), 24 * 1024 / BytesPerIteration));
  if (Found->Width < 4)
    return std::nullopt;
  return Found;
}

/// Tiles of the last two levels of a nest spread over a 2-D block.
std::optional<TiledLoop> planPairTiling(const ir::Nest &N,
                                        const map::NestMapping &M) {
  std::optional<TiledLoop> Found = ir::findTileableLoop(N);
  // At most one level above the pair (the root, walked by blocks
  // together), with one thread a block: a batch index.
  if (!Found || M.Levels.size() != Found->Inner->Depth + 1 ||
      M.Levels.size() > 3)
    return std::nullopt;
  const std::size_t Pair = Found->Outer->Depth;
  for (std::size_t D = 0; D < Pair; ++D)
    if (M.Levels[D].sequential() ||
        M.Levels[D].Dop.Kind != map::Parallelism::Span ||
        M.Levels[D].BlockSize != 1)
      return std::nullopt;
  const map::LevelMapping &L0 = M.Levels[Pair], &L1 = M.Levels[Pair + 1];
  if (L0.sequential() || L1.sequential() ||
      L0.Dop.Kind != map::Parallelism::Span ||
      L1.Dop.Kind != map::Parallelism::Span || L0.Dim == L1.Dim)
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

std::optional<TiledLoop> planTiling(const ir::Nest &N,
                                    const map::NestMapping &M) {
  // The pair's tiles first where some follow a thread's index (a register
  // tile builds on them); else the whole block's, which load each element
  // once a block rather than once a row of it.
  std::optional<TiledLoop> Pair = planPairTiling(N, M);
  if (Pair && std::any_of(Pair->Tiles.begin(), Pair->Tiles.end(),
                          [](const Tile &T) { return T.FollowsThread; }))
    return Pair;
  if (std::optional<TiledLoop> Whole = planWholeBlockTiling(N, M))
    return Whole;
  return Pair;
}

} // namespace weft::memory
