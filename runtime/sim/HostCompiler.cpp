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

std::string contentHash(const std::string &Text) {
  std::uint64_t H = 1469598103934665603ull;
  for (unsigned char C : Text) {
    H ^= C;
    H *= 1099511628211ull;
  }
  char Out[17];
  std::snprintf(Out, sizeof Out, "%016llx", static_cast<unsigned long long>(H));
  return Out;
}

std::string cacheDirectory() {
  if (const char *D = std::getenv("WEFT_CACHE_DIR"); D && *D)
    return D;
  if (const char *D = std::getenv("XDG_CACHE_HOME"); D && *D)
    return std::string(D) + "/weft";
  if (const char *H = std::getenv("HOME"); H && *H)
    return std::string(H) + "/.cache/weft";
  return "/tmp/weft-cache-" + std::to_string(getuid());
}

HostCompiler::HostCompiler() {
  const char *C = std::getenv("WEFT_SIM_CXX");
  Compiler = C && *C ? C : WEFT_SIM_DEFAULT_CXX;
}

static bool makeDirectories(const std::string &Path) {
  for (std::size_t I = 1; I <= Path.size(); ++I)
    if (I == Path.size() || Path[I] == '/') {
      std::string Prefix = Path.substr(0, I);
      if (::mkdir(Prefix.c_str(), 0700) != 0 && errno != EEXIST)
        return false;
    }
  return true;
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
  if (!CacheDir.empty())
    return true;
  std::string Dir = cacheDirectory() + "/sim";
  struct stat St;
  if (!makeDirectories(Dir + "/include/weft") || ::stat(Dir.c_str(), &St) != 0) {
    Error = "cannot create the cache directory " + Dir;
    return false;
  }
  if (St.st_mode & (S_IWGRP | S_IWOTH)) {
    Error = "the cache directory " + Dir + " is writable by others";
    return false;
  }
  if (!writeIfChanged(Dir + "/include/weft/device.h", DevicePreludeText)) {
    Error = "cannot write " + Dir + "/include/weft/device.h";
    return false;
  }
  CacheDir = Dir;
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
  std::vector<std::string> Args = {Compiler, "-std=c++20", "-O2", "-fPIC",
                                   "-shared", "-w", "-I" + CacheDir + "/include"};
  Args.insert(Args.end(), Flags.begin(), Flags.end());
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
