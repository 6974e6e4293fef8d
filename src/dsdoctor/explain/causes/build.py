"""Causes of a failed op build in its toolchain: the CUDA toolkit (its version against torch's CUDA, CUDA_HOME,
nvcc), ninja, the host C++ compiler, Python / CUDA headers and the libraries an op links (CUDA libraries, libaio).
Prebuilt ops, the accelerator, GPU architectures, the build host and DeepSpeed's own builder bugs are in
``op_build.py``. The messages live in ``knowledge/deepspeed.py`` and ``knowledge/cuda.py``; names checked by
``dsdoctor check`` keep its names and codes (DS1xx)."""

from __future__ import annotations

import re
from typing import Tuple

from ... import fixes as F
from ... import names as N
from ...knowledge import cuda as CK
from ...knowledge import deepspeed as K
from ...knowledge.versions import major_minor, v
from ...model import Severity
from .cause import Advice, Cause, Docs, LogFacts, Seen, cause, code_fix, form, frame, lit, log, msg, rx

BUILDER = "deepspeed/ops/op_builder/builder.py"
CPP_EXT = "torch/utils/cpp_extension.py"


def _cuda_version_mismatch(s: Seen, f: LogFacts) -> Advice:
    g = s.groups
    sys_v, torch_v = major_minor(g.get("sys")), major_minor(g.get("torch"))
    if torch_v is None:
        torch_v = f.torch_cuda
    if sys_v and torch_v:
        fixes = F.cuda_mismatch_fixes(f.ds, sys_v, torch_v, sole_blocker="does not match" in s.text, gpu_visible=not f.no_gpu)
    else:  # the versions are not in the log (a cut message, the raising frame only)
        fixes = [code_fix("Compare the toolkit DeepSpeed found with torch's CUDA",
                          "$CUDA_HOME/bin/nvcc -V; python -c 'import torch; print(torch.version.cuda)'",
                          reason="DeepSpeed runs <CUDA_HOME>/bin/nvcc, not the nvcc on PATH"),
                 code_fix("Install the CUDA toolkit matching torch's CUDA and point CUDA_HOME at it",
                          "export CUDA_HOME=/usr/local/cuda-<torch.version.cuda>"),
                 F.env_fix(K.SKIP_CUDA_CHECK_VAR, "1", "Or skip DeepSpeed's CUDA check (exactly the value 1)", "unsafe",
                           f"only when the major versions match (DeepSpeed >= {K.SKIP_CUDA_CHECK_SINCE})")]
    return Advice(f"The CUDA toolkit under CUDA_HOME ({g.get('sys', '?')}) does not match torch's CUDA "
                  f"({g.get('torch', '?')}): DeepSpeed refused to build the op",
                  "DeepSpeed runs $CUDA_HOME/bin/nvcc -V and compares it with torch.version.cuda using its own "
                  "minor-version table (no entry for CUDA 13 in any version). The `ds_opt_adam` AttributeError "
                  "(<= 0.19.7) or `failed to build/load` RuntimeError (0.19.8) that follows is a consequence. "
                  "DS_SKIP_CUDA_CHECK only works with exactly the value 1.", fixes)


def _cuda_toolkit_missing(s: Seen, f: LogFacts) -> Advice:
    fixes = F.toolkit_fixes(f.torch_cuda, f.ds) if f.torch_cuda else [
        code_fix("Point CUDA_HOME at the CUDA toolkit matching torch's CUDA",
                 "python -c 'import torch; print(torch.version.cuda)'   # then: export CUDA_HOME=/usr/local/cuda-<that>")]
    if f.ds is None or f.ds < v(K.CPU_ADAM_PLAIN_CPU_FROM):
        fixes.insert(len(fixes) - 1, F.cpu_adam_upgrade_fix())
    return Advice("No usable CUDA toolkit: DeepSpeed could not run <CUDA_HOME>/bin/nvcc",
                  "DeepSpeed reads the toolkit version by running <CUDA_HOME>/bin/nvcc -V (not the nvcc on PATH). "
                  "DS_SKIP_CUDA_CHECK does not help with a missing toolkit.", fixes)


def _ninja_missing(s: Seen, f: LogFacts) -> Advice:
    module = f.extra.get("ninja_check") == "module"
    if "bin/ninja" in s.text.replace("\\", "/"):
        return Advice("The ninja command is broken (its console script fails), so the op JIT build could not start", "",
                      [code_fix("Reinstall ninja in the training environment", "python -m pip install --force-reinstall ninja"),
                       *F.ninja_fixes(None, module)[1:]])
    return Advice(f"ninja is not installed where DeepSpeed looks, so the {s.groups.get('op', 'op')} JIT build could not start",
                  "DeepSpeed <= 0.18.2 checks `import ninja` (the Python package; apt's ninja does not count); "
                  ">= 0.18.3 runs `ninja --version` on PATH.", list(F.ninja_fixes(None, module)))


def _python_headers_missing(s: Seen, f: LogFacts) -> Advice:
    return Advice("Python.h is missing: the op's C++ sources cannot be compiled", "Every op build includes Python.h.",
                  [F.python_headers_fix(f.python)])


def _cuda_headers_missing(s: Seen, f: LogFacts) -> Advice:
    return Advice("CUDA headers are missing under CUDA_HOME: the op's sources cannot be compiled",
                  "",
                  [code_fix("Install the CUDA development headers matching torch's CUDA",
                            "conda install -c nvidia cuda-cudart-dev cuda-libraries-dev   # or apt install cuda-toolkit-X-Y",
                            reason="then export CUDA_HOME to that toolkit")])


_TOO_OLD = (CK.MSG_TORCH_GCC9, CK.MSG_NVCC_HOST_STD, CK.MSG_CXX11_REQUIRED, CK.MSG_ATEN_CXX14)
# a warning-level build line names its cause only when the build then failed (a symptom, an exception, the tail)
BUILD_FAILED = "|".join(re.escape(m) for m in ("FAILED: ", CK.MSG_NINJA_STOPPED, CK.MSG_ERROR_BUILDING.split("{")[0],
                                                CK.MSG_ERROR_COMPILING))


def _host_compiler_unsupported(s: Seen, f: LogFacts) -> Advice:
    m = re.search(r"later than (\d+)", s.text)
    if m:
        fixes = list(F.gcc_limit_fixes(int(m.group(1))))
    elif "omp.h" in s.text:
        fixes = [F.openmp_fix()]
    elif CK.MSG_LIBC_HEADER in s.text:
        fixes = [code_fix("Install the C library headers the compiler needs", "apt-get install libc6-dev   # yum: glibc-devel",
                          reason="a private gcc (module / home-directory build) must also find the system's /usr/include")]
    elif CK.MSG_NVHPC_CXX in s.text:
        fixes = [F.env_fix("CXX", "g++", "Build with g++, not NVIDIA HPC SDK's nvc++ (torch's headers reject it)",
                           reason="or unload the nvhpc module before building")]
    elif any(t in s.text for t in _TOO_OLD):
        fixes = [code_fix("Build with a newer gcc (>= 9) for both the C++ and the nvcc host steps",
                          "export CC=gcc-12 CXX=g++-12   # torch passes $CC to nvcc as -ccbin; or: module load gcc/12",
                          reason="a fresh build dir: remove the op's torch_extensions dir first")]
    else:
        fixes = [F.compiler_fix(), code_fix("Or point CXX at an existing compiler", "unset CXX   # or export CXX=g++",
                                            reason="yum: gcc-c++; conda: cxx-compiler")]
    return Advice(f"The host C++ compiler cannot build the op: {s.text[:160]}", "torch builds JIT ops with $CXX or c++ "
                  "(and nvcc's host steps with $CC or its default gcc).", fixes)


def _cuda_libs_missing(s: Seen, f: LogFacts) -> Advice:
    return Advice("A CUDA library the op links (libcurand/libcudart) is not where the linker looks",
                  "DeepSpeed's CUDA cpu_adam (<= 0.19.7) links -lcurand -L$CUDA_HOME/lib64.", [F.curand_fix(f.torch_cuda)])


def _libaio_missing(s: Seen, f: LogFacts) -> Advice:
    return Advice("libaio is missing: async_io (NVMe offload) cannot build", f"`{K.MSG_LIBAIO}`", [F.libaio_fix()])


_NINJA_TORCH = CK.MSG_TORCH_NINJA.split(": ", 1)[1].split(" (")[0]
_HEADERS = "|".join(re.escape(h) for h in CK.CUDA_HEADERS)
_GCC_NVCC = "cuda/include/crt/host_config.h (nvcc 11-13)"

SPECS: Tuple[Cause, ...] = (
    form(N.CUDA_VERSION_MISMATCH, _cuda_version_mismatch, signatures=(
              msg(K.MSG_MISMATCH_CORE + ", unable", f"{BUILDER} assert_no_cuda_mismatch, CUDAMismatchException (0.9-0.19.8)",
                  "deepspeed.ops.op_builder.builder.CUDAMismatchException: >- DeepSpeed Op Builder: Installed CUDA version "
                  "13.5 does not match the version torch was compiled with 13.0, unable to compile cuda/cpp extensions "
                  "without a matching cuda version."),
              msg(CK.MSG_CUDA_TORCH_CHECK, f"{CPP_EXT} _check_cuda_version (torch 1.13-2.14)",
                  "RuntimeError: "
                  "The detected CUDA version (12.4) mismatches the version that was used to compile"),
              msg("Detected `DS_SKIP_CUDA_CHECK=1`: Allowing this combination of CUDA",
                  f"{BUILDER} assert_no_cuda_mismatch, warning when DS_SKIP_CUDA_CHECK=1 (0.9-0.19.8)",
                  "[WARNING]  DeepSpeed Op Builder: Installed CUDA version 13.5 does not match the version torch was "
                  "compiled with 13.0.Detected `DS_SKIP_CUDA_CHECK=1`: Allowing this combination of CUDA, but it may "
                  "result in unexpected behavior.", note=True),
              rx(re.escape(K.MSG_SWALLOWED.split("{op} ")[1]), "only cpu ops can be compiled",
                 f"{BUILDER} is_compatible warning (<= 0.12.3: the op is built CPU-only)",
                 "[WARNING]  cpu_adam cuda is missing or is incompatible with installed torch, only cpu ops can be "
                 "compiled!", note=True),
              # the raising frame, for messages cut at a rich box edge or mid-paste
              frame("op_builder/builder.py", "assert_no_cuda_mismatch", f"{BUILDER} (0.9-0.19.8)",
                    "Traceback (most recent call last):\n"
                    "  File \"/opt/envs/ds/0.19.7/deepspeed/ops/op_builder/builder.py\", line 130, in assert_no_cuda_mismatch\n"
                    "    raise CUDAMismatchException(\n"
                    "deepspeed.ops.op_builder.builder.CUDAMismatchException: >- DeepSpeed Op Builder: Installed CUDA vers\n"),
              frame("torch/utils/cpp_extension.py", "_check_cuda_version", f"{CPP_EXT} (torch 1.13-2.14)",
                    "Traceback (most recent call last):\n"
                    "  File \"/usr/lib/python3/dist-packages/torch/utils/cpp_extension.py\", line 387, in _check_cuda_version\n"
                    "    raise RuntimeError(CUDA_MISMATCH_MESSAGE.format(cuda_str_version, torch.version.cuda))\n"
                    "RuntimeError:\n"))),
    form(N.CUDA_TOOLKIT_MISSING, _cuda_toolkit_missing, signatures=(
              msg(K.MSG_MISSING_CUDA_HOME, f"{BUILDER} installed_cuda_version (0.9-0.19.4)",
                  "deepspeed.ops.op_builder.builder.MissingCUDAException: CUDA_HOME does not exist, unable to compile "
                  "CUDA op(s)"),
              rx(r"No such file or directory: '[^']{0,400}/bin/nvcc'", "/bin/nvcc'",
                 f"{BUILDER} installed_cuda_version runs <CUDA_HOME>/bin/nvcc -V (subprocess, 0.9-0.19.4)",
                 "FileNotFoundError: [Errno 2] No such file or directory: '/usr/local/cuda-12.1/bin/nvcc'"),
              msg(CK.MSG_TORCH_NO_CUDA_HOME, f"{CPP_EXT} _join_cuda_home, building a CUDA extension (torch 1.x-2.14)",
                  "OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root."),
              rx(r"/bin/sh: \d{1,6}: \S{0,400}nvcc: not found", "nvcc: not found", "ninja running nvcc through /bin/sh "
                 "(dash) when no nvcc is on PATH / under CUDA_HOME", "/bin/sh: 1: /usr/local/cuda/bin/nvcc: not found"),
              msg(K.MSG_NVCC_UNRUNNABLE, f"{BUILDER} installed_cuda_version (0.19.5+, PR #8216)",
                  "deepspeed.ops.op_builder.builder.MissingCUDAException: Unable to run /usr/local/cuda/bin/nvcc, "
                  "unable to compile CUDA op(s)"),
              # raised inside installed_cuda_version (`assert cuda_home`, the nvcc -V subprocess), the message cut
              frame("op_builder/builder.py", "installed_cuda_version", f"{BUILDER} (0.3-0.19.8)",
                    "Traceback (most recent call last):\n"
                    "  File \"/opt/src/DeepSpeed/setup.py\", line 100, in <module>\n"
                    "    cuda_major_ver, cuda_minor_ver = installed_cuda_version()\n"
                    "  File \"/opt/src/DeepSpeed/op_builder/builder.py\", line 52, in installed_cuda_version\n"
                    "    output = subprocess.check_output([cuda_home + \"/bin/nvcc\", \"-V\"], universal_newlines=True)\n"
                    "  File \"/usr/lib/python3.8/subprocess.py\", line 858, in __init__\n"
                    "    self._execute_child(args, executable, preexec_fn, close_fds,\n",
                    exc=r"^(?:$|AssertionError|FileNotFoundError|PermissionError|OSError|subprocess\.CalledProcessError|"
                        r"\S{0,80}MissingCUDAException)", anywhere=True))),
    form(N.NINJA_MISSING, _ninja_missing, signatures=(
              msg(K.MSG_NINJA, f"{BUILDER} jit_load (0.9-0.19.8)",
                  "RuntimeError: Unable to JIT load the cpu_adam op due to ninja not being installed."),
              msg(_NINJA_TORCH, f"{CPP_EXT} verify_ninja_availability (torch 1.x-2.14)",
                  "RuntimeError: Ninja is required to load C++ extensions (pip install ninja to get it)"),
              frame("bin/ninja", "<module>", "the `ninja` console script of PyPI's ninja package failing when "
                    f"{CPP_EXT} verify_ninja_availability runs `ninja --version` (a broken or half-removed install)",
                    "Traceback (most recent call last):\n"
                    "  File \"/opt/envs/ft/bin/ninja\", line 5, in <module>\n"
                    "    from ninja import ninja\n"
                    "ModuleNotFoundError: No module named 'ninja'\n"))),
    form(N.PYTHON_HEADERS_MISSING, _python_headers_missing, signatures=(
              msg(CK.MSG_PYTHON_H, "gcc compiling torch/include/torch/extension.h (any torch)",
                  "/opt/envs/venv/lib/python3.11/site-packages/torch/include/torch/extension.h:9:10: fatal error: "
                  "Python.h: No such file or directory"),)),
    cause(
    N.CUDA_HEADERS_MISSING,
    Severity.ERROR,
    "CUDA headers (cuda_runtime.h, ...) missing where an op is compiled",
    _cuda_headers_missing,
    Docs(
        what="The op build failed because a CUDA header (`cuda_runtime.h`, `cuda.h`, `cublas_v2.h`, `curand.h`, ...) is "
              "not found: CUDA_HOME points at a toolkit without its include/ directory (a runtime-only or nvcc-only "
              "install).",
        why="CUDA ops (and cpu_adam's CUDA build before 0.19.8) compile against the toolkit's headers; a runtime-only or "
              "nvcc-only install has no include/ directory.",
        fix="Install the CUDA development headers matching torch's CUDA (`conda install -c nvidia cuda-cudart-dev "
              "cuda-libraries-dev`, or `apt install cuda-toolkit-X-Y`), then export CUDA_HOME to that toolkit.",
        examples=(log(N.CUDA_HEADERS_MISSING, "A fused_adam build on a toolkit without headers:",
                   "FAILED: [code=127] fused_adam.o \n"
                   "<command-line>: fatal error: cuda_runtime.h: No such file or directory\n"
                   "compilation terminated.\n"
                   "ninja: build stopped: subcommand failed.\n"),),
        reads="log"),
    signatures=(
              rx(r"(?:%s): No such file or directory" % _HEADERS, ".h: No such file",
                 "gcc / nvcc compiling DeepSpeed's csrc against $CUDA_HOME/include",
                 "<command-line>: fatal error: cuda_runtime.h: No such file or directory"),)),
    form(N.HOST_COMPILER_UNSUPPORTED, _host_compiler_unsupported, signatures=(
              msg(CK.MSG_GCC_UNSUPPORTED, _GCC_NVCC,
                  "/usr/local/cuda/include/crt/host_config.h:143:2: error: #error -- unsupported GNU version! gcc "
                  "versions later than 12 are not supported! The nvcc flag '-allow-unsupported-compiler' can be used "
                  "to override this version check; however, using an unsupported host compiler may cause compilation "
                  "failure or incorrect run time execution. Use at your own risk."),
              msg(CK.MSG_OMP_H, "gcc / clang compiling DeepSpeed's cpu_adam (#include <omp.h>)",
                  "csrc/includes/cpu_adam.h:9:10: fatal error: omp.h: No such file or directory"),
              # only a compiler's name: dash says the same of any command (pdsh, ninja), which is not this cause
              rx(r"/bin/sh: \d{1,6}: (?:\S{0,400}[/-])?(?:[gc]\+\+|gcc|cc|clang(?:\+\+)?|icp?x|nvc\+\+)(?:-\d{1,3})?: not "
                 r"found", ": not found", "ninja running $CXX through /bin/sh (dash)",
                 "/bin/sh: 1: /nonexistent/c++: not found", "/bin/sh: 1: x86_64-linux-gnu-gcc-11: not found"),
              msg(CK.MSG_LIBC_HEADER, "gcc including glibc's features.h (from cuda's crt/host_config.h or libstdc++)",
                  "/opt/cuda-10.2/include/crt/host_config.h:206:10: fatal error: features.h: No such file or directory"),
              msg(CK.MSG_WHICH_CXX, f"{CPP_EXT} check_compiler_ok_for_platform runs `which <compiler>` (torch 1.x)",
                  "subprocess.CalledProcessError: Command '['which', 'c++']' returned non-zero exit status 1."),
              rx(r"\[\d{1,5}/\d{1,5}\] (?:\S{0,400}/)?nvc\+\+ -MMD", CK.MSG_NVHPC_CXX + " -MMD",
                 f"ninja's compile line from {CPP_EXT} (`$cxx -MMD -MF ...`) with NVIDIA HPC SDK's nvc++ as the compiler",
                 "[1/3] /opt/nvidia/hpc_sdk/Linux_x86_64/22.2/compilers/bin/nvc++ -MMD -MF fused_adam_frontend.o.d "
                 "-DTORCH_EXTENSION_NAME=fused_adam", note=True, cause_with=BUILD_FAILED),
              msg(CK.MSG_TORCH_GCC9, "torch c10/util/C++17.h #error (torch 2.1-2.12) [unverified: not in the installed 2.13/2.14]",
                  "torch/include/c10/util/C++17.h:13:2: error: #error \"You're trying to build PyTorch with a too old "
                  "version of GCC. We need GCC 9 or later.\""),
              msg(CK.MSG_ATEN_CXX14, "torch 1.x ATen/ATen.h #error (read in the torch 1.8.1 wheel): the compiler, or "
                  "nvcc's host compiler, does not do the C++14 DeepSpeed asks for (gcc < 5)",
                  "/venv/lib/python3.6/site-packages/torch/include/ATen/ATen.h:4:2: error: #error C++14 or later compatible "
                  "compiler is required to use ATen."),
              msg(CK.MSG_NVCC_HOST_STD, "nvcc (template read in the nvcc 13.0 binary): its host gcc lacks the -std",
                  "nvcc warning : The -std=c++17 flag is not supported with the configured host compiler. Flag will be "
                  "ignored."),
              msg(CK.MSG_CXX11_REQUIRED, "libstdc++ <= 5 bits/c++0x_warning.h #error (gcc 4.x / 5 without -std=c++11)",
                  "/usr/include/c++/5/bits/c++0x_warning.h:32:2: error: #error This file requires compiler and library "
                  "support for the ISO C++ 2011 standard. This support must be enabled with the -std=c++11 or -std=gnu++11 "
                  "compiler options."),
              msg(CK.MSG_COMPILER_INCOMPATIBLE, f"{CPP_EXT} check_compiler_abi_compatibility warning (torch 1.x-2.14)",
                  "Your compiler (c++) is not compatible with the compiler Pytorch was built with for this platform, "
                  "which is g++ on linux.", note=True))),
    form(N.CUDA_LIBS_MISSING, _cuda_libs_missing, signatures=(
              rx(r"cannot find -l(?:curand|cudart|cublas|cusparse|cusolver)", "cannot find -l",
                 "ld linking DeepSpeed's cpu_adam.so (-lcurand, DeepSpeed <= 0.19.7)",
                 "/usr/bin/ld: cannot find -lcurand: No such file or directory"),)),
    form(N.LIBAIO_MISSING, _libaio_missing, signatures=(
              # the async_io build itself (DS_BUILD_AIO=1 / a JIT build without the compatibility probe)
              msg(CK.MSG_LIBAIO_HEADER, "gcc compiling DeepSpeed's csrc/aio (#include <libaio.h>, 0.9-0.19.8)",
                  "csrc/aio/common/deepspeed_aio_utils.h:17:10: fatal error: libaio.h: No such file or directory"),
              rx(r"cannot find -laio\b", "cannot find -laio", "ld linking DeepSpeed's async_io op (-laio, 0.9-0.19.8)",
                 "/usr/bin/ld: cannot find -laio: No such file or directory"),
              # async_io's compatibility probe is libaio's io_submit / io_pgetevents (async_io.py is_compatible): the op
              # refused as incompatible, at a JIT load or a DS_BUILD_AIO=1 install, is libaio not found
              rx(lit(K.MSG_NOT_COMPATIBLE).replace(r"(?P<op>\S{1,200}?)", "async_io"), "Unable to JIT load the async_io op",
                 f"{BUILDER} jit_load of AsyncIOBuilder (0.9-0.19.8)",
                 "RuntimeError: Unable to JIT load the async_io op due to it not being compatible due to hardware/software "
                 "issue. None"),
              rx(lit(K.MSG_SETUP_PRECOMPILE_INCOMPATIBLE).replace(r"(?P<op>\S{1,200}?)", "async_io") + r"\s{0,4}$",
                 "Unable to pre-compile async_io", "setup.py abort, DS_BUILD_AIO=1 with async_io incompatible (0.3-0.16.x)",
                 "AssertionError: Unable to pre-compile async_io"),
              # printed by every op-compatibility probe (ds_report, any import of the builders): the cause only when
              # the async_io op then fails
              msg(K.MSG_LIBAIO, "deepspeed/ops/op_builder/async_io.py is_compatible warning (0.9-0.19.8)",
                  "[WARNING]  async_io requires the dev libaio .so object and headers but these were not found.",
                  note=True, cause_with=r"\basync_io\b"),)),
)
