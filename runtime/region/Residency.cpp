// Residency.cpp: the device copies of regions' ranges. A failed copy back
// cannot fall back (part of the host data may already be overwritten): it
// ends the program with a message.
#include "region/Residency.h"

#include "core/Diagnostics.h"

#include <cstdlib>

namespace weft::rt {

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
  const std::size_t First = Ranges.size();
  for (std::size_t I = 0; I < Count; ++I) {
    if (!Entered[I].Bytes || find(Entered[I].Data, Entered[I].Bytes))
      continue; // empty, or resident through an enclosing region
    Range R{static_cast<char *>(Entered[I].Data), Entered[I].Bytes, 0, Region};
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
      for (std::size_t J = First; J < Ranges.size(); ++J)
        B->release(Ranges[J].Device);
      Ranges.resize(First);
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
  delete static_cast<char *>(Region);
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

void Residency::useOnHost(const void *Host, std::size_t Bytes, bool Writes) {
  Range *R = find(Host, Bytes);
  if (!R)
    return;
  if (Status S = backToHost(*R); !S.empty()) {
    warn("copying a weft::region's data back for a host loop failed (" + S +
         "); the host data is no longer reliable");
    std::abort();
  }
  R->HostNewer = R->HostNewer || Writes;
}

Status Residency::backToHost(const Range &R) {
  return R.HostNewer ? Status() : Data.toHost(R.Host, R.Device, R.Bytes);
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
}

} // namespace weft::rt
