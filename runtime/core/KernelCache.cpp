// KernelCache.cpp: the on-disk cache's directory checks, descriptor-relative
// entries and entry format.
#include "core/KernelCache.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace weft::rt {

namespace {
constexpr char Magic[8] = {'w', 'e', 'f', 't', 'k', 'c', '0', '1'};
// Magic, then the binary's size, its checksum and the key's hash.
constexpr std::size_t HeaderSize = 32;

std::uint64_t fnv1a(const char *Data, std::size_t Size) {
  std::uint64_t H = 1469598103934665603ull;
  for (std::size_t I = 0; I < Size; ++I) {
    H ^= static_cast<unsigned char>(Data[I]);
    H *= 1099511628211ull;
  }
  return H;
}

bool makeDirectories(const std::string &Path) {
  for (std::size_t I = 1; I <= Path.size(); ++I)
    if (I == Path.size() || Path[I] == '/') {
      const std::string Prefix = Path.substr(0, I);
      if (::mkdir(Prefix.c_str(), 0700) != 0 && errno != EEXIST)
        return false;
    }
  return true;
}
} // namespace

std::string contentHash(const std::string &Text) {
  char Out[17];
  std::snprintf(
      Out, sizeof Out, "%016llx",
      static_cast<unsigned long long>(fnv1a(Text.data(), Text.size())));
  return Out;
}

std::string userCacheDirectory() {
  if (const char *D = std::getenv("WEFT_CACHE_DIR"); D && *D)
    return D;
  if (const char *D = std::getenv("XDG_CACHE_HOME"); D && *D)
    return std::string(D) + "/weft";
  if (const char *H = std::getenv("HOME"); H && *H)
    return std::string(H) + "/.cache/weft";
  return "/tmp/weft-cache-" + std::to_string(getuid());
}

int openPrivateDirectory(int AtFd, const std::string &Path, std::string &Why) {
  const int Fd = ::openat(AtFd, Path.c_str(),
                          O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (Fd < 0) {
    struct stat St;
    Why = ::fstatat(AtFd, Path.c_str(), &St, AT_SYMLINK_NOFOLLOW) == 0 &&
                  S_ISLNK(St.st_mode)
              ? Path + " is a symbolic link"
              : "cannot open " + Path + ": " + std::strerror(errno);
    return -1;
  }
  struct stat St;
  if (::fstat(Fd, &St) != 0 || St.st_uid != ::getuid() ||
      (St.st_mode & (S_IWGRP | S_IWOTH))) {
    // Another user could plant a kernel there.
    Why = Path + " is writable by others or not yours";
    ::close(Fd);
    return -1;
  }
  return Fd;
}

int openVerifiedEntry(int DirFd, const std::string &File) {
  const int Fd =
      ::openat(DirFd, File.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (Fd < 0)
    return -1;
  struct stat St;
  if (::fstat(Fd, &St) != 0 || !S_ISREG(St.st_mode) ||
      St.st_uid != ::getuid() || (St.st_mode & (S_IWGRP | S_IWOTH))) {
    ::close(Fd);
    return -1;
  }
  return Fd;
}

bool writeEntryAtomically(int DirFd, const std::string &File, const char *Data,
                          std::size_t Size, std::string &Why) {
  static std::atomic<unsigned> Counter{0};
  const std::string Tmp = File + ".tmp." + std::to_string(::getpid()) + "." +
                          std::to_string(Counter++);
  const int Fd =
      ::openat(DirFd, Tmp.c_str(),
               O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (Fd < 0) {
    Why = "cannot create " + Tmp + ": " + std::strerror(errno);
    return false;
  }
  std::size_t Done = 0;
  int Error = 0;
  while (Done < Size) {
    const ssize_t N = ::write(Fd, Data + Done, Size - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      Error = N < 0 ? errno : ENOSPC;
      break;
    }
    Done += static_cast<std::size_t>(N);
  }
  if (::close(Fd) != 0 && !Error)
    Error = errno;
  // Readers see the old entry or the whole new one.
  if (!Error && ::renameat(DirFd, Tmp.c_str(), DirFd, File.c_str()) != 0)
    Error = errno;
  if (Error) {
    ::unlinkat(DirFd, Tmp.c_str(), 0);
    Why = "cannot write " + File + ": " + std::strerror(Error);
    return false;
  }
  return true;
}

KernelCache::KernelCache(std::string Subdirectory)
    : Directory(userCacheDirectory() + "/" + Subdirectory),
      Subdirectory(std::move(Subdirectory)) {}

KernelCache::~KernelCache() {
  if (DirFd >= 0)
    ::close(DirFd);
}

bool KernelCache::ready(std::string &Why) {
  std::lock_guard<std::mutex> Guard(ReadyLock);
  if (State == 0) {
    const std::string Root = userCacheDirectory();
    std::string Reason;
    int RootFd = -1;
    if (!makeDirectories(Root))
      Reason = "cannot create " + Root + ": " + std::strerror(errno);
    else
      RootFd = openPrivateDirectory(AT_FDCWD, Root, Reason);
    if (RootFd >= 0) {
      if (::mkdirat(RootFd, Subdirectory.c_str(), 0700) != 0 && errno != EEXIST)
        Reason = "cannot create " + Directory + ": " + std::strerror(errno);
      else if ((DirFd = openPrivateDirectory(RootFd, Subdirectory, Reason)) < 0)
        Reason.replace(Reason.find(Subdirectory), Subdirectory.size(),
                       Directory); // named by its whole path
      ::close(RootFd);
    }
    State = DirFd >= 0 ? 1 : -1;
    if (State < 0)
      Problem = "the kernel cache is not used: " + Reason;
  }
  Why = Problem;
  return State == 1;
}

std::string KernelCache::fileName(const std::string &Name,
                                  const std::string &Key) const {
  return Name + "-" + contentHash(Key) + ".bin";
}

std::optional<std::vector<char>> KernelCache::load(const std::string &Name,
                                                   const std::string &Key) {
  return loadFile(fileName(Name, Key), &Key);
}

std::vector<std::string> KernelCache::files(const std::string &Prefix) {
  std::vector<std::string> Out;
  std::string Why;
  if (!ready(Why))
    return Out;
  const int Fd = ::dup(DirFd);
  DIR *D = Fd >= 0 ? ::fdopendir(Fd) : nullptr;
  if (!D) {
    if (Fd >= 0)
      ::close(Fd);
    return Out;
  }
  ::rewinddir(D);
  while (const dirent *E = ::readdir(D)) {
    const std::string Name = E->d_name;
    if (Name.rfind(Prefix, 0) == 0 && Name.size() > 4 &&
        Name.compare(Name.size() - 4, 4, ".bin") == 0)
      Out.push_back(Name);
  }
  ::closedir(D);
  std::sort(Out.begin(), Out.end());
  return Out;
}

std::optional<std::vector<char>> KernelCache::loadFile(const std::string &File,
                                                       const std::string *Key) {
  std::string Why;
  if (!ready(Why))
    return std::nullopt;
  const int Fd = openVerifiedEntry(DirFd, File);
  if (Fd < 0)
    return std::nullopt;
  std::vector<char> Whole;
  char Buffer[1 << 16];
  while (true) {
    const ssize_t N = ::read(Fd, Buffer, sizeof Buffer);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0 || Whole.size() > (1ull << 31))
      break;
    Whole.insert(Whole.end(), Buffer, Buffer + N);
  }
  ::close(Fd);
  std::uint64_t Size = 0, Sum = 0, KeyHash = 0;
  if (Whole.size() < HeaderSize || std::memcmp(Whole.data(), Magic, 8) != 0)
    return std::nullopt; // Corrupt: rebuilt.
  std::memcpy(&Size, Whole.data() + 8, 8);
  std::memcpy(&Sum, Whole.data() + 16, 8);
  std::memcpy(&KeyHash, Whole.data() + 24, 8);
  if (Size != Whole.size() - HeaderSize ||
      (Key && KeyHash != fnv1a(Key->data(), Key->size())))
    return std::nullopt; // Truncated, or a hash collision.
  std::vector<char> Binary(Whole.begin() + HeaderSize, Whole.end());
  if (fnv1a(Binary.data(), Binary.size()) != Sum)
    return std::nullopt;
  return Binary;
}

bool KernelCache::store(const std::string &Name, const std::string &Key,
                        const std::vector<char> &Binary, std::string &Why) {
  if (!ready(Why))
    return false;
  const std::uint64_t Header[3] = {Binary.size(),
                                   fnv1a(Binary.data(), Binary.size()),
                                   fnv1a(Key.data(), Key.size())};
  std::vector<char> Whole(Magic, Magic + 8);
  Whole.insert(Whole.end(), reinterpret_cast<const char *>(Header),
               reinterpret_cast<const char *>(Header) + sizeof Header);
  Whole.insert(Whole.end(), Binary.begin(), Binary.end());
  if (writeEntryAtomically(DirFd, fileName(Name, Key), Whole.data(),
                           Whole.size(), Why))
    return true;
  Why = "the kernel cache " + Directory + ": " + Why;
  return false;
}

} // namespace weft::rt
