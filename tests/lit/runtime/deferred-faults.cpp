// Launches without host waits: inside a region, a launch whose data is all
// resident returns once its kernel is enqueued; the runtime waits only where
// the host needs device results or memory. A fault that only such a wait
// reports (WEFT_TEST_FAULT=deferred) ends in the documented behaviour at
// every kind of wait: under the fallback policy one warning, the launches
// since the last wait redone on the host (the simulator, over the host
// copies), and the host's results exactly; under the error policy one error
// line and exit status 1.
// RUN: %weftxx %s -o %t.exe %weft_link
// RUN: env WEFT_BACKEND=host %t.exe all > %t.host
// One wait for the 26 launches (25 steps, a sum), at the region's end.
// RUN: env WEFT_BACKEND=sim WEFT_VERBOSE=2 %t.exe end 2>&1 >/dev/null | FileCheck --check-prefix=WAITS %s
// WAITS-NOT: synchronized
// WAITS: synchronized 26 launches in flight
// WAITS-NOT: synchronized
// RUN: env WEFT_BACKEND=sim WEFT_ASYNC=0 WEFT_VERBOSE=2 %t.exe end 2>&1 >/dev/null | FileCheck --check-prefix=SYNC %s
// SYNC-NOT: launches in flight
// Each wait, its deferred fault recovered: the host's results.
// RUN: env WEFT_BACKEND=sim %t.exe all > %t.sim
// RUN: diff %t.host %t.sim
// RUN: for m in end update-host update-device reduction copy thread synchronize; do env WEFT_BACKEND=sim WEFT_TEST_FAULT=deferred %t.exe $m > %t.$m 2> %t.$m.err || exit 1; grep "^$m:" %t.host | diff - %t.$m || exit 1; grep -c "redone on the host" %t.$m.err | grep -qx 1 || exit 1; test "$(wc -l < %t.$m.err)" -eq 1 || exit 1; done
// A fault the second wait reports, after the first confirmed launches whose
// results only the device holds: they cannot be redone, and the program
// stops rather than go on with older host data.
// RUN: not --crash env WEFT_BACKEND=sim WEFT_TEST_FAULT=deferred@2 %t.exe synchronize > /dev/null 2> %t.lost
// RUN: FileCheck --check-prefix=LOST %s < %t.lost
// LOST: weft: warning: a kernel launched earlier on sim failed: injected fault (WEFT_TEST_FAULT=deferred@2) {{.*}}; earlier launches left their results in device memory alone, so they cannot be redone on the host: the host data is no longer reliable
// A launch that fails while others are in flight: they finish first.
// RUN: env WEFT_BACKEND=sim WEFT_TEST_FAULT=launch@21 %t.exe fallback > %t.fb 2> %t.fb.err
// RUN: grep "^fallback:" %t.host | diff - %t.fb
// RUN: FileCheck --check-prefix=FALLBACK %s < %t.fb.err
// FALLBACK: weft: warning: {{.*}}deferred-faults.cpp:{{[0-9]+}}:3: kernel {{.*}} failed: injected fault (WEFT_TEST_FAULT=launch@21); the loop runs on the host (resident data copied back: regions end here)
// RUN: env WEFT_BACKEND=sim WEFT_TEST_FAULT=launch@21,deferred %t.exe fallback > %t.fb2 2> %t.fb2.err
// RUN: grep "^fallback:" %t.host | diff - %t.fb2
// RUN: grep -c "redone on the host" %t.fb2.err | grep -qx 1
// Under the error policy: one line, exit status 1.
// RUN: not env WEFT_BACKEND=sim WEFT_TEST_FAULT=deferred WEFT_ON_FAULT=error %t.exe end > /dev/null 2> %t.error
// RUN: FileCheck --check-prefix=ERROR %s < %t.error
// ERROR: weft: error: a kernel launched earlier on sim failed: injected fault (WEFT_TEST_FAULT=deferred) (26 launches in flight, of the loops at {{.*}}deferred-faults.cpp:{{[0-9]+}}:3) (WEFT_ON_FAULT=error)
// ERROR-NOT: weft
#include <weft/weft.hpp>

#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

// One step of an integer automaton over a ring (exact on every backend).
void step(std::span<const int> in, std::span<int> out, int salt) {
#pragma weft parallel for
  for (std::size_t i = 0; i < in.size(); ++i) {
    const std::size_t next = i + 1 < in.size() ? i + 1 : 0;
    out[i] = (in[i] * 3 + in[next] + salt) % 10007;
  }
}

long long total(std::span<const int> v) {
  long long s = 0;
#pragma weft parallel for reduction(+ : s)
  for (std::size_t i = 0; i < v.size(); ++i)
    s += v[i];
  return s;
}

void addTo(std::span<int> v, std::span<const int> extra) {
#pragma weft parallel for
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] += extra[i];
}

long long checksum(const std::vector<int> &V) {
  long long S = 0;
  for (std::size_t I = 0; I < V.size(); ++I)
    S = (S * 31 + V[I]) % 1000000007;
  return S;
}

void run(const char *Mode) {
  const std::size_t N = 3001;
  std::vector<int> A(N), B(N), Extra(N, 5), Other(N, 2);
  for (std::size_t I = 0; I < N; ++I)
    A[I] = static_cast<int>(I * 7 % 101);
  std::span<int> Cur(A), Next(B);
  long long Seen = 0;
  {
    weft::region R(Cur, Next, std::span<int>(Extra));
    for (int T = 0; T < 20; ++T) {
      step(Cur, Next, T);
      std::swap(Cur, Next);
    }
    if (!std::strcmp(Mode, "update-host")) {
      R.update_host(Cur);
      Seen = Cur[7];
      Cur[7] += 1000;
      R.update_device(Cur);
    } else if (!std::strcmp(Mode, "update-device")) {
      Extra[3] = 77; // no loop touched Extra: its host copy is current
      R.update_device(std::span<int>(Extra));
    } else if (!std::strcmp(Mode, "reduction")) {
      Seen = total(Cur);
    } else if (!std::strcmp(Mode, "copy")) {
      addTo(Other, Extra); // Other is not resident: copied in and out
      Seen = Other[9];
    } else if (!std::strcmp(Mode, "thread")) {
      std::thread([&] { addTo(Other, Extra); }).join();
      Seen = Other[9];
    } else if (!std::strcmp(Mode, "synchronize")) {
      weft::synchronize();
    } else if (!std::strcmp(Mode, "fallback")) {
      addTo(Cur, Extra); // its launch fails (WEFT_TEST_FAULT=launch@21)
    }
    for (int T = 0; T < 5; ++T) {
      step(Cur, Next, 100 + T);
      std::swap(Cur, Next);
    }
    addTo(Cur, Extra);
  }
  // A region after the fault: its loops run on the host, and its end must
  // not bring back older device data over their results.
  {
    weft::region Later(std::span<int>(Other), std::span<int>(Extra));
    for (int T = 0; T < 3; ++T)
      addTo(Other, Extra);
  }
  std::printf("%s: %lld %lld %d %lld\n", Mode, checksum(A) + checksum(B), Seen,
              Cur[N - 1], checksum(Other));
}

int main(int Argc, char **Argv) {
  const char *const Modes[] = {"end",      "update-host", "update-device",
                               "reduction", "copy",       "thread",
                               "synchronize", "fallback"};
  if (Argc > 1 && std::strcmp(Argv[1], "all") != 0) {
    run(Argv[1]);
    return 0;
  }
  for (const char *M : Modes)
    run(M);
}
