// Diagnostics.cpp: one write per line, so lines from threads do not interleave.
#include "core/Diagnostics.h"

#include <cstdio>
#include <cstdlib>

namespace weft::rt {

static void emitLine(const std::string &Line) {
  std::fputs(Line.c_str(), stderr);
  std::fflush(stderr);
}

void warn(const std::string &Message) {
  emitLine("weft: warning: " + Message + "\n");
}

void note(const std::string &Message) {
  static const bool Verbose = [] {
    const char *V = std::getenv("WEFT_VERBOSE");
    return V && *V && *V != '0';
  }();
  if (Verbose)
    emitLine("weft: " + Message + "\n");
}

} // namespace weft::rt
