// KernelLaunch.cpp: the stages of a launch (see KernelLaunch.h).
#include "launch/KernelLaunch.h"

#include "core/Diagnostics.h"
#include "core/LaunchBounds.h"
#include "launch/HostCombine.h"
#include "policy/Environment.h"
#include "region/RowsApart.h"

#include <algorithm>
#include <cstdlib>
#include <functional>

namespace weft::rt {
namespace {

/// The plugin's "covers" claim, checked against the real extents: rows
/// (the outermost trip count, from 0) times columns is the span's size,
/// and its rows are as long as the columns.
bool writtenEverywhere(const ParamInfo &P, std::uint64_t Elements,
                       const KernelInfo &K, const detail::LaunchArg *Args,
                       std::size_t NumArgs, std::int64_t Lower,
                       std::int64_t Count) {
  if (!P.CoverCols || P.Kind != ParamKind::InOut || Lower != 0)
    return false;
  std::string Error;
  std::int64_t Cols = 0, Stride = 0;
  if (!evaluateBound(*P.CoverCols, K, Args, NumArgs, Cols, Error) ||
      !evaluateBound(*P.CoverStride, K, Args, NumArgs, Stride, Error) ||
      Cols != Stride || Cols <= 0)
    return false;
  return static_cast<std::uint64_t>(Count) * static_cast<std::uint64_t>(Cols) ==
         Elements;
}

} // namespace

KernelLaunch::KernelLaunch(Backend &B, DataMover &Data, Residency &Resident,
                           LaunchScratch &Scratch, const KernelInfo &K,
                           const detail::LaunchArg *Args, std::size_t NumArgs)
    : B(B), Data(Data), Resident(Resident), Work(Scratch), K(K), Args(Args),
      NumArgs(NumArgs) {
  Work.Owned.clear();
}

KernelLaunch::~KernelLaunch() {
  for (DevicePtr P : Work.Owned)
    B.release(P);
  Work.Owned.clear();
}

Status KernelLaunch::allocate(std::size_t Bytes, DevicePtr &P) {
  Status S = B.allocate(Bytes ? Bytes : 1, P);
  if (S.empty())
    Work.Owned.push_back(P);
  return S;
}

void KernelLaunch::findRegionRows() {
  if (RegionRowsFound)
    return;
  RegionRowsFound = true;
  // Rows a region holds, and beside them their row offsets' device copy.
  Work.RowsInRegion.assign(NumArgs, nullptr);
  Work.OffsetsInRegion.assign(NumArgs, 0);
  if (Resident.empty())
    return;
  for (std::size_t I = 0; I < NumArgs; ++I) {
    const ParamInfo &P = K.Params[I];
    if (!P.RowsApart || Args[I].ElementSize != P.Bytes)
      continue;
    Residency::Rows *R =
        Resident.findRows(*static_cast<const detail::RowsArg *>(Args[I].Data),
                          Args[I].ElementSize);
    Work.RowsInRegion[I] = R;
    if (R && P.RowOffsets >= 0)
      Work.OffsetsInRegion[P.RowOffsets] = R->OffsetsDevice;
  }
}

const std::vector<Residency::Rows *> &KernelLaunch::regionRows() {
  findRegionRows();
  return Work.RowsInRegion;
}

bool KernelLaunch::resident() {
  findRegionRows();
  for (std::size_t I = 0; I < NumArgs; ++I) {
    const ParamInfo &P = K.Params[I];
    if (!P.isSpan() || Work.OffsetsInRegion[I])
      continue;
    if (P.RowsApart
            ? !Work.RowsInRegion[I]
            : !Resident.find(Args[I].Data, Args[I].Count * Args[I].ElementSize))
      return false;
  }
  return true;
}

Status KernelLaunch::copyIn() {
  auto HostOf = [&](std::size_t I) {
    return static_cast<const char *>(Args[I].Data);
  };
  auto EndOf = [&](std::size_t I) {
    return HostOf(I) + Args[I].Count * Args[I].ElementSize;
  };
  std::sort(Work.Copied.begin(), Work.Copied.end(),
            [&](std::size_t L, std::size_t R) {
              return std::less<const char *>()(HostOf(L), HostOf(R));
            });
  for (std::size_t First = 0; First < Work.Copied.size();) {
    // The spans from First on whose bytes overlap the ones before them.
    const char *Begin = HostOf(Work.Copied[First]), *End = Begin;
    std::size_t Last = First;
    bool In = false, Out = false;
    std::string Names; // the parameters this copy holds, for the ledger
    do {
      const std::size_t I = Work.Copied[Last];
      End = std::max(End, EndOf(I));
      const ParamInfo &P = K.Params[I];
      Names += (Names.empty() ? "'" : ", '") + P.Name + "'";
      // "out": the plugin proved every element written; the rest
      // ("inout") is copied in, so that elements the kernel skips keep
      // their values, unless the plugin's grid claim holds for these
      // extents.
      In = In ||
           (P.readsDevice() && !writtenEverywhere(P, Args[I].Count, K, Args,
                                                  NumArgs, Lower, Count));
      Out = Out || P.writesDevice();
    } while (++Last < Work.Copied.size() && HostOf(Work.Copied[Last]) < End);
    // Spans sharing a copy keep their host addresses' alignment to one
    // another (a double beside a float): the copy starts where the
    // host's bytes would start a device allocation.
    constexpr std::uintptr_t Alignment = 256;
    const char *Base =
        Last - First == 1
            ? Begin
            : Begin - reinterpret_cast<std::uintptr_t>(Begin) % Alignment;
    if (Status S = injected("allocate"); !S.empty())
      return S;
    DevicePtr Device = 0;
    if (Status S = allocate(End - Base, Device); !S.empty())
      return S;
    Device += Begin - Base;
    for (std::size_t J = First; J < Last; ++J)
      Work.Spans[Work.Copied[J]].Data =
          Device + (HostOf(Work.Copied[J]) - Begin);
    if (In) {
      Status S = injected("copy-in");
      if (S.empty())
        S = Data.toDevice(Device, Begin, End - Begin, Names);
      if (!S.empty())
        return S;
    }
    Work.Copies.push_back({Begin, static_cast<std::size_t>(End - Begin), Device,
                           In, Out, std::move(Names)});
    First = Last;
  }
  return {};
}

Status KernelLaunch::gatherRows() {
  for (std::size_t I : Work.RowsApart) {
    const detail::LaunchArg &A = Args[I];
    const auto &Rows = *static_cast<const detail::RowsArg *>(A.Data);
    if (const std::size_t Elements = rowElements(Rows); Elements != A.Count)
      return "the rows of '" + K.Params[I].Name + "' hold " +
             std::to_string(Elements) + " elements, not " +
             std::to_string(A.Count);
    if (Status S = injected("allocate"); !S.empty())
      return S;
    if (Status S = allocate(A.Count * A.ElementSize, Work.Spans[I].Data);
        !S.empty())
      return S;
    if (!K.Params[I].readsDevice())
      continue;
    Status S = injected("copy-in");
    if (S.empty())
      S = weft::rt::gatherRows(Data, Work.Spans[I].Data, Rows, A.ElementSize,
                               Work.Gathered);
    if (!S.empty())
      return S;
  }
  return {};
}

Status KernelLaunch::scatterRows() {
  for (std::size_t I : Work.RowsApart)
    if (K.Params[I].writesDevice())
      if (Status S = weft::rt::scatterRows(
              Data, Work.Spans[I].Data,
              *static_cast<const detail::RowsArg *>(Args[I].Data),
              Args[I].ElementSize, Work.Gathered);
          !S.empty())
        return S;
  return {};
}

Status KernelLaunch::bind(std::int64_t RootLower, std::int64_t RootCount,
                          const LaunchConfig &Config) {
  Lower = RootLower;
  Count = RootCount;
  Work.Spans.assign(NumArgs, {});
  Work.Copies.clear();
  Work.Copied.clear();
  Work.RowsApart.clear();
  Work.Partials.assign(K.Reductions.size(), {});
  Work.Arrays.assign(K.Buffers.size(), {});
  Work.SplitPartials.assign(K.Combine.PartialBytes.size(), {});
  Work.Params.clear();
  findRegionRows();
  for (std::size_t I = 0; I < NumArgs; ++I) {
    const ParamInfo &P = K.Params[I];
    const detail::LaunchArg &A = Args[I];
    if (P.Kind == ParamKind::ReductionTarget) {
      if (A.ElementSize != P.Bytes)
        return "reduction variable '" + P.Name + "' has the wrong size";
      continue; // Combined on the host after the launch.
    }
    if (!P.isSpan()) {
      if (A.ElementSize != P.Bytes)
        return "argument '" + P.Name + "' has the wrong size";
      Work.Params.push_back(const_cast<void *>(A.Data));
      continue;
    }
    if (A.ElementSize != P.Bytes)
      return "span '" + P.Name + "' has the wrong element size";
    const std::size_t Bytes = A.Count * A.ElementSize;
    Work.Spans[I].Extent = A.Count;
    Work.Params.push_back(&Work.Spans[I]);
    if (Work.OffsetsInRegion[I]) {
      // The row offsets of rows a region holds: kept beside them.
      Work.Spans[I].Data = Work.OffsetsInRegion[I];
      continue;
    }
    if (Residency::Rows *R = Work.RowsInRegion[I]) {
      if (Status S = Resident.current(*R); !S.empty())
        return S;
      Work.Spans[I].Data = R->Device;
      continue;
    }
    if (P.RowsApart) {
      Work.RowsApart.push_back(I);
      continue;
    }
    // Inside a region the span lives on the device already: no copies.
    if (Residency::Range *R = Resident.find(A.Data, Bytes)) {
      if (Status S = Resident.current(*R); !S.empty())
        return S;
      R->DeviceWritten = R->DeviceWritten || P.writesDevice();
      Work.Spans[I].Data =
          R->Device + (static_cast<const char *>(A.Data) - R->Host);
      continue;
    }
    // Partly inside one: the region's device copy of those bytes comes
    // back first (and is the older where the kernel writes them).
    Resident.useOnHost(A.Data, Bytes, P.writesDevice());
    Work.Copied.push_back(I);
  }
  if (Status S = copyIn(); !S.empty())
    return S;
  if (Status S = gatherRows(); !S.empty())
    return S;
  Work.Params.push_back(&Lower);
  Work.Params.push_back(&Count);
  // One partial value per block for each outermost reduction.
  for (std::size_t R = 0; R < K.Reductions.size(); ++R) {
    Work.Partials[R].Extent = Config.blocks();
    if (Status S =
            allocate(Config.blocks() * K.Params[K.Reductions[R].Param].Bytes,
                     Work.Partials[R].Data);
        !S.empty())
      return S;
    Work.Params.push_back(&Work.Partials[R]);
  }
  // Per-iteration arrays: a slice of Extent elements per thread of the
  // grid (a thread runs its iterations one after another).
  for (std::size_t Buf = 0; Buf < K.Buffers.size(); ++Buf) {
    std::int64_t Extent = 0;
    std::string Error;
    if (!evaluateBound(K.Buffers[Buf].Extent, K, Args, NumArgs, Extent, Error))
      return Error;
    Work.Arrays[Buf].Extent =
        static_cast<std::uint64_t>(std::max<std::int64_t>(Extent, 0)) *
        Config.threads();
    if (Status S =
            allocate(Work.Arrays[Buf].Extent * K.Buffers[Buf].ElementBytes,
                     Work.Arrays[Buf].Data);
        !S.empty())
      return S;
    Work.Params.push_back(&Work.Arrays[Buf]);
  }
  // Split(k) of depth 1: each block's partials, k per outermost iteration,
  // for the combining kernel.
  Splits = 1;
  for (const DimensionInfo &D : K.Dimensions)
    if (D.Depth == 1 && D.Kind == Degree::Split)
      Splits = Config.Grid[D.Axis];
  for (std::size_t R = 0; R < Work.SplitPartials.size(); ++R) {
    Work.SplitPartials[R].Extent =
        static_cast<std::uint64_t>(Count) * static_cast<std::uint64_t>(Splits);
    if (Status S =
            allocate(Work.SplitPartials[R].Extent * K.Combine.PartialBytes[R],
                     Work.SplitPartials[R].Data);
        !S.empty())
      return S;
    Work.Params.push_back(&Work.SplitPartials[R]);
  }
  if (!K.Combine.Name.empty())
    Work.Params.push_back(&Splits);
  return {};
}

Status KernelLaunch::enqueue(KernelHandle Kernel, KernelHandle Combine,
                             const LaunchConfig &Config) {
  Status S = injected("launch");
  if (S.empty())
    S = B.launch(Kernel, Config.Grid, Config.Block, Work.Params.data());
  if (S.empty() && Combine) {
    // One thread per outermost iteration, after the partials are written.
    const unsigned Block[3] = {K.Combine.Block, 1, 1};
    const std::int64_t Blocks = (Count + K.Combine.Block - 1) / K.Combine.Block;
    const unsigned Grid[3] = {
        static_cast<unsigned>(std::min<std::int64_t>(Blocks, 0x7fffffff)), 1,
        1};
    S = B.launch(Combine, Grid, Block, Work.Params.data());
  }
  return S;
}

Status KernelLaunch::synchronize() {
  Status S = injected("synchronize");
  return S.empty() ? B.synchronize() : S;
}

void KernelLaunch::copyOut() {
  Status S;
  for (const LaunchScratch::HostCopy &C : Work.Copies)
    if (C.Out && S.empty())
      S = Data.toHost(const_cast<char *>(C.Host), C.Device, C.Bytes, C.Names);
  if (S.empty())
    S = scatterRows();
  if (!S.empty()) {
    warn(K.Location + ": copying results of kernel " + K.Name +
         " back failed (" + S + "); the host data is no longer reliable");
    std::abort();
  }
}

void KernelLaunch::combine() {
  for (std::size_t R = 0; R < K.Reductions.size(); ++R) {
    const ReductionInfo &Info = K.Reductions[R];
    const ParamInfo &P = K.Params[Info.Param];
    std::vector<char> Host(Work.Partials[R].Extent * P.Bytes);
    std::string Error;
    Status S = Data.toHost(Host.data(), Work.Partials[R].Data, Host.size());
    if (S.empty() && !combineIntoTarget(
                         Info.Op, P.Type, Host.data(), Work.Partials[R].Extent,
                         const_cast<void *>(Args[Info.Param].Data), Error))
      S = Error;
    if (!S.empty()) {
      warn(K.Location + ": combining reduction '" + P.Name + "' of kernel " +
           K.Name + " failed (" + S + "); the host data is no longer reliable");
      std::abort();
    }
  }
}

} // namespace weft::rt
