// TuningSpaceNvrtc.cpp: the shared-memory constraint of every tuning space
// the test suite generated (DIR/NAME.desc beside each kernel), against
// NVRTC: for the mapped configuration and the one that needs the most
// shared memory, the bytes the descriptor predicts must be those ptxas
// reports, and each must compile. Exits 77 (SKIPPED) without NVRTC.
// Usage: weft-tuning-space-nvrtc DIR [ARCH]
#include "gpu/KernelResources.h"
#include "gpu/RuntimeCompiler.h"
#include "search/TuningSpace.h"

#include <cstdio>
#include <dirent.h>
#include <fstream>
#include <sstream>
#include <string>

using namespace weft::rt;

int main(int Argc, char **Argv) {
  if (Argc < 2 || Argc > 3) {
    std::fprintf(stderr, "usage: weft-tuning-space-nvrtc DIR [ARCH]\n");
    return 2;
  }
  const std::string Directory = Argv[1], Arch = Argc > 2 ? Argv[2] : "sm_90";
  RuntimeCompiler Compiler(RuntimeCompiler::Kind::Nvrtc);
  std::string Error;
  if (!Compiler.load(Error)) {
    std::printf("SKIPPED: NVRTC is not installed (%s)\n", Error.c_str());
    return 77;
  }
  DIR *Dir = opendir(Directory.c_str());
  if (!Dir) {
    std::printf("FAIL: no kernel directory %s\n", Directory.c_str());
    return 1;
  }
  int Checked = 0, Failed = 0;
  while (dirent *Entry = readdir(Dir)) {
    const std::string Name = Entry->d_name;
    if (Name.size() < 6 || Name.compare(Name.size() - 5, 5, ".desc") != 0)
      continue;
    std::ifstream In(Directory + "/" + Name);
    std::stringstream Text;
    Text << In.rdbuf();
    std::vector<KernelInfo> Kernels;
    if (!parseDescriptors(Text.str(), SIZE_MAX, Kernels, Error))
      continue; // descriptor-round-trip reports it
    for (const KernelInfo &K : Kernels) {
      if (!K.Tune.SharedBytes)
        continue;
      std::ifstream Source(Directory + "/" + K.Name + ".cu");
      std::stringstream Kernel;
      Kernel << Source.rdbuf();
      if (Kernel.str().empty())
        continue;
      DeviceProperties Props; // 48 KiB of static shared memory
      const TuningSpace Space({K}, Props);
      std::size_t Largest = Space.mapped(0);
      for (std::size_t I = 0; I < Space.size(); ++I)
        if (Largest == TuningSpace::None ||
            *Space.sharedBytes(I) > *Space.sharedBytes(Largest))
          Largest = I;
      std::vector<std::size_t> Picked{Space.mapped(0)};
      if (Largest != Picked.front())
        Picked.push_back(Largest);
      for (std::size_t I : Picked) {
        if (I == TuningSpace::None)
          continue;
        std::vector<char> Binary;
        std::string Log;
        ++Checked;
        const std::string What = K.Name + " (" + Space.describe(I) + ")";
        if (!Compiler.compile(Kernel.str(), K.Name, Arch, Space.defines(I),
                              Binary, Log)) {
          std::printf("FAIL: %s does not compile:\n%s\n", What.c_str(),
                      Log.c_str());
          ++Failed;
          continue;
        }
        const std::optional<KernelResources> R = parsePtxasLog(Log, K.Name);
        if (!R || R->SharedBytes != *Space.sharedBytes(I)) {
          std::printf("FAIL: %s: predicted %lld bytes of shared memory, "
                      "ptxas reports %ld\n",
                      What.c_str(),
                      static_cast<long long>(*Space.sharedBytes(I)),
                      R ? R->SharedBytes : -1L);
          ++Failed;
        }
      }
    }
  }
  closedir(Dir);
  std::printf("%d configurations' shared memory as predicted, %d not\n",
              Checked - Failed, Failed);
  return Checked > 0 && Failed == 0 ? 0 : 1;
}
