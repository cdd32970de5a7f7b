// PrebuiltImageTest.cpp: kernels built with the program (offload-arch) load
// on a device of each architecture without the runtime compiler: a stand-in
// GPU backend whose compiler never loads records what its driver is given.
#include "core/Base64.h"
#include "gpu/GpuBackend.h"
#include "gpu/PrebuiltImages.h"

#include <gtest/gtest.h>

namespace weft::rt {
namespace {

/// A GPU of one architecture, without a driver or a compiler: it loads
/// what it is given and records it.
class StandInGpu : public GpuBackend {
public:
  StandInGpu(const char *Arch, bool Nvidia)
      : GpuBackend(Nvidia ? RuntimeCompiler::Kind::Nvrtc
                          : RuntimeCompiler::Kind::Hiprtc,
                   "stand-in") {
    Props.Architecture = Arch;
    CompilerMissing = "the stand-in has none";
  }
  std::vector<std::string> Loaded;

  const char *name() const override { return "stand-in"; }
  Status copyToDevice(DevicePtr, const void *, std::size_t) override {
    return {};
  }
  Status copyToHost(void *, DevicePtr, std::size_t) override { return {}; }
  Status launch(KernelHandle, const unsigned[3], const unsigned[3],
                void **) override {
    return {};
  }
  Status synchronize() override { return {}; }

protected:
  bool copy2D(DevicePtr, void *, const RowBlock &, bool) override {
    return false;
  }
  Status deviceAllocate(std::size_t, DevicePtr &) override { return {}; }
  void deviceRelease(DevicePtr) override {}
  bool hasEvents() const override { return false; }
  Status createEvent(void *&) override { return "none"; }
  Status recordEvent(void *) override { return "none"; }
  Status queryEvent(void *, bool &) override { return "none"; }
  Status elapsedBetween(void *, void *, float &) override { return "none"; }
  Status makeCurrent() override { return {}; }
  Status loadFunction(const std::vector<char> &Binary, const std::string &,
                      KernelHandle &Handle) override {
    Loaded.emplace_back(Binary.begin(), Binary.end());
    Handle = this;
    return {};
  }
  std::optional<KernelResources> functionResources(KernelHandle) override {
    return std::nullopt;
  }
};

KernelInfo withImages() {
  KernelInfo K;
  K.Name = "weft_k";
  for (const char *Arch : {"sm_80", "sm_90", "compute_90", "gfx90a"})
    K.Images.push_back({Arch, 0, 0, std::string("image of ") + Arch});
  return K;
}

/// What a device of Arch loads of withImages(), or the error.
std::string loads(const char *Arch, bool Nvidia,
                  const std::vector<std::string> &Defines = {}) {
  StandInGpu Gpu(Arch, Nvidia);
  KernelHandle Handle = nullptr;
  const Status S =
      Gpu.getKernel(withImages(), "text", Defines, "weft_k", Handle);
  if (!S.empty())
    return "error: " + S;
  EXPECT_EQ(Gpu.Loaded.size(), 1u);
  EXPECT_EQ(Gpu.prebuiltLoads(), 1u);
  return Gpu.Loaded.empty() ? "" : Gpu.Loaded.front();
}

TEST(PrebuiltImages, EachArchitectureLoadsItsOwnImage) {
  EXPECT_EQ(loads("sm_80", true), "image of sm_80");
  EXPECT_EQ(loads("sm_90", true), "image of sm_90");
  EXPECT_EQ(loads("gfx90a", false), "image of gfx90a");
}

TEST(PrebuiltImages, ANewerNvidiaGpuTakesThePtxEndedByANul) {
  EXPECT_EQ(loads("sm_100", true), std::string("image of compute_90") + '\0');
}

TEST(PrebuiltImages, NoImageAndNoCompilerIsAFaultThatSaysWhatToBuild) {
  // An older GPU than the PTX, an AMD GPU of another target, a tuning
  // variant (defines): each would need the compiler.
  for (const std::string &Error :
       {loads("sm_70", true), loads("gfx942", false),
        loads("sm_90", true, {"WEFT_BLOCK_X=128"})}) {
    EXPECT_EQ(Error.rfind("error: no image of it for ", 0), 0u) << Error;
    EXPECT_NE(Error.find("-fplugin-arg-weft-offload-arch="), std::string::npos)
        << Error;
  }
}

TEST(PrebuiltImages, ImagesThatDidNotDecodeAreLeftOut) {
  KernelInfo K = withImages();
  K.Images[1].Data.clear(); // sm_90's
  const contract::ImageInfo *I = imageFor(K, "sm_90");
  ASSERT_NE(I, nullptr);
  EXPECT_EQ(I->Arch, "compute_90");
}

TEST(Base64, DecodesWhatTheEncoderWrites) {
  EXPECT_EQ(decodeBase64("").value(), "");
  EXPECT_EQ(decodeBase64("Zg==").value(), "f");
  EXPECT_EQ(decodeBase64("Zm8=").value(), "fo");
  EXPECT_EQ(decodeBase64("Zm9v").value(), "foo");
  EXPECT_EQ(decodeBase64("AP8A").value(), std::string("\0\xff\0", 3));
  EXPECT_FALSE(decodeBase64("Zm9").has_value()) << "not a multiple of 4";
  EXPECT_FALSE(decodeBase64("Zm9*").has_value()) << "not the alphabet";
}

} // namespace
} // namespace weft::rt
