// dft: the discrete Fourier transform of a sampled signal as signal-processing
// code wrote it before an FFT library was at hand: std::complex<double>, each
// frequency a sum over every sample, the twiddle factor from std::polar.
// Then the power spectrum, and its strongest frequency.
#include "Harness.h"

#include <cmath>
#include <complex>
#include <string>
#include <vector>

namespace {

using Complex = std::complex<double>;

void transform(const std::vector<Complex> &Signal,
               std::vector<Complex> &Spectrum) {
  const int N = static_cast<int>(Signal.size());
  const double Step = -2 * M_PI / N;
#pragma weft parallel for
  for (int K = 0; K < N; ++K) {
    Complex Sum = 0;
    // The angle's multiple taken modulo N keeps it small, as accurate as
    // the sum allows.
    for (int T = 0; T < N; ++T)
      Sum +=
          Signal[T] * std::polar(1.0, Step * ((static_cast<long>(K) * T) % N));
    Spectrum[K] = Sum;
  }
}

void power(const std::vector<Complex> &Spectrum, std::vector<double> &Power) {
  const double Scale = 1.0 / static_cast<double>(Spectrum.size());
#pragma weft parallel for
  for (std::size_t K = 0; K < Spectrum.size(); ++K)
    Power[K] = std::norm(Spectrum[K]) * Scale;
}

} // namespace

int main(int Argc, char **Argv) {
  sample::Options Opts = sample::parseOptions(Argc, Argv);
  const int N = Opts.Small ? 512 : 8192;
  // Two tones and noise.
  sample::Random Rng(17);
  std::vector<Complex> Signal(N);
  for (int T = 0; T < N; ++T) {
    const double Time = static_cast<double>(T) / N;
    Signal[T] = std::polar(1.0, 2 * M_PI * 50 * Time) +
                std::polar(0.5, 2 * M_PI * 120 * Time) +
                Complex(Rng.uniform(-0.2f, 0.2f), Rng.uniform(-0.2f, 0.2f));
  }
  std::vector<Complex> Spectrum(N);
  std::vector<double> Power(N);
  double Ms = sample::fastestMilliseconds(Opts, [&] {
    transform(Signal, Spectrum);
    power(Spectrum, Power);
  });
  int Peak = 0;
  for (int K = 1; K < N; ++K)
    if (Power[K] > Power[Peak])
      Peak = K;
  return sample::finish(
      Opts, "dft",
      std::to_string(N) + " samples, strongest frequency " +
          std::to_string(Peak) + ", " +
          std::to_string(8.0 * N * N / Ms / 1e6).substr(0, 6) +
          " GFLOP/s at 8 flops a term",
      Ms, Power, 1e-9);
}
