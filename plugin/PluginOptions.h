// PluginOptions.h: the plugin's arguments (-fplugin-arg-weft-NAME), read
// once a translation unit.
#ifndef WEFT_PLUGIN_PLUGINOPTIONS_H
#define WEFT_PLUGIN_PLUGINOPTIONS_H

#include "emit/KernelImages.h"

#include "clang/Basic/Diagnostic.h"

#include <string>
#include <vector>

namespace weft {

struct PluginOptions {
  std::string EmitDir;
  bool DumpIR = false;
  bool Remarks = false;
  /// strategy=...: the fixed strategy of every nest whose mark asks for
  /// none (or auto), to compare the paper's baselines with the search.
  std::string Strategy;
  /// offload-arch=...: the architectures kernels are built for with the
  /// program, and where the compilers that build them are.
  emit::ImageTargets Images;
};

/// Reads Args into Options; false after an error reported on Diags.
bool parsePluginArguments(clang::DiagnosticsEngine &Diags,
                          const std::vector<std::string> &Args,
                          PluginOptions &Options);

} // namespace weft

#endif
