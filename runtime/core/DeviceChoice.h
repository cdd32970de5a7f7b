// DeviceChoice.h: which of the visible GPUs this process takes: the one
// WEFT_DEVICE names, else, in a job of an MPI launcher, its local rank's
// modulo the devices (a rank per GPU), else the first.
#ifndef WEFT_RUNTIME_CORE_DEVICECHOICE_H
#define WEFT_RUNTIME_CORE_DEVICECHOICE_H

#include <functional>
#include <string>

namespace weft::rt {

struct DeviceChoice {
  int Index = 0;
  std::string Why; // for WEFT_VERBOSE's backend line
};

/// The device of Count visible ones (Count > 0); Getenv reads the
/// environment (a test's own in tests).
DeviceChoice
chooseDevice(int Count,
             const std::function<const char *(const char *)> &Getenv);
DeviceChoice chooseDevice(int Count);

} // namespace weft::rt

#endif
