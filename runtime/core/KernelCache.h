// KernelCache.h: compiled kernels on disk, per user, so that a second run of
// a program compiles nothing. Entries are keyed by everything that shapes the
// binary (kernel text, defines, backend, architecture, compiler version) and
// carry a checksum: a corrupt entry is detected and rebuilt.
//
// No one else may get a file of theirs loaded: every directory from the
// cache root down must be a directory (not a link) of this user that no one
// else can write; the backend's folder is then held open, and entries are
// opened relative to it (never by path again, so swapping a parent after the
// check changes nothing), without following links, and written atomically.
#ifndef WEFT_RUNTIME_CORE_KERNELCACHE_H
#define WEFT_RUNTIME_CORE_KERNELCACHE_H

#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace weft::rt {

class KernelCache {
public:
  /// The cache under Subdirectory of the user's cache directory
  /// (WEFT_CACHE_DIR, else $XDG_CACHE_HOME/weft, else ~/.cache/weft).
  explicit KernelCache(std::string Subdirectory);
  ~KernelCache();
  KernelCache(const KernelCache &) = delete;
  KernelCache &operator=(const KernelCache &) = delete;

  /// Creates the directories (0700) on first use, checks them and opens the
  /// backend's. False, with the reason, when it cannot, or when a directory
  /// is a link, not this user's, or writable by others: then nothing is
  /// cached. Any thread may call it, and load and store.
  bool ready(std::string &Why);
  const std::string &directory() const { return Directory; }
  /// The verified folder, open (-1 before ready()).
  int directoryFd() const { return DirFd; }

  std::optional<std::vector<char>> load(const std::string &Name,
                                        const std::string &Key);
  /// The entry in File, whatever its key (checked against Key when given);
  /// none when it is missing, corrupt, or not verifiably this user's.
  std::optional<std::vector<char>> loadFile(const std::string &File,
                                            const std::string *Key = nullptr);
  /// The entries' file names that start with Prefix.
  std::vector<std::string> files(const std::string &Prefix);
  /// False, with the reason (a full disk), when the entry could not be
  /// written; the cache holds no partial entry then.
  bool store(const std::string &Name, const std::string &Key,
             const std::vector<char> &Binary, std::string &Why);

  /// The file name of an entry, inside directory().
  std::string fileName(const std::string &Name, const std::string &Key) const;

private:
  std::string Directory, Subdirectory;
  int DirFd = -1;
  int State = 0;        // 0 unknown, 1 ready, -1 unusable
  std::mutex ReadyLock; // the tuner's compile thread uses the cache too
  std::string Problem;
};

/// Opens File in the directory DirFd for reading, without following a
/// link, and only if it is a regular file of this user that no one else can
/// write. -1 otherwise.
int openVerifiedEntry(int DirFd, const std::string &File);

/// Writes Data to File in DirFd atomically: a new temporary file in the same
/// directory, renamed over File once complete. False with the reason.
bool writeEntryAtomically(int DirFd, const std::string &File, const char *Data,
                          std::size_t Size, std::string &Why);

/// Opens Path, a directory that must not be a link and must belong to this
/// user with no write permission for others (checked on the open
/// descriptor). -1 with the reason otherwise.
int openPrivateDirectory(int AtFd, const std::string &Path, std::string &Why);

/// 64-bit FNV-1a of Text, as 16 hex digits.
std::string contentHash(const std::string &Text);

/// WEFT_CACHE_DIR, else $XDG_CACHE_HOME/weft, else ~/.cache/weft.
std::string userCacheDirectory();

} // namespace weft::rt

#endif
