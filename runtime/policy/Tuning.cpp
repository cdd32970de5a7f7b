// Tuning.cpp: the variant each launch of a tunable loop takes.
#include "policy/Tuning.h"

#include "core/Diagnostics.h"
#include "policy/Environment.h"

#include <algorithm>

namespace weft::rt {
namespace {

/// Launches of a loop before its tuning starts (a loop run once or twice
/// never pays for compiling variants), and timed launches per variant.
constexpr unsigned LaunchesBeforeTuning = 3, TimedLaunchesPerVariant = 2;

} // namespace

Status chooseVariant(Backend &B, LoopSite &Site, const char *Source,
                     LoopSite::Variant *&Out) {
  const KernelInfo &K = Site.Kernel;
  Out = nullptr;
  if (++Site.Launches <= LaunchesBeforeTuning || !tuningEnabled(B) ||
      K.Tune.Blocks.size() < 2)
    return {};
  if (Site.Variants.empty())
    for (unsigned Block : K.Tune.Blocks)
      Site.Variants.push_back({Block, nullptr, 0, 0});
  if (Site.Chosen < 0) {
    // The variant timed least so far; once each has its launches, the
    // fastest for good.
    LoopSite::Variant *Next = &Site.Variants.front();
    for (LoopSite::Variant &V : Site.Variants)
      if (V.Timed < Next->Timed)
        Next = &V;
    if (Next->Timed >= TimedLaunchesPerVariant) {
      Site.Chosen = 0;
      std::string Times;
      for (std::size_t I = 0; I < Site.Variants.size(); ++I) {
        const LoopSite::Variant &V = Site.Variants[I];
        if (V.Seconds < Site.Variants[Site.Chosen].Seconds)
          Site.Chosen = static_cast<int>(I);
        Times += (I ? ", " : "") + std::to_string(V.Block) + ": " +
                 std::to_string(V.Seconds * 1e6) + " us";
      }
      note(K.Location + ": kernel " + K.Name + " tuned: block " +
           contract::axisLetter(K.Tune.Axis) + " " +
           std::to_string(Site.Variants[Site.Chosen].Block) + " (" + Times +
           ")");
      Next = &Site.Variants[Site.Chosen];
    }
    Out = Next;
  } else {
    Out = &Site.Variants[Site.Chosen];
  }
  if (Out->Handle)
    return {};
  unsigned Mapped = 0;
  for (const DimensionInfo &D : K.Dimensions)
    if (D.Axis == K.Tune.Axis)
      Mapped = D.Block;
  if (Out->Block == Mapped) {
    Out->Handle = Site.Handle;
    return {};
  }
  std::vector<std::string> Defines = kernelDefines();
  Defines.push_back(std::string("WEFT_BLOCK_") + "XYZ"[K.Tune.Axis] + "=" +
                    std::to_string(Out->Block));
  if (Status S = B.getKernel(K, Site.Text.empty() ? Source : Site.Text.c_str(),
                             Defines, K.Name, Out->Handle);
      !S.empty())
    return "its variant with block " + std::to_string(Out->Block) + ": " + S;
  return {};
}

void recordVariantTime(const LoopSite &Site, LoopSite::Variant *V,
                       double Seconds) {
  if (!V || Site.Chosen >= 0)
    return;
  V->Seconds = V->Timed ? std::min(V->Seconds, Seconds) : Seconds;
  ++V->Timed;
}

} // namespace weft::rt
