// Diagnose.h: clang-style diagnostics from the plugin: a message at a source
// location, and a note with the fix where there is one.
#ifndef WEFT_PLUGIN_SUPPORT_DIAGNOSE_H
#define WEFT_PLUGIN_SUPPORT_DIAGNOSE_H

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"

#include <string>

namespace weft {

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
  Loc = userLocation(D, Loc);
  D.Report(Loc, D.getCustomDiagID(Level, "%0")) << Message;
  if (!Hint.empty())
    D.Report(Loc, D.getCustomDiagID(clang::DiagnosticsEngine::Note, "%0"))
        << Hint;
}

inline void error(clang::DiagnosticsEngine &D, clang::SourceLocation Loc,
                  const std::string &Message, const std::string &Hint = "") {
  diagnose(D, Loc, clang::DiagnosticsEngine::Error, Message, Hint);
}

} // namespace weft

#endif
