// TuningStore.cpp: tuned entries as kernel-cache entries named "tuned".
#include "tune/TuningStore.h"

namespace weft::rt {
namespace {

constexpr const char *EntryName = "tuned";

std::optional<TunedEntry> entryOf(const std::vector<char> &Bytes) {
  std::string Error;
  return parseTunedEntry(std::string_view(Bytes.data(), Bytes.size()), Error);
}

} // namespace

std::optional<TunedEntry> TuningStore::find(const std::string &KernelHash,
                                            const std::string &Device,
                                            const std::string &Bucket) {
  TunedEntry Key;
  Key.KernelHash = KernelHash;
  Key.Device = Device;
  Key.Bucket = Bucket;
  std::optional<std::vector<char>> Bytes = Cache.load(EntryName, Key.key());
  if (!Bytes)
    return std::nullopt;
  std::optional<TunedEntry> E = entryOf(*Bytes);
  if (!E || E->key() != Key.key())
    return std::nullopt;
  return E;
}

bool TuningStore::save(const TunedEntry &E, std::string &Why) {
  const std::string Text = writeTunedEntry(E);
  return Cache.store(EntryName, E.key(),
                     std::vector<char>(Text.begin(), Text.end()), Why);
}

std::vector<TunedEntry> TuningStore::all() {
  std::vector<TunedEntry> Out;
  for (const std::string &File : Cache.files(std::string(EntryName) + "-"))
    if (std::optional<std::vector<char>> Bytes = Cache.loadFile(File))
      if (std::optional<TunedEntry> E = entryOf(*Bytes);
          E && Cache.fileName(EntryName, E->key()) == File)
        Out.push_back(std::move(*E));
  return Out;
}

} // namespace weft::rt
