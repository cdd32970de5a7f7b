// heat-mpi: the temperatures of a plate under explicit time steps of the
// heat equation (a five-point stencil), its rows split over the ranks of an
// MPI job (a GPU a rank, each rank's device chosen from its local rank),
// each rank trading its edge rows with its neighbours every step. Ported by
// marking the stencil's loop and keeping each rank's rows in a region: the
// edge rows go between ranks through the device addresses
// weft::device_data gives, where the MPI reads device memory itself (a
// CUDA-aware Open MPI; the simulator's device memory is the host's), and
// otherwise through the host, moving only those rows (update_host and
// update_device of a row).
//   mpirun -np R heat-mpi [--size N] [--steps S] [--host-halos]
// prints the plate's sum and a hash of its bytes: the same for every R.
#include <weft/weft.hpp>

#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h> // Open MPI's MPIX_Query_cuda_support
#endif

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace {

/// One explicit step over rows [Lo, Hi] of a block of rows of N columns
/// (its halo rows above and below, its edge columns fixed).
void step(std::span<const double> T, std::span<double> Next, int Lo, int Hi,
          int N, double Alpha) {
#pragma weft parallel for
  for (int i = Lo; i <= Hi; ++i)
    for (int j = 1; j < N - 1; ++j)
      Next[i * N + j] =
          T[i * N + j] +
          Alpha * (T[(i - 1) * N + j] + T[(i + 1) * N + j] + T[i * N + j - 1] +
                   T[i * N + j + 1] - 4 * T[i * N + j]);
}

/// Whether MPI may be handed device addresses.
bool mpiReadsDeviceMemory() {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  if (std::strcmp(weft::backendName(), "cuda") == 0)
    return MPIX_Query_cuda_support() == 1;
#endif
  // The simulator's device memory is host memory any MPI can read.
  return std::strcmp(weft::backendName(), "sim") == 0;
}

struct Slab {
  int Rank = 0, Ranks = 1, N = 0;
  int First = 0, Rows = 0;     // the plate's rows this rank owns
  std::vector<double> T, Next; // Rows + 2 rows: a halo row each side

  std::span<double> row(std::vector<double> &V, int I) {
    return std::span<double>(V).subspan(static_cast<std::size_t>(I) * N, N);
  }
};

/// Sends the rank's first and last rows to its neighbours and receives
/// theirs into its halo rows.
void tradeEdges(Slab &S, weft::region &R, bool OnDevice) {
  const int Up = S.Rank > 0 ? S.Rank - 1 : MPI_PROC_NULL;
  const int Down = S.Rank + 1 < S.Ranks ? S.Rank + 1 : MPI_PROC_NULL;
  std::span<double> Rows[4] = {S.row(S.T, 1), S.row(S.T, S.Rows + 1),
                               S.row(S.T, S.Rows), S.row(S.T, 0)};
  void *At[4];
  for (int I = 0; I < 4; ++I) {
    At[I] = OnDevice ? weft::device_data(Rows[I]) : nullptr;
    if (!At[I]) {
      At[I] = Rows[I].data();
      if (I % 2 == 0)
        R.update_host(Rows[I]); // what this rank sends
    }
  }
  MPI_Sendrecv(At[0], S.N, MPI_DOUBLE, Up, 0, At[1], S.N, MPI_DOUBLE, Down, 0,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Sendrecv(At[2], S.N, MPI_DOUBLE, Down, 1, At[3], S.N, MPI_DOUBLE, Up, 1,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int I = 1; I < 4; I += 2)
    if (At[I] == Rows[I].data())
      R.update_device(Rows[I]); // what this rank received
}

/// FNV-1a over the bytes of the plate.
std::uint64_t hashOf(const std::vector<double> &V) {
  std::uint64_t H = 1469598103934665603ull;
  const auto *Byte = reinterpret_cast<const unsigned char *>(V.data());
  for (std::size_t I = 0; I < V.size() * sizeof(double); ++I)
    H = (H ^ Byte[I]) * 1099511628211ull;
  return H;
}

} // namespace

int main(int Argc, char **Argv) {
  MPI_Init(&Argc, &Argv);
  Slab S;
  MPI_Comm_rank(MPI_COMM_WORLD, &S.Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &S.Ranks);
  int Steps = 100;
  bool HostHalos = false;
  S.N = 128;
  for (int I = 1; I < Argc; ++I) {
    if (!std::strcmp(Argv[I], "--size") && I + 1 < Argc)
      S.N = std::atoi(Argv[++I]);
    else if (!std::strcmp(Argv[I], "--steps") && I + 1 < Argc)
      Steps = std::atoi(Argv[++I]);
    else if (!std::strcmp(Argv[I], "--host-halos"))
      HostHalos = true;
  }
  const int N = S.N;
  // Rows split as evenly as they go; the plate's first and last rows and
  // its edge columns stay at their temperatures.
  S.First = S.Rank * N / S.Ranks;
  S.Rows = (S.Rank + 1) * N / S.Ranks - S.First;
  S.T.assign(static_cast<std::size_t>(S.Rows + 2) * N, 0.0);
  for (int I = 1; I <= S.Rows; ++I) {
    const int Global = S.First + I - 1;
    for (int J = 0; J < N; ++J)
      S.T[static_cast<std::size_t>(I) * N + J] = Global == 0 ? 100.0
                                                 : J == 0
                                                     ? (Global / 8) % 2 * 40.0
                                                     : 0.0;
  }
  S.Next = S.T;
  const int Lo = S.First == 0 ? 2 : 1;
  const int Hi = S.First + S.Rows == N ? S.Rows - 1 : S.Rows;
  const bool OnDevice = !HostHalos && mpiReadsDeviceMemory();
  const weft::transfer_stats_t Before = weft::transfer_stats();
  const double Start = MPI_Wtime();
  {
    weft::region R(S.T, S.Next);
    for (int Step = 0; Step < Steps; ++Step) {
      tradeEdges(S, R, OnDevice);
      step(S.T, S.Next, Lo, Hi, N, 0.2);
      std::swap(S.T, S.Next);
    }
  }
  const double Seconds = MPI_Wtime() - Start;
  const weft::transfer_stats_t After = weft::transfer_stats();

  // The owned rows, gathered on rank 0 in the plate's order.
  std::vector<int> Counts(S.Ranks), Offsets(S.Ranks);
  for (int R = 0; R < S.Ranks; ++R) {
    Offsets[R] = R * N / S.Ranks * N;
    Counts[R] = (R + 1) * N / S.Ranks * N - Offsets[R];
  }
  std::vector<double> Plate(S.Rank == 0 ? static_cast<std::size_t>(N) * N : 0);
  MPI_Gatherv(S.T.data() + N, S.Rows * N, MPI_DOUBLE, Plate.data(),
              Counts.data(), Offsets.data(), MPI_DOUBLE, 0, MPI_COMM_WORLD);
  const unsigned long long Moved =
      (After.ToDevice - Before.ToDevice) + (After.ToHost - Before.ToHost);
  std::printf("heat-mpi: rank %d of %d: rows %d to %d on %s, halos %s, %llu "
              "bytes between host and device, %.1f ms\n",
              S.Rank, S.Ranks, S.First, S.First + S.Rows - 1,
              weft::backendName(),
              OnDevice ? "from device memory" : "through the host", Moved,
              Seconds * 1e3);
  if (S.Rank == 0) {
    double Sum = 0;
    for (double V : Plate)
      Sum += V;
    std::printf("heat-mpi: %d x %d, %d steps: sum %.17g, hash %016llx\n", N, N,
                Steps, Sum, static_cast<unsigned long long>(hashOf(Plate)));
  }
  MPI_Finalize();
  return 0;
}
