// Explain.h: a plan in words: the remark at each level's loop (the mapping
// the search chose and why, and what the kernel keeps where), and those at
// the nest for a loop's other kernels (-fplugin-arg-weft-remarks).
#ifndef WEFT_PLUGIN_PLAN_EXPLAIN_H
#define WEFT_PLUGIN_PLAN_EXPLAIN_H

#include "analysis/LoopOrder.h"
#include "map/ExtentScenarios.h"
#include "plan/KernelPlan.h"

#include <optional>
#include <string>
#include <vector>

namespace weft::plan {

/// What the remarks tell besides the plan: what the front end knows.
struct ExplainContext {
  /// The loops the recognizer reordered or fused, or why it did not.
  const std::vector<ir::LoopReorder> *Reorders = nullptr;
  std::string KernelName;
  /// The if clause's condition, as written.
  std::optional<std::string> LaunchedWhen;
  /// An OpenMP target directive whose data OpenMP may hold on a device.
  bool OpenMPTarget = false;
};

/// One text per level of N (ir::levels' order), N being P's nest.
std::vector<std::string> explainLevels(const ir::Nest &N, const KernelPlan &P,
                                       const ExplainContext &C);

/// Mapping I (> 0) of Choice: the sizes it serves and its levels as planned.
std::string explainAlternative(const map::ScenarioChoice &Choice, std::size_t I,
                               const KernelPlan &P,
                               const std::string &KernelName);

/// The kernel for rows of differing lengths.
std::string explainRaggedRows(const map::ScenarioChoice &Choice,
                              const std::string &KernelName);

} // namespace weft::plan

#endif
