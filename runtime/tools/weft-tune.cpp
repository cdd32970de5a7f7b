// weft-tune: the tuned configurations kept beside the kernel cache (list,
// export, import, so that a team can ship tuned settings), and searchers
// replayed against recordings of a whole tuning space.
#include "search/Replay.h"
#include "tune/TuningStore.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

using namespace weft::rt;

namespace {

const char *const Usage =
    "usage: weft-tune list\n"
    "       weft-tune export FILE\n"
    "       weft-tune import FILE\n"
    "       weft-tune replay [--budget N] [--seeds N] RECORDING...\n"
    "\n"
    "list    the tuned configurations kept for this user (WEFT_CACHE_DIR,\n"
    "        else $XDG_CACHE_HOME/weft, else ~/.cache/weft; under tuning/):\n"
    "        per loop, device and size bucket, the configuration, its time\n"
    "        and the mapped one's\n"
    "export  writes them all to FILE ('-': standard output)\n"
    "import  keeps those of FILE (from export) here: the next run of those\n"
    "        programs on that device starts tuned\n"
    "replay  runs each searcher (exhaustive, random, model) against\n"
    "        recordings (WEFT_TUNE=record=DIR writes them): configurations\n"
    "        needed to reach 95% of the best recorded, and the fraction of\n"
    "        the best reached within the budget (default 20; random and\n"
    "        model averaged over --seeds runs, default 20)\n";

bool readFile(const std::string &Path, std::string &Text) {
  std::ostringstream S;
  if (Path == "-") {
    S << std::cin.rdbuf();
  } else {
    std::ifstream In(Path);
    if (!In)
      return false;
    S << In.rdbuf();
  }
  Text = S.str();
  return true;
}

int list(TuningStore &Store) {
  const std::vector<TunedEntry> All = Store.all();
  std::printf("%zu tuned configurations in %s\n", All.size(),
              Store.directory().c_str());
  for (const TunedEntry &E : All) {
    std::string Values;
    for (unsigned V : E.Values)
      Values += " " + std::to_string(V);
    std::printf("%s  sizes %s  on %s\n  mapping %u (%s), values%s: %.1f us "
                "(mapped %.1f us), %u configurations timed\n",
                E.Location.c_str(), E.Bucket.c_str(), E.Device.c_str(),
                E.Mapping, E.Kernel.c_str(), Values.c_str(), E.Seconds * 1e6,
                E.MappedSeconds * 1e6, E.Tried);
  }
  return 0;
}

int exportTo(TuningStore &Store, const std::string &Path) {
  std::string Text;
  for (const TunedEntry &E : Store.all())
    Text += writeTunedEntry(E) + "\n";
  if (Path == "-") {
    std::fwrite(Text.data(), 1, Text.size(), stdout);
    return 0;
  }
  std::ofstream Out(Path);
  if (!(Out << Text)) {
    std::fprintf(stderr, "weft-tune: cannot write %s\n", Path.c_str());
    return 1;
  }
  return 0;
}

int importFrom(TuningStore &Store, const std::string &Path) {
  std::string Text;
  if (!readFile(Path, Text)) {
    std::fprintf(stderr, "weft-tune: cannot read %s\n", Path.c_str());
    return 1;
  }
  const std::string Header = "weft-tuned 1\n";
  unsigned Kept = 0;
  for (std::size_t At = Text.find(Header); At != std::string::npos;) {
    const std::size_t Next = Text.find("\n" + Header, At + 1);
    const std::string One = Text.substr(
        At, Next == std::string::npos ? std::string::npos : Next + 1 - At);
    std::string Error;
    std::optional<TunedEntry> E = parseTunedEntry(One, Error);
    if (!E) {
      std::fprintf(stderr, "weft-tune: %s: %s\n", Path.c_str(), Error.c_str());
      return 1;
    }
    if (!Store.save(*E, Error)) {
      std::fprintf(stderr, "weft-tune: %s\n", Error.c_str());
      return 1;
    }
    ++Kept;
    At = Next == std::string::npos ? Next : Next + 1;
  }
  std::printf("%u tuned configurations kept in %s\n", Kept,
              Store.directory().c_str());
  return Kept ? 0 : 1;
}

int replay(int Argc, char **Argv) {
  unsigned Budget = 20, Seeds = 20;
  std::vector<std::string> Files;
  for (int I = 0; I < Argc; ++I) {
    if ((!std::strcmp(Argv[I], "--budget") ||
         !std::strcmp(Argv[I], "--seeds")) &&
        I + 1 < Argc) {
      const unsigned long V = std::strtoul(Argv[I + 1], nullptr, 10);
      (Argv[I][2] == 'b' ? Budget : Seeds) = V ? static_cast<unsigned>(V) : 1;
      ++I;
    } else {
      Files.push_back(Argv[I]);
    }
  }
  if (Files.empty()) {
    std::fputs(Usage, stderr);
    return 2;
  }
  int Status = 0;
  for (const std::string &File : Files) {
    std::string Text, Error;
    std::optional<TuningRecording> R;
    std::optional<ReplaySpace> S;
    if (!readFile(File, Text) || !(R = parseRecording(Text, Error)) ||
        !(S = replaySpace(*R, Error))) {
      std::fprintf(stderr, "weft-tune: %s: %s\n", File.c_str(),
                   Error.empty() ? "cannot read it" : Error.c_str());
      Status = 1;
      continue;
    }
    std::printf("%s: %s, sizes %s, on %s: %zu configurations (%zu timed), "
                "best %.1f us\n",
                File.c_str(), R->Location.c_str(), R->Bucket.c_str(),
                R->Device.c_str(), S->Space.size(), S->Recorded, S->Best * 1e6);
    for (SearchMethod M : {SearchMethod::Exhaustive, SearchMethod::Random,
                           SearchMethod::Model}) {
      const unsigned Runs = M == SearchMethod::Exhaustive ? 1 : Seeds;
      double Steps = 0, Within = 0;
      unsigned Reached = 0;
      for (unsigned Seed = 1; Seed <= Runs; ++Seed) {
        const ReplayResult Result = replaySearch(*S, M, Seed, Budget, 0.95);
        if (Result.StepsToFraction) {
          Steps += *Result.StepsToFraction;
          ++Reached;
        }
        Within += Result.FractionWithinBudget;
      }
      std::printf("  %-10s 95%% of best after %s configurations; within %u: "
                  "%.1f%% of best\n",
                  searchMethodWord(M),
                  Reached ? std::to_string(Steps / Reached).substr(0, 5).c_str()
                          : "-",
                  Budget, 100 * Within / Runs);
    }
  }
  return Status;
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc < 2 || !std::strcmp(Argv[1], "--help") ||
      !std::strcmp(Argv[1], "-h")) {
    std::fputs(Usage, Argc < 2 ? stderr : stdout);
    return Argc < 2 ? 2 : 0;
  }
  const std::string Command = Argv[1];
  if (Command == "replay")
    return replay(Argc - 2, Argv + 2);
  TuningStore Store;
  std::string Why;
  if (!Store.ready(Why)) {
    std::fprintf(stderr, "weft-tune: %s\n", Why.c_str());
    return 1;
  }
  if (Command == "list" && Argc == 2)
    return list(Store);
  if (Command == "export" && Argc == 3)
    return exportTo(Store, Argv[2]);
  if (Command == "import" && Argc == 3)
    return importFrom(Store, Argv[2]);
  std::fputs(Usage, stderr);
  return 2;
}
