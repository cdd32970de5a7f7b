// KernelName.cpp: kernel names unique across files, template
// instantiations and the mappings of one loop.
#include "emit/KernelParts.h"

#include "llvm/Support/xxhash.h"

#include <cctype>
#include <cstdio>

namespace weft::emit {
namespace {

/// The file's stem as an identifier fragment: "src/my-file.cpp" -> "my_file".
std::string stemOf(const std::string &Location) {
  std::string File = Location.substr(0, Location.find(':'));
  File = File.substr(File.find_last_of('/') + 1);
  File = File.substr(0, File.find('.'));
  std::string Out;
  for (char C : File)
    Out += std::isalnum(static_cast<unsigned char>(C)) ? C : '_';
  return Out.empty() ? "tu" : Out;
}

std::string lineOf(const std::string &Location) {
  std::size_t A = Location.find(':');
  std::size_t B = Location.find(':', A + 1);
  return A == std::string::npos ? "0" : Location.substr(A + 1, B - A - 1);
}

} // namespace

std::string kernelName(const plan::KernelPlan &P, const std::string &Text) {
  // The hash covers where the kernel comes from, what it computes (two
  // instantiations of one template differ in types) and its block and
  // macros (mappings of one loop may differ in those alone).
  const std::string &Location = P.Nest->Location;
  std::string Blocks;
  for (unsigned B : P.Shape.Block)
    Blocks += " " + std::to_string(B);
  const std::uint64_t Hash = llvm::xxh3_64bits(Location + Blocks + "\n" + Text);
  char HashText[17];
  std::snprintf(HashText, sizeof HashText, "%016llx",
                static_cast<unsigned long long>(Hash));
  return "weft_" + stemOf(Location) + "_L" + lineOf(Location) + "_" +
         std::string(HashText, 12);
}

} // namespace weft::emit
