// KernelImages.cpp: ahead-of-time images through weft-nvrtc and weft-hiprtc,
// run as separate processes so that the plugin loads no GPU compiler.
#include "emit/KernelImages.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Base64.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>
#include <optional>

namespace weft::emit {

namespace {

/// 90 of "sm_90", or -1.
int smNumber(const std::string &Arch) {
  if (Arch.rfind("sm_", 0) != 0 || Arch.size() < 5 || Arch.size() > 7)
    return -1;
  for (std::size_t I = 3; I < Arch.size(); ++I)
    if (Arch[I] < '0' || Arch[I] > '9')
      return -1;
  return std::stoi(Arch.substr(3));
}

/// A temporary file's path, removed when it goes.
struct TempFile {
  llvm::SmallString<128> Path;
  explicit TempFile(const char *Suffix) {
    if (llvm::sys::fs::createTemporaryFile("weft-aot", Suffix, Path))
      Path.clear();
  }
  ~TempFile() {
    if (!Path.empty())
      llvm::sys::fs::remove(Path);
  }
};

/// The image of the text in In for Arch (PTX where Ptx), or nullopt with
/// why in Problem.
std::optional<std::string> buildImage(const ImageTargets &T,
                                      const std::string &In,
                                      const std::string &Arch, bool Ptx,
                                      std::string &Problem) {
  const bool Nvidia = Arch.rfind("sm_", 0) == 0;
  const std::string Tool =
      T.ToolDir + (Nvidia ? "/weft-nvrtc" : "/weft-hiprtc");
  if (!llvm::sys::fs::can_execute(Tool)) {
    Problem = "no " + Tool + " beside the plugin: kernels for " + Arch +
              " compile when the program runs";
    return std::nullopt;
  }
  TempFile Out(Ptx ? "ptx" : "bin");
  if (Out.Path.empty()) {
    Problem = "no temporary file for the images";
    return std::nullopt;
  }
  const std::string ArchArg = "--arch=" + Arch;
  const std::string OutArg = "--out=" + std::string(Out.Path);
  std::vector<llvm::StringRef> Args = {Tool, ArchArg, OutArg};
  if (Ptx)
    Args.push_back("--ptx");
  Args.push_back(In);
  const std::optional<llvm::StringRef> Quiet[] = {
      std::nullopt, llvm::StringRef(""), llvm::StringRef("")};
  const int Status = llvm::sys::ExecuteAndWait(Tool, Args, std::nullopt, Quiet);
  if (Status == 77) {
    Problem = std::string(Nvidia ? "NVRTC" : "hipRTC") +
              " is not installed here: kernels for " + Arch +
              " compile when the program runs";
    return std::nullopt;
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Built =
      llvm::MemoryBuffer::getFile(Out.Path, /*IsText=*/false);
  if (Status != 0 || !Built || (*Built)->getBufferSize() == 0) {
    Problem = "a kernel did not compile for " + Arch +
              " (its text compiles again when the program runs, and says "
              "why)";
    return std::nullopt;
  }
  return (*Built)->getBuffer().str();
}

} // namespace

bool isOffloadArch(const std::string &Arch) {
  if (smNumber(Arch) >= 0)
    return true;
  if (Arch.rfind("gfx", 0) != 0 || Arch.size() < 6 || Arch.size() > 8)
    return false;
  for (std::size_t I = 3; I < Arch.size(); ++I)
    if (!std::isxdigit(static_cast<unsigned char>(Arch[I])))
      return false;
  return true;
}

void addKernelImages(const ImageTargets &T,
                     std::vector<contract::KernelInfo> &Kernels,
                     std::string &Source, std::set<std::string> &Problems) {
  if (T.Archs.empty())
    return;
  // PTX for the newest NVIDIA architecture named: the driver compiles it
  // for GPUs newer than every cubin.
  std::string Newest;
  for (const std::string &Arch : T.Archs)
    if (smNumber(Arch) > smNumber(Newest))
      Newest = Arch;
  const std::size_t TextEnd = Source.size();
  for (contract::KernelInfo &K : Kernels) {
    if (!K.TextLength) // the whole source: say so, images follow it
      K.TextOffset = 0, K.TextLength = TextEnd;
    TempFile In("cu");
    std::error_code Error;
    {
      llvm::raw_fd_ostream Text(In.Path, Error);
      if (In.Path.empty() || Error) {
        Problems.insert("no temporary file for the kernels' text");
        return;
      }
      Text << llvm::StringRef(Source).substr(K.TextOffset, K.TextLength);
    }
    auto Add = [&](const std::string &Arch, bool Ptx) {
      std::string Problem;
      std::optional<std::string> Image =
          buildImage(T, std::string(In.Path), Arch, Ptx, Problem);
      if (!Image) {
        Problems.insert(Problem);
        return;
      }
      const std::string Encoded = llvm::encodeBase64(*Image);
      K.Images.push_back({Ptx ? "compute_" + Arch.substr(3) : Arch,
                          Source.size(),
                          Encoded.size(),
                          {}});
      Source += Encoded;
    };
    for (const std::string &Arch : T.Archs)
      Add(Arch, false);
    if (!Newest.empty())
      Add(Newest, true);
  }
}

} // namespace weft::emit
