// Diagnostics.h: the runtime's one-line messages on stderr.
#ifndef WEFT_RUNTIME_CORE_DIAGNOSTICS_H
#define WEFT_RUNTIME_CORE_DIAGNOSTICS_H

#include <string>

namespace weft::rt {

/// Prints "weft: warning: <Message>" as one line.
void warn(const std::string &Message);
/// WEFT_VERBOSE: 0 (unset), 1, or 2 (also what each launch did).
unsigned verbosity();
/// Prints "weft: <Message>" when WEFT_VERBOSE is at least Level.
void note(const std::string &Message, unsigned Level = 1);

/// What a fault (a failure that would send a marked loop back to the host)
/// does: warn and let the host loop run, or stop the program.
enum class FaultPolicy { Fallback, Error };
/// Set once, when the runtime starts; Why is said with every error.
void setFaultPolicy(FaultPolicy Policy, const std::string &Why);
FaultPolicy faultPolicy();
/// Under Fallback: "weft: warning: <Message>; <Fallback>". Under Error:
/// "weft: error: <Message> (<why>)" and the program exits with status 1.
void fault(const std::string &Message, const std::string &Fallback);

} // namespace weft::rt

#endif
