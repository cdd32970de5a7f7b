// Legacy data held as it was written: a Jacobi sweep over C arrays kept
// resident in a region (update_host of one array between sweeps), a
// std::vector of points reduced through const std::vector&, pointers whose
// extent the mark states (a member and a product of rows and columns), and
// nested std::array rows.
// The same program built as C++17, as much legacy code is:
// e2e also: cxx17 -std=c++17
#include <weft/weft.hpp>

#include <array>
#include <cstdio>
#include <vector>

constexpr int N = 130;
static double Grid[N][N], Next[N][N];

void sweep() {
#pragma weft parallel for
  for (int I = 1; I < N - 1; ++I)
#pragma weft parallel for
    for (int J = 1; J < N - 1; ++J)
      Next[I][J] = 0.25 * (Grid[I - 1][J] + Grid[I + 1][J] + Grid[I][J - 1] +
                           Grid[I][J + 1]);
#pragma weft parallel for
  for (int I = 1; I < N - 1; ++I)
#pragma weft parallel for
    for (int J = 1; J < N - 1; ++J)
      Grid[I][J] = Next[I][J];
}

double spread(const std::vector<std::array<float, 3>> &Points) {
  float Far = 0;
#pragma weft parallel for reduction(max : Far)
  for (std::size_t I = 0; I < Points.size(); ++I) {
    const float D = Points[I][0] * Points[I][0] + Points[I][1] * Points[I][1] +
                    Points[I][2] * Points[I][2];
    if (D > Far)
      Far = D;
  }
  return Far;
}

struct Image {
  unsigned char *Pixels;
  int Rows, Cols;
  void invert() {
#pragma weft parallel for extent(Pixels : Rows *Cols)
    for (int R = 0; R < Rows; ++R)
#pragma weft parallel for
      for (int C = 0; C < Cols; ++C)
        Pixels[R * Cols + C] = 255 - Pixels[R * Cols + C];
  }
};

long checksum(const int *Values, long Count) {
  long Sum = 0;
#pragma weft parallel for extent(Values : Count) reduction(+ : Sum)
  for (long I = 0; I < Count; ++I)
    Sum += Values[I] % 7;
  return Sum;
}

int main() {
  for (int I = 0; I < N; ++I)
    for (int J = 0; J < N; ++J)
      Grid[I][J] = (I == 0 || J == 0) ? 100.0 : 0.0;
  {
    weft::region Resident(Grid, Next);
    for (int Step = 0; Step < 20; ++Step) {
      sweep();
      if (Step == 9) {
        Resident.update_host(Grid);
        std::printf("after 10 sweeps: %.6f\n", Grid[1][1]);
      }
    }
  }
  std::printf("after 20 sweeps: %.6f %.6f\n", Grid[1][1], Grid[N / 2][1]);

  std::vector<std::array<float, 3>> Points(3001);
  for (int I = 0; I < 3001; ++I)
    Points[I] = {float(I % 17) - 8, float(I % 29) * 0.5f, float(I % 5)};
  std::printf("spread %.3f\n", spread(Points));

  std::vector<unsigned char> Pixels(37 * 53);
  for (std::size_t I = 0; I < Pixels.size(); ++I)
    Pixels[I] = static_cast<unsigned char>(I * 7);
  Image Img{Pixels.data(), 37, 53};
  Img.invert();
  long PixelSum = 0;
  for (unsigned char P : Pixels)
    PixelSum += P;
  std::printf("pixels %ld\n", PixelSum);

  std::vector<int> Values(100000);
  for (int I = 0; I < 100000; ++I)
    Values[I] = I * 3 + 1;
  std::printf("checksum %ld\n", checksum(Values.data(), 100000));
}
