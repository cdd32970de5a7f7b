// OnlineTuner.h: tuning as the program runs (KTT's online mode). From a
// loop's fourth launch at a size bucket, a searcher picks configurations of
// every mapping the plugin emitted; each is timed over launches that
// compute the program's real results, until the budget is spent; the
// fastest is kept for the rest of the run and stored for the next one.
#ifndef WEFT_RUNTIME_TUNE_ONLINETUNER_H
#define WEFT_RUNTIME_TUNE_ONLINETUNER_H

#include "core/Backend.h"
#include "launch/LoopSite.h"
#include "search/Searcher.h"
#include "tune/BackgroundCompiler.h"
#include "tune/TuningStore.h"

#include <map>
#include <memory>
#include <string>

namespace weft::rt {

/// A configuration compiled: what a launch of it needs.
struct TunedVariant {
  LoopSite *Mapping = nullptr; // the mapping's site (its text, its kernel)
  KernelInfo Kernel;           // under the configuration
  KernelHandle Handle = nullptr, CombineHandle = nullptr;
  std::string Failed; // why it cannot be built or run here
};

/// A loop's tuning: its space, the variants compiled, each size bucket's
/// search or result.
class SiteTuning {
public:
  struct Bucket {
    std::unique_ptr<Searcher> Search;
    std::vector<unsigned> Preferred;
    std::size_t Mapped = TuningSpace::None; // the configuration mapped
    /// What runs until tuning has chosen: the mapped configuration, or
    /// where its grid leaves multiprocessors idle, the same with smaller
    /// blocks (see fillingStart).
    std::size_t Start = TuningSpace::None;
    std::size_t Current = TuningSpace::None, Chosen = TuningSpace::None;
    /// Launches of Current timed, and timed by marks in the device's
    /// queue but not yet passed.
    unsigned Timed = 0, Tried = 0, InFlight = 0;
    double CurrentSeconds = 0;
    /// What compiling its variants took: the loop must run as long before
    /// the next is compiled.
    double CompileSeconds = 0;
    std::vector<std::optional<double>> Times; // per configuration
    unsigned Launches = 0;
  };
  TuningSpace Space;
  std::string Descriptor, KernelHash;
  bool Tunable = false;
  std::map<std::size_t, TunedVariant> Variants;
  /// Variants compiling on the background thread, until a launch finds
  /// them done.
  std::map<std::size_t, std::shared_ptr<const BackgroundCompiler::Job>>
      Compiling;
  std::map<std::string, Bucket> Buckets;
};

/// The configuration this launch runs: null for the mapped kernel of
/// Mapped (the site chooseMapping picked), else a variant. Timed: the
/// launch must be timed (synchronously) and reported.
struct TuningChoice {
  TunedVariant *Variant = nullptr;
  bool Timed = false;
};

class OnlineTuner {
public:
  /// Root is the loop's site (its first mapping); Mapped, the mapping for
  /// these sizes; Args, the launch's; RootCount, the outermost trip count.
  /// Ragged: the call's rows held apart are of differing lengths, so only
  /// the kernels that read their offsets may run.
  Status choose(Backend &B, LoopSite &Root, unsigned Mapped,
                const std::vector<std::int64_t> &Sizes, const char *Descriptor,
                const char *Source, const detail::LaunchArg *Args,
                std::size_t NumArgs, std::int64_t RootCount, bool Ragged,
                TuningChoice &Out);
  /// A timed launch of the choice took Seconds.
  void record(double Seconds);
  /// The timed launch of the choice lies between these marks in the
  /// device's queue: recorded once the device has passed them.
  void recordBetween(TimeMark Before, TimeMark After);
  /// What tuning did for the loop at Root, a line per size bucket, for
  /// WEFT_VERBOSE's summary at exit ("sizes 11: tuned, 20 of 376
  /// configurations timed: mapping 0: ...").
  static std::vector<std::string> summary(const LoopSite &Root);

private:
  void finish(Backend &B, LoopSite &Root, SiteTuning &S, const std::string &Key,
              SiteTuning::Bucket &T);
  void writeRecordingFile(Backend &B, LoopSite &Root, const SiteTuning &S,
                          const std::string &Key, const SiteTuning::Bucket &T);
  /// Compiles (or, once compiled in the background, loads) Config.
  Status variant(Backend &B, LoopSite &Root, SiteTuning &S,
                 SiteTuning::Bucket &T, std::size_t Config, const char *Source,
                 TunedVariant *&Out);
  /// Where Config is not built and something else is: compiles it on the
  /// background thread and says what this launch runs meanwhile (true);
  /// false once it is compiled, or where it must be compiled here.
  bool compilingAhead(Backend &B, LoopSite &Root, SiteTuning &S,
                      SiteTuning::Bucket &T, const std::string &Key,
                      std::size_t Config, unsigned Mapped, const char *Source,
                      TuningChoice &Out);
  /// The macros Config's variant is compiled with.
  static std::vector<std::string> variantDefines(const SiteTuning &S,
                                                 std::size_t Config);
  /// The fastest configuration timed so far (the start before any).
  static std::size_t fastest(const SiteTuning::Bucket &T);
  /// The loop has not yet run, at its fastest so far, as long as compiling
  /// the variants took: tuning pays for itself out of the loop's own time.
  /// Before a size bucket's first compile, what a compile has taken on
  /// average so far stands for it: a loop whose sizes fall in many
  /// buckets (lud's shrinking steps) compiles no more than it runs.
  bool paying(const SiteTuning::Bucket &T) const;
  TuningStore Store;
  /// What compiling a variant has taken, on average, in this process.
  double MeanCompileSeconds = 0;
  unsigned Compiles = 0;
  /// What the device has timed since the last launch, recorded.
  void collectMarkedTimes(Backend &B);
  /// The bucket a timed launch belongs to, until it is recorded, and the
  /// configuration timed.
  SiteTuning::Bucket *Timing = nullptr;
  std::size_t TimingConfig = TuningSpace::None;
  struct MarkedLaunch {
    SiteTuning::Bucket *Bucket;
    std::size_t Config;
    TimeMark Before, After;
  };
  std::vector<MarkedLaunch> Marked;
  /// Declared last, so that it stops first: its compile under way uses
  /// the backend, which outlives the tuner.
  BackgroundCompiler Background;
};

} // namespace weft::rt

#endif
