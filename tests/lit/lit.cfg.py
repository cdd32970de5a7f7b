# lit configuration of the plugin's tests; run once per Clang version through
# the lit.site.cfg.py that CMake writes for it (tests/CMakeLists.txt).
import os

import lit.formats

config.name = "weft-clang" + config.clang_version
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".cpp"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = config.weft_lit_exec_root

clang = "/usr/lib/llvm-%s/bin/clang++" % config.clang_version
plugin = os.path.join(config.weft_lib_dir, "weft-clang%s.so" % config.clang_version)
common = "-std=c++20 -I%s" % config.weft_include_dir

config.substitutions.append(("%clangxx", "%s %s" % (clang, common)))
config.substitutions.append(
    ("%weftxx", "%s %s -fplugin=%s -fplugin-arg-weft-emit-dir=%s"
     % (clang, common, plugin, config.weft_kernel_dir)))
config.substitutions.append(("%plugin", plugin))
config.substitutions.append(
    ("%weft_link", "-L{0} -Wl,-rpath,{0} -lweft".format(config.weft_lib_dir)))
config.environment["WEFT_CACHE_DIR"] = os.path.join(config.weft_lit_exec_root, "cache")
config.substitutions.append(("%weft_lib_dir", config.weft_lib_dir))
config.substitutions.append(("%weft_nvrtc", config.weft_nvrtc))
config.substitutions.append(("%weft_tune", config.weft_tune))
config.substitutions.append(("%weft_report", config.weft_report))
# Launches named with NVTX: the runtime was built with NVTX's header (the
# CUDA toolkit's), and the tests' injection library records the ranges.
if config.weft_nvtx_recorder:
    config.available_features.add("nvtx")
    config.substitutions.append(("%nvtx_recorder", config.weft_nvtx_recorder))
# FileCheck, not and count come from LLVM's tools directory.
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, os.environ.get("PATH", "")])
config.available_features.add("clang-" + config.clang_version)
config.environment["WEFT_BACKEND"] = "host"
# std::mdspan comes with libc++ (libc++-22-dev); libstdc++ 12 has none.
if os.path.exists("/usr/lib/llvm-%s/include/c++/v1/mdspan" % config.clang_version):
    config.available_features.add("mdspan")

# OpenMP programs (-fopenmp) link LLVM's OpenMP runtime: libomp-22-dev
# (scripts/setup.sh installs it; it conflicts with libomp-19-dev), which
# clang 19's programs link too. Without it those tests report UNSUPPORTED.
libomp = "/usr/lib/llvm-22/lib"
if os.path.exists(os.path.join(libomp, "libomp.so")):
    config.available_features.add("openmp")
config.substitutions.append(("%openmp_link", "-L{0} -Wl,-rpath,{0}".format(libomp)))

# NVRTC compiles need libnvrtc; without it those tests report UNSUPPORTED.
import subprocess
if subprocess.run([config.weft_nvrtc, "--help"], capture_output=True).returncode != 77:
    probe = subprocess.run(["sh", "-c", "ls /usr/local/cuda/lib64/libnvrtc.so* 2>/dev/null || ldconfig -p | grep libnvrtc"], capture_output=True)
    if probe.stdout.strip():
        config.available_features.add("nvrtc")
# hipRTC (Debian's HIP: libamdhip64) compiles for AMD GPUs without one;
# without it those tests report UNSUPPORTED.
if subprocess.run(["sh", "-c", "ldconfig -p | grep -q 'libhiprtc\\|libamdhip64'"]).returncode == 0:
    config.available_features.add("hiprtc")

