// TuningSpace.h: what the runtime may tune in one kernel plan (KTT's
// parameters and constraints): block sizes, register-tile and tile shapes,
// staging on or off, each a macro of the kernel text, and the shared
// memory a configuration needs.
#ifndef WEFT_PLUGIN_PLAN_TUNINGSPACE_H
#define WEFT_PLUGIN_PLAN_TUNINGSPACE_H

#include "contract/Descriptor.h"

#include <string>

namespace weft::plan {

struct KernelPlan;

/// P's tuning parameters (its shape, tiles and stages decided): every
/// configuration of them builds a kernel that computes what the mapped one
/// does; Reorders when some may combine a floating-point reduction in
/// another order.
contract::TuneInfo tuningSpace(const KernelPlan &P);

/// Macro as a bound over T's parameters: (tune K) where T tunes it, else
/// its mapped value.
contract::BoundExpr macroBound(const contract::TuneInfo &T,
                               const std::string &Macro, unsigned Mapped);

} // namespace weft::plan

#endif
