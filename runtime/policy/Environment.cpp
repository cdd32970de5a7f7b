// Environment.cpp: the launch policy's settings from the environment.
#include "policy/Environment.h"

#include "core/Diagnostics.h"

#include <cstdlib>
#include <cstring>

namespace weft::rt {

BackendChoice backendChoiceFromEnvironment() {
  const char *V = std::getenv("WEFT_BACKEND");
  if (!V || !*V || !std::strcmp(V, "auto"))
    return BackendChoice::Auto;
  if (!std::strcmp(V, "cuda"))
    return BackendChoice::Cuda;
  if (!std::strcmp(V, "hip"))
    return BackendChoice::Hip;
  if (!std::strcmp(V, "sim"))
    return BackendChoice::Sim;
  if (!std::strcmp(V, "host"))
    return BackendChoice::Host;
  warn(std::string("WEFT_BACKEND='") + V +
       "' is not one of auto, cuda, hip, sim, host; using auto");
  return BackendChoice::Auto;
}

void chooseFaultPolicy(BackendChoice Choice) {
  const char *V = std::getenv("WEFT_ON_FAULT");
  const std::string Value = V ? V : "";
  if (Value == "error") {
    setFaultPolicy(FaultPolicy::Error, "WEFT_ON_FAULT=error");
    return;
  }
  if (!Value.empty() && Value != "fallback")
    warn("WEFT_ON_FAULT='" + Value +
         "' is not one of fallback, error; using the default");
  if (Value != "fallback" &&
      (Choice == BackendChoice::Cuda || Choice == BackendChoice::Hip)) {
    const std::string Name = Choice == BackendChoice::Cuda ? "cuda" : "hip";
    setFaultPolicy(FaultPolicy::Error,
                   "WEFT_BACKEND=" + Name +
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
    return D;
  }();
  return Defines;
}

bool tuningEnabled(const Backend &B) {
  static const int Setting = [] {
    const char *V = std::getenv("WEFT_TUNE");
    return !V || !*V ? -1 : std::strcmp(V, "0") != 0;
  }();
  return Setting < 0 ? std::strcmp(B.name(), "sim") != 0 : Setting == 1;
}

Status injectedFault(const char *Stage) {
  static const std::string Fault = [] {
    const char *F = std::getenv("WEFT_TEST_FAULT");
    return std::string(F ? F : "");
  }();
  return Fault == Stage ? "injected fault (WEFT_TEST_FAULT=" + Fault + ")"
                        : Status();
}

} // namespace weft::rt
