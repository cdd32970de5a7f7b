// Diagnose.h: clang-style diagnostics from the plugin: a message at a source
// location, and a note with the fix where there is one.
#ifndef WEFT_PLUGIN_SUPPORT_DIAGNOSE_H
#define WEFT_PLUGIN_SUPPORT_DIAGNOSE_H

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace weft {

/// An error held back instead of reported, with the notes that followed it
/// (where in the loop a function was called that it was found in).
struct HeldError {
  clang::SourceLocation Loc;
  std::string Message, Hint;
  std::vector<std::pair<clang::SourceLocation, std::string>> Notes;
};

/// While one lives, error() keeps the first error instead of reporting it:
/// a loop that OpenMP already runs is tried, and what stops weft taking it
/// is why it stays with OpenMP, not an error in the user's program.
class HeldErrors {
public:
  HeldErrors() : Outer(current()) { current() = this; }
  ~HeldErrors() { current() = Outer; }
  HeldErrors(const HeldErrors &) = delete;
  HeldErrors &operator=(const HeldErrors &) = delete;

  /// The first error held, if any.
  const std::optional<HeldError> &first() const { return First; }

  /// The innermost live one, or null.
  static HeldErrors *&current() {
    static HeldErrors *Current = nullptr;
    return Current;
  }
  void hold(HeldError E) {
    if (!First)
      First = std::move(E);
  }
  /// A note, held with the first error where it follows it; false where
  /// there is none to follow (the note is reported).
  bool holdNote(clang::SourceLocation Loc, const std::string &Message) {
    if (!First)
      return false;
    if (First->Notes.size() < 16)
      First->Notes.push_back({Loc, Message});
    return true;
  }

private:
  HeldErrors *Outer;
  std::optional<HeldError> First;
};

/// Where to report Loc: the pragma the user wrote, not the attribute tokens
/// `#pragma weft parallel for` expands to in scratch space (clang would
/// print them as "expanded from here" notes).
inline clang::SourceLocation userLocation(clang::DiagnosticsEngine &D,
                                          clang::SourceLocation Loc) {
  if (!Loc.isMacroID() || !D.hasSourceManager())
    return Loc;
  const clang::SourceManager &SM = D.getSourceManager();
  return SM.isWrittenInScratchSpace(SM.getSpellingLoc(Loc))
             ? SM.getExpansionLoc(Loc)
             : Loc;
}

inline void diagnose(clang::DiagnosticsEngine &D, clang::SourceLocation Loc,
                     clang::DiagnosticsEngine::Level Level,
                     const std::string &Message, const std::string &Hint = "") {
  if (HeldErrors *Held = HeldErrors::current();
      Held && Level == clang::DiagnosticsEngine::Note &&
      Held->holdNote(Loc, Message))
    return;
  Loc = userLocation(D, Loc);
  D.Report(Loc, D.getCustomDiagID(Level, "%0")) << Message;
  if (!Hint.empty())
    D.Report(Loc, D.getCustomDiagID(clang::DiagnosticsEngine::Note, "%0"))
        << Hint;
}

inline void error(clang::DiagnosticsEngine &D, clang::SourceLocation Loc,
                  const std::string &Message, const std::string &Hint = "") {
  if (HeldErrors *Held = HeldErrors::current())
    return Held->hold({Loc, Message, Hint});
  diagnose(D, Loc, clang::DiagnosticsEngine::Error, Message, Hint);
}

} // namespace weft

#endif
