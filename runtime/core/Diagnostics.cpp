// Diagnostics.cpp: one write per line, so lines from threads do not interleave.
#include "core/Diagnostics.h"

#include <cstdio>
#include <cstdlib>

namespace weft::rt {

static void emitLine(const std::string &Line) {
  std::fputs(Line.c_str(), stderr);
  std::fflush(stderr);
}

/// One line, whatever the message holds (a compiler's log, say).
static std::string oneLine(const std::string &Message) {
  std::string Line;
  for (char C : Message)
    if (C == '\n') {
      if (!Line.empty() && Line.back() != ' ')
        Line += ' ';
    } else {
      Line += C;
    }
  constexpr std::size_t Limit = 1000;
  if (Line.size() > Limit)
    Line = Line.substr(0, Limit) + "...";
  return Line;
}

void warn(const std::string &Message) {
  emitLine("weft: warning: " + oneLine(Message) + "\n");
}

namespace {
struct PolicyState {
  FaultPolicy Policy = FaultPolicy::Fallback;
  std::string Why;
};
PolicyState &policyState() {
  static PolicyState S;
  return S;
}
} // namespace

FaultPolicy faultPolicy() { return policyState().Policy; }

void setFaultPolicy(FaultPolicy Policy, const std::string &Why) {
  policyState() = {Policy, Why};
}

void fault(const std::string &Message, const std::string &Fallback) {
  const PolicyState &S = policyState();
  if (S.Policy == FaultPolicy::Fallback) {
    warn(Message + "; " + Fallback);
    return;
  }
  emitLine("weft: error: " + oneLine(Message) + " (" + S.Why + ")\n");
  // exit, not abort: what the program printed so far still reaches its
  // files and pipes.
  std::exit(1);
}

unsigned verbosity() {
  static const unsigned Level = [] {
    const char *V = std::getenv("WEFT_VERBOSE");
    if (!V || !*V || *V == '0')
      return 0u;
    return *V == '2' ? 2u : 1u;
  }();
  return Level;
}

void note(const std::string &Message, unsigned Level) {
  if (verbosity() >= Level)
    emitLine("weft: " + Message + "\n");
}

} // namespace weft::rt
