// Plugin arguments: help, and unknown ones rejected.
// RUN: %clangxx -fsyntax-only -fplugin=%plugin -fplugin-arg-weft-help %s 2>&1 | FileCheck %s --check-prefix=HELP
// RUN: not %clangxx -fsyntax-only -fplugin=%plugin -fplugin-arg-weft-bogus %s 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not %clangxx -fsyntax-only -fplugin=%plugin -fplugin-arg-weft-openmp=maybe %s 2>&1 | FileCheck %s --check-prefix=BAD-OPENMP
// HELP: emit-dir=DIR
// HELP: dump-ir
// HELP: remarks
// HELP: openmp=on|off
// BAD: error: unknown weft plugin argument 'bogus' (try -fplugin-arg-weft-help)
// BAD-OPENMP: error: unknown weft plugin argument 'openmp=maybe' (try -fplugin-arg-weft-help)
int main() {}
