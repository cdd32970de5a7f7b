// DescriptorParser.cpp: a loop's descriptor, its kernels' descriptors one
// after another (DescriptorGrammar.cpp reads each), checked as a whole.
#include "contract/Descriptor.h"

#include <algorithm>

namespace weft::contract {

std::string descriptorLocation(std::string_view Text) {
  return firstLine(Text, "loc");
}

std::string descriptorFunction(std::string_view Text) {
  return firstLine(Text, "function");
}

std::string firstLine(std::string_view Text, std::string_view Key) {
  for (std::size_t Start = 0; Start < Text.size();) {
    std::size_t End = Text.find('\n', Start);
    if (End == std::string_view::npos)
      End = Text.size();
    std::string_view Line = Text.substr(Start, End - Start);
    Start = End + 1;
    if (Line.size() > Key.size() && Line.substr(0, Key.size()) == Key &&
        Line[Key.size()] == ' ') {
      Line.remove_prefix(Key.size() + 1);
      while (!Line.empty() && Line.front() == ' ')
        Line.remove_prefix(1);
      return std::string(Line);
    }
  }
  return {};
}

bool needsRowsOfOneLength(const KernelInfo &K) {
  return std::any_of(K.Params.begin(), K.Params.end(),
                     [](const ParamInfo &P) { return P.OneLength; });
}

bool parseDescriptors(std::string_view Text, std::size_t SourceLength,
                      std::vector<KernelInfo> &Out, std::string &Error) {
  const std::string_view Mark = "\nalternative\n";
  Out.clear();
  for (std::size_t Start = 0;;) {
    const std::size_t End = Text.find(Mark, Start);
    Out.emplace_back();
    const std::string_view Piece = Text.substr(
        Start, End == std::string_view::npos ? End : End + 1 - Start);
    if (!parseDescriptor(Piece, Out.back(), Error))
      return false;
    const KernelInfo &K = Out.back();
    if (K.TextLength && (K.TextOffset > SourceLength ||
                         K.TextLength > SourceLength - K.TextOffset)) {
      Error = "malformed kernel descriptor: the text of " + K.Name +
              " lies outside the source";
      return false;
    }
    for (const ImageInfo &M : K.Images)
      if (M.Offset > SourceLength || M.Length > SourceLength - M.Offset) {
        Error = "malformed kernel descriptor: the " + M.Arch + " image of " +
                K.Name + " lies outside the source";
        return false;
      }
    if (Out.size() > 1 && !K.Choice.Vary.empty()) {
      Error = "malformed kernel descriptor: an alternative varies sizes";
      return false;
    }
    if (End == std::string_view::npos)
      break;
    Start = End + Mark.size();
  }
  // Kernels that index rows held apart as rows of one length come with the
  // one for rows of differing lengths, the last, which no scenario names.
  const std::size_t Uniform =
      std::count_if(Out.begin(), Out.end(), needsRowsOfOneLength);
  if (Uniform > 0 &&
      (Uniform + 1 != Out.size() || needsRowsOfOneLength(Out.back()))) {
    Error = "malformed kernel descriptor: kernels for rows of one length "
            "need one for rows of differing lengths, the last";
    return false;
  }
  const std::size_t Mapped = Uniform > 0 ? Uniform : Out.size();
  for (const ChoiceInfo::Scenario &S : Out[0].Choice.Scenarios)
    if (S.Mapping >= Mapped) {
      Error = "malformed kernel descriptor: a scenario names mapping " +
              std::to_string(S.Mapping) + " of " + std::to_string(Mapped);
      return false;
    }
  if (Mapped > 1 && Out[0].Choice.Scenarios.empty()) {
    Error = "malformed kernel descriptor: alternatives without scenarios";
    return false;
  }
  return true;
}

} // namespace weft::contract
