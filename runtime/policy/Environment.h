// Environment.h: the settings of the launch policy, each read once from
// the environment: the backend asked for, what a fault does, run-time
// tuning, macros every kernel is compiled with, and faults tests inject.
#ifndef WEFT_RUNTIME_POLICY_ENVIRONMENT_H
#define WEFT_RUNTIME_POLICY_ENVIRONMENT_H

#include "backends/BackendTable.h"
#include "core/Backend.h"
#include "search/Searcher.h"

#include <string>
#include <vector>

namespace weft::rt {

/// WEFT_BACKEND: auto (no entry), host, or a word of the backend table.
struct BackendChoice {
  const BackendEntry *Named = nullptr;
  bool Host = false;
};
/// An unknown value warns and means auto.
BackendChoice backendChoiceFromEnvironment();

/// WEFT_ON_FAULT=fallback|error; by default a backend named whose faults
/// are errors (a GPU: the user asked for it) makes them so, and anything
/// else falls back to the host loop.
void chooseFaultPolicy(const BackendChoice &Choice);

/// WEFT_KERNEL_DEFINES="WEFT_STAGING=0 WEFT_TILE=16": macros every kernel
/// is compiled with (the tuning parameters of the kernel text). Block sizes
/// are the runtime's to choose: it launches with them. WEFT_STRICT_FP=1
/// adds WEFT_STRICT_FP=1, which the kernel compilers take as "no
/// contraction into fused multiply-adds" (see RuntimeCompiler::options).
const std::vector<std::string> &kernelDefines();

/// WEFT_TUNE, a comma-separated list: off (or 0), on (or 1), reductions
/// (floating-point sums and products are tuned too, though their bits may
/// change), budget=N (configurations timed per loop and size bucket),
/// search=exhaustive|random|model, fresh (stored results are not used),
/// eager (a variant is compiled as soon as the search picks it, not once
/// the loop has run as long as the variants before took to compile, and
/// on the launching thread), inline (variants are compiled on the
/// launching thread, which waits, not on a thread of their own while the
/// loop runs the fastest so far), record=DIR (every configuration timed,
/// eagerly, a recording per loop written to DIR). Any item but off turns
/// tuning on.
struct TuneSettings {
  int Enabled = -1; // -1: on for GPUs, off on the simulator
  bool Reductions = false, Fresh = false, Eager = false, Inline = false;
  unsigned Budget = 20;
  SearchMethod Method = SearchMethod::Model;
  std::string RecordDirectory;
};
const TuneSettings &tuneSettings();
/// Whether loops on B are tuned (the simulator's timings say nothing about
/// a GPU's: off there unless asked for).
bool tuningEnabled(const Backend &B);

/// WEFT_ASYNC=0 makes every launch wait for its kernel; by default a launch
/// whose data is all resident in regions returns without waiting.
bool asyncLaunches();

/// WEFT_PROFILE=1 prints a line for each marked loop at exit: its calls on
/// the device and the host, their time and bytes, its kernel loads and its
/// last mapping; WEFT_PROFILE=json:FILE writes the same to FILE as JSON
/// (both: WEFT_PROFILE=1,json:FILE). The second call of a loop that
/// launched runs its host loop instead, timed, to compare (outside regions;
/// `nohost` among the items: never).
struct ProfileSettings {
  bool Table = false;
  std::string JsonFile;
  bool HostTrial = true;
  bool on() const { return Table || !JsonFile.empty(); }
};
const ProfileSettings &profileSettings();

/// WEFT_TEST_FAULT=<stage>[@N][,...] makes that stage fail (from its N-th
/// time on), so that tests can check the fallback contract at each:
/// compile, allocate, copy-in, launch, synchronize, and deferred (the
/// synchronization of launches that did not wait reports a fault).
Status injectedFault(const char *Stage);

} // namespace weft::rt

#endif
