// Environment.cpp: the launch policy's settings from the environment.
#include "policy/Environment.h"

#include "core/Diagnostics.h"

#include <cstdlib>
#include <cstring>

namespace weft::rt {

BackendChoice backendChoiceFromEnvironment() {
  const char *V = std::getenv("WEFT_BACKEND");
  BackendChoice Choice;
  if (!V || !*V || !std::strcmp(V, "auto"))
    return Choice;
  if (!std::strcmp(V, "host")) {
    Choice.Host = true;
    return Choice;
  }
  if ((Choice.Named = findBackend(V)))
    return Choice;
  std::string Words = "auto";
  for (const BackendEntry &E : backendTable())
    Words += std::string(", ") + E.Word;
  warn(std::string("WEFT_BACKEND='") + V + "' is not one of " + Words +
       ", host; using auto");
  return Choice;
}

void chooseFaultPolicy(const BackendChoice &Choice) {
  const char *V = std::getenv("WEFT_ON_FAULT");
  const std::string Value = V ? V : "";
  if (Value == "error") {
    setFaultPolicy(FaultPolicy::Error, "WEFT_ON_FAULT=error");
    return;
  }
  if (!Value.empty() && Value != "fallback")
    warn("WEFT_ON_FAULT='" + Value +
         "' is not one of fallback, error; using the default");
  if (Value != "fallback" && Choice.Named && Choice.Named->FaultsAreErrors) {
    setFaultPolicy(FaultPolicy::Error,
                   std::string("WEFT_BACKEND=") + Choice.Named->Word +
                       " makes this an error; WEFT_ON_FAULT=fallback runs the "
                       "loop on the host instead");
    return;
  }
  setFaultPolicy(FaultPolicy::Fallback, "");
}

const std::vector<std::string> &kernelDefines() {
  static const std::vector<std::string> Defines = [] {
    std::vector<std::string> D;
    const char *V = std::getenv("WEFT_KERNEL_DEFINES");
    std::string Word;
    for (const char *C = V ? V : "";; ++C) {
      if (*C && *C != ' ') {
        Word += *C;
        continue;
      }
      if (Word.rfind("WEFT_BLOCK_", 0) == 0)
        warn("WEFT_KERNEL_DEFINES: " + Word +
             " ignored (block sizes follow the mapping and tuning)");
      else if (!Word.empty())
        D.push_back(Word);
      Word.clear();
      if (!*C)
        break;
    }
    const char *Strict = std::getenv("WEFT_STRICT_FP");
    if (Strict && !std::strcmp(Strict, "1"))
      D.push_back("WEFT_STRICT_FP=1");
    return D;
  }();
  return Defines;
}

const TuneSettings &tuneSettings() {
  static const TuneSettings Settings = [] {
    TuneSettings T;
    const char *V = std::getenv("WEFT_TUNE");
    std::string Item;
    for (const char *C = V ? V : "";; ++C) {
      if (*C && *C != ',') {
        Item += *C;
        continue;
      }
      const std::size_t Eq = Item.find('=');
      const std::string Key = Item.substr(0, Eq),
                        Value =
                            Eq == std::string::npos ? "" : Item.substr(Eq + 1);
      std::optional<SearchMethod> Method;
      char *End = nullptr;
      const unsigned long Budget =
          Key == "budget" ? std::strtoul(Value.c_str(), &End, 10) : 0;
      if (Item == "0" || Item == "off")
        T.Enabled = 0;
      else if (Item == "1" || Item == "on")
        T.Enabled = 1;
      else if (Item == "reductions")
        T.Reductions = true;
      else if (Item == "fresh")
        T.Fresh = true;
      else if (Item == "eager")
        T.Eager = true;
      else if (Item == "inline")
        T.Inline = true;
      else if (Key == "budget" && !Value.empty() && Budget > 0 && !*End)
        T.Budget = static_cast<unsigned>(Budget);
      else if (Key == "search" && (Method = parseSearchMethod(Value)))
        T.Method = *Method;
      else if (Key == "record" && !Value.empty())
        T.RecordDirectory = Value;
      else if (!Item.empty())
        warn("WEFT_TUNE: '" + Item +
             "' ignored (expected off, on, reductions, fresh, eager, inline, "
             "budget=N, "
             "search=exhaustive|random|model or record=DIR)");
      if (!Item.empty() && T.Enabled < 0 && Item != "0" && Item != "off")
        T.Enabled = 1;
      Item.clear();
      if (!*C)
        break;
    }
    return T;
  }();
  return Settings;
}

bool tuningEnabled(const Backend &B) {
  const int Setting = tuneSettings().Enabled;
  const BackendEntry *E = findBackend(B.name());
  return Setting < 0 ? !E || E->TunesByDefault : Setting == 1;
}

bool asyncLaunches() {
  static const bool Async = [] {
    const char *V = std::getenv("WEFT_ASYNC");
    return !V || std::strcmp(V, "0") != 0;
  }();
  return Async;
}

const ProfileSettings &profileSettings() {
  static const ProfileSettings Settings = [] {
    ProfileSettings P;
    const char *V = std::getenv("WEFT_PROFILE");
    std::string Items = V ? V : "";
    for (std::size_t Start = 0; Start < Items.size();) {
      std::size_t End = Items.find(',', Start);
      if (End == std::string::npos)
        End = Items.size();
      const std::string Item = Items.substr(Start, End - Start);
      Start = End + 1;
      if (Item == "1" || Item == "on" || Item == "table")
        P.Table = true;
      else if (Item.rfind("json:", 0) == 0 && Item.size() > 5)
        P.JsonFile = Item.substr(5);
      else if (Item == "nohost")
        P.HostTrial = false;
      else if (Item != "0" && Item != "off" && !Item.empty())
        warn("WEFT_PROFILE: '" + Item +
             "' is not 1, 0, json:FILE or nohost; it is left out");
    }
    return P;
  }();
  return Settings;
}

Status injectedFault(const char *Stage) {
  struct Fault {
    std::string Stage;
    unsigned long From = 1, Seen = 0;
  };
  static std::vector<Fault> Faults = [] {
    std::vector<Fault> F;
    const char *V = std::getenv("WEFT_TEST_FAULT");
    std::string Item;
    for (const char *C = V ? V : "";; ++C) {
      if (*C && *C != ',') {
        Item += *C;
        continue;
      }
      if (!Item.empty()) {
        const std::size_t At = Item.find('@');
        F.push_back({Item.substr(0, At),
                     At == std::string::npos
                         ? 1
                         : std::strtoul(Item.c_str() + At + 1, nullptr, 10)});
      }
      Item.clear();
      if (!*C)
        break;
    }
    return F;
  }();
  for (Fault &F : Faults)
    if (F.Stage == Stage && ++F.Seen >= F.From)
      return "injected fault (WEFT_TEST_FAULT=" + F.Stage +
             (F.From > 1 ? "@" + std::to_string(F.From) : "") + ")";
  return {};
}

} // namespace weft::rt
