// Base64.h: decoding the kernel images the plugin embeds in base64
// (RFC 4648's alphabet, '=' padding).
#ifndef WEFT_RUNTIME_CORE_BASE64_H
#define WEFT_RUNTIME_CORE_BASE64_H

#include <optional>
#include <string>
#include <string_view>

namespace weft::rt {

/// The bytes Text encodes, or nullopt where it is no base64.
std::optional<std::string> decodeBase64(std::string_view Text);

} // namespace weft::rt

#endif
