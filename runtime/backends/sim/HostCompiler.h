// HostCompiler.h: compiles kernel text into a shared object with the host
// C++ compiler, started with an argument vector (never through a shell), and
// caches the result by content hash. The compiler runs inside the cache's
// verified folder (its working directory set from the folder's descriptor)
// and the object is loaded through the descriptor of the file checked, so
// no one can swap in a file of theirs between the check and the load.
#ifndef WEFT_RUNTIME_BACKENDS_SIM_HOSTCOMPILER_H
#define WEFT_RUNTIME_BACKENDS_SIM_HOSTCOMPILER_H

#include "core/KernelCache.h"

#include <mutex>
#include <string>
#include <vector>

namespace weft::rt::sim {

class HostCompiler {
public:
  /// The compiler is WEFT_SIM_CXX, else the one weft was built with.
  HostCompiler();
  ~HostCompiler();

  /// Compiles Source unless an object for the same text, flags and
  /// compiler is cached, and loads it (dlopen). Returns the library's
  /// handle, or null with Error set.
  void *compileAndLoad(const std::string &Name, const std::string &Source,
                       const std::vector<std::string> &Flags, bool &FromCache,
                       std::string &Error);

  /// Compiles Source into the cache as compileAndLoad would, loading
  /// nothing; safe on another thread while this one compiles and loads.
  bool precompile(const std::string &Name, const std::string &Source,
                  const std::vector<std::string> &Flags, std::string &Error);

  const std::string &compiler() const { return Compiler; }

private:
  /// The object for Source and Flags: Object names it in the folder; Built
  /// is where it lies now (Object when cached and UseCached, else a
  /// temporary file the caller renames to Object).
  bool compile(const std::string &Name, const std::string &Source,
               const std::vector<std::string> &Flags, std::string &Object,
               std::string &Built, bool UseCached, std::string &Error);
  /// Renames Built to Object (atomically: the entry the next run finds),
  /// unless it is Object already.
  bool keep(const std::string &Built, const std::string &Object,
            std::string &Error);
  /// The cache's folder, or where the cache cannot be used (after one
  /// warning), a private temporary folder for this process.
  bool prepare(std::string &Error);
  /// Loads File of the working folder through its verified descriptor.
  void *load(const std::string &File, std::string &Error);
  std::string Compiler;
  KernelCache Cache{"sim"};
  int DirFd = -1;         // the cache's, or the private folder's
  std::string DirName;    // for messages
  std::string PrivateDir; // removed when the process ends
  bool Prepared = false;
  std::mutex PrepareLock;
};

} // namespace weft::rt::sim

#endif
