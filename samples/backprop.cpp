// backprop: one training step of a two-layer perceptron (Rodinia's
// backprop: a wide input layer, 16 hidden units, one output): the forward
// pass (a reduction per hidden unit), the errors, and the weight updates.
#include "Harness.h"

#include <cmath>
#include <string>
#include <vector>

namespace {

struct Network {
  int Inputs, Hidden, Outputs;
  // Units start at index 1; index 0 is the bias unit, always 1.
  std::vector<float> InputUnits, HiddenUnits, OutputUnits;
  std::vector<float> HiddenDelta, OutputDelta, Target;
  // (Inputs + 1) x (Hidden + 1) and (Hidden + 1) x (Outputs + 1), row-major.
  std::vector<float> InputWeights, HiddenWeights;
  std::vector<float> InputPrevious, HiddenPrevious; // the last updates
};

float squash(float X) { return 1.0f / (1.0f + std::exp(-X)); }

// Each unit J of Next from every unit of Previous.
void layerForward(const std::vector<float> &Previous, std::vector<float> &Next,
                  const std::vector<float> &Weights, int N1, int N2) {
#pragma weft parallel for
  for (int J = 1; J <= N2; ++J) {
    float Sum = 0;
#pragma weft parallel for reduction(+ : Sum)
    for (int K = 0; K <= N1; ++K)
      Sum += Weights[K * (N2 + 1) + J] * Previous[K];
    Next[J] = squash(Sum);
  }
}

// Moves each weight along its unit's error, with momentum.
void adjustWeights(const std::vector<float> &Delta, int NDelta,
                   const std::vector<float> &Units, int NUnits,
                   std::vector<float> &Weights, std::vector<float> &Previous) {
  const float Eta = 0.3f, Momentum = 0.3f;
#pragma weft parallel for
  for (int K = 0; K <= NUnits; ++K) {
#pragma weft parallel for
    for (int J = 1; J <= NDelta; ++J) {
      int W = K * (NDelta + 1) + J;
      float Change = Eta * Delta[J] * Units[K] + Momentum * Previous[W];
      Weights[W] += Change;
      Previous[W] = Change;
    }
  }
}

void train(Network &Net) {
  Net.InputUnits[0] = Net.HiddenUnits[0] = 1.0f;
  layerForward(Net.InputUnits, Net.HiddenUnits, Net.InputWeights, Net.Inputs,
               Net.Hidden);
  layerForward(Net.HiddenUnits, Net.OutputUnits, Net.HiddenWeights, Net.Hidden,
               Net.Outputs);
  // The errors: a few units, on the host as in Rodinia.
  for (int J = 1; J <= Net.Outputs; ++J) {
    float O = Net.OutputUnits[J];
    Net.OutputDelta[J] = O * (1 - O) * (Net.Target[J] - O);
  }
  for (int J = 1; J <= Net.Hidden; ++J) {
    float H = Net.HiddenUnits[J], Sum = 0;
    for (int K = 1; K <= Net.Outputs; ++K)
      Sum += Net.OutputDelta[K] * Net.HiddenWeights[J * (Net.Outputs + 1) + K];
    Net.HiddenDelta[J] = H * (1 - H) * Sum;
  }
  adjustWeights(Net.OutputDelta, Net.Outputs, Net.HiddenUnits, Net.Hidden,
                Net.HiddenWeights, Net.HiddenPrevious);
  adjustWeights(Net.HiddenDelta, Net.Hidden, Net.InputUnits, Net.Inputs,
                Net.InputWeights, Net.InputPrevious);
}

Network makeNetwork(int Inputs, int Hidden, int Outputs) {
  Network Net{Inputs, Hidden, Outputs, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}};
  sample::Random Rng(17);
  Net.InputUnits.resize(Inputs + 1);
  for (float &U : Net.InputUnits)
    U = Rng.uniform(0.0f, 1.0f);
  Net.HiddenUnits.assign(Hidden + 1, 0.0f);
  Net.OutputUnits.assign(Outputs + 1, 0.0f);
  Net.HiddenDelta.assign(Hidden + 1, 0.0f);
  Net.OutputDelta.assign(Outputs + 1, 0.0f);
  Net.Target.assign(Outputs + 1, 0.1f);
  Net.InputWeights.resize((Inputs + 1) * (Hidden + 1));
  for (float &W : Net.InputWeights)
    W = Rng.uniform(-0.01f, 0.01f);
  Net.HiddenWeights.resize((Hidden + 1) * (Outputs + 1));
  for (float &W : Net.HiddenWeights)
    W = Rng.uniform(-1.0f, 1.0f);
  Net.InputPrevious.assign(Net.InputWeights.size(), 0.0f);
  Net.HiddenPrevious.assign(Net.HiddenWeights.size(), 0.0f);
  return Net;
}

} // namespace

int main(int Argc, char **Argv) {
  sample::Options Opts = sample::parseOptions(Argc, Argv);
  const int Inputs = Opts.Small ? 4096 : 1 << 22, Hidden = 16, Steps = 3;
  const Network Initial = makeNetwork(Inputs, Hidden, 1);
  Network Net = Initial;
  double Ms = sample::fastestMilliseconds(Opts, [&] {
    Net = Initial;
    for (int S = 0; S < Steps; ++S)
      train(Net);
  });
  // Every weight, then the units.
  std::vector<float> Result = Net.InputWeights;
  Result.insert(Result.end(), Net.HiddenWeights.begin(),
                Net.HiddenWeights.end());
  Result.insert(Result.end(), Net.HiddenUnits.begin(), Net.HiddenUnits.end());
  Result.insert(Result.end(), Net.OutputUnits.begin(), Net.OutputUnits.end());
  return sample::finish(Opts, "backprop",
                        std::to_string(Inputs) + " inputs, " +
                            std::to_string(Hidden) + " hidden units, " +
                            std::to_string(Steps) + " steps",
                        Ms, Result, 1e-4);
}
