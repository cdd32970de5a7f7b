// OnlineTuner.cpp: the tuning of a loop as it runs, per size bucket.
#include "tune/OnlineTuner.h"

#include "core/Diagnostics.h"
#include "core/LaunchBounds.h"
#include "policy/Environment.h"
#include "policy/MappingChoice.h"
#include "tune/StartConfiguration.h"

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace weft::rt {
namespace {

/// Launches of a loop at a size bucket before its tuning starts (a loop
/// run once or twice never pays for compiling variants), and timed
/// launches per configuration (the faster counts).
constexpr unsigned LaunchesBeforeTuning = 3, TimedLaunchesPerConfiguration = 2;

/// The device as tuned results are filed under: its name, architecture and
/// multiprocessors (a result for one GPU says little about another).
std::string deviceKey(const Backend &B) {
  const DeviceProperties &P = B.properties();
  return (P.Name.empty() ? std::string(B.name()) : P.Name) + " (" +
         P.Architecture + ", " + std::to_string(P.MultiprocessorCount) +
         " multiprocessors)";
}

/// "12.10": each varied size's (or, without a choice, the outermost trip
/// count's) power of two, rounded up: sizes within a factor of two share
/// a tuning.
std::string sizeBucket(const std::vector<std::int64_t> &Sizes,
                       std::int64_t RootCount) {
  std::string S;
  auto Add = [&](std::int64_t V) {
    unsigned Bits = 0;
    while (Bits < 63 && (std::int64_t(1) << Bits) < V)
      ++Bits;
    S += (S.empty() ? "" : ".") + std::to_string(Bits);
  };
  if (Sizes.empty())
    Add(RootCount);
  for (std::int64_t V : Sizes)
    Add(V);
  return S;
}

std::string microseconds(double Seconds) {
  char Buffer[32];
  std::snprintf(Buffer, sizeof Buffer, "%.1f us", Seconds * 1e6);
  return Buffer;
}

/// The macro WEFT_KERNEL_DEFINES sets ("WEFT_TM=2" sets WEFT_TM): the
/// user fixed it, so tuning leaves it alone.
bool userDefines(const std::string &Macro) {
  for (const std::string &D : kernelDefines())
    if (D.compare(0, Macro.size() + 1, Macro + "=") == 0 || D == Macro)
      return true;
  return false;
}

} // namespace

Status OnlineTuner::choose(Backend &B, LoopSite &Root, unsigned Mapped,
                           const std::vector<std::int64_t> &Sizes,
                           const char *Descriptor, const char *Source,
                           const detail::LaunchArg *Args, std::size_t NumArgs,
                           std::int64_t RootCount, bool Ragged,
                           TuningChoice &Out) {
  Out = {};
  Timing = nullptr;
  if (!tuningEnabled(B))
    return {};
  collectMarkedTimes(B);
  const TuneSettings &Settings = tuneSettings();
  std::unique_ptr<SiteTuning> &Slot = Ragged ? Root.RaggedTuning : Root.Tuning;
  if (!Slot) {
    Slot = std::make_unique<SiteTuning>();
    SiteTuning &S = *Slot;
    std::vector<KernelInfo> Kernels{Root.Kernel};
    bool Reorders = Root.Kernel.Tune.Reorders;
    for (const std::unique_ptr<LoopSite> &A : Root.Alternatives) {
      Kernels.push_back(A->Kernel);
      Reorders = Reorders || A->Kernel.Tune.Reorders;
    }
    // Another grouping of a floating-point sum gives other bits: only
    // when the user accepts that (any other reduction's result is exact).
    S.Tunable = !Reorders || Settings.Reductions;
    for (KernelInfo &K : Kernels)
      for (TuneParam &P : K.Tune.Params)
        if (userDefines(P.Macro))
          P.Values.resize(1);
    // Rows of differing lengths: the kernels that read their offsets.
    std::vector<bool> Allowed;
    for (const KernelInfo &K : Kernels)
      Allowed.push_back(!Ragged || !needsRowsOfOneLength(K));
    S.Space = TuningSpace(std::move(Kernels), B.properties(), Allowed);
    S.Descriptor = Descriptor ? Descriptor : "";
    S.KernelHash = contentHash(S.Descriptor + "\n" + (Source ? Source : "") +
                               (Ragged ? "\nragged rows" : ""));
  }
  SiteTuning &S = *Slot;
  if (!S.Tunable || S.Space.size() < 2)
    return {};
  const std::string Key = sizeBucket(Sizes, RootCount);
  auto [It, New] = S.Buckets.try_emplace(Key);
  SiteTuning::Bucket &T = It->second;
  const bool Recording = !Settings.RecordDirectory.empty();
  if (New) {
    T.Preferred =
        rankMappings(Root.Kernel, Sizes, Mapped, Root.Alternatives.size() + 1);
    T.Mapped = S.Space.mapped(Mapped);
    T.Start = fillingStart(S.Space, T.Mapped, B.properties(), Args, NumArgs,
                           RootCount);
    T.Times.resize(S.Space.size());
    if (!Settings.Fresh && !Recording)
      if (std::optional<TunedEntry> E =
              Store.find(S.KernelHash, deviceKey(B), Key)) {
        const std::size_t I = S.Space.findValues(E->Mapping, E->Values);
        if (I != TuningSpace::None) {
          T.Chosen = I;
          note(Root.Kernel.Location + ": sizes " + Key + ": tuned before (" +
               Store.directory() + "): " + S.Space.describe(I));
        }
      }
    if (T.Chosen == TuningSpace::None && T.Start != T.Mapped)
      note(Root.Kernel.Location + ": sizes " + Key +
           ": the mapped grid leaves multiprocessors idle; untuned launches "
           "run " +
           S.Space.describe(T.Start));
  }
  bool Waiting = false;
  if (T.Chosen == TuningSpace::None && ++T.Launches <= LaunchesBeforeTuning) {
    Waiting = true;
  } else if (T.Chosen == TuningSpace::None) {
    if (!T.Search)
      T.Search = makeSearcher(
          Recording ? SearchMethod::Exhaustive : Settings.Method, S.Space,
          T.Preferred,
          std::stoull(contentHash(S.KernelHash + Key), nullptr, 16), T.Start);
    if (T.Current != TuningSpace::None &&
        T.Timed >= TimedLaunchesPerConfiguration) {
      T.Times[T.Current] = T.CurrentSeconds;
      T.Search->report(T.Current, T.CurrentSeconds);
      note(Root.Kernel.Location + ": tuning " + Key + ": " +
               S.Space.describe(T.Current) + ": " +
               microseconds(T.CurrentSeconds),
           2);
      T.Current = TuningSpace::None;
    }
    if (T.Current == TuningSpace::None && !Recording && !Settings.Eager &&
        paying(T)) {
      // The loop has not yet run as long as its variants took to compile:
      // the fastest so far runs, untimed, until it has.
      Waiting = true;
    } else if (T.Current == TuningSpace::None) {
      const unsigned Budget = Recording ? ~0u : Settings.Budget;
      T.Current = T.Tried < Budget ? T.Search->next() : TuningSpace::None;
      if (T.Current == TuningSpace::None) {
        finish(B, Root, S, Key, T);
      } else {
        ++T.Tried;
        T.Timed = 0;
        T.CurrentSeconds = std::numeric_limits<double>::infinity();
      }
    }
  }
  const std::size_t Config = T.Chosen != TuningSpace::None ? T.Chosen
                             : Waiting                     ? fastest(T)
                                                           : T.Current;
  // Launches timed on the device still in flight count: no more of the
  // configuration are timed than it needs.
  const bool Timed = T.Chosen == TuningSpace::None && !Waiting &&
                     T.Timed + T.InFlight < TimedLaunchesPerConfiguration;
  if (Config != TuningSpace::None && Config != S.Space.mapped(Mapped) &&
      compilingAhead(B, Root, S, T, Key, Config, Mapped, Source, Out))
    return {};
  if (Config == TuningSpace::None || Config == S.Space.mapped(Mapped)) {
    Out.Timed = Timed && Config != TuningSpace::None;
  } else if (Status E = variant(B, Root, S, T, Config, Source, Out.Variant);
             !E.empty()) {
    // A configuration the device cannot build or run is left out, and
    // this launch runs the mapped kernel.
    note(Root.Kernel.Location + ": tuning: " + S.Space.describe(Config) +
         " left out: " + E);
    if (T.Start == Config)
      T.Start = T.Mapped;
    if (T.Chosen == Config) {
      T.Chosen = TuningSpace::None;
      return {};
    }
    if (Waiting)
      return {};
    T.Search->report(Config, std::numeric_limits<double>::infinity());
    T.Current = TuningSpace::None;
    Out = {};
    return {};
  } else {
    Out.Timed = Timed;
  }
  if (Out.Timed) {
    Timing = &T;
    TimingConfig = Config;
  }
  return {};
}

std::vector<std::string> OnlineTuner::summary(const LoopSite &Root) {
  std::vector<std::string> Lines;
  for (const SiteTuning *S : {Root.Tuning.get(), Root.RaggedTuning.get()}) {
    if (!S)
      continue;
    const std::string Rows =
        S == Root.RaggedTuning.get() ? " (rows of differing lengths)" : "";
    for (const auto &[Key, T] : S->Buckets) {
      // The configuration being compiled in the background is not timed.
      const bool Compiling = T.Current != TuningSpace::None &&
                             S->Compiling.count(T.Current) &&
                             !S->Variants.count(T.Current);
      const std::string Timed = std::to_string(T.Tried - Compiling) + " of " +
                                std::to_string(S->Space.size()) +
                                " configurations timed";
      if (T.Chosen != TuningSpace::None)
        Lines.push_back("sizes " + Key + Rows + ": tuned, " +
                        (T.Search ? Timed : "before") + ": " +
                        S->Space.describe(T.Chosen));
      else if (T.Search)
        Lines.push_back(
            "sizes " + Key + Rows + ": still tuning, " + Timed +
            (fastest(T) != TuningSpace::None
                 ? "; fastest so far " + S->Space.describe(fastest(T))
                 : std::string()) +
            (Compiling ? "; " + S->Space.describe(T.Current) +
                             " compiling in the background"
                       : std::string()));
    }
  }
  return Lines;
}

void OnlineTuner::record(double Seconds) {
  if (!Timing)
    return;
  Timing->CurrentSeconds = std::min(Timing->CurrentSeconds, Seconds);
  ++Timing->Timed;
  Timing = nullptr;
}

void OnlineTuner::recordBetween(TimeMark Before, TimeMark After) {
  if (!Timing)
    return;
  Marked.push_back({Timing, TimingConfig, Before, After});
  ++Timing->InFlight;
  Timing = nullptr;
}

void OnlineTuner::collectMarkedTimes(Backend &B) {
  std::size_t Kept = 0;
  for (MarkedLaunch &M : Marked) {
    bool Passed = false;
    double Seconds = 0;
    const Status S = B.secondsBetween(M.Before, M.After, Passed, Seconds);
    if (S.empty() && !Passed) {
      Marked[Kept++] = M;
      continue;
    }
    // Timed (or, after a fault, never to be): the configuration timed is
    // still the bucket's current one, since its launches in flight hold
    // it there.
    SiteTuning::Bucket &T = *M.Bucket;
    --T.InFlight;
    if (S.empty() && M.Config == T.Current) {
      T.CurrentSeconds = std::min(T.CurrentSeconds, Seconds);
      ++T.Timed;
    }
    B.releaseMark(M.Before);
    B.releaseMark(M.After);
  }
  Marked.resize(Kept);
}

void OnlineTuner::finish(Backend &B, LoopSite &Root, SiteTuning &S,
                         const std::string &Key, SiteTuning::Bucket &T) {
  T.Chosen = T.Start;
  double Best = std::numeric_limits<double>::infinity();
  for (std::size_t I = 0; I < T.Times.size(); ++I)
    if (T.Times[I] && *T.Times[I] < Best) {
      Best = *T.Times[I];
      T.Chosen = I;
    }
  if (T.Chosen == TuningSpace::None)
    return;
  const double Mapped = T.Mapped != TuningSpace::None && T.Times[T.Mapped]
                            ? *T.Times[T.Mapped]
                            : 0;
  note(Root.Kernel.Location + ": sizes " + Key + ": tuned: " +
       S.Space.describe(T.Chosen) + " (" + std::to_string(T.Tried) + " of " +
       std::to_string(S.Space.size()) + " configurations; " +
       microseconds(Best) + ", mapped " + microseconds(Mapped) + ")");
  TunedEntry E;
  E.KernelHash = S.KernelHash;
  E.Device = deviceKey(B);
  E.Bucket = Key;
  E.Location = Root.Kernel.Location;
  E.Kernel = S.Space.kernels()[S.Space[T.Chosen].Mapping].Name;
  E.Mapping = S.Space[T.Chosen].Mapping;
  E.Values = S.Space.values(T.Chosen);
  E.Seconds = Best;
  E.MappedSeconds = Mapped;
  E.Tried = T.Tried;
  if (std::string Why; !Store.save(E, Why))
    note("the tuned configuration is not kept: " + Why);
  if (!tuneSettings().RecordDirectory.empty())
    writeRecordingFile(B, Root, S, Key, T);
}

void OnlineTuner::writeRecordingFile(Backend &B, LoopSite &Root,
                                     const SiteTuning &S,
                                     const std::string &Key,
                                     const SiteTuning::Bucket &T) {
  const DeviceProperties &P = B.properties();
  TuningRecording R;
  R.Location = Root.Kernel.Location;
  R.Device = deviceKey(B);
  R.Architecture = P.Architecture;
  R.Bucket = Key;
  R.MaxThreadsPerBlock = P.MaxThreadsPerBlock;
  R.MaxSharedPerBlock = P.MaxSharedPerBlock;
  R.Preferred = T.Preferred;
  R.Descriptor = S.Descriptor;
  for (std::size_t I = 0; I < S.Space.size(); ++I)
    if (I < T.Times.size())
      R.Times.push_back({S.Space[I].Mapping, S.Space.values(I), T.Times[I]});
  // kernel_<hash>_<bucket>.txt: one file per loop and bucket.
  const std::string File = tuneSettings().RecordDirectory + "/" +
                           Root.Kernel.Name + "." + Key + ".txt";
  const std::string Text = writeRecording(R);
  std::FILE *F = std::fopen(File.c_str(), "w");
  if (!F || std::fwrite(Text.data(), 1, Text.size(), F) != Text.size() ||
      std::fclose(F) != 0) {
    warn("WEFT_TUNE=record: cannot write " + File + ": " +
         std::strerror(errno));
    return;
  }
  note(Root.Kernel.Location + ": tuning recorded in " + File);
}

std::size_t OnlineTuner::fastest(const SiteTuning::Bucket &T) {
  std::size_t Best = T.Start;
  for (std::size_t I = 0; I < T.Times.size(); ++I)
    if (T.Times[I] && (Best == TuningSpace::None || !T.Times[Best] ||
                       *T.Times[I] < *T.Times[Best]))
      Best = I;
  return Best;
}

bool OnlineTuner::paying(const SiteTuning::Bucket &T) const {
  const std::size_t Best = fastest(T);
  const double Cost =
      T.CompileSeconds > 0 ? T.CompileSeconds : MeanCompileSeconds;
  if (Cost <= 0 || Best == TuningSpace::None || !T.Times[Best])
    return false;
  return *T.Times[Best] * T.Launches < Cost;
}

std::vector<std::string> OnlineTuner::variantDefines(const SiteTuning &S,
                                                     std::size_t Config) {
  std::vector<std::string> Defines = kernelDefines();
  for (const std::string &D : S.Space.defines(Config))
    if (!userDefines(D.substr(0, D.find('='))))
      Defines.push_back(D);
  return Defines;
}

bool OnlineTuner::compilingAhead(Backend &B, LoopSite &Root, SiteTuning &S,
                                 SiteTuning::Bucket &T, const std::string &Key,
                                 std::size_t Config, unsigned Mapped,
                                 const char *Source, TuningChoice &Out) {
  const TuneSettings &Settings = tuneSettings();
  if (S.Variants.count(Config) || !B.precompiles() || Settings.Inline ||
      Settings.Eager || !Settings.RecordDirectory.empty())
    return false;
  const auto Job = S.Compiling.find(Config);
  if (Job != S.Compiling.end() && Job->second->done())
    return false; // variant() loads it
  // Meanwhile the fastest so far runs where it is built, else the mapped
  // kernel where it is loaded; with neither, Config is compiled here.
  const LoopSite &MappedSite =
      Mapped == 0 ? Root : *Root.Alternatives[Mapped - 1];
  const std::size_t Fastest = fastest(T);
  TunedVariant *Meanwhile = nullptr;
  if (Fastest != Config && Fastest != S.Space.mapped(Mapped))
    if (auto V = S.Variants.find(Fastest);
        V != S.Variants.end() && V->second.Failed.empty())
      Meanwhile = &V->second;
  if (!Meanwhile && !MappedSite.Handle)
    return false;
  if (Job == S.Compiling.end()) {
    const Configuration &C = S.Space[Config];
    const LoopSite &Site =
        C.Mapping == 0 ? Root : *Root.Alternatives[C.Mapping - 1];
    Backend *Compiler = &B;
    S.Compiling.emplace(
        Config, Background.submit(
                    [Compiler, Kernel = S.Space.apply(Config),
                     Text = Site.Text.empty() ? std::string(Source) : Site.Text,
                     Defines = variantDefines(S, Config)] {
                      return Compiler->precompile(Kernel, Text, Defines);
                    }));
    note(Root.Kernel.Location + ": tuning " + Key + ": compiling " +
             S.Space.describe(Config) + " in the background",
         2);
  }
  Out.Variant = Meanwhile;
  Out.Timed = false;
  return true;
}

Status OnlineTuner::variant(Backend &B, LoopSite &Root, SiteTuning &S,
                            SiteTuning::Bucket &T, std::size_t Config,
                            const char *Source, TunedVariant *&Out) {
  auto [It, New] = S.Variants.try_emplace(Config);
  TunedVariant &V = It->second;
  if (!New && !V.Failed.empty())
    return V.Failed;
  if (!New) {
    Out = &V;
    return {};
  }
  const Configuration &C = S.Space[Config];
  V.Mapping = C.Mapping == 0 ? &Root : Root.Alternatives[C.Mapping - 1].get();
  V.Kernel = S.Space.apply(Config);
  const char *Text = V.Mapping->Text.empty() ? Source : V.Mapping->Text.c_str();
  const std::vector<std::string> Defines = variantDefines(S, Config);
  // Compiled in the background: what it took there counts too.
  double Seconds = 0;
  Status E;
  if (auto Job = S.Compiling.find(Config);
      Job != S.Compiling.end() && Job->second->done()) {
    Seconds = Job->second->Seconds;
    E = Job->second->Result;
    S.Compiling.erase(Job);
  }
  const auto Start = std::chrono::steady_clock::now();
  if (E.empty())
    E = B.getKernel(V.Kernel, Text, Defines, V.Kernel.Name, V.Handle);
  if (E.empty() && !V.Kernel.Combine.Name.empty())
    E = B.getKernel(V.Kernel, Text, Defines, V.Kernel.Combine.Name,
                    V.CombineHandle);
  Seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  // The start's compile replaces the mapped kernel's: tuning did not add it.
  if (Config != T.Start)
    T.CompileSeconds += Seconds;
  MeanCompileSeconds += (Seconds - MeanCompileSeconds) / ++Compiles;
  if (E.empty()) {
    std::uint64_t Threads = 1;
    for (const DimensionInfo &D : V.Kernel.Dimensions)
      Threads *= D.Block;
    if (const unsigned Allowed = B.maxBlockThreads(V.Handle); Threads > Allowed)
      E = "its registers allow blocks of " + std::to_string(Allowed) +
          " threads, not " + std::to_string(Threads);
  }
  if (!E.empty()) {
    V.Failed = E;
    return E;
  }
  Out = &V;
  return {};
}

} // namespace weft::rt

namespace weft::rt {
// Here, where SiteTuning is complete.
LoopSite::LoopSite() = default;
LoopSite::~LoopSite() = default;
} // namespace weft::rt
