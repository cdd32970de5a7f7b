// BackgroundCompiler.cpp: the compile thread and its queue.
#include "tune/BackgroundCompiler.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <vector>

namespace weft::rt {
namespace {

/// The compilers whose thread has started, stopped together at exit.
std::mutex StartedLock;
std::vector<BackgroundCompiler *> &started() {
  static auto *All = new std::vector<BackgroundCompiler *>(); // never freed
  return *All;
}

void stopStarted() {
  std::vector<BackgroundCompiler *> All;
  {
    std::lock_guard<std::mutex> Guard(StartedLock);
    All = started();
  }
  for (BackgroundCompiler *C : All)
    C->stop();
}

} // namespace

BackgroundCompiler::~BackgroundCompiler() {
  stop();
  std::lock_guard<std::mutex> Guard(StartedLock);
  auto &All = started();
  All.erase(std::remove(All.begin(), All.end(), this), All.end());
}

void BackgroundCompiler::stop() {
  std::thread Stopped;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    Stopping = true;
    Queue.clear();
    Stopped = std::move(Worker);
  }
  Wake.notify_all();
  if (Stopped.joinable())
    Stopped.join();
}

std::shared_ptr<const BackgroundCompiler::Job>
BackgroundCompiler::submit(Work Compile) {
  auto J = std::make_shared<Job>();
  {
    std::lock_guard<std::mutex> Guard(Lock);
    if (Stopping)
      return J;
    Queue.emplace_back(J, std::move(Compile));
    if (!Worker.joinable()) {
      Worker = std::thread([this] { run(); });
      // Registered now, after the libraries the program's first compiles
      // loaded: exit runs it before their destructors.
      std::lock_guard<std::mutex> Registry(StartedLock);
      if (std::find(started().begin(), started().end(), this) ==
          started().end())
        started().push_back(this);
      std::atexit(stopStarted);
    }
  }
  Wake.notify_one();
  return J;
}

std::size_t BackgroundCompiler::pending() const {
  std::lock_guard<std::mutex> Guard(Lock);
  return Queue.size() + Running;
}

void BackgroundCompiler::run() {
  std::unique_lock<std::mutex> Guard(Lock);
  while (true) {
    Wake.wait(Guard, [this] { return Stopping || !Queue.empty(); });
    if (Stopping)
      return;
    auto [J, Compile] = std::move(Queue.front());
    Queue.pop_front();
    ++Running;
    Guard.unlock();
    const auto Start = std::chrono::steady_clock::now();
    Status Result;
    try {
      Result = Compile();
    } catch (const std::exception &E) {
      Result = std::string("the compile failed: ") + E.what();
    }
    J->Seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
            .count();
    J->Result = std::move(Result);
    J->Done.store(true, std::memory_order_release);
    Guard.lock();
    --Running;
  }
}

} // namespace weft::rt
