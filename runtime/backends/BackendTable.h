// BackendTable.h: every backend marked loops can run on, in one table: its
// WEFT_BACKEND word, how messages name it, its factory, and what choosing
// it means. Adding a backend is a line here and a folder beside this file.
#ifndef WEFT_RUNTIME_BACKENDS_BACKENDTABLE_H
#define WEFT_RUNTIME_BACKENDS_BACKENDTABLE_H

#include "core/Backend.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace weft::rt {

struct BackendEntry {
  /// WEFT_BACKEND=<Word>, and the backend's name().
  const char *Word;
  /// "CUDA": "WEFT_BACKEND=cuda, but CUDA is unavailable".
  const char *Title;
  /// "CUDA device": "no CUDA device: ..." where auto finds none; null for
  /// a backend auto does not try.
  const char *AutoFinds;
  /// Null (and a reason) when the backend cannot run here.
  std::unique_ptr<Backend> (*Create)(std::string &Reason);
  /// Asked for by name, a fault stops the program unless
  /// WEFT_ON_FAULT=fallback: the user asked for that device.
  bool FaultsAreErrors;
  /// Loops are tuned unless WEFT_TUNE says otherwise (a simulator's
  /// timings say nothing about a GPU's).
  bool TunesByDefault;
};

/// The backends' factories (each defined in its folder): null, and a
/// reason, when the backend cannot run here.
std::unique_ptr<Backend> createCudaBackend(std::string &Reason);
std::unique_ptr<Backend> createHipBackend(std::string &Reason);
std::unique_ptr<Backend> createSimBackend(std::string &Reason);

/// In the order WEFT_BACKEND=auto tries them.
const std::vector<BackendEntry> &backendTable();
/// The entry of a WEFT_BACKEND word or a backend's name(); null for none.
const BackendEntry *findBackend(std::string_view Word);

} // namespace weft::rt

#endif
