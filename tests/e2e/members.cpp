// Members reached through `this`: spans and scalars of the object are
// captured like locals, also from a lambda in a member function, and a
// range-for may iterate over a member span.
#include <weft/weft.hpp>

#include <cstdio>
#include <numeric>
#include <vector>

class Field {
public:
  explicit Field(std::size_t N) : Storage(N), Values(Storage), Gain(1.5f) {
    std::iota(Storage.begin(), Storage.end(), 0.0f);
  }

  void amplify() {
#pragma weft parallel for
    for (std::size_t I = 0; I < Values.size(); ++I)
      Values[I] = Values[I] * Gain + Offset;
  }

  void clampAll(float Limit) {
    auto Clamp = [this, Limit] {
#pragma weft parallel for
      for (float &V : Values)
        V = V > Limit ? Limit : V;
    };
    Clamp();
  }

  double sum() const {
    return std::accumulate(Storage.begin(), Storage.end(), 0.0);
  }

private:
  std::vector<float> Storage;
  std::span<float> Values;
  float Gain;
  float Offset = 0.25f;
};

template <class T> struct Scaler {
  std::span<T> Data;
  T Factor;
  void run() const {
#pragma weft parallel for
    for (std::size_t I = 0; I < Data.size(); ++I)
      Data[I] *= Factor;
  }
};

int main() {
  Field F(1000);
  F.amplify();
  std::printf("amplify: %.3f\n", F.sum());
  F.clampAll(700.0f);
  std::printf("clamp: %.3f\n", F.sum());
  std::vector<int> Ints(100, 3);
  Scaler<int>{Ints, 7}.run();
  std::printf("scaler: %d\n", std::accumulate(Ints.begin(), Ints.end(), 0));
  return 0;
}
