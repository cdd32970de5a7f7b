// Base64.cpp: four characters to three bytes.
#include "core/Base64.h"

namespace weft::rt {

namespace {
int sextet(char C) {
  if (C >= 'A' && C <= 'Z')
    return C - 'A';
  if (C >= 'a' && C <= 'z')
    return C - 'a' + 26;
  if (C >= '0' && C <= '9')
    return C - '0' + 52;
  return C == '+' ? 62 : C == '/' ? 63 : -1;
}
} // namespace

std::optional<std::string> decodeBase64(std::string_view Text) {
  if (Text.size() % 4)
    return std::nullopt;
  std::string Out;
  Out.reserve(Text.size() / 4 * 3);
  for (std::size_t I = 0; I < Text.size(); I += 4) {
    const bool Last = I + 4 == Text.size();
    const int Pad = Last ? (Text[I + 3] == '=') + (Text[I + 2] == '=') : 0;
    int Bits = 0;
    for (int J = 0; J < 4 - Pad; ++J) {
      const int S = sextet(Text[I + J]);
      if (S < 0)
        return std::nullopt;
      Bits = Bits << 6 | S;
    }
    Bits <<= 6 * Pad;
    Out += static_cast<char>(Bits >> 16 & 0xff);
    if (Pad < 2)
      Out += static_cast<char>(Bits >> 8 & 0xff);
    if (Pad < 1)
      Out += static_cast<char>(Bits & 0xff);
  }
  return Out;
}

} // namespace weft::rt
