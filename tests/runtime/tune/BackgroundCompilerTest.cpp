// BackgroundCompilerTest.cpp: the tuner's compile thread: compiles run in
// the order submitted, off the submitting thread, and report what they
// returned and took; at its end the compile under way finishes and those
// queued behind it do not start, the program's exit waits for the compile
// under way (the runtime's compiler is never destroyed), and a forked
// child does not wait for the parent's thread.
#include "tune/BackgroundCompiler.h"

#include <gtest/gtest.h>

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <future>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace weft::rt;
using namespace std::chrono_literals;

namespace {

void waitFor(const BackgroundCompiler::Job &J) {
  for (int I = 0; I < 10000 && !J.done(); ++I)
    std::this_thread::sleep_for(1ms);
  ASSERT_TRUE(J.done());
}

TEST(BackgroundCompiler, RunsInOrderOffTheCallersThread) {
  BackgroundCompiler Compiler;
  std::vector<int> Order;
  std::thread::id Ran;
  auto First = Compiler.submit([&] {
    Ran = std::this_thread::get_id();
    std::this_thread::sleep_for(20ms);
    Order.push_back(1);
    return Status();
  });
  auto Second = Compiler.submit([&] {
    Order.push_back(2);
    return Status("no such variant");
  });
  waitFor(*Second);
  ASSERT_TRUE(First->done());
  EXPECT_EQ(Order, (std::vector<int>{1, 2}));
  EXPECT_NE(Ran, std::this_thread::get_id());
  EXPECT_EQ(First->Result, "");
  EXPECT_GE(First->Seconds, 0.015);
  EXPECT_EQ(Second->Result, "no such variant");
  EXPECT_EQ(Compiler.pending(), 0u);
}

TEST(BackgroundCompiler, AThrowingCompileFails) {
  BackgroundCompiler Compiler;
  auto J = Compiler.submit(
      []() -> Status { throw std::runtime_error("out of memory"); });
  waitFor(*J);
  EXPECT_EQ(J->Result, "the compile failed: out of memory");
}

TEST(BackgroundCompiler, EndsAfterTheCompileUnderWay) {
  std::promise<void> Started;
  std::shared_ptr<const BackgroundCompiler::Job> Running, Queued;
  bool QueuedRan = false;
  {
    BackgroundCompiler Compiler;
    Running = Compiler.submit([&] {
      Started.set_value();
      std::this_thread::sleep_for(50ms);
      return Status();
    });
    Queued = Compiler.submit([&] {
      QueuedRan = true;
      return Status();
    });
    Started.get_future().wait();
    EXPECT_EQ(Compiler.pending(), 2u);
  }
  EXPECT_TRUE(Running->done());
  EXPECT_FALSE(Queued->done());
  EXPECT_FALSE(QueuedRan);
}

// A child forked after the thread started has none: stopping there (as its
// exit does) must not wait for it (glibc marks the parent's threads gone in
// the child, so joining returns at once).
TEST(BackgroundCompiler, StopsInAForkedChildWithoutWaiting) {
  BackgroundCompiler Compiler;
  waitFor(*Compiler.submit([] { return Status(); }));
  const pid_t Child = ::fork();
  ASSERT_GE(Child, 0);
  if (Child == 0) {
    Compiler.stop();
    ::_exit(0);
  }
  int Status = -1;
  pid_t Done = 0;
  for (int I = 0; I < 10000 && (Done = ::waitpid(Child, &Status, WNOHANG)) == 0;
       ++I)
    std::this_thread::sleep_for(1ms);
  if (Done == 0)
    ::kill(Child, SIGKILL);
  ASSERT_EQ(Done, Child) << "the child waited for a thread it does not have";
  EXPECT_TRUE(WIFEXITED(Status) && WEXITSTATUS(Status) == 0);
}

// The runtime's compiler lives as long as the program: its exit still lets
// the compile under way finish (before the libraries it uses go), which
// then says so through a pipe.
TEST(BackgroundCompiler, ExitWaitsForTheCompileUnderWay) {
  int Pipe[2];
  ASSERT_EQ(::pipe(Pipe), 0);
  const pid_t Child = ::fork();
  ASSERT_GE(Child, 0);
  if (Child == 0) {
    ::close(Pipe[0]);
    auto *Compiler = new BackgroundCompiler(); // never destroyed
    std::atomic<bool> Started{false};
    Compiler->submit([&Started, Fd = Pipe[1]] {
      Started = true;
      std::this_thread::sleep_for(200ms);
      const char Done = 'd';
      (void)!::write(Fd, &Done, 1);
      return Status();
    });
    while (!Started)
      std::this_thread::sleep_for(1ms);
    std::exit(0);
  }
  ::close(Pipe[1]);
  int Status = -1;
  ASSERT_EQ(::waitpid(Child, &Status, 0), Child);
  EXPECT_TRUE(WIFEXITED(Status) && WEXITSTATUS(Status) == 0);
  char Got = 0;
  EXPECT_EQ(::read(Pipe[0], &Got, 1), 1)
      << "the program exited during the compile";
  EXPECT_EQ(Got, 'd');
  ::close(Pipe[0]);
}

} // namespace
