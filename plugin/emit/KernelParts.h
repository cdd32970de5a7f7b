// KernelParts.h: the parts of a kernel's text and its descriptor, each
// printed from the kernel plan by a file of its own; KernelEmitter.cpp
// assembles them.
#ifndef WEFT_PLUGIN_EMIT_KERNELPARTS_H
#define WEFT_PLUGIN_EMIT_KERNELPARTS_H

#include "contract/Descriptor.h"
#include "plan/KernelPlan.h"

#include <string>

namespace weft::emit {

/// Threads per block of a Split(k) nest's combining kernel.
constexpr unsigned CombineBlock = 256;

/// The comment naming the loop and its mapping, the prelude's include, and
/// the tuning macros (block sizes, tile width, staging, stage capacities)
/// with their planned values as defaults (KernelMacros.cpp).
std::string kernelPreamble(const plan::KernelPlan &P);

/// The nest's structs, then the functions it calls, callees first
/// (DeviceFunctions.cpp).
std::string deviceFunctions(const ir::Nest &N);

/// The kernel's parameters: the captures (reduction targets stay on the
/// host), the outermost range, the partials, buffers and split slots the
/// runtime allocates (KernelParameters.cpp).
std::string kernelParameters(const plan::KernelPlan &P);

/// The kernel's body: its shared arrays, the outermost level's walk with
/// the nest's statements, and the outermost reductions' partials per block;
/// with the closing brace (OuterLevel.cpp).
std::string kernelBody(const plan::KernelPlan &P);

/// Split(k) of depth 1: the combining kernel's body, one thread per
/// outermost iteration (OuterLevel.cpp).
std::string combineKernelBody(const plan::KernelPlan &P);

/// A name unique across files and instantiations: the file's stem, the
/// loop's line, and a hash of what makes the kernel distinct
/// (KernelName.cpp).
std::string kernelName(const plan::KernelPlan &P, const std::string &Text);

/// What the runtime launches the kernel by (KernelDescriptor.cpp).
contract::KernelInfo kernelDescriptor(const plan::KernelPlan &P,
                                      const std::string &Name);

} // namespace weft::emit

#endif
