// HostCompiler.cpp: posix_spawn of the host compiler, and the object cache.
#include "sim/HostCompiler.h"

#include "core/Diagnostics.h"
#include "core/Prelude.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace weft::rt::sim {

HostCompiler::HostCompiler() {
  const char *C = std::getenv("WEFT_SIM_CXX");
  Compiler = C && *C ? C : WEFT_SIM_DEFAULT_CXX;
}

HostCompiler::~HostCompiler() {
  // The private folder (not the cache's) goes with the process: the loaded
  // objects stay mapped.
  if (!PrivateDir.empty()) {
    std::vector<std::string> Names;
    if (DIR *D = ::fdopendir(::dup(DirFd))) {
      while (const dirent *E = ::readdir(D))
        if (std::strcmp(E->d_name, ".") && std::strcmp(E->d_name, ".."))
          Names.push_back(E->d_name);
      ::closedir(D);
    }
    ::unlinkat(DirFd, "include/weft/device.h", 0);
    ::unlinkat(DirFd, "include/weft", AT_REMOVEDIR);
    for (const std::string &N : Names)
      ::unlinkat(DirFd, N.c_str(), N == "include" ? AT_REMOVEDIR : 0);
    ::rmdir(PrivateDir.c_str());
  }
  if (DirFd >= 0 && DirFd != Cache.directoryFd())
    ::close(DirFd);
}

namespace {

/// Reads File of DirFd whole, if it is a verified entry.
bool readEntry(int DirFd, const std::string &File, std::string &Text) {
  const int Fd = openVerifiedEntry(DirFd, File);
  if (Fd < 0)
    return false;
  Text.clear();
  char Buffer[8192];
  ssize_t N;
  while ((N = ::read(Fd, Buffer, sizeof Buffer)) > 0 ||
         (N < 0 && errno == EINTR))
    if (N > 0)
      Text.append(Buffer, static_cast<std::size_t>(N));
  ::close(Fd);
  return N == 0;
}

bool writeIfChanged(int DirFd, const std::string &File, const std::string &Text,
                    std::string &Why) {
  std::string Old;
  if (readEntry(DirFd, File, Old) && Old == Text)
    return true;
  return writeEntryAtomically(DirFd, File, Text.data(), Text.size(), Why);
}

/// A subfolder of DirFd that no one else can write, created if missing.
bool privateSubdirectory(int DirFd, const char *Name, std::string &Why) {
  if (::mkdirat(DirFd, Name, 0700) != 0 && errno != EEXIST) {
    Why = std::string("cannot create ") + Name + ": " + std::strerror(errno);
    return false;
  }
  const int Fd = openPrivateDirectory(DirFd, Name, Why);
  if (Fd < 0)
    return false;
  ::close(Fd);
  return true;
}

} // namespace

bool HostCompiler::prepare(std::string &Error) {
  std::lock_guard<std::mutex> Guard(PrepareLock);
  if (Prepared)
    return true;
  std::string Why;
  if (Cache.ready(Why)) {
    DirFd = Cache.directoryFd();
    DirName = Cache.directory();
  } else {
    const char *T = std::getenv("TMPDIR");
    std::string Template =
        std::string(T && *T ? T : "/tmp") + "/weft-sim-XXXXXX";
    if (!::mkdtemp(Template.data()) ||
        (DirFd = openPrivateDirectory(AT_FDCWD, Template, Error)) < 0) {
      Error = Why + "; no private folder to compile in either";
      return false;
    }
    PrivateDir = DirName = Template;
    warn(Why + "; kernels are compiled for this run only");
  }
  std::string Problem;
  if (!privateSubdirectory(DirFd, "include", Problem) ||
      !privateSubdirectory(DirFd, "include/weft", Problem) ||
      !writeIfChanged(DirFd, "include/weft/device.h", DevicePreludeText,
                      Problem)) {
    Error = DirName + ": " + Problem;
    return false;
  }
  Prepared = true;
  return true;
}

void *HostCompiler::load(const std::string &File, std::string &Error) {
  const int Fd = openVerifiedEntry(DirFd, File);
  if (Fd < 0) {
    Error = "the compiled kernel " + DirName + "/" + File +
            " is not a file of this user that only it can write";
    return nullptr;
  }
  // The file checked, not whatever its path names by now. The descriptor
  // stays open as long as the library stays loaded (for good): the loader
  // knows a library by the name it was opened by, and a reused descriptor
  // number would give the next kernel this one's library.
  const std::string Path = "/proc/self/fd/" + std::to_string(Fd);
  void *Library = ::dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!Library) {
    Error = std::string("cannot load the compiled kernel: ") + ::dlerror();
    ::close(Fd);
  }
  return Library;
}

void *HostCompiler::compileAndLoad(const std::string &Name,
                                   const std::string &Source,
                                   const std::vector<std::string> &Flags,
                                   bool &FromCache, std::string &Error) {
  std::string Object, Built;
  if (!compile(Name, Source, Flags, Object, Built, true, Error))
    return nullptr;
  void *Library = load(Built, Error);
  FromCache = Library && Built == Object;
  // A cached object that does not load (corrupt) is built again.
  if (!Library && Built == Object &&
      compile(Name, Source, Flags, Object, Built, false, Error))
    Library = load(Built, Error);
  // A failed rename costs the next run a compile, not this one its kernel.
  std::string Unkept;
  keep(Built, Object, Unkept);
  return Library;
}

bool HostCompiler::keep(const std::string &Built, const std::string &Object,
                        std::string &Error) {
  if (Built == Object ||
      ::renameat(DirFd, Built.c_str(), DirFd, Object.c_str()) == 0)
    return true;
  Error = "cannot keep " + DirName + "/" + Object + ": " + std::strerror(errno);
  ::unlinkat(DirFd, Built.c_str(), 0);
  return false;
}

bool HostCompiler::precompile(const std::string &Name,
                              const std::string &Source,
                              const std::vector<std::string> &Flags,
                              std::string &Error) {
  std::string Object, Built;
  return compile(Name, Source, Flags, Object, Built, true, Error) &&
         keep(Built, Object, Error);
}

bool HostCompiler::compile(const std::string &Name, const std::string &Source,
                           const std::vector<std::string> &Flags,
                           std::string &Object, std::string &Built,
                           bool UseCached, std::string &Error) {
  if (!prepare(Error))
    return false;
  std::string Key = Compiler + "\n" + DevicePreludeText + "\n" + Source;
  for (const std::string &F : Flags)
    Key += "\n" + F;
  const std::string Base = Name + "-" + contentHash(Key);
  Object = Base + ".so";
  if (const int Fd = UseCached ? openVerifiedEntry(DirFd, Object) : -1;
      Fd >= 0) {
    ::close(Fd);
    Built = Object;
    return true;
  }

  const std::string Src = Base + ".cpp";
  const std::string Log = Base + ".log";
  // Unique to the thread's compile as well as the process.
  static std::atomic<unsigned> Counter{0};
  const std::string Tmp = Base + ".so.tmp." + std::to_string(getpid()) + "." +
                          std::to_string(Counter++);
  std::string Problem;
  if (!writeIfChanged(DirFd, Src, Source, Problem)) {
    Error = DirName + ": " + Problem;
    return false;
  }
  // Paths relative to the folder, which is the compiler's working
  // directory.
  std::vector<std::string> Args = {Compiler,  "-std=c++20", "-O2",      "-fPIC",
                                   "-shared", "-w",         "-Iinclude"};
  Args.insert(Args.end(), Flags.begin(), Flags.end());
  for (const std::string &F : Flags)
    if (F == "-DWEFT_STRICT_FP=1")
      Args.push_back("-ffp-contract=off");
  Args.insert(Args.end(), {"-o", Tmp, Src});
  std::vector<char *> Argv;
  for (std::string &A : Args)
    Argv.push_back(A.data());
  Argv.push_back(nullptr);

  const int LogFd =
      ::openat(DirFd, Log.c_str(),
               O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (LogFd < 0) {
    Error = "cannot write " + DirName + "/" + Log + ": " + std::strerror(errno);
    return false;
  }
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_addfchdir_np(&Actions, DirFd);
  posix_spawn_file_actions_adddup2(&Actions, LogFd, 1);
  posix_spawn_file_actions_adddup2(&Actions, LogFd, 2);
  pid_t Pid;
  int R = posix_spawnp(&Pid, Compiler.c_str(), &Actions, nullptr, Argv.data(),
                       environ);
  posix_spawn_file_actions_destroy(&Actions);
  ::close(LogFd);
  if (R != 0) {
    Error = "cannot start the host compiler '" + Compiler +
            "': " + std::strerror(R) + " (set WEFT_SIM_CXX)";
    return false;
  }
  int Status = 0;
  while (::waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(Status) || WEXITSTATUS(Status) != 0) {
    Error = "the host compiler failed on " + DirName + "/" + Src +
            " (its messages are in " + DirName + "/" + Log + ")";
    ::unlinkat(DirFd, Tmp.c_str(), 0);
    return false;
  }
  Built = Tmp;
  return true;
}

} // namespace weft::rt::sim
