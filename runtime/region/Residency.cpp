// Residency.cpp: the device copies of regions' ranges. A failed copy back
// cannot fall back (part of the host data may already be overwritten): it
// ends the program with a message.
#include "region/Residency.h"

#include "core/Diagnostics.h"
#include "region/RowsApart.h"

#include <algorithm>
#include <cstdlib>
#include <functional>

namespace weft::rt {

bool Residency::overlaps(const Range &R, const void *Host, std::size_t Bytes) {
  const char *P = static_cast<const char *>(Host);
  return Bytes && std::less<>()(P, R.Host + R.Bytes) &&
         std::less<>()(R.Host, P + Bytes);
}

Residency::Range *Residency::find(const void *Host, std::size_t Bytes) {
  const char *P = static_cast<const char *>(Host);
  for (Range &R : Ranges)
    if (P >= R.Host && P + Bytes <= R.Host + R.Bytes)
      return &R;
  return nullptr;
}

void *Residency::enter(const detail::ResidentRange *Entered,
                       std::size_t Count) {
  void *Region = new char; // its identity
  // Ranges that overlap are one device copy of their union: the loops see
  // one memory, as the host loops do.
  std::vector<std::pair<char *, char *>> Merged;
  for (std::size_t I = 0; I < Count; ++I)
    if (Entered[I].Bytes) {
      char *Host = static_cast<char *>(Entered[I].Data);
      Merged.push_back({Host, Host + Entered[I].Bytes});
    }
  std::sort(Merged.begin(), Merged.end(), std::less<>());
  std::size_t Kept = 0;
  for (const auto &[Begin, End] : Merged) {
    if (Kept && std::less<>()(Begin, Merged[Kept - 1].second))
      Merged[Kept - 1].second =
          std::max(Merged[Kept - 1].second, End, std::less<>());
    else
      Merged[Kept++] = {Begin, End};
  }
  Merged.resize(Kept);
  for (auto [Begin, End] : Merged) {
    if (find(Begin, End - Begin))
      continue; // resident through an enclosing region
    // Ranges of enclosing regions that it overlaps join it: their device
    // copies come back and are released, and this region holds the union
    // until it ends (their loops then copy their data as usual).
    for (bool Grew = true; Grew;) {
      Grew = false;
      for (auto It = Ranges.begin(); It != Ranges.end(); ++It) {
        if (!overlaps(*It, Begin, End - Begin))
          continue;
        if (Status S = backToHost(*It); !S.empty()) {
          warn("copying a weft::region's data back to widen it failed (" + S +
               "); the host data is no longer reliable");
          std::abort();
        }
        Begin = std::min(Begin, It->Host, std::less<>());
        End = std::max(End, It->Host + It->Bytes, std::less<>());
        B->release(It->Device);
        Ranges.erase(It);
        Grew = true;
        break;
      }
    }
    Range R{Begin, static_cast<std::size_t>(End - Begin), 0, Region};
    Status S = B->allocate(R.Bytes, R.Device);
    if (S.empty()) {
      S = Data.toDevice(R.Device, R.Host, R.Bytes);
      if (!S.empty())
        B->release(R.Device);
    }
    if (!S.empty()) {
      fault("a weft::region could not keep its data on " +
                std::string(B->name()) + " (" + S + ")",
            "its loops copy their data as usual");
      // The host's copies are current: the region's are dropped.
      for (auto It = Ranges.begin(); It != Ranges.end();)
        if (It->Region == Region) {
          B->release(It->Device);
          It = Ranges.erase(It);
        } else {
          ++It;
        }
      break;
    }
    Ranges.push_back(R);
  }
  return Region;
}

void Residency::exit(void *Region) {
  std::vector<Range> Kept;
  for (Range &R : Ranges) {
    if (R.Region != Region) {
      Kept.push_back(R);
      continue;
    }
    if (Status S = backToHost(R); !S.empty()) {
      warn("copying a weft::region's data back failed (" + S +
           "); the host data is no longer reliable");
      std::abort();
    }
    B->release(R.Device);
  }
  Ranges = std::move(Kept);
  for (auto It = RowSets.begin(); It != RowSets.end();) {
    if ((*It)->Region != Region) {
      ++It;
      continue;
    }
    if (Status S = backToHost(**It); !S.empty()) {
      warn("copying a weft::region's rows back failed (" + S +
           "); the host data is no longer reliable");
      std::abort();
    }
    release(**It);
    It = RowSets.erase(It);
  }
  delete static_cast<char *>(Region);
}

Residency::Rows *Residency::findRows(const detail::RowsArg &R,
                                     std::size_t ElementSize) {
  for (const std::unique_ptr<Rows> &Set : RowSets) {
    if (Set->ElementSize != ElementSize || Set->Pieces.size() != R.NumRows)
      continue;
    bool Same = true;
    for (std::size_t I = 0; I < R.NumRows && Same; ++I)
      Same = Set->Pieces[I].Data == R.Rows[I].Data &&
             Set->Pieces[I].Count == R.Rows[I].Count;
    if (Same)
      return Set.get();
  }
  return nullptr;
}

void Residency::enterRows(void *Region, const detail::RowsArg &R,
                          std::size_t ElementSize) {
  if (findRows(R, ElementSize))
    return; // resident through an enclosing region
  auto Set = std::make_unique<Rows>();
  Set->Pieces.assign(R.Rows, R.Rows + R.NumRows);
  Set->ElementSize = ElementSize;
  Set->Region = Region;
  const std::vector<std::uint64_t> Offsets = rowOffsets(R);
  const std::size_t Bytes = Offsets.back() * ElementSize;
  Status S = B->allocate(Bytes ? Bytes : 1, Set->Device);
  if (S.empty()) {
    S = B->allocate(Offsets.size() * sizeof(std::uint64_t), Set->OffsetsDevice);
    if (!S.empty())
      B->release(Set->Device);
  }
  if (S.empty()) {
    S = gatherRows(Data, Set->Device, R, ElementSize, Scratch);
    if (S.empty())
      S = Data.toDevice(Set->OffsetsDevice, Offsets.data(),
                        Offsets.size() * sizeof(std::uint64_t));
    if (!S.empty())
      release(*Set);
  }
  if (!S.empty()) {
    fault("a weft::region could not keep its rows on " +
              std::string(B->name()) + " (" + S + ")",
          "their loops copy them as usual");
    return;
  }
  RowSets.push_back(std::move(Set));
}

void Residency::updateRows(const detail::RowsArg &R, std::size_t ElementSize,
                           bool ToDevice) {
  Rows *Set = findRows(R, ElementSize);
  if (!Set || (Set->HostNewer && !ToDevice))
    return; // the host copy is the only one, or the newer
  Status S = ToDevice ? gatherRows(Data, Set->Device, R, ElementSize, Scratch)
                      : scatterRows(Data, Set->Device, R, ElementSize, Scratch);
  if (!S.empty()) {
    warn("a weft::region update failed (" + S +
         "); the host data is no longer reliable");
    std::abort();
  }
  if (ToDevice)
    Set->HostNewer = false;
}

void Residency::useRowsOnHost(const detail::RowsArg &R, std::size_t ElementSize,
                              bool Writes) {
  Rows *Set = findRows(R, ElementSize);
  if (!Set)
    return;
  if (Status S = backToHost(*Set); !S.empty()) {
    warn("copying a weft::region's rows back for a host loop failed (" + S +
         "); the host data is no longer reliable");
    std::abort();
  }
  Set->HostNewer = Set->HostNewer || Writes;
}

Status Residency::current(Rows &R) {
  if (!R.HostNewer)
    return {};
  Status S = gatherRows(Data, R.Device, R.arg(), R.ElementSize, Scratch);
  if (S.empty())
    R.HostNewer = false;
  return S;
}

Status Residency::backToHost(const Rows &R) {
  return R.HostNewer
             ? Status()
             : scatterRows(Data, R.Device, R.arg(), R.ElementSize, Scratch);
}

void Residency::release(const Rows &R) {
  B->release(R.Device);
  B->release(R.OffsetsDevice);
}

void Residency::update(const void *Host, const RowBlock &Rows, bool ToDevice) {
  if (!Rows.Rows || !Rows.RowBytes)
    return;
  const std::size_t Extent = (Rows.Rows - 1) * Rows.PitchBytes + Rows.RowBytes;
  Range *R = find(Host, Extent);
  if (!R || (R->HostNewer && !ToDevice))
    return; // The host copy is the only one, or the newer.
  const std::size_t Offset = static_cast<const char *>(Host) - R->Host;
  // Rows that meet are one range: one copy, the fastest on every API.
  const bool OneRange = Rows.Rows == 1 || Rows.RowBytes >= Rows.PitchBytes;
  const DevicePtr Device = R->Device + Offset;
  void *HostBlock = const_cast<void *>(Host);
  Status S = OneRange ? (ToDevice ? Data.toDevice(Device, Host, Extent)
                                  : Data.toHost(HostBlock, Device, Extent))
                      : (ToDevice ? Data.rowsToDevice(Device, Host, Rows)
                                  : Data.rowsToHost(HostBlock, Device, Rows));
  if (!S.empty()) {
    warn("a weft::region update failed (" + S +
         "); the host data is no longer reliable");
    std::abort();
  }
}

DevicePtr Residency::deviceAddress(const void *Host, std::size_t Bytes,
                                   Status &S) {
  Range *R = find(Host, Bytes ? Bytes : 1);
  if (!R)
    return 0;
  if (S = current(*R); !S.empty())
    return 0;
  R->DeviceWritten = true;
  return R->Device + (static_cast<const char *>(Host) - R->Host);
}

void Residency::useOnHost(const void *Host, std::size_t Bytes, bool Writes) {
  // Every range the loop's bytes overlap: a loop may use more than a
  // region holds, or parts of two.
  for (Range &R : Ranges) {
    if (!overlaps(R, Host, Bytes))
      continue;
    if (Status S = backToHost(R); !S.empty()) {
      warn("copying a weft::region's data back for a host loop failed (" + S +
           "); the host data is no longer reliable");
      std::abort();
    }
    R.HostNewer = R.HostNewer || Writes;
  }
}

Status Residency::backToHost(const Range &R) {
  return R.HostNewer || !R.DeviceWritten
             ? Status()
             : Data.toHost(R.Host, R.Device, R.Bytes);
}

Status Residency::current(Range &R) {
  if (!R.HostNewer)
    return {};
  Status S = Data.toDevice(R.Device, R.Host, R.Bytes);
  if (S.empty())
    R.HostNewer = false;
  return S;
}

void Residency::dropAll() {
  for (Range &R : Ranges)
    B->release(R.Device);
  Ranges.clear();
  for (const std::unique_ptr<Rows> &Set : RowSets)
    release(*Set);
  RowSets.clear();
}

void Residency::evictAll() {
  for (Range &R : Ranges) {
    if (Status S = backToHost(R); !S.empty()) {
      warn("copying resident data back after a failure failed (" + S +
           "); the host data is no longer reliable");
      std::abort();
    }
    B->release(R.Device);
  }
  Ranges.clear();
  for (const std::unique_ptr<Rows> &Set : RowSets) {
    if (Status S = backToHost(*Set); !S.empty()) {
      warn("copying resident rows back after a failure failed (" + S +
           "); the host data is no longer reliable");
      std::abort();
    }
    release(*Set);
  }
  RowSets.clear();
}

} // namespace weft::rt
