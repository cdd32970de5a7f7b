// Searcher.cpp: the three searchers.
#include "search/Searcher.h"

#include <algorithm>
#include <limits>
#include <random>

namespace weft::rt {
namespace {

/// The tried set and the first configuration, shared by all.
class SearcherBase : public Searcher {
public:
  SearcherBase(const TuningSpace &Space, const std::vector<unsigned> &Preferred,
               std::size_t First)
      : Space(Space), Tried(Space.size(), false), Start(First) {
    for (auto M = Preferred.begin();
         Start == TuningSpace::None && M != Preferred.end(); ++M)
      Start = Space.mapped(*M);
    if (Start == TuningSpace::None && Space.size())
      Start = 0;
  }
  void report(std::size_t I, double Seconds) override {
    if (I >= Space.size())
      return;
    Tried[I] = true;
    if (Seconds < BestSeconds) {
      BestSeconds = Seconds;
      Best = I;
    }
  }

protected:
  /// The start, until it has been tried.
  std::size_t start() const {
    return Start != TuningSpace::None && !Tried[Start] ? Start
                                                       : TuningSpace::None;
  }
  const TuningSpace &Space;
  std::vector<bool> Tried;
  std::size_t Start = TuningSpace::None, Best = TuningSpace::None;
  double BestSeconds = std::numeric_limits<double>::infinity();
};

class ExhaustiveSearcher final : public SearcherBase {
public:
  using SearcherBase::SearcherBase;
  std::size_t next() override {
    if (std::size_t S = start(); S != TuningSpace::None)
      return S;
    for (; Cursor < Space.size(); ++Cursor)
      if (!Tried[Cursor])
        return Cursor;
    return TuningSpace::None;
  }

private:
  std::size_t Cursor = 0;
};

class RandomSearcher final : public SearcherBase {
public:
  RandomSearcher(const TuningSpace &Space,
                 const std::vector<unsigned> &Preferred, std::size_t First,
                 std::uint64_t Seed)
      : SearcherBase(Space, Preferred, First), Order(Space.size()) {
    for (std::size_t I = 0; I < Order.size(); ++I)
      Order[I] = I;
    std::mt19937_64 Random(Seed);
    std::shuffle(Order.begin(), Order.end(), Random);
  }
  std::size_t next() override {
    if (std::size_t S = start(); S != TuningSpace::None)
      return S;
    for (; Cursor < Order.size(); ++Cursor)
      if (!Tried[Order[Cursor]])
        return Order[Cursor];
    return TuningSpace::None;
  }

private:
  std::vector<std::size_t> Order;
  std::size_t Cursor = 0;
};

/// The mapping analysis as the prior: the mapped configuration of the
/// mapping it ranks first, then a climb along single parameters (each step
/// to a neighbour of the best so far, the first improvement taken), then
/// the next mapping's climb; once every ranked start is a local optimum,
/// the rest at random.
class ModelSearcher final : public SearcherBase {
public:
  ModelSearcher(const TuningSpace &Space,
                const std::vector<unsigned> &Preferred, std::size_t First,
                std::uint64_t Seed)
      : SearcherBase(Space, Preferred, First),
        Random(Space, Preferred, First, Seed) {
    if (First != TuningSpace::None)
      Starts.push_back(First);
    for (unsigned M : Preferred)
      if (std::size_t I = Space.mapped(M); I != TuningSpace::None)
        Starts.push_back(I);
  }
  std::size_t next() override {
    for (;;) {
      if (Climbing == TuningSpace::None) {
        // The next ranked mapping's start, unless already tried.
        while (NextStart < Starts.size() && Tried[Starts[NextStart]])
          ++NextStart;
        if (NextStart < Starts.size()) {
          Climbing = Starts[NextStart];
          return Climbing;
        }
        for (std::size_t I = Random.next(); I != TuningSpace::None;
             I = Random.next()) {
          if (!Tried[I])
            return I;
          Random.report(I, 0);
        }
        return TuningSpace::None;
      }
      // Climbing from the best of this climb: its untried neighbours.
      for (std::size_t N : Space.neighbours(Climbing))
        if (!Tried[N])
          return N;
      Climbing = TuningSpace::None; // a local optimum: the next start
      ++NextStart;
    }
  }
  void report(std::size_t I, double Seconds) override {
    SearcherBase::report(I, Seconds);
    Random.report(I, Seconds);
    if (Climbing == TuningSpace::None)
      return;
    if (I == Climbing) {
      ClimbSeconds = Seconds;
    } else if (Seconds < ClimbSeconds) {
      Climbing = I;
      ClimbSeconds = Seconds;
    }
  }

private:
  RandomSearcher Random;
  std::vector<std::size_t> Starts;
  std::size_t NextStart = 0, Climbing = TuningSpace::None;
  double ClimbSeconds = std::numeric_limits<double>::infinity();
};

} // namespace

Searcher::~Searcher() = default;

const char *searchMethodWord(SearchMethod M) {
  switch (M) {
  case SearchMethod::Exhaustive:
    return "exhaustive";
  case SearchMethod::Random:
    return "random";
  case SearchMethod::Model:
    break;
  }
  return "model";
}

std::optional<SearchMethod> parseSearchMethod(std::string_view Word) {
  for (SearchMethod M :
       {SearchMethod::Exhaustive, SearchMethod::Random, SearchMethod::Model})
    if (Word == searchMethodWord(M))
      return M;
  return std::nullopt;
}

std::unique_ptr<Searcher> makeSearcher(SearchMethod Method,
                                       const TuningSpace &Space,
                                       const std::vector<unsigned> &Preferred,
                                       std::uint64_t Seed, std::size_t First) {
  switch (Method) {
  case SearchMethod::Exhaustive:
    return std::make_unique<ExhaustiveSearcher>(Space, Preferred, First);
  case SearchMethod::Random:
    return std::make_unique<RandomSearcher>(Space, Preferred, First, Seed);
  case SearchMethod::Model:
    break;
  }
  return std::make_unique<ModelSearcher>(Space, Preferred, First, Seed);
}

} // namespace weft::rt
