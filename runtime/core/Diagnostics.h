// Diagnostics.h: the runtime's one-line messages on stderr.
#ifndef WEFT_RUNTIME_CORE_DIAGNOSTICS_H
#define WEFT_RUNTIME_CORE_DIAGNOSTICS_H

#include <string>

namespace weft::rt {

/// Prints "weft: warning: <Message>" as one line.
void warn(const std::string &Message);
/// Prints "weft: <Message>" when WEFT_VERBOSE is set.
void note(const std::string &Message);

} // namespace weft::rt

#endif
