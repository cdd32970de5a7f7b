// PluginOptions.cpp: the plugin's arguments and their help.
#include "PluginOptions.h"

#include "syntax/OpenMPMarks.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <dlfcn.h>

namespace weft {

namespace {

void report(clang::DiagnosticsEngine &D, const std::string &Message) {
  D.Report(D.getCustomDiagID(clang::DiagnosticsEngine::Error, "%0")) << Message;
}

/// The folder of weft-nvrtc and weft-hiprtc: bin/ beside the plugin's
/// lib/ (a build tree), or above its lib/weft/ (an installed one).
std::string toolDirectory() {
  Dl_info Info;
  if (!dladdr(reinterpret_cast<void *>(&toolDirectory), &Info) ||
      !Info.dli_fname)
    return {};
  llvm::SmallString<256> Dir(llvm::sys::path::parent_path(Info.dli_fname));
  for (const char *Up : {"../bin", "../../bin"}) {
    llvm::SmallString<256> Candidate(Dir);
    llvm::sys::path::append(Candidate, Up);
    if (llvm::sys::fs::exists(Candidate + "/weft-nvrtc"))
      return std::string(Candidate);
  }
  return std::string(Dir) + "/../bin";
}

const char *const Help =
    "weft plugin arguments (-fplugin-arg-weft-NAME):\n"
    "  emit-dir=DIR  write each generated kernel to DIR/NAME.cu, and each\n"
    "                loop's descriptor to DIR/NAME.desc\n"
    "  dump-ir       print the nest IR of each marked loop\n"
    "  remarks       explain each loop's mapping as a remark, and why an\n"
    "                OpenMP loop stays with OpenMP\n"
    "  strategy=S    map every nest whose mark names no strategy with S:\n"
    "                auto (the search, the default), 1d, thread_block or "
    "warp\n"
    "                (not a sequential loop's nest, which runs in one block)\n"
    "  openmp=on|off take '#pragma omp parallel for' loops (with -fopenmp)\n"
    "                as marked loops, OpenMP's directive the fallback (on)\n"
    "  offload-arch=A,B,...\n"
    "                also compile each kernel when the program is built, for\n"
    "                NVIDIA (sm_80, sm_90: a cubin each, and PTX for the\n"
    "                newest) and AMD (gfx90a, gfx942: a code object each)\n"
    "                GPUs, and embed the images: the runtime then loads them\n"
    "                without a compiler\n"
    "  help          print this list\n";

} // namespace

bool parsePluginArguments(clang::DiagnosticsEngine &D,
                          const std::vector<std::string> &Args,
                          PluginOptions &Options) {
  for (const std::string &Arg : Args) {
    llvm::StringRef A(Arg);
    if (A.consume_front("emit-dir=")) {
      Options.EmitDir = A.str();
    } else if (A == "dump-ir") {
      Options.DumpIR = true;
    } else if (A == "remarks") {
      Options.Remarks = true;
    } else if (A.consume_front("strategy=")) {
      if (A != "auto" && A != "1d" && A != "thread_block" && A != "warp") {
        report(D, "weft plugin argument 'strategy=" + A.str() +
                      "': the strategy is auto, 1d, thread_block or warp");
        return false;
      }
      Options.Strategy = A == "auto" ? "" : A.str();
    } else if (A == "openmp=on" || A == "openmp=off") {
      syntax::openMPLoopsTaken() = A == "openmp=on";
    } else if (A.consume_front("offload-arch=")) {
      llvm::SmallVector<llvm::StringRef, 4> Archs;
      A.split(Archs, ',', -1, /*KeepEmpty=*/false);
      for (llvm::StringRef Arch : Archs) {
        if (!emit::isOffloadArch(Arch.str())) {
          report(D, "weft plugin argument 'offload-arch': '" + Arch.str() +
                        "' is no architecture weft builds for (sm_80, "
                        "sm_90, gfx90a, gfx942, ...)");
          return false;
        }
        Options.Images.Archs.push_back(Arch.str());
      }
      Options.Images.ToolDir = toolDirectory();
    } else if (A == "help") {
      llvm::errs() << Help;
    } else {
      report(D, "unknown weft plugin argument '" + Arg +
                    "' (try -fplugin-arg-weft-help)");
      return false;
    }
  }
  return true;
}

} // namespace weft
