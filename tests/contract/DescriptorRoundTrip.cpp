// DescriptorRoundTrip.cpp: every loop descriptor the test suite generated
// (the plugin writes DIR/NAME.desc beside each kernel) parses, and writes
// back to exactly the text the plugin wrote.
// Usage: weft-descriptor-round-trip DIR, or --grammar to print the lines'
// syntax (docs/descriptor.md's listing).
#include "contract/Descriptor.h"

#include <cstdio>
#include <dirent.h>
#include <fstream>
#include <sstream>
#include <string>

int main(int Argc, char **Argv) {
  if (Argc != 2) {
    std::fprintf(stderr, "usage: weft-descriptor-round-trip DIR|--grammar\n");
    return 2;
  }
  if (std::string(Argv[1]) == "--grammar") {
    std::fputs(weft::contract::descriptorGrammar().c_str(), stdout);
    return 0;
  }
  DIR *Dir = opendir(Argv[1]);
  if (!Dir) {
    std::printf("FAIL: no kernel directory %s\n", Argv[1]);
    return 1;
  }
  int Checked = 0, Failed = 0;
  while (dirent *Entry = readdir(Dir)) {
    const std::string Name = Entry->d_name;
    if (Name.size() < 6 || Name.compare(Name.size() - 5, 5, ".desc") != 0)
      continue;
    std::ifstream In(std::string(Argv[1]) + "/" + Name);
    std::stringstream Text;
    Text << In.rdbuf();
    std::vector<weft::contract::KernelInfo> Kernels;
    std::string Error;
    ++Checked;
    // The texts' offsets are checked against the source by the runtime.
    if (!weft::contract::parseDescriptors(Text.str(), SIZE_MAX, Kernels,
                                          Error)) {
      std::printf("FAIL: %s: %s\n", Name.c_str(), Error.c_str());
      ++Failed;
    } else if (weft::contract::writeDescriptors(Kernels) != Text.str()) {
      std::printf("FAIL: %s: written back differently:\n%s", Name.c_str(),
                  weft::contract::writeDescriptors(Kernels).c_str());
      ++Failed;
    }
  }
  closedir(Dir);
  std::printf("%d descriptors round-trip, %d do not\n", Checked - Failed,
              Failed);
  return Checked > 0 && Failed == 0 ? 0 : 1;
}
