// KernelCache.cpp: the on-disk cache's directory policy and entry format.
#include "core/KernelCache.h"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace weft::rt {

namespace {
constexpr char Magic[8] = {'w', 'e', 'f', 't', 'k', 'c', '0', '1'};

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

KernelCache::KernelCache(std::string Subdirectory)
    : Directory(userCacheDirectory() + "/" + Subdirectory) {}

bool KernelCache::ready(std::string &Why) {
  if (State == 0) {
    struct stat St;
    if (!makeDirectories(Directory) || ::stat(Directory.c_str(), &St) != 0) {
      Problem = "cannot create the kernel cache " + Directory;
      State = -1;
    } else if (St.st_uid != getuid() || (St.st_mode & (S_IWGRP | S_IWOTH))) {
      // Another user could plant a kernel there.
      Problem = "the kernel cache " + Directory +
                " is writable by others or not yours; it is not used";
      State = -1;
    } else {
      State = 1;
    }
  }
  Why = Problem;
  return State == 1;
}

std::string KernelCache::path(const std::string &Name,
                              const std::string &Key) const {
  return Directory + "/" + Name + "-" + contentHash(Key) + ".bin";
}

std::optional<std::vector<char>> KernelCache::load(const std::string &Name,
                                                   const std::string &Key) {
  std::string Why;
  if (!ready(Why))
    return std::nullopt;
  std::ifstream In(path(Name, Key), std::ios::binary);
  if (!In)
    return std::nullopt;
  char Header[8];
  std::uint64_t Size = 0, Sum = 0, KeyHash = 0;
  In.read(Header, 8);
  In.read(reinterpret_cast<char *>(&Size), 8);
  In.read(reinterpret_cast<char *>(&Sum), 8);
  In.read(reinterpret_cast<char *>(&KeyHash), 8);
  if (!In || std::memcmp(Header, Magic, 8) != 0 || Size > (1ull << 31) ||
      KeyHash != fnv1a(Key.data(), Key.size()))
    return std::nullopt; // Corrupt or a hash collision: rebuilt.
  std::vector<char> Binary(Size);
  In.read(Binary.data(), static_cast<std::streamsize>(Size));
  if (!In || fnv1a(Binary.data(), Binary.size()) != Sum)
    return std::nullopt;
  return Binary;
}

void KernelCache::store(const std::string &Name, const std::string &Key,
                        const std::vector<char> &Binary) {
  std::string Why;
  if (!ready(Why))
    return;
  const std::string Final = path(Name, Key);
  const std::string Tmp = Final + "." + std::to_string(getpid());
  {
    std::ofstream Out(Tmp, std::ios::binary);
    const std::uint64_t Size = Binary.size();
    const std::uint64_t Sum = fnv1a(Binary.data(), Binary.size());
    const std::uint64_t KeyHash = fnv1a(Key.data(), Key.size());
    Out.write(Magic, 8);
    Out.write(reinterpret_cast<const char *>(&Size), 8);
    Out.write(reinterpret_cast<const char *>(&Sum), 8);
    Out.write(reinterpret_cast<const char *>(&KeyHash), 8);
    Out.write(Binary.data(), static_cast<std::streamsize>(Binary.size()));
    if (!Out) {
      std::remove(Tmp.c_str());
      return;
    }
  }
  // Readers see the old entry or the whole new one.
  if (std::rename(Tmp.c_str(), Final.c_str()) != 0)
    std::remove(Tmp.c_str());
}

} // namespace weft::rt
