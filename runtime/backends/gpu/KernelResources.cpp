// KernelResources.cpp: reading ptxas's verbose report.
#include "gpu/KernelResources.h"

#include <cstdlib>
#include <cstring>
#include <sstream>

namespace weft::rt {

namespace {

/// The number before Unit on Line ("... 12 bytes spill stores"), or -1.
long numberBefore(const std::string &Line, const char *Unit) {
  std::size_t At = Line.find(Unit);
  if (At == std::string::npos)
    return -1;
  std::size_t End = Line.find_last_not_of(' ', At ? At - 1 : 0);
  if (End == std::string::npos)
    return -1;
  std::size_t Begin = Line.find_last_not_of("0123456789", End);
  Begin = Begin == std::string::npos ? 0 : Begin + 1;
  if (Begin > End)
    return -1;
  return std::strtol(Line.c_str() + Begin, nullptr, 10);
}

} // namespace

std::optional<KernelResources> parsePtxasLog(const std::string &Log,
                                             const std::string &Kernel) {
  // ptxas reports function by function: "Compiling entry function 'K'",
  // "Function properties for K" (stack and spills), "Used N registers"
  // (registers and shared memory).
  std::istringstream In(Log);
  std::string Line;
  bool InKernel = false, Found = false;
  KernelResources R;
  while (std::getline(In, Line)) {
    if (Line.find("Compiling entry function '") != std::string::npos ||
        Line.find("Function properties for ") != std::string::npos) {
      const std::size_t Name = Line.find(Kernel);
      InKernel = Name != std::string::npos &&
                 (Name + Kernel.size() == Line.size() ||
                  std::strchr("' ", Line[Name + Kernel.size()]));
      continue;
    }
    if (!InKernel)
      continue;
    if (long Stack = numberBefore(Line, "bytes stack frame"); Stack >= 0) {
      R.LocalBytes = Stack;
      R.SpillStoreBytes = numberBefore(Line, "bytes spill stores");
      R.SpillLoadBytes = numberBefore(Line, "bytes spill loads");
    }
    if (long Registers = numberBefore(Line, "registers"); Registers >= 0) {
      R.Registers = static_cast<int>(Registers);
      R.SharedBytes = std::max(0L, numberBefore(Line, "bytes smem"));
      Found = true;
    }
  }
  if (!Found)
    return std::nullopt;
  return R;
}

std::string describe(const KernelResources &R) {
  std::string S = std::to_string(R.Registers) + " registers, " +
                  std::to_string(R.SharedBytes) + " bytes shared, " +
                  std::to_string(R.LocalBytes) + " bytes local";
  if (R.SpillStoreBytes >= 0)
    S += " (" + std::to_string(R.SpillStoreBytes) + " bytes of spill stores, " +
         std::to_string(R.SpillLoadBytes) + " of spill loads)";
  return S;
}

} // namespace weft::rt
