// TuningSpace.cpp: enumerating a loop's configurations and applying one.
#include "search/TuningSpace.h"

#include <algorithm>
#include <cstdlib>

namespace weft::rt {
namespace {

/// The value of parameter K in Choice; false when K is not a parameter.
bool tuneValue(const KernelInfo &K, const std::vector<unsigned> &Choice,
               std::int64_t Index, std::int64_t &Value) {
  if (Index < 0 || static_cast<std::size_t>(Index) >= K.Tune.Params.size())
    return false;
  Value = K.Tune.Params[Index].Values[Choice[Index]];
  return true;
}

/// Dimension D's block size (Block) or its n or k under Choice.
unsigned settingOf(const KernelInfo &K, const std::vector<unsigned> &Choice,
                   const DimensionInfo &D, bool Block) {
  unsigned Value = Block ? D.Block : D.N;
  for (std::size_t P = 0; P < K.Tune.Params.size(); ++P) {
    const TuneParam &T = K.Tune.Params[P];
    const bool Sets =
        Block ? T.Role == contract::TuneRole::Block && T.Target == D.Axis
              : (T.Role == contract::TuneRole::SpanN ||
                 T.Role == contract::TuneRole::SplitK) &&
                    T.Target == static_cast<int>(D.Depth);
    if (Sets)
      Value = T.Values[Choice[P]];
  }
  return Value;
}

} // namespace

TuningSpace::TuningSpace(std::vector<KernelInfo> KernelsIn,
                         const DeviceProperties &Props,
                         const std::vector<bool> &Allowed)
    : Kernels(std::move(KernelsIn)), Mapped(Kernels.size(), None) {
  for (unsigned M = 0; M < Kernels.size(); ++M) {
    if (!Allowed.empty() && (M >= Allowed.size() || !Allowed[M]))
      continue;
    const std::vector<TuneParam> &Params = Kernels[M].Tune.Params;
    // Every combination, the first parameter varying slowest.
    std::vector<unsigned> Choice(Params.size(), 0);
    for (;;) {
      if (fits(Kernels[M], Choice, Props)) {
        // The mapped configuration is every parameter's first value.
        if (std::all_of(Choice.begin(), Choice.end(),
                        [](unsigned C) { return C == 0; }))
          Mapped[M] = Configs.size();
        Configs.push_back({M, Choice});
      }
      std::size_t P = Params.size();
      while (P > 0 && ++Choice[P - 1] == Params[P - 1].Values.size())
        Choice[--P] = 0;
      if (P == 0)
        break;
    }
  }
}

bool TuningSpace::fits(const KernelInfo &K, const std::vector<unsigned> &Choice,
                       const DeviceProperties &Props) const {
  std::uint64_t Threads = 1;
  for (const DimensionInfo &D : K.Dimensions)
    Threads *= settingOf(K, Choice, D, true);
  if (Threads > Props.MaxThreadsPerBlock)
    return false;
  if (!K.Tune.SharedBytes)
    return true;
  const std::optional<std::int64_t> Bytes = shared(K, Choice);
  return Bytes && *Bytes >= 0 &&
         static_cast<std::size_t>(*Bytes) <= Props.MaxSharedPerBlock;
}

std::optional<std::int64_t>
TuningSpace::shared(const KernelInfo &K, const std::vector<unsigned> &Choice) {
  if (!K.Tune.SharedBytes)
    return std::nullopt;
  std::int64_t Bytes = 0;
  std::string Error;
  auto Leaf = [&](const BoundExpr &L, std::int64_t &V, std::string &) {
    return L.Kind == BoundExpr::Tune && tuneValue(K, Choice, L.Value, V);
  };
  if (!contract::evaluateBound(*K.Tune.SharedBytes, Leaf, Bytes, Error))
    return std::nullopt;
  return Bytes;
}

std::optional<std::int64_t> TuningSpace::sharedBytes(std::size_t I) const {
  return shared(Kernels[Configs[I].Mapping], Configs[I].Choice);
}

std::size_t TuningSpace::mapped(unsigned M) const {
  return M < Mapped.size() ? Mapped[M] : None;
}

std::size_t TuningSpace::find(const Configuration &C) const {
  auto It = std::find(Configs.begin(), Configs.end(), C);
  return It == Configs.end() ? None
                             : static_cast<std::size_t>(It - Configs.begin());
}

std::vector<unsigned> TuningSpace::values(std::size_t I) const {
  const Configuration &C = Configs[I];
  std::vector<unsigned> V;
  for (std::size_t P = 0; P < C.Choice.size(); ++P)
    V.push_back(Kernels[C.Mapping].Tune.Params[P].Values[C.Choice[P]]);
  return V;
}

std::size_t TuningSpace::findValues(unsigned M,
                                    const std::vector<unsigned> &Values) const {
  if (M >= Kernels.size() || Values.size() != Kernels[M].Tune.Params.size())
    return None;
  Configuration C{M, {}};
  for (std::size_t P = 0; P < Values.size(); ++P) {
    const std::vector<unsigned> &All = Kernels[M].Tune.Params[P].Values;
    auto It = std::find(All.begin(), All.end(), Values[P]);
    if (It == All.end())
      return None;
    C.Choice.push_back(static_cast<unsigned>(It - All.begin()));
  }
  return find(C);
}

std::vector<std::size_t> TuningSpace::neighbours(std::size_t I) const {
  std::vector<std::size_t> Out;
  const Configuration &C = Configs[I];
  const KernelInfo &K = Kernels[C.Mapping];
  for (std::size_t P = 0; P < C.Choice.size(); ++P) {
    // Values are the mapped one, then the others ascending: step in value
    // order, not list order.
    std::vector<unsigned> Order(K.Tune.Params[P].Values.size());
    for (unsigned V = 0; V < Order.size(); ++V)
      Order[V] = V;
    const std::vector<unsigned> &Values = K.Tune.Params[P].Values;
    std::sort(Order.begin(), Order.end(),
              [&](unsigned A, unsigned B) { return Values[A] < Values[B]; });
    const std::size_t At =
        std::find(Order.begin(), Order.end(), C.Choice[P]) - Order.begin();
    for (std::size_t Step : {At - 1, At + 1}) {
      if (Step >= Order.size()) // At - 1 wraps for At == 0
        continue;
      Configuration N = C;
      N.Choice[P] = Order[Step];
      if (std::size_t J = find(N); J != None)
        Out.push_back(J);
    }
  }
  return Out;
}

std::string TuningSpace::describe(std::size_t I) const {
  std::string S = "mapping " + std::to_string(Configs[I].Mapping);
  const std::vector<std::string> D = settings(I, true);
  for (std::size_t P = 0; P < D.size(); ++P)
    S += (P ? " " : ": ") + D[P];
  return S;
}

std::vector<std::string> TuningSpace::defines(std::size_t I) const {
  return settings(I, false);
}

std::vector<std::string> TuningSpace::settings(std::size_t I,
                                               bool LaunchOnly) const {
  const Configuration &C = Configs[I];
  const KernelInfo &K = Kernels[C.Mapping];
  std::vector<std::string> D;
  for (std::size_t P = 0; P < C.Choice.size(); ++P)
    if (LaunchOnly || K.Tune.Params[P].Role != contract::TuneRole::SplitK)
      D.push_back(K.Tune.Params[P].Macro + "=" +
                  std::to_string(K.Tune.Params[P].Values[C.Choice[P]]));
  return D;
}

KernelInfo TuningSpace::apply(std::size_t I) const {
  const Configuration &C = Configs[I];
  const KernelInfo &Mapping = Kernels[C.Mapping];
  KernelInfo K = Mapping;
  for (DimensionInfo &D : K.Dimensions) {
    D.Block = settingOf(Mapping, C.Choice, D, true);
    D.N = settingOf(Mapping, C.Choice, D, false);
  }
  return K;
}

void applyDefines(KernelInfo &K, const std::vector<std::string> &Defines) {
  for (TuneParam &P : K.Tune.Params)
    for (const std::string &D : Defines) {
      if (D.compare(0, P.Macro.size() + 1, P.Macro + "=") != 0)
        continue;
      const std::string Text = D.substr(P.Macro.size() + 1);
      char *End = nullptr;
      const unsigned long Value = std::strtoul(Text.c_str(), &End, 10);
      if (Text.empty() || *End || Value == 0 || Value > 1u << 20)
        continue; // not a count: the mapped value sizes the launch
      P.Values = {static_cast<unsigned>(Value)};
      if (P.Role == contract::TuneRole::SpanN)
        for (DimensionInfo &Dim : K.Dimensions)
          if (static_cast<int>(Dim.Depth) == P.Target)
            Dim.N = static_cast<unsigned>(Value);
    }
}

} // namespace weft::rt
