// ResidencyTest.cpp: a region's updates on the simulator's memory: a block
// of a matrix's rows moves one way with nothing of its rows' other elements,
// its bytes counted; rows that meet move as one range; updates of data no
// region holds change nothing; a host loop's writes are the newer copy;
// ranges that overlap are one device copy.
#include "region/Residency.h"
#include "backends/BackendTable.h"

#include "core/Backend.h"
#include "core/DataMover.h"
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <vector>

using namespace weft::rt;

namespace {

constexpr std::size_t Rows = 9, Columns = 11;

class ResidencyTest : public testing::Test {
protected:
  void SetUp() override {
    setenv("WEFT_SIM_CHECK", "0", 1);
    std::string Reason;
    Sim = createSimBackend(Reason);
    ASSERT_TRUE(Sim) << Reason;
    Mover = std::make_unique<DataMover>(Sim.get());
    Resident = std::make_unique<Residency>(Sim.get(), *Mover);
    for (std::size_t I = 0; I < Matrix.size(); ++I)
      Matrix[I] = static_cast<int>(I);
    const weft::detail::ResidentRange Range{Matrix.data(),
                                            Matrix.size() * sizeof(int)};
    Region = Resident->enter(&Range, 1);
    ASSERT_FALSE(Resident->empty());
    // As a kernel that writes it would leave it: the device's copy is the
    // one that comes back.
    Resident->find(Matrix.data(), Matrix.size() * sizeof(int))->DeviceWritten =
        true;
  }

  /// The device copy's elements, read without the Residency.
  std::vector<int> deviceCopy() {
    Residency::Range *R =
        Resident->find(Matrix.data(), Matrix.size() * sizeof(int));
    std::vector<int> Copy(Matrix.size());
    EXPECT_EQ(Sim->copyToHost(Copy.data(), R->Device, R->Bytes), "");
    return Copy;
  }

  /// NR rows of NC columns of the matrix, as a RowBlock.
  static RowBlock block(std::size_t NR, std::size_t NC) {
    return {NC * sizeof(int), NR, Columns * sizeof(int)};
  }
  static bool inside(std::size_t I, std::size_t R0, std::size_t C0,
                     std::size_t NR, std::size_t NC) {
    const std::size_t R = I / Columns, C = I % Columns;
    return R >= R0 && R < R0 + NR && C >= C0 && C < C0 + NC;
  }

  std::unique_ptr<Backend> Sim;
  std::unique_ptr<DataMover> Mover;
  std::unique_ptr<Residency> Resident;
  std::vector<int> Matrix = std::vector<int>(Rows * Columns);
  void *Region = nullptr;
};

TEST_F(ResidencyTest, BlockToDeviceLeavesTheRowsOtherElements) {
  for (int &E : Matrix)
    E = -E - 1; // the host changes everything, then sends a block
  const std::uint64_t Before = Mover->BytesToDevice;
  Resident->update(&Matrix[2 * Columns + 3], block(4, 5), true);
  EXPECT_EQ(Mover->BytesToDevice - Before, 4 * 5 * sizeof(int));
  const std::vector<int> Device = deviceCopy();
  for (std::size_t I = 0; I < Matrix.size(); ++I)
    EXPECT_EQ(Device[I], inside(I, 2, 3, 4, 5) ? -static_cast<int>(I) - 1
                                               : static_cast<int>(I))
        << "element " << I;
}

TEST_F(ResidencyTest, BlockToHostLeavesTheRowsOtherElements) {
  for (int &E : Matrix)
    E = 1000; // stale host data; the device keeps 0, 1, 2, ...
  const std::uint64_t Before = Mover->BytesToHost;
  Resident->update(&Matrix[5 * Columns + 6], block(4, 5), false);
  EXPECT_EQ(Mover->BytesToHost - Before, 4 * 5 * sizeof(int));
  for (std::size_t I = 0; I < Matrix.size(); ++I)
    EXPECT_EQ(Matrix[I], inside(I, 5, 6, 4, 5) ? static_cast<int>(I) : 1000)
        << "element " << I;
}

TEST_F(ResidencyTest, WholeRowsAreOneRange) {
  for (int &E : Matrix)
    E = 7;
  Resident->update(&Matrix[Columns],
                   RowBlock{Columns * sizeof(int), 3, Columns * sizeof(int)},
                   false);
  for (std::size_t I = 0; I < Matrix.size(); ++I)
    EXPECT_EQ(Matrix[I], inside(I, 1, 0, 3, Columns) ? static_cast<int>(I) : 7)
        << "element " << I;
}

TEST_F(ResidencyTest, ABlockPastTheRangeIsNotResident) {
  // The block's last row would end past the matrix: the host copy is the
  // only one as far as the region knows, and nothing moves.
  const std::uint64_t Before = Mover->BytesToHost;
  for (int &E : Matrix)
    E = 7;
  Resident->update(&Matrix[7 * Columns], block(3, 2), false);
  EXPECT_EQ(Mover->BytesToHost, Before);
  for (int E : Matrix)
    EXPECT_EQ(E, 7);
}

TEST_F(ResidencyTest, ExitCopiesEverythingBack) {
  for (int &E : Matrix)
    E = 0;
  Resident->exit(Region);
  EXPECT_TRUE(Resident->empty());
  for (std::size_t I = 0; I < Matrix.size(); ++I)
    EXPECT_EQ(Matrix[I], static_cast<int>(I));
}

// Data no kernel wrote goes one way: the region's end copies nothing back
// (pathfinder's 400 MB of weights came back after every call).
TEST_F(ResidencyTest, ExitLeavesWhatNoKernelWrote) {
  std::vector<int> Input(100, 3);
  const weft::detail::ResidentRange Range{Input.data(),
                                          Input.size() * sizeof(int)};
  void *Reading = Resident->enter(&Range, 1);
  const std::uint64_t Back = Mover->BytesToHost;
  Resident->exit(Reading);
  EXPECT_EQ(Mover->BytesToHost, Back);
  // The matrix, written by a kernel, still comes back.
  Resident->exit(Region);
  EXPECT_EQ(Mover->BytesToHost - Back, Matrix.size() * sizeof(int));
}

// A host loop (an if clause that is false) reads the device's results, and
// what it writes is the newer copy: updates to the host skip it, the next
// launch's current() sends it, and the region's end keeps it.
TEST_F(ResidencyTest, AHostLoopsWritesAreTheNewerCopy) {
  for (int &E : Matrix)
    E = 1000; // stale: the device holds 0, 1, 2, ...
  const std::size_t Bytes = Matrix.size() * sizeof(int);
  const std::uint64_t Back = Mover->BytesToHost;
  Resident->useOnHost(&Matrix[Columns], 2 * Columns * sizeof(int), true);
  EXPECT_EQ(Mover->BytesToHost - Back, Bytes); // the whole range, once
  for (std::size_t I = 0; I < Matrix.size(); ++I)
    EXPECT_EQ(Matrix[I], static_cast<int>(I)) << "element " << I;
  for (int &E : Matrix)
    E = -1; // the host loop writes
  Resident->useOnHost(Matrix.data(), Bytes, false);
  Resident->update(&Matrix[Columns], block(2, 4), false);
  EXPECT_EQ(Mover->BytesToHost - Back, Bytes); // nothing more back
  for (int E : Matrix)
    EXPECT_EQ(E, -1);
  Residency::Range *R = Resident->find(Matrix.data(), Bytes);
  ASSERT_TRUE(R);
  const std::uint64_t Sent = Mover->BytesToDevice;
  EXPECT_EQ(Resident->current(*R), "");
  EXPECT_EQ(Resident->current(*R), ""); // once
  EXPECT_EQ(Mover->BytesToDevice - Sent, Bytes);
  for (int E : deviceCopy())
    EXPECT_EQ(E, -1);
  // Written on the host again, then the region ends: the host's copy stays.
  Resident->useOnHost(Matrix.data(), Bytes, true);
  for (int &E : Matrix)
    E = 5;
  Resident->exit(Region);
  for (int E : Matrix)
    EXPECT_EQ(E, 5);
}

// A host loop that only reads leaves the device copy current: the region's
// end copies it back as usual.
TEST_F(ResidencyTest, AHostLoopThatReadsLeavesTheDeviceCopy) {
  Resident->useOnHost(Matrix.data(), Matrix.size() * sizeof(int), false);
  Residency::Range *R =
      Resident->find(Matrix.data(), Matrix.size() * sizeof(int));
  const std::uint64_t Sent = Mover->BytesToDevice;
  EXPECT_EQ(Resident->current(*R), "");
  EXPECT_EQ(Mover->BytesToDevice, Sent);
  for (int &E : Matrix)
    E = 3; // not a host loop's write: the region does not know of it
  Resident->exit(Region);
  for (std::size_t I = 0; I < Matrix.size(); ++I)
    EXPECT_EQ(Matrix[I], static_cast<int>(I));
}

// Parts of one array that overlap (a region over two subspans that share
// elements) are one device copy of their union: one allocation, their
// shared elements one.
TEST_F(ResidencyTest, OverlappingRangesAreOneCopy) {
  Resident->exit(Region);
  const weft::detail::ResidentRange Parts[] = {{&Matrix[40], 50 * sizeof(int)},
                                               {&Matrix[20], 30 * sizeof(int)}};
  const std::uint64_t Sent = Mover->BytesToDevice;
  void *Both = Resident->enter(Parts, 2);
  EXPECT_EQ(Mover->BytesToDevice - Sent, 70 * sizeof(int));
  Residency::Range *R = Resident->find(&Matrix[20], 70 * sizeof(int));
  ASSERT_TRUE(R);
  EXPECT_EQ(R->Host, reinterpret_cast<char *>(&Matrix[20]));
  EXPECT_EQ(R->Bytes, 70 * sizeof(int));
  EXPECT_EQ(Resident->find(Parts[0].Data, Parts[0].Bytes), R);
  EXPECT_EQ(Resident->find(Parts[1].Data, Parts[1].Bytes), R);
  EXPECT_FALSE(Resident->find(&Matrix[19], 2 * sizeof(int)));
  Resident->exit(Both);
  EXPECT_TRUE(Resident->empty());
}

// A region inside another over a range that overlaps the enclosing one's
// without lying inside it takes the union: the enclosing range's device
// data (newer than the host's) comes back into it, and the inner region's
// end leaves all of it on the host.
TEST_F(ResidencyTest, ARangeOverlappingAnEnclosingOneJoinsIt) {
  std::vector<int> Wide(130, 9);
  const std::size_t Inner = Matrix.size() * sizeof(int);
  Resident->exit(Region);
  const weft::detail::ResidentRange First{Wide.data(), Inner};
  void *Outer = Resident->enter(&First, 1);
  std::vector<int> DeviceData(Matrix.size(), 4);
  Residency::Range *R = Resident->find(Wide.data(), Inner);
  ASSERT_TRUE(R);
  ASSERT_EQ(Sim->copyToDevice(R->Device, DeviceData.data(), Inner), "");
  R->DeviceWritten = true; // as a kernel's writes
  const weft::detail::ResidentRange Second{&Wide[50], 80 * sizeof(int)};
  void *Nested = Resident->enter(&Second, 1);
  R = Resident->find(Wide.data(), 130 * sizeof(int));
  ASSERT_TRUE(R);
  EXPECT_EQ(R->Region, Nested);
  std::vector<int> Copy(130);
  ASSERT_EQ(Sim->copyToHost(Copy.data(), R->Device, R->Bytes), "");
  for (std::size_t I = 0; I < Copy.size(); ++I)
    EXPECT_EQ(Copy[I], I < Matrix.size() ? 4 : 9) << "element " << I;
  Resident->exit(Nested);
  EXPECT_TRUE(Resident->empty());
  for (std::size_t I = 0; I < Wide.size(); ++I)
    EXPECT_EQ(Wide[I], I < Matrix.size() ? 4 : 9) << "element " << I;
  Resident->exit(Outer); // holds nothing now
  EXPECT_TRUE(Resident->empty());
}

// A loop over more than a region holds (the whole matrix, two parts of it
// resident) brings back every part it overlaps, and its writes make the
// host's copy of each the newer.
TEST_F(ResidencyTest, ALoopOverPartsOfTwoRangesUsesBoth) {
  Resident->exit(Region);
  const weft::detail::ResidentRange Parts[] = {{&Matrix[10], 20 * sizeof(int)},
                                               {&Matrix[60], 20 * sizeof(int)}};
  void *Two = Resident->enter(Parts, 2);
  for (const auto &Part : Parts) {
    Residency::Range *R = Resident->find(Part.Data, Part.Bytes);
    ASSERT_TRUE(R);
    const std::vector<int> Minus(20, -1);
    ASSERT_EQ(Sim->copyToDevice(R->Device, Minus.data(), Part.Bytes), "");
    R->DeviceWritten = true; // as a kernel's writes
  }
  Resident->useOnHost(&Matrix[25], 40 * sizeof(int), true);
  for (std::size_t I = 0; I < Matrix.size(); ++I)
    EXPECT_EQ(Matrix[I], (I >= 10 && I < 30) || (I >= 60 && I < 80)
                             ? -1
                             : static_cast<int>(I))
        << "element " << I;
  for (int &E : Matrix)
    E = 2; // the host loop's writes
  Resident->exit(Two);
  for (int E : Matrix)
    EXPECT_EQ(E, 2);
}

} // namespace
