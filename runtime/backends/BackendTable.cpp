// BackendTable.cpp: the backends, in the order auto tries them.
#include "backends/BackendTable.h"

namespace weft::rt {

const std::vector<BackendEntry> &backendTable() {
  static const std::vector<BackendEntry> Table = {
      {"cuda", "CUDA", "CUDA device", createCudaBackend, true, true},
      {"hip", "HIP", "AMD GPU", createHipBackend, true, true},
      {"sim", "the simulator", nullptr, createSimBackend, false, false},
  };
  return Table;
}

const BackendEntry *findBackend(std::string_view Word) {
  for (const BackendEntry &E : backendTable())
    if (Word == E.Word)
      return &E;
  return nullptr;
}

} // namespace weft::rt
