// TuningRecord.h: the text forms tuning leaves behind: a recording (a loop's
// whole space timed on one device, for replaying searchers without it) and
// a tuned entry (the configuration a tuning run chose, kept per kernel,
// device and size bucket so that the next run starts tuned).
#ifndef WEFT_RUNTIME_SEARCH_TUNINGRECORD_H
#define WEFT_RUNTIME_SEARCH_TUNINGRECORD_H

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace weft::rt {

/// One configuration by its values (not its index: a recording outlives
/// the order of a space), and its time.
struct TimedConfiguration {
  unsigned Mapping = 0;
  std::vector<unsigned> Values;
  std::optional<double> Seconds; // none: it could not be built or run
};

struct TuningRecording {
  std::string Location, Device, Architecture, Bucket;
  unsigned MaxThreadsPerBlock = 1024;
  std::size_t MaxSharedPerBlock = 48 * 1024;
  /// The mappings in the order the plugin's analysis ranks them.
  std::vector<unsigned> Preferred;
  std::string Descriptor; // the loop's, every mapping
  std::vector<TimedConfiguration> Times;
};

std::string writeRecording(const TuningRecording &R);
std::optional<TuningRecording> parseRecording(std::string_view Text,
                                              std::string &Error);

/// What one tuning run chose for a loop at one size bucket on one device.
struct TunedEntry {
  std::string KernelHash, Device, Bucket, Location, Kernel;
  unsigned Mapping = 0;
  std::vector<unsigned> Values;
  double Seconds = 0, MappedSeconds = 0;
  unsigned Tried = 0;
  /// The key the store files it under.
  std::string key() const { return KernelHash + "\n" + Device + "\n" + Bucket; }
};

std::string writeTunedEntry(const TunedEntry &E);
std::optional<TunedEntry> parseTunedEntry(std::string_view Text,
                                          std::string &Error);

} // namespace weft::rt

#endif
