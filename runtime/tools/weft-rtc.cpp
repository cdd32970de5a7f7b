// weft-nvrtc / weft-hiprtc: compile kernel files written by the plugin with
// NVRTC or hipRTC, as the GPU backends would. The test suite runs them over
// every kernel it generates; the plugin runs them to build kernels ahead of
// time (--out). Built twice, WEFT_HIP choosing hipRTC.
#include "gpu/KernelResources.h"
#include "gpu/RuntimeCompiler.h"

#if WEFT_HIP
static const char *const Tool = "weft-hiprtc";
static const char *const DefaultArch = "gfx90a";
static const auto Which = weft::rt::RuntimeCompiler::Kind::Hiprtc;
#else
static const char *const Tool = "weft-nvrtc";
static const char *const DefaultArch = "sm_90";
static const auto Which = weft::rt::RuntimeCompiler::Kind::Nvrtc;
#endif

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

static int usage() {
  std::fprintf(stderr,
               "usage: %s [--arch=ARCH] [--ptx] [--out=FILE] FILE.cu...\n"
               "Compiles each kernel file with %s for ARCH (default %s) and\n"
               "prints what each kernel uses (registers, shared memory,\n"
               "spills) where the compiler reports it; with --ptx (NVRTC\n"
               "only), prints each kernel's PTX instead. With --out, one\n"
               "file's binary (or PTX) is written to FILE instead.\n"
               "Exit status: 0 all compiled, 1 a compile failed, 77 the "
               "compiler is not installed.\n",
               Tool,
               Which == weft::rt::RuntimeCompiler::Kind::Nvrtc ? "NVRTC"
                                                               : "hipRTC",
               DefaultArch);
  return 2;
}

int main(int Argc, char **Argv) {
  std::string Arch = DefaultArch;
  std::vector<std::string> Files;
  bool Ptx = false;
  std::string Out;
  for (int I = 1; I < Argc; ++I) {
    if (!std::strncmp(Argv[I], "--arch=", 7))
      Arch = Argv[I] + 7;
    else if (!std::strncmp(Argv[I], "--out=", 6))
      Out = Argv[I] + 6;
    else if (!std::strcmp(Argv[I], "--ptx") &&
             Which == weft::rt::RuntimeCompiler::Kind::Nvrtc)
      Ptx = true;
    else if (!std::strcmp(Argv[I], "--help") || Argv[I][0] == '-')
      return usage();
    else
      Files.push_back(Argv[I]);
  }
  if (Files.empty() || (!Out.empty() && Files.size() != 1))
    return usage();
  weft::rt::RuntimeCompiler Compiler(Which);
  std::string Error;
  if (!Compiler.load(Error)) {
    std::printf("SKIPPED: %s is not installed (%s)\n", Compiler.name(),
                Error.c_str());
    return 77;
  }
  int Failed = 0;
  for (const std::string &File : Files) {
    std::ifstream In(File);
    std::stringstream Text;
    Text << In.rdbuf();
    std::vector<char> Binary;
    std::string Log;
    std::string Name = File.substr(File.find_last_of('/') + 1);
    if (!Out.empty()) {
      // The image alone, for the plugin to embed.
      std::string Code;
      const bool Built =
          Ptx ? Compiler.ptx(Text.str(), Name, Arch, {}, Code, Log)
              : Compiler.compile(Text.str(), Name, Arch, {}, Binary, Log);
      if (Ptx)
        Binary.assign(Code.begin(), Code.end());
      std::ofstream Image(Out, std::ios::binary);
      if (!Built || !Image.write(Binary.data(), Binary.size())) {
        std::fprintf(stderr, "%s\n",
                     Built ? "cannot write the image" : Log.c_str());
        return 1;
      }
      return 0;
    }
    if (Ptx) {
      std::string Code;
      if (Compiler.ptx(Text.str(), Name, Arch, {}, Code, Log)) {
        std::printf("%s", Code.c_str());
      } else {
        std::printf("FAILED: %s\n%s\n", File.c_str(), Log.c_str());
        ++Failed;
      }
      continue;
    }
    if (Compiler.compile(Text.str(), Name, Arch, {}, Binary, Log)) {
      std::printf("ok: %s (%zu bytes for %s)\n", File.c_str(), Binary.size(),
                  Arch.c_str());
      // The kernel is named after its file (KernelName in the plugin).
      const std::string Kernel = Name.substr(0, Name.rfind(".cu"));
      if (std::optional<weft::rt::KernelResources> R =
              weft::rt::parsePtxasLog(Log, Kernel))
        std::printf("  %s: %s\n", Kernel.c_str(),
                    weft::rt::describe(*R).c_str());
    } else {
      std::printf("FAILED: %s\n%s\n", File.c_str(), Log.c_str());
      ++Failed;
    }
  }
  std::printf("%s %s for %s: %zu passed, %d failed\n", Compiler.name(),
              Compiler.version().c_str(), Arch.c_str(), Files.size() - Failed,
              Failed);
  return Failed ? 1 : 0;
}
