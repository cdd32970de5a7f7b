// TransferLedger.cpp: copies by the loop call that made them.
#include "core/TransferLedger.h"

#include <algorithm>

namespace weft::rt {

namespace {
// The loop whose call this thread is making, if any (launches from several
// threads each make their own).
thread_local const char *CurrentLoop = nullptr;
} // namespace

void TransferLedger::beginCall(const char *Loop) {
  if (!Enabled)
    return;
  CurrentLoop = Loop;
  std::lock_guard<std::mutex> Guard(Lock);
  ++Loops[Loop].Calls;
}

void TransferLedger::endCall() { CurrentLoop = nullptr; }

void TransferLedger::copied(const void *Host, std::uint64_t Bytes,
                            bool ToDevice, std::string_view What) {
  if (!CurrentLoop || What.empty() || !Bytes)
    return;
  std::lock_guard<std::mutex> Guard(Lock);
  LoopTraffic &L = Loops[CurrentLoop];
  Traffic &T = L.Data[Host];
  if (T.What.empty())
    T.What = What;
  if (T.LastCall != L.Calls) {
    T.LastCall = L.Calls;
    ++T.Calls;
  }
  T.Bytes += Bytes;
  if (ToDevice) {
    // Data another loop's call just copied back: the two loops hand it
    // to each other through the host.
    if (auto It = LastBack.find(Host);
        It != LastBack.end() && It->second != CurrentLoop)
      L.Between.insert(It->second);
    return;
  }
  LastBack[Host] = CurrentLoop;
}

TransferLedger::Repeated TransferLedger::repeated(const char *Loop) const {
  std::lock_guard<std::mutex> Guard(Lock);
  Repeated R;
  const auto It = Loops.find(Loop);
  if (It == Loops.end())
    return R;
  std::uint64_t Bytes = 0;
  for (const auto &[Host, T] : It->second.Data) {
    if (T.Calls < 2)
      continue;
    R.Names.push_back(T.What);
    Bytes += T.Bytes;
    R.Calls = std::max(R.Calls, T.Calls);
  }
  if (R.Calls)
    R.BytesPerCall = Bytes / R.Calls;
  if (!R.Names.empty())
    R.Between = It->second.Between;
  return R;
}

} // namespace weft::rt
