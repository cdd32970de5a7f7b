// Harness.h: what the samples share that is not part of a port: options,
// generated inputs, the timer, and the check of a result against the one
// the same program saved when built without the plugin.
//
// A sample is built twice from one source: without the plugin (its serial
// version; the marks are ignored and the runtime need not be linked) and
// with it. samples/run-sample.sh runs the first with --save and the second
// with --check.
#ifndef WEFT_SAMPLES_HARNESS_H
#define WEFT_SAMPLES_HARNESS_H

#include <weft/weft.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace sample {

struct Options {
  bool Small = false; // the size the test suite runs
  int Repeat = 2;     // runs timed; the fastest is reported
  std::string Save;   // write the result here
  std::string Check;  // compare the result with this file's
};

inline Options parseOptions(int Argc, char **Argv) {
  Options Opts;
  for (int I = 1; I < Argc; ++I) {
    std::string Arg = Argv[I];
    if (Arg == "--small")
      Opts.Small = true;
    else if (Arg == "--repeat" && I + 1 < Argc)
      Opts.Repeat = std::max(1, std::atoi(Argv[++I]));
    else if (Arg == "--save" && I + 1 < Argc)
      Opts.Save = Argv[++I];
    else if (Arg == "--check" && I + 1 < Argc)
      Opts.Check = Argv[++I];
    else {
      std::fprintf(stderr,
                   "usage: %s [--small] [--repeat N] [--save FILE | --check "
                   "FILE]\n",
                   Argv[0]);
      std::exit(Arg == "--help" || Arg == "-h" ? 0 : 2);
    }
  }
  return Opts;
}

/// A small linear congruential generator: the same inputs from every build
/// and standard library.
class Random {
public:
  explicit Random(std::uint64_t Seed)
      : State(Seed * 2862933555777941757ULL + 1) {}
  std::uint32_t next() {
    State = State * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::uint32_t>(State >> 32);
  }
  /// Uniform in [Lo, Hi).
  float uniform(float Lo, float Hi) {
    return Lo +
           (Hi - Lo) * static_cast<float>(next() >> 8) * (1.0f / 16777216.0f);
  }
  /// Uniform in [0, N).
  int below(int N) {
    return static_cast<int>((static_cast<std::uint64_t>(next()) * N) >> 32);
  }

private:
  std::uint64_t State;
};

/// Runs Compute Opts.Repeat times (each from the same inputs, which
/// Compute sets up itself) and returns the fastest run in milliseconds.
template <class Fn>
double fastestMilliseconds(const Options &Opts, Fn &&Compute) {
  double Best = 1e300;
  for (int Run = 0; Run < Opts.Repeat; ++Run) {
    auto Start = std::chrono::steady_clock::now();
    Compute();
    weft::synchronize();
    auto End = std::chrono::steady_clock::now();
    Best = std::min(
        Best, std::chrono::duration<double, std::milli>(End - Start).count());
  }
  return Best;
}

inline const char *backend() {
  // Null in the build without the plugin, which links no runtime.
  return &weft::backendName ? weft::backendName() : nullptr;
}

/// Prints the time, saves or checks Result, and returns the exit status.
/// Floating-point elements match when |got - want| <= Tolerance * max(1,
/// |want|): a GPU contracts a * b + c and sums in another order (README,
/// "Floating-point results"); integers must match exactly.
template <class T>
int finish(const Options &Opts, const char *Name, const std::string &Size,
           double Milliseconds, std::span<const T> Result,
           double Tolerance = 0) {
  static_assert(std::is_arithmetic_v<T>);
  const char *Backend = backend();
  std::printf("%s (%s): %.3f ms, %s%s%s\n", Name, Size.c_str(), Milliseconds,
              Backend ? "weft on '"
                      : "the host loops (built without the plugin)",
              Backend ? Backend : "", Backend ? "'" : "");
  if (&weft::loop_stats) {
    weft::loop_stats_t Loops[64];
    std::size_t Count = std::min<std::size_t>(weft::loop_stats(Loops, 64), 64);
    for (std::size_t I = 0; I < Count; ++I)
      if (Loops[I].HostRuns)
        std::printf("  the loop at %s ran on the host %llu of %llu times "
                    "(%s)\n",
                    Loops[I].Location, Loops[I].HostRuns,
                    Loops[I].HostRuns + Loops[I].DeviceRuns,
                    Loops[I].HostReason ? Loops[I].HostReason : "");
  }
  if (!Opts.Save.empty()) {
    std::FILE *F = std::fopen(Opts.Save.c_str(), "wb");
    if (!F || std::fwrite(Result.data(), sizeof(T), Result.size(), F) !=
                  Result.size()) {
      std::fprintf(stderr, "%s: cannot write %s\n", Name, Opts.Save.c_str());
      return 1;
    }
    std::fclose(F);
  }
  if (Opts.Check.empty())
    return 0;
  std::vector<T> Want(Result.size());
  std::FILE *F = std::fopen(Opts.Check.c_str(), "rb");
  bool Read =
      F && std::fread(Want.data(), sizeof(T), Want.size(), F) == Want.size() &&
      std::fgetc(F) == EOF;
  if (F)
    std::fclose(F);
  if (!Read) {
    std::printf("check FAILED: %s does not hold %zu results\n",
                Opts.Check.c_str(), Result.size());
    return 1;
  }
  double MaxError = 0;
  std::size_t Worst = 0;
  for (std::size_t I = 0; I < Result.size(); ++I) {
    double Got = static_cast<double>(Result[I]);
    double Expected = static_cast<double>(Want[I]);
    double Error =
        std::fabs(Got - Expected) / std::max(1.0, std::fabs(Expected));
    if (!(Error <= MaxError)) { // NaN counts as the worst
      MaxError = std::isnan(Error) ? INFINITY : Error;
      Worst = I;
    }
  }
  if (MaxError <= Tolerance) {
    std::printf("check OK: %zu results match the build without the plugin "
                "(max relative error %.3g, tolerance %.3g)\n",
                Result.size(), MaxError, Tolerance);
    return 0;
  }
  std::printf("check FAILED: result %zu is %.9g, %.9g without the plugin "
              "(relative error %.3g, tolerance %.3g)\n",
              Worst, static_cast<double>(Result[Worst]),
              static_cast<double>(Want[Worst]), MaxError, Tolerance);
  return 1;
}

template <class T>
int finish(const Options &Opts, const char *Name, const std::string &Size,
           double Milliseconds, const std::vector<T> &Result,
           double Tolerance = 0) {
  return finish(Opts, Name, Size, Milliseconds, std::span<const T>(Result),
                Tolerance);
}

} // namespace sample

#endif // WEFT_SAMPLES_HARNESS_H
