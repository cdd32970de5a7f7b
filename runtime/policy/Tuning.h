// Tuning.h: run-time tuning of a loop's block size as the program runs:
// from its fourth launch each variant the descriptor offers is timed over
// two launches, then the fastest is kept.
#ifndef WEFT_RUNTIME_POLICY_TUNING_H
#define WEFT_RUNTIME_POLICY_TUNING_H

#include "core/Backend.h"
#include "core/LoopSite.h"

namespace weft::rt {

/// The variant this launch uses (null: the mapped kernel), compiled on
/// first use.
Status chooseVariant(Backend &B, LoopSite &Site, const char *Source,
                     LoopSite::Variant *&Out);

/// A timed launch of V (launch and synchronize), while the site is tuned.
void recordVariantTime(const LoopSite &Site, LoopSite::Variant *V,
                       double Seconds);

} // namespace weft::rt

#endif
