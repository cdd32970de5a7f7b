// argmax and argmin as old C code finds them: the hottest cell of a grid
// (ties to the first), the last minimum of a signal ('<='), per row of a
// matrix the column of its largest entry (an inner level), and the
// largest residual of a double-precision solver (64-bit values).
// e2e also: cxx17 -std=c++17
#include <weft/weft.hpp>

#include <cstdio>
#include <vector>

int hottest(const float *Grid, int Cells, float &Temperature) {
  float Hot = -1e30f;
  int Where = -1;
#pragma weft parallel for extent(Grid : Cells) reduction(argmax : Hot, Where)
  for (int I = 0; I < Cells; ++I)
    if (Grid[I] > Hot) {
      Hot = Grid[I];
      Where = I;
    }
  Temperature = Hot;
  return Where;
}

int lastMinimum(const std::vector<short> &Signal) {
  short Low = 32767;
  int At = 0;
#pragma weft parallel for reduction(argmin : Low, At)
  for (int I = 0; I < (int)Signal.size(); ++I)
    if (Signal[I] <= Low) {
      Low = Signal[I];
      At = I;
    }
  return At;
}

void rowPeaks(const std::vector<unsigned> &M, int Rows, int Cols,
              std::vector<int> &Peak) {
#pragma weft parallel for
  for (int R = 0; R < Rows; ++R) {
    unsigned Top = 0;
    int Col = -1;
#pragma weft parallel for reduction(argmax : Top, Col)
    for (int C = 0; C < Cols; ++C)
      if (M[R * Cols + C] > Top) {
        Top = M[R * Cols + C];
        Col = C;
      }
    Peak[R] = Col;
  }
}

long worstResidual(const std::vector<double> &Residual, double &Worst) {
  Worst = 0;
  long At = -1;
#pragma weft parallel for reduction(argmax : Worst, At)
  for (long I = 0; I < (long)Residual.size(); ++I)
    if (Residual[I] > Worst) {
      Worst = Residual[I];
      At = I;
    }
  return At;
}

int main() {
  std::vector<float> Grid(200 * 300);
  for (int I = 0; I < 200 * 300; ++I)
    Grid[I] = static_cast<float>((I * 7907) % 10007) * 0.01f;
  float T;
  const int H = hottest(Grid.data(), 200 * 300, T);
  std::vector<short> Signal(77777);
  for (int I = 0; I < 77777; ++I)
    Signal[I] = static_cast<short>((I * 131) % 2003 - 1000);
  std::vector<unsigned> M(64 * 513);
  for (int I = 0; I < 64 * 513; ++I)
    M[I] = (I * 2654435761u) >> 20;
  std::vector<int> Peak(64);
  rowPeaks(M, 64, 513, Peak);
  long Sum = 0;
  for (int P : Peak)
    Sum = Sum * 7 + P;
  std::printf("hottest %d %.2f, last minimum %d, peaks %ld\n", H, T,
              lastMinimum(Signal), Sum);
  std::vector<double> Residual(100003);
  for (long I = 0; I < 100003; ++I) // differences below a float's precision
    Residual[I] = 1e-3 * (1.0 + ((I * 7919) % 100003) * 1e-12);
  double Worst;
  const long At = worstResidual(Residual, Worst);
  std::printf("worst residual %.17g at %ld\n", Worst, At);
}
