// TransferPlan.cpp: transfer directions from parameter kinds.
#include "memory/TransferPlan.h"

namespace weft::memory {

const char *descriptorWord(Transfer T) {
  switch (T) {
  case Transfer::In:
    return "in";
  case Transfer::Out:
    return "out";
  case Transfer::InOut:
    return "inout";
  case Transfer::ByValue:
    return "scalar";
  }
  return "?";
}

std::vector<Transfer> planTransfers(const ir::Nest &N) {
  std::vector<Transfer> Plan;
  for (const ir::Param &P : N.Params) {
    switch (P.Kind) {
    case ir::ParamKind::ReadSpan:
      Plan.push_back(Transfer::In);
      break;
    case ir::ParamKind::WriteSpan:
      Plan.push_back(Transfer::Out);
      break;
    case ir::ParamKind::ReadWriteSpan:
      Plan.push_back(Transfer::InOut);
      break;
    case ir::ParamKind::Scalar:
    case ir::ParamKind::ReductionTarget: // passed on; "reduce" says the rest
      Plan.push_back(Transfer::ByValue);
      break;
    }
  }
  return Plan;
}

} // namespace weft::memory
