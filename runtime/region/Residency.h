// Residency.h: host ranges kept on the device by regions (weft::region):
// entered and left with their copies, updated on request, and all copied
// back when a failure ends them early.
#ifndef WEFT_RUNTIME_REGION_RESIDENCY_H
#define WEFT_RUNTIME_REGION_RESIDENCY_H

#include "core/Backend.h"
#include "core/DataMover.h"

#include "weft/abi.h"

#include <memory>
#include <vector>

namespace weft::rt {

class Residency {
public:
  struct Range {
    char *Host;
    std::size_t Bytes;
    DevicePtr Device;
    void *Region;
    /// A host loop wrote the host copy last (useOnHost): the device copy
    /// is stale until a launch needs it (current).
    bool HostNewer = false;
    /// A kernel that writes it has been launched on it: only then does the
    /// device copy come back (a read-only input of hundreds of megabytes
    /// goes one way).
    bool DeviceWritten = false;
  };

  /// Rows held apart that a region holds: one device block of them and
  /// one of their row offsets, found again by the same rows (pointers and
  /// lengths) in a launch's arguments.
  struct Rows {
    std::vector<detail::RowPiece> Pieces;
    std::size_t ElementSize = 0;
    DevicePtr Device = 0, OffsetsDevice = 0;
    void *Region = nullptr;
    bool HostNewer = false;
    detail::RowsArg arg() const { return {Pieces.data(), Pieces.size()}; }
  };

  Residency(Backend *B, DataMover &Data) : B(B), Data(Data) {}

  /// The resident range holding [Data, Data + Bytes), if any.
  Range *find(const void *Host, std::size_t Bytes);
  bool empty() const { return Ranges.empty() && RowSets.empty(); }
  /// The resident rows that are these rows, if any.
  Rows *findRows(const detail::RowsArg &R, std::size_t ElementSize);
  /// Gathers the rows into device memory for Region (unless an enclosing
  /// region holds them); on a failure their loops copy them as usual.
  void enterRows(void *Region, const detail::RowsArg &R,
                 std::size_t ElementSize);
  /// Copies resident rows one way, all of them.
  void updateRows(const detail::RowsArg &R, std::size_t ElementSize,
                  bool ToDevice);
  /// A host loop is about to use the rows: useOnHost's counterpart.
  void useRowsOnHost(const detail::RowsArg &R, std::size_t ElementSize,
                     bool Writes);
  /// R's device copy made current for a launch.
  Status current(Rows &R);

  /// Copies the ranges to the device (those not resident already through
  /// an enclosing region; ranges that overlap, each other or an enclosing
  /// region's, as one range) and returns the region's handle. On a failure
  /// the region keeps nothing (its loops copy their data as usual).
  void *enter(const detail::ResidentRange *Ranges, std::size_t Count);
  /// Copies the region's ranges back and releases them.
  void exit(void *Region);
  /// Copies part of a resident range one way: a block of rows from Host on
  /// (a block of a matrix, without the rest of its rows), or one range
  /// (one row).
  void update(const void *Host, const RowBlock &Rows, bool ToDevice);
  /// A host loop (or a launch that copies its own data) is about to use
  /// [Host, Host + Bytes): the resident ranges it overlaps come back to the
  /// host (unless the host's copy is the newer), and where the loop Writes it,
  /// the host's copy is the newer.
  void useOnHost(const void *Host, std::size_t Bytes, bool Writes);
  /// R's device copy made current for a launch: a host loop's writes copied
  /// over first.
  Status current(Range &R);
  /// The device address of [Host, Host + Bytes) inside a resident range,
  /// made current there and taken as written (its user may write it: a
  /// GPU-aware MPI's receive), or 0 where no range holds it.
  DevicePtr deviceAddress(const void *Host, std::size_t Bytes, Status &S);
  /// After a failure: every resident range back to the host, released; the
  /// host loops carry on with current data.
  void evictAll();
  /// After a fault that made the host copies the current ones (the
  /// launches in flight redone on the host): the device copies are
  /// released, none copied back.
  void dropAll();

private:
  static bool overlaps(const Range &R, const void *Host, std::size_t Bytes);
  /// R's device copy to the host, unless the host's is the newer.
  Status backToHost(const Range &R);
  Status backToHost(const Rows &R);
  void release(const Rows &R);
  Backend *B;
  DataMover &Data;
  std::vector<Range> Ranges;
  std::vector<std::unique_ptr<Rows>> RowSets;
  std::vector<char> Scratch;
};

} // namespace weft::rt

#endif
