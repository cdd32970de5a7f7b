// NvtxRecorder.cpp: an NVTX injection library, loaded the way Nsight
// Systems loads its own (NVTX_INJECTION64_PATH), that appends each range a
// program pushes and pops to the file WEFT_NVTX_LOG names: how the tests
// see that weft names each launch on a profiler's timeline.
#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>

#include <cstdio>
#include <cstdlib>

namespace {

std::FILE *Log = nullptr;

int NVTX_API pushed(const char *Message) {
  std::fprintf(Log, "push %s\n", Message ? Message : "(null)");
  std::fflush(Log);
  return 0;
}

int NVTX_API popped() {
  std::fprintf(Log, "pop\n");
  std::fflush(Log);
  return 0;
}

} // namespace

extern "C" __attribute__((visibility("default"))) int
InitializeInjectionNvtx2(NvtxGetExportTableFunc_t GetExportTable) {
  const char *Path = std::getenv("WEFT_NVTX_LOG");
  Log = Path ? std::fopen(Path, "a") : nullptr;
  if (!Log)
    return 0;
  const auto *Callbacks = static_cast<const NvtxExportTableCallbacks *>(
      GetExportTable(NVTX_ETID_CALLBACKS));
  NvtxFunctionTable Table = nullptr;
  unsigned Size = 0;
  if (!Callbacks ||
      !Callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &Table, &Size) ||
      Size <= NVTX_CBID_CORE_RangePop)
    return 0;
  *Table[NVTX_CBID_CORE_RangePushA] =
      reinterpret_cast<NvtxFunctionPointer>(&pushed);
  *Table[NVTX_CBID_CORE_RangePop] =
      reinterpret_cast<NvtxFunctionPointer>(&popped);
  return 1;
}
