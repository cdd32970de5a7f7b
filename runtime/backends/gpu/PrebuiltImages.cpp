// PrebuiltImages.cpp: the image a device takes.
#include "gpu/PrebuiltImages.h"

#include <cstdlib>

namespace weft::rt {

namespace {
/// 90 of "sm_90" or "compute_90" (Prefix says which), or -1.
int version(const std::string &Arch, const char *Prefix) {
  const std::string P(Prefix);
  if (Arch.rfind(P, 0) != 0 || Arch.size() == P.size())
    return -1;
  char *End = nullptr;
  const long V = std::strtol(Arch.c_str() + P.size(), &End, 10);
  return *End ? -1 : static_cast<int>(V);
}
} // namespace

const contract::ImageInfo *imageFor(const KernelInfo &K,
                                    const std::string &Arch) {
  const contract::ImageInfo *Ptx = nullptr;
  const int Device = version(Arch, "sm_");
  for (const contract::ImageInfo &I : K.Images) {
    if (I.Data.empty())
      continue;
    if (I.Arch == Arch)
      return &I;
    const int V = version(I.Arch, "compute_");
    if (Device >= 0 && V >= 0 && V <= Device &&
        (!Ptx || V > version(Ptx->Arch, "compute_")))
      Ptx = &I;
  }
  return Ptx;
}

std::vector<char> imageBinary(const contract::ImageInfo &Image) {
  std::vector<char> Binary(Image.Data.begin(), Image.Data.end());
  if (Image.Arch.rfind("compute_", 0) == 0)
    Binary.push_back('\0');
  return Binary;
}

} // namespace weft::rt
