// TuningRecord.cpp: the recordings' and tuned entries' line formats.
#include "search/TuningRecord.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace weft::rt {
namespace {

constexpr std::string_view RecordingHeader = "weft-tuning-recording 1";
constexpr std::string_view EntryHeader = "weft-tuned 1";

/// Lines of Text, one at a time.
class Lines {
public:
  explicit Lines(std::string_view Text) : Text(Text) {}
  bool next(std::string_view &Line) {
    if (Pos >= Text.size())
      return false;
    std::size_t End = Text.find('\n', Pos);
    if (End == std::string_view::npos)
      End = Text.size();
    Line = Text.substr(Pos, End - Pos);
    Pos = End + 1;
    return true;
  }

private:
  std::string_view Text;
  std::size_t Pos = 0;
};

/// Key and value of "key value...".
std::pair<std::string_view, std::string_view> split(std::string_view Line) {
  const std::size_t Space = Line.find(' ');
  if (Space == std::string_view::npos)
    return {Line, {}};
  return {Line.substr(0, Space), Line.substr(Space + 1)};
}

bool numbers(std::string_view Text, std::vector<unsigned> &Out) {
  std::istringstream In{std::string(Text)};
  std::string Word;
  while (In >> Word) {
    char *End = nullptr;
    const unsigned long V = std::strtoul(Word.c_str(), &End, 10);
    if (*End || Word[0] == '-' || V > 0xffffffffu)
      return false;
    Out.push_back(static_cast<unsigned>(V));
  }
  return true;
}

std::string seconds(double S) {
  char Buffer[32];
  std::snprintf(Buffer, sizeof Buffer, "%.9g", S);
  return Buffer;
}

bool parseSeconds(std::string_view Word, double &S) {
  const std::string W(Word);
  char *End = nullptr;
  S = std::strtod(W.c_str(), &End);
  return !W.empty() && !*End && S >= 0;
}

} // namespace

std::string writeRecording(const TuningRecording &R) {
  std::string S = std::string(RecordingHeader) + "\n";
  S += "location " + R.Location + "\ndevice " + R.Device + "\narchitecture " +
       R.Architecture + "\nbucket " + R.Bucket + "\nmax-threads " +
       std::to_string(R.MaxThreadsPerBlock) + "\nmax-shared " +
       std::to_string(R.MaxSharedPerBlock) + "\npreferred";
  for (unsigned M : R.Preferred)
    S += " " + std::to_string(M);
  std::size_t DescriptorLines = 0;
  for (char C : R.Descriptor)
    DescriptorLines += C == '\n';
  if (!R.Descriptor.empty() && R.Descriptor.back() != '\n')
    ++DescriptorLines;
  S += "\ndescriptor " + std::to_string(DescriptorLines) + "\n" + R.Descriptor;
  if (!R.Descriptor.empty() && R.Descriptor.back() != '\n')
    S += "\n";
  for (const TimedConfiguration &T : R.Times) {
    S += "time " + std::to_string(T.Mapping);
    for (unsigned V : T.Values)
      S += " " + std::to_string(V);
    S += " " + (T.Seconds ? seconds(*T.Seconds) : std::string("failed")) + "\n";
  }
  return S;
}

std::optional<TuningRecording> parseRecording(std::string_view Text,
                                              std::string &Error) {
  Lines L(Text);
  std::string_view Line;
  if (!L.next(Line) || Line != RecordingHeader) {
    Error = "not a weft tuning recording";
    return std::nullopt;
  }
  TuningRecording R;
  while (L.next(Line)) {
    if (Line.empty())
      continue;
    auto [Key, Value] = split(Line);
    bool Ok = true;
    if (Key == "location") {
      R.Location = Value;
    } else if (Key == "device") {
      R.Device = Value;
    } else if (Key == "architecture") {
      R.Architecture = Value;
    } else if (Key == "bucket") {
      R.Bucket = Value;
    } else if (Key == "max-threads" || Key == "max-shared") {
      std::vector<unsigned> V;
      Ok = numbers(Value, V) && V.size() == 1;
      if (Ok && Key == "max-threads")
        R.MaxThreadsPerBlock = V[0];
      else if (Ok)
        R.MaxSharedPerBlock = V[0];
    } else if (Key == "preferred") {
      Ok = numbers(Value, R.Preferred);
    } else if (Key == "descriptor") {
      std::vector<unsigned> Count;
      Ok = numbers(Value, Count) && Count.size() == 1;
      for (unsigned I = 0; Ok && I < Count[0]; ++I) {
        Ok = L.next(Line);
        R.Descriptor += std::string(Line) + "\n";
      }
    } else if (Key == "time") {
      const std::size_t Last = Value.rfind(' ');
      TimedConfiguration T;
      std::vector<unsigned> V;
      Ok = Last != std::string_view::npos &&
           numbers(Value.substr(0, Last), V) && !V.empty();
      if (Ok) {
        T.Mapping = V[0];
        T.Values.assign(V.begin() + 1, V.end());
        const std::string_view Time = Value.substr(Last + 1);
        double S = 0;
        if (Time != "failed") {
          Ok = parseSeconds(Time, S);
          T.Seconds = S;
        }
        R.Times.push_back(std::move(T));
      }
    } else {
      Ok = false;
    }
    if (!Ok) {
      Error = "malformed tuning recording line: " + std::string(Line);
      return std::nullopt;
    }
  }
  if (R.Descriptor.empty()) {
    Error = "a tuning recording without the loop's descriptor";
    return std::nullopt;
  }
  return R;
}

std::string writeTunedEntry(const TunedEntry &E) {
  std::string S = std::string(EntryHeader) + "\nkernel-hash " + E.KernelHash +
                  "\ndevice " + E.Device + "\nbucket " + E.Bucket +
                  "\nlocation " + E.Location + "\nkernel " + E.Kernel +
                  "\nmapping " + std::to_string(E.Mapping) + "\nvalues";
  for (unsigned V : E.Values)
    S += " " + std::to_string(V);
  S += "\nseconds " + seconds(E.Seconds) + "\nmapped-seconds " +
       seconds(E.MappedSeconds) + "\ntried " + std::to_string(E.Tried) + "\n";
  return S;
}

std::optional<TunedEntry> parseTunedEntry(std::string_view Text,
                                          std::string &Error) {
  Lines L(Text);
  std::string_view Line;
  if (!L.next(Line) || Line != EntryHeader) {
    Error = "not a weft tuned entry";
    return std::nullopt;
  }
  TunedEntry E;
  while (L.next(Line)) {
    if (Line.empty())
      continue;
    auto [Key, Value] = split(Line);
    bool Ok = true;
    std::vector<unsigned> V;
    if (Key == "kernel-hash")
      E.KernelHash = Value;
    else if (Key == "device")
      E.Device = Value;
    else if (Key == "bucket")
      E.Bucket = Value;
    else if (Key == "location")
      E.Location = Value;
    else if (Key == "kernel")
      E.Kernel = Value;
    else if (Key == "mapping")
      Ok = numbers(Value, V) && V.size() == 1 && ((E.Mapping = V[0]), true);
    else if (Key == "values")
      Ok = numbers(Value, E.Values);
    else if (Key == "seconds")
      Ok = parseSeconds(Value, E.Seconds);
    else if (Key == "mapped-seconds")
      Ok = parseSeconds(Value, E.MappedSeconds);
    else if (Key == "tried")
      Ok = numbers(Value, V) && V.size() == 1 && ((E.Tried = V[0]), true);
    else
      Ok = false;
    if (!Ok) {
      Error = "malformed tuned entry line: " + std::string(Line);
      return std::nullopt;
    }
  }
  if (E.KernelHash.empty() || E.Device.empty() || E.Bucket.empty()) {
    Error = "a tuned entry without its kernel, device or bucket";
    return std::nullopt;
  }
  return E;
}

} // namespace weft::rt
