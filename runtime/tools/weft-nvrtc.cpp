// weft-nvrtc: compiles kernel files written by the plugin with NVRTC, as the
// CUDA backend would. The test suite runs it over every kernel it generates.
#include "cuda/Nvrtc.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

static int usage() {
  std::fputs("usage: weft-nvrtc [--arch=sm_XX] FILE.cu...\n"
             "Compiles each kernel file with NVRTC for the architecture "
             "(default sm_90).\n"
             "Exit status: 0 all compiled, 1 a compile failed, 77 NVRTC is "
             "not installed.\n",
             stderr);
  return 2;
}

int main(int Argc, char **Argv) {
  std::string Arch = "sm_90";
  std::vector<std::string> Files;
  for (int I = 1; I < Argc; ++I) {
    if (!std::strncmp(Argv[I], "--arch=", 7))
      Arch = Argv[I] + 7;
    else if (!std::strcmp(Argv[I], "--help") || Argv[I][0] == '-')
      return usage();
    else
      Files.push_back(Argv[I]);
  }
  if (Files.empty())
    return usage();
  weft::rt::Nvrtc Compiler;
  std::string Error;
  if (!Compiler.load(Error)) {
    std::printf("SKIPPED: NVRTC is not installed (%s)\n", Error.c_str());
    return 77;
  }
  int Failed = 0;
  for (const std::string &File : Files) {
    std::ifstream In(File);
    std::stringstream Text;
    Text << In.rdbuf();
    std::vector<char> Cubin;
    std::string Log;
    std::string Name = File.substr(File.find_last_of('/') + 1);
    if (Compiler.compile(Text.str(), Name, Arch, {}, Cubin, Log)) {
      std::printf("ok: %s (%zu bytes of %s cubin)\n", File.c_str(),
                  Cubin.size(), Arch.c_str());
    } else {
      std::printf("FAILED: %s\n%s\n", File.c_str(), Log.c_str());
      ++Failed;
    }
  }
  std::printf("NVRTC %s: %zu passed, %d failed\n", Compiler.version().c_str(),
              Files.size() - Failed, Failed);
  return Failed ? 1 : 0;
}
