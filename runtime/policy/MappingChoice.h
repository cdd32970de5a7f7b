// MappingChoice.h: which of a loop's mappings a launch takes: the one the
// plugin chose for the scenario of sizes nearest the launch's (compile time
// could not know them; see plugin/map/ExtentScenarios.h).
#ifndef WEFT_RUNTIME_POLICY_MAPPINGCHOICE_H
#define WEFT_RUNTIME_POLICY_MAPPINGCHOICE_H

#include "core/LaunchBounds.h"

#include <cstdint>
#include <vector>

namespace weft::rt {

/// The mapping (0: the first kernel) for these arguments: the scenario
/// nearest the varied sizes on a log scale (the first of equals). 0 when
/// there is no choice or a size cannot be read; Sizes gets the sizes read.
unsigned chooseMapping(const KernelInfo &First, const detail::LaunchArg *Args,
                       std::size_t NumArgs, std::vector<std::int64_t> &Sizes);

/// Whether K may run on Args: where it indexes rows held apart as rows of
/// one length (its uniform lines), their common length is not negative.
bool rowLengthsFit(const KernelInfo &K, const detail::LaunchArg *Args,
                   std::size_t NumArgs);

/// Every mapping of the loop (Alternatives + 1 of them), nearest scenario
/// first by the same distance; Mapped (chooseMapping's answer) leads.
std::vector<unsigned> rankMappings(const KernelInfo &First,
                                   const std::vector<std::int64_t> &Sizes,
                                   unsigned Mapped, std::size_t Mappings);

} // namespace weft::rt

#endif
