// TransferLedger.h: every copy between host and device, attributed to the
// loop call that forced it (WEFT_PROFILE), and what follows: the data a
// region would keep on the device instead of copying it call after call.
#ifndef WEFT_RUNTIME_CORE_TRANSFERLEDGER_H
#define WEFT_RUNTIME_CORE_TRANSFERLEDGER_H

#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace weft::rt {

class TransferLedger {
public:
  /// The copies this thread makes from here to endCall() are a call of
  /// Loop's (its descriptor); outside such a call they are the program's
  /// own (a region's start, end or updates) and left out.
  void beginCall(const char *Loop);
  /// Off (nothing entered: no lock, no lookup a launch) where no profile
  /// reads the ledger.
  bool Enabled = true;
  void endCall();
  /// Bytes of the host data at Host copied one way; What names it in the
  /// loop (its parameters' names). Copies of no data of the program's (a
  /// reduction's partial results) have no What and are left out.
  void copied(const void *Host, std::uint64_t Bytes, bool ToDevice,
              std::string_view What);

  /// What Loop's calls copied again and again: the data a region around
  /// them would copy once.
  struct Repeated {
    std::vector<std::string> Names; // as the loop names them
    std::uint64_t BytesPerCall = 0; // copied by a call, both ways
    unsigned Calls = 0;             // calls that copied some of it
    /// Other loops (descriptors) whose calls copied some of it back just
    /// before this loop's copied it in again.
    std::set<const char *> Between;
  };
  /// Empty Names where no data of Loop's went in or out in two calls.
  Repeated repeated(const char *Loop) const;

private:
  struct Traffic {
    std::string What;
    unsigned Calls = 0; // calls that copied it, either way
    unsigned LastCall = 0;
    std::uint64_t Bytes = 0;
  };
  struct LoopTraffic {
    unsigned Calls = 0;
    std::map<const void *, Traffic> Data; // by host address
    std::set<const char *> Between;
  };
  mutable std::mutex Lock;
  std::unordered_map<const char *, LoopTraffic> Loops;
  /// Per host address, the loop whose call copied it back last.
  std::unordered_map<const void *, const char *> LastBack;
};

} // namespace weft::rt

#endif
