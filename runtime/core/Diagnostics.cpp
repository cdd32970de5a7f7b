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
  // One line, whatever the message holds (a compiler's log, say).
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
  emitLine("weft: warning: " + Line + "\n");
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
