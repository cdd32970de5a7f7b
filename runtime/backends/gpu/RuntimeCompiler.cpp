// RuntimeCompiler.cpp: the NVRTC and hipRTC calls, declared here so that
// building the runtime needs neither CUDA's nor HIP's headers.
#include "gpu/RuntimeCompiler.h"

#include "core/Prelude.h"

#include <cstdlib>

namespace weft::rt {

namespace {

/// What differs between NVRTC and hipRTC, which share one API's shape.
struct CompilerFlavor {
  const char *Name;
  const char *Prefix;        // of the entry points: nvrtcCreateProgram
  const char *Code;          // nvrtcGetCUBIN, hiprtcGetCode
  const char *ArchOption;    // + "sm_90", "gfx90a"
  const char *NoContraction; // what WEFT_STRICT_FP=1 adds
  bool GivesPtx;
  /// ptxas's report of registers, shared memory and spills comes back in
  /// the log (KernelResources); it does not change the code.
  const char *ResourceReport;
  std::vector<std::string> (*Libraries)();
};

std::vector<std::string> nvrtcLibraries() {
  std::vector<std::string> Candidates = {"libnvrtc.so.13", "libnvrtc.so.12",
                                         "libnvrtc.so"};
  std::vector<std::string> Dirs;
  if (const char *Home = std::getenv("CUDA_HOME"))
    Dirs.push_back(std::string(Home) + "/lib64/");
  if (const char *Path = std::getenv("CUDA_PATH"))
    Dirs.push_back(std::string(Path) + "/lib64/");
  Dirs.push_back("/usr/local/cuda/lib64/");
  for (const std::string &Dir : Dirs)
    for (const char *Name : {"libnvrtc.so.13", "libnvrtc.so.12"})
      Candidates.push_back(Dir + Name);
  return Candidates;
}

std::vector<std::string> hiprtcLibraries() {
  std::vector<std::string> Candidates = {"libhiprtc.so.6", "libhiprtc.so",
                                         "libamdhip64.so.5", "libamdhip64.so.6",
                                         "libamdhip64.so"};
  if (const char *Path = std::getenv("ROCM_PATH"))
    for (const char *Name : {"/lib/libhiprtc.so", "/lib/libamdhip64.so"})
      Candidates.push_back(std::string(Path) + Name);
  for (const char *Name :
       {"/opt/rocm/lib/libhiprtc.so", "/opt/rocm/lib/libamdhip64.so"})
    Candidates.push_back(Name);
  return Candidates;
}

const CompilerFlavor &flavor(RuntimeCompiler::Kind K) {
  static const CompilerFlavor Flavors[] = {
      {"NVRTC", "nvrtc", "CUBIN", "--gpu-architecture=", "--fmad=false", true,
       "--ptxas-options=-v", nvrtcLibraries},
      {"hipRTC", "hiprtc", "Code", "--offload-arch=", "-ffp-contract=off",
       false, nullptr, hiprtcLibraries}};
  return Flavors[K == RuntimeCompiler::Kind::Nvrtc ? 0 : 1];
}

} // namespace

const char *RuntimeCompiler::name() const { return flavor(Which).Name; }

bool RuntimeCompiler::load(std::string &Error) {
  const CompilerFlavor &F = flavor(Which);
  if (!Library.open(F.Libraries(), Error))
    return false;
  const std::string P = F.Prefix, Code = F.Code;
  auto Get = [&](const std::string &Name, auto &Fn) {
    return Library.get((P + Name).c_str(), Fn);
  };
  bool Ok =
      Get("CreateProgram", CreateProgram) &&
      Get("CompileProgram", CompileProgram) &&
      Get("DestroyProgram", DestroyProgram) &&
      Get("GetProgramLogSize", GetLogSize) && Get("GetProgramLog", GetLog) &&
      Get("Get" + Code + "Size", GetCodeSize) && Get("Get" + Code, GetCode) &&
      Get("Version", Version) && Get("GetErrorString", GetErrorString);
  if (!Ok)
    Error = Library.path() + " lacks a " + name() + " entry point";
  if (Ok && F.GivesPtx)
    Ok = Get("GetPTXSize", GetPtxSize) && Get("GetPTX", GetPtx);
  return Ok;
}

std::string RuntimeCompiler::version() const {
  int Major = 0, Minor = 0;
  if (!Version || Version(&Major, &Minor) != 0)
    return "unknown";
  return std::to_string(Major) + "." + std::to_string(Minor);
}

std::vector<std::string>
RuntimeCompiler::options(const std::string &Arch,
                         const std::vector<std::string> &Defines) const {
  // No --use_fast_math: results must match the host loop's IEEE math.
  const CompilerFlavor &F = flavor(Which);
  std::vector<std::string> Options = {F.ArchOption + Arch, "-std=c++17"};
  if (F.ResourceReport)
    Options.push_back(F.ResourceReport);
  for (const std::string &D : Defines) {
    Options.push_back("-D" + D);
    if (D == "WEFT_STRICT_FP=1")
      Options.push_back(F.NoContraction);
  }
  return Options;
}

bool RuntimeCompiler::ptx(const std::string &Source, const std::string &Name,
                          const std::string &Arch,
                          const std::vector<std::string> &Defines,
                          std::string &Ptx, std::string &Log) const {
  if (!GetPtx) {
    Log = std::string(name()) + " gives no PTX";
    return false;
  }
  std::vector<char> Code;
  if (!compileTo(Source, Name, Arch, Defines, Code, Log, true))
    return false;
  Ptx.assign(Code.begin(), Code.end());
  while (!Ptx.empty() && Ptx.back() == '\0')
    Ptx.pop_back();
  return true;
}

bool RuntimeCompiler::compileTo(const std::string &Source,
                                const std::string &Name,
                                const std::string &Arch,
                                const std::vector<std::string> &Defines,
                                std::vector<char> &Cubin, std::string &Log,
                                bool Ptx) const {
  std::lock_guard<std::mutex> Guard(CompileLock);
  Program Prog = nullptr;
  const char *Headers[] = {DevicePreludeText};
  const char *HeaderNames[] = {DevicePreludeName};
  int R = CreateProgram(&Prog, Source.c_str(), (Name + ".cu").c_str(), 1,
                        Headers, HeaderNames);
  if (R != 0) {
    Log =
        std::string(name()) + " cannot create a program: " + GetErrorString(R);
    return false;
  }
  const std::vector<std::string> Options = options(Arch, Defines);
  std::vector<const char *> Argv;
  for (const std::string &O : Options)
    Argv.push_back(O.c_str());
  R = CompileProgram(Prog, static_cast<int>(Argv.size()), Argv.data());
  Compiled.store(true, std::memory_order_release);
  std::size_t LogSize = 0;
  if (GetLogSize(Prog, &LogSize) == 0 && LogSize > 1) {
    Log.resize(LogSize);
    GetLog(Prog, Log.data());
    Log.resize(LogSize - 1);
  }
  bool Ok = R == 0;
  if (Ok) {
    std::size_t Size = 0;
    Ok = (Ptx ? GetPtxSize : GetCodeSize)(Prog, &Size) == 0;
    Cubin.resize(Size);
    Ok = Ok && (Ptx ? GetPtx : GetCode)(Prog, Cubin.data()) == 0;
  } else if (Log.empty()) {
    Log = GetErrorString(R);
  }
  DestroyProgram(&Prog);
  return Ok;
}

} // namespace weft::rt
