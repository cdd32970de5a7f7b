// KernelCache.h: compiled kernels on disk, per user, so that a second run of
// a program compiles nothing. Entries are keyed by everything that shapes the
// binary (kernel text, defines, backend, architecture, compiler version) and
// carry a checksum: a corrupt entry is detected and rebuilt.
#ifndef WEFT_RUNTIME_CORE_KERNELCACHE_H
#define WEFT_RUNTIME_CORE_KERNELCACHE_H

#include <optional>
#include <string>
#include <vector>

namespace weft::rt {

class KernelCache {
public:
  /// The cache under Subdirectory of the user's cache directory
  /// (WEFT_CACHE_DIR, else $XDG_CACHE_HOME/weft, else ~/.cache/weft).
  explicit KernelCache(std::string Subdirectory);

  /// Creates the directory (0700) on first use. False, with the reason, when
  /// it cannot, or when others can write to it: then nothing is cached.
  bool ready(std::string &Why);
  const std::string &directory() const { return Directory; }

  std::optional<std::vector<char>> load(const std::string &Name,
                                        const std::string &Key);
  void store(const std::string &Name, const std::string &Key,
             const std::vector<char> &Binary);

  /// The file an entry lives in.
  std::string path(const std::string &Name, const std::string &Key) const;

private:
  std::string Directory;
  int State = 0; // 0 unknown, 1 ready, -1 unusable
  std::string Problem;
};

/// 64-bit FNV-1a of Text, as 16 hex digits.
std::string contentHash(const std::string &Text);

/// WEFT_CACHE_DIR, else $XDG_CACHE_HOME/weft, else ~/.cache/weft.
std::string userCacheDirectory();

} // namespace weft::rt

#endif
