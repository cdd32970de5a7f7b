// TuningStore.h: tuned configurations kept beside the kernel cache, one
// entry per (kernel hash, device, size bucket), under the cache's rules (a
// private directory held open, entries checked, written atomically).
#ifndef WEFT_RUNTIME_TUNE_TUNINGSTORE_H
#define WEFT_RUNTIME_TUNE_TUNINGSTORE_H

#include "core/KernelCache.h"
#include "search/TuningRecord.h"

#include <optional>
#include <string>
#include <vector>

namespace weft::rt {

class TuningStore {
public:
  TuningStore() : Cache("tuning") {}

  /// False, with the reason, when the directory cannot be used.
  bool ready(std::string &Why) { return Cache.ready(Why); }
  const std::string &directory() const { return Cache.directory(); }

  std::optional<TunedEntry> find(const std::string &KernelHash,
                                 const std::string &Device,
                                 const std::string &Bucket);
  bool save(const TunedEntry &E, std::string &Why);
  /// Every entry, in file order; corrupt ones left out.
  std::vector<TunedEntry> all();

private:
  KernelCache Cache;
};

} // namespace weft::rt

#endif
