// HostCompiler.cpp: posix_spawn of the host compiler, and the object cache.
#include "sim/HostCompiler.h"

#include "core/Prelude.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <spawn.h>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace weft::rt::sim {

HostCompiler::HostCompiler() {
  const char *C = std::getenv("WEFT_SIM_CXX");
  Compiler = C && *C ? C : WEFT_SIM_DEFAULT_CXX;
}

static bool writeIfChanged(const std::string &Path, const std::string &Text) {
  std::ifstream In(Path);
  std::stringstream Old;
  Old << In.rdbuf();
  if (In && Old.str() == Text)
    return true;
  std::string Tmp = Path + "." + std::to_string(getpid());
  {
    std::ofstream Out(Tmp);
    Out << Text;
    if (!Out)
      return false;
  }
  return std::rename(Tmp.c_str(), Path.c_str()) == 0;
}

bool HostCompiler::prepareCache(std::string &Error) {
  if (Prepared)
    return true;
  if (!Cache.ready(Error))
    return false;
  const std::string Dir = Cache.directory();
  if (::mkdir((Dir + "/include").c_str(), 0700) != 0 && errno != EEXIST) {
    Error = "cannot create " + Dir + "/include";
    return false;
  }
  ::mkdir((Dir + "/include/weft").c_str(), 0700);
  if (!writeIfChanged(Dir + "/include/weft/device.h", DevicePreludeText)) {
    Error = "cannot write " + Dir + "/include/weft/device.h";
    return false;
  }
  Prepared = true;
  return true;
}

std::string HostCompiler::compile(const std::string &Name,
                                  const std::string &Source,
                                  const std::vector<std::string> &Flags,
                                  std::string &Error) {
  if (!prepareCache(Error))
    return {};
  std::string Key = Compiler + "\n" + DevicePreludeText + "\n" + Source;
  for (const std::string &F : Flags)
    Key += "\n" + F;
  const std::string CacheDir = Cache.directory();
  const std::string Base = CacheDir + "/" + Name + "-" + contentHash(Key);
  const std::string Object = Base + ".so";
  if (::access(Object.c_str(), R_OK) == 0)
    return Object;

  const std::string Src = Base + ".cpp";
  const std::string Log = Base + ".log";
  const std::string Tmp = Base + ".so." + std::to_string(getpid());
  if (!writeIfChanged(Src, Source)) {
    Error = "cannot write " + Src;
    return {};
  }
  std::vector<std::string> Args = {Compiler,
                                   "-std=c++20",
                                   "-O2",
                                   "-fPIC",
                                   "-shared",
                                   "-w",
                                   "-I" + CacheDir + "/include"};
  Args.insert(Args.end(), Flags.begin(), Flags.end());
  for (const std::string &F : Flags)
    if (F == "-DWEFT_STRICT_FP=1")
      Args.push_back("-ffp-contract=off");
  Args.insert(Args.end(), {"-o", Tmp, Src});
  std::vector<char *> Argv;
  for (std::string &A : Args)
    Argv.push_back(A.data());
  Argv.push_back(nullptr);

  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_addopen(&Actions, 1, Log.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&Actions, 1, 2);
  pid_t Pid;
  int R = posix_spawnp(&Pid, Compiler.c_str(), &Actions, nullptr, Argv.data(),
                       environ);
  posix_spawn_file_actions_destroy(&Actions);
  if (R != 0) {
    Error = "cannot start the host compiler '" + Compiler +
            "': " + std::strerror(R) + " (set WEFT_SIM_CXX)";
    return {};
  }
  int Status = 0;
  while (::waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(Status) || WEXITSTATUS(Status) != 0) {
    Error = "the host compiler failed on " + Src + " (its messages are in " +
            Log + ")";
    std::remove(Tmp.c_str());
    return {};
  }
  if (std::rename(Tmp.c_str(), Object.c_str()) != 0) {
    Error = "cannot move the compiled kernel into " + Object;
    return {};
  }
  return Object;
}

} // namespace weft::rt::sim
