// HostCompiler.h: compiles kernel text into a shared object with the host
// C++ compiler, started with an argument vector (never through a shell), and
// caches the result by content hash.
#ifndef WEFT_RUNTIME_SIM_HOSTCOMPILER_H
#define WEFT_RUNTIME_SIM_HOSTCOMPILER_H

#include "core/KernelCache.h"

#include <string>
#include <vector>

namespace weft::rt::sim {

class HostCompiler {
public:
  /// The compiler is WEFT_SIM_CXX, else the one weft was built with.
  HostCompiler();

  /// Writes Source to the cache and compiles it unless an object for the
  /// same text, flags and compiler is there already. Returns the object's
  /// path, or an empty string with Error set.
  std::string compile(const std::string &Name, const std::string &Source,
                      const std::vector<std::string> &Flags,
                      std::string &Error);

  const std::string &compiler() const { return Compiler; }

private:
  bool prepareCache(std::string &Error);
  std::string Compiler;
  KernelCache Cache{"sim"};
  bool Prepared = false;
};

} // namespace weft::rt::sim

#endif
