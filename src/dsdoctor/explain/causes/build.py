"""Causes of a failed op build / load: the CUDA toolkit, compilers, headers and libraries, prebuilt ops, the
accelerator choice, GPU architectures and drivers. The messages live in ``knowledge/deepspeed.py`` and
``knowledge/cuda.py``; names checked by ``dsdoctor check`` keep its names and codes (DS1xx)."""

from __future__ import annotations

import re
from typing import Tuple

from ... import fixes as F
from ...knowledge import cuda as CK
from ...knowledge import deepspeed as K
from ...knowledge.versions import major_minor, v
from .spec import Advice, Cause, Docs, LogFacts, Seen, code_fix, frame, log, msg, rx

BUILDER = "deepspeed/ops/op_builder/builder.py"
CPP_EXT = "torch/utils/cpp_extension.py"
CPU_ADAM_TAIL = ("  File \"/opt/envs/ds/0.19.8/deepspeed/ops/adam/cpu_adam.py\", line 95, in __init__\n"
                 "    raise RuntimeError(\"DeepSpeedCPUAdam requires the cpu_adam op, which failed to build/load.\") from e\n"
                 "RuntimeError: DeepSpeedCPUAdam requires the cpu_adam op, which failed to build/load.\n")


def _cuda_version_mismatch(s: Seen, f: LogFacts) -> Advice:
    g = s.groups
    sys_v, torch_v = major_minor(g.get("sys")), major_minor(g.get("torch"))
    if torch_v is None:
        torch_v = f.torch_cuda
    if sys_v and torch_v:
        fixes = F.cuda_mismatch_fixes(f.ds, sys_v, torch_v, sole_blocker="does not match" in s.text, gpu_visible=not f.no_gpu)
    else:
        fixes = [F.env_fix(K.SKIP_CUDA_CHECK_VAR, "1", "Skip DeepSpeed's CUDA check (exactly the value 1)")]
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
    if f.ds is None or f.ds < v("0.19.8"):
        fixes.insert(len(fixes) - 1, F.pip_fix("deepspeed>=0.19.8", "Upgrade DeepSpeed to 0.19.8: its cpu_adam needs no "
                                               "CUDA toolkit"))
    return Advice("No usable CUDA toolkit: DeepSpeed could not run <CUDA_HOME>/bin/nvcc",
                  "DeepSpeed reads the toolkit version by running <CUDA_HOME>/bin/nvcc -V (not the nvcc on PATH). "
                  "DS_SKIP_CUDA_CHECK does not help with a missing toolkit.", fixes)


def _ninja_missing(s: Seen, f: LogFacts) -> Advice:
    module = f.extra.get("ninja_check") == "module"
    return Advice(f"ninja is not installed where DeepSpeed looks, so the {s.groups.get('op', 'op')} JIT build could not start",
                  "DeepSpeed <= 0.18.2 checks `import ninja` (the Python package; apt's ninja does not count); "
                  ">= 0.18.3 runs `ninja --version` on PATH.", list(F.ninja_fixes(None, module)))


def _python_headers_missing(s: Seen, f: LogFacts) -> Advice:
    return Advice("Python.h is missing: the op's C++ sources cannot be compiled", "Every op build includes Python.h.",
                  [F.python_headers_fix(f.python)])


def _cuda_headers_missing(s: Seen, f: LogFacts) -> Advice:
    return Advice("CUDA headers are missing under CUDA_HOME: the op's sources cannot be compiled",
                  "CUDA_HOME points at a toolkit without its include/ directory (a runtime-only or nvcc-only install).",
                  [code_fix("Install the CUDA development headers matching torch's CUDA",
                            "conda install -c nvidia cuda-cudart-dev cuda-libraries-dev   # or apt install cuda-toolkit-X-Y",
                            reason="then export CUDA_HOME to that toolkit")])


def _host_compiler_unsupported(s: Seen, f: LogFacts) -> Advice:
    m = re.search(r"later than (\d+)", s.text)
    if m:
        fixes = list(F.gcc_limit_fixes(int(m.group(1))))
    elif "omp.h" in s.text:
        fixes = [F.openmp_fix()]
    else:
        fixes = [F.compiler_fix(), code_fix("Or point CXX at an existing compiler", "unset CXX   # or export CXX=g++")]
    return Advice(f"The host C++ compiler cannot build the op: {s.text[:160]}", "torch builds JIT ops with $CXX or c++.", fixes)


def _cuda_libs_missing(s: Seen, f: LogFacts) -> Advice:
    return Advice("A CUDA library the op links (libcurand/libcudart) is not where the linker looks",
                  "DeepSpeed's CUDA cpu_adam (<= 0.19.7) links -lcurand -L$CUDA_HOME/lib64.", [F.curand_fix(f.torch_cuda)])


def _libaio_missing(s: Seen, f: LogFacts) -> Advice:
    return Advice("libaio is missing: async_io (NVMe offload) cannot build", f"`{K.MSG_LIBAIO}`", [F.libaio_fix()])


def _prebuilt_op_mismatch(s: Seen, f: LogFacts) -> Advice:
    return Advice("DeepSpeed's prebuilt ops were built for another torch/CUDA", s.text, [F.prebuilt_reinstall_fix(None)])


def _ds_accelerator_invalid(s: Seen, f: LogFacts) -> Advice:
    return Advice("DS_ACCELERATOR names an accelerator this DeepSpeed cannot use", s.text, [F.unset_accelerator_fix()])


def _nvcc_arch_unsupported(s: Seen, f: LogFacts) -> Advice:
    return Advice("nvcc cannot build for a GPU architecture in the arch list",
                  "CUDA 13's nvcc dropped compute_60/61/70; DeepSpeed's default list still names them "
                  "(and a forked child cannot probe the GPUs).",
                  [F.env_fix("TORCH_CUDA_ARCH_LIST", "8.0;9.0", "List only your GPUs' architectures",
                             reason="nvidia-smi --query-gpu=compute_cap --format=csv gives them")])


def _compiler_killed(s: Seen, f: LogFacts) -> Advice:
    return Advice("The compiler was killed while building the op (almost always out of host memory)",
                  "ninja runs one compiler per core; each cc1plus for DeepSpeed ops can take several GB.",
                  [F.env_fix("MAX_JOBS", "1", "Build with one compiler job at a time"),
                   code_fix("Or add memory / swap", "free -g; dmesg | grep -i 'killed process'")])


def _libstdcxx_mismatch(s: Seen, f: LogFacts) -> Advice:
    return Advice("The freshly built op needs a newer libstdc++ than the one the process loaded",
                  "The op was compiled with a newer gcc than the libstdc++ in the environment (often conda's).",
                  [code_fix("Give the environment a newer libstdc++", "conda install -c conda-forge 'libstdcxx-ng>=13'"),
                   F.env_fix("LD_PRELOAD", "/usr/lib/x86_64-linux-gnu/libstdc++.so.6", "Or load the system libstdc++ first",
                             "unsafe", "may clash with other libraries in the environment")])


def _windows_op_build(s: Seen, f: LogFacts) -> Advice:
    return Advice("DeepSpeed ops cannot be JIT-built on native Windows", s.text,
                  [code_fix("Run training under WSL2 or Linux", "wsl --install")])


_NINJA_TORCH = CK.MSG_TORCH_NINJA.split(": ", 1)[1].split(" (")[0]
_HEADERS = "|".join(re.escape(h) for h in CK.CUDA_HEADERS)
_GCC_NVCC = "cuda/include/crt/host_config.h (nvcc 11-13)"

SPECS: Tuple[Cause, ...] = (
    Cause("cuda-version-mismatch", "DS101", "The CUDA toolkit under CUDA_HOME does not match torch's CUDA",
          _cuda_version_mismatch, predicted_by="check:cuda-version-mismatch", signatures=(
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
    Cause("cuda-toolkit-missing", "DS103", "No CUDA toolkit (CUDA_HOME / nvcc) where DeepSpeed needs one",
          _cuda_toolkit_missing, predicted_by="check:cuda-toolkit-missing", signatures=(
              msg(K.MSG_MISSING_CUDA_HOME, f"{BUILDER} installed_cuda_version (0.9-0.19.4)",
                  "deepspeed.ops.op_builder.builder.MissingCUDAException: CUDA_HOME does not exist, unable to compile "
                  "CUDA op(s)"),
              rx(r"No such file or directory: '[^']{0,400}/bin/nvcc'", "/bin/nvcc'",
                 f"{BUILDER} installed_cuda_version runs <CUDA_HOME>/bin/nvcc -V (subprocess, 0.9-0.19.4)",
                 "FileNotFoundError: [Errno 2] No such file or directory: '/usr/local/cuda-12.1/bin/nvcc'"),
              msg(K.MSG_NVCC_UNRUNNABLE, f"{BUILDER} installed_cuda_version (0.19.5+, PR #8216)",
                  "deepspeed.ops.op_builder.builder.MissingCUDAException: Unable to run /usr/local/cuda/bin/nvcc, "
                  "unable to compile CUDA op(s)"))),
    Cause("ninja-missing", "DS104", "ninja, needed for JIT op builds, is not found the way DeepSpeed looks",
          _ninja_missing, predicted_by="check:ninja-missing", signatures=(
              msg(K.MSG_NINJA, f"{BUILDER} jit_load (0.9-0.19.8)",
                  "RuntimeError: Unable to JIT load the cpu_adam op due to ninja not being installed."),
              msg(_NINJA_TORCH, f"{CPP_EXT} verify_ninja_availability (torch 1.x-2.14)",
                  "RuntimeError: Ninja is required to load C++ extensions (pip install ninja to get it)"))),
    Cause("python-headers-missing", "DS106", "Python.h is missing, so no op can be compiled",
          _python_headers_missing, predicted_by="check:python-headers-missing", signatures=(
              msg(CK.MSG_PYTHON_H, "gcc compiling torch/include/torch/extension.h (any torch)",
                  "/opt/envs/venv/lib/python3.11/site-packages/torch/include/torch/extension.h:9:10: fatal error: "
                  "Python.h: No such file or directory"),)),
    Cause("cuda-headers-missing", "DS300", "CUDA headers (cuda_runtime.h, ...) missing where an op is compiled",
          _cuda_headers_missing, predicted_by="none", signatures=(
              rx(r"(?:%s): No such file or directory" % _HEADERS, ".h: No such file",
                 "gcc / nvcc compiling DeepSpeed's csrc against $CUDA_HOME/include",
                 "<command-line>: fatal error: cuda_runtime.h: No such file or directory"),),
          docs=Docs(
              "The op build failed because a CUDA header (`cuda_runtime.h`, `cuda.h`, `cublas_v2.h`, `curand.h`, ...) is "
              "not found: CUDA_HOME points at a toolkit without its include/ directory (a runtime-only or nvcc-only "
              "install).",
              "CUDA ops (and cpu_adam's CUDA build before 0.19.8) compile against the toolkit's headers.",
              "Install the CUDA development headers matching torch's CUDA (`conda install -c nvidia cuda-cudart-dev "
              "cuda-libraries-dev`, or `apt install cuda-toolkit-X-Y`), then export CUDA_HOME to that toolkit.",
              (log("cuda-headers-missing", "A fused_adam build on a toolkit without headers:",
                   "FAILED: [code=127] fused_adam.o \n"
                   "<command-line>: fatal error: cuda_runtime.h: No such file or directory\n"
                   "compilation terminated.\n"
                   "ninja: build stopped: subcommand failed.\n"),))),
    Cause("host-compiler-unsupported", "DS105", "No usable C++ compiler / OpenMP for JIT op builds",
          _host_compiler_unsupported, predicted_by="check:host-compiler-unsupported", signatures=(
              msg(CK.MSG_GCC_UNSUPPORTED, _GCC_NVCC,
                  "/usr/local/cuda/include/crt/host_config.h:143:2: error: #error -- unsupported GNU version! gcc "
                  "versions later than 12 are not supported! The nvcc flag '-allow-unsupported-compiler' can be used "
                  "to override this version check; however, using an unsupported host compiler may cause compilation "
                  "failure or incorrect run time execution. Use at your own risk."),
              msg(CK.MSG_OMP_H, "gcc / clang compiling DeepSpeed's cpu_adam (#include <omp.h>)",
                  "csrc/includes/cpu_adam.h:9:10: fatal error: omp.h: No such file or directory"),
              rx(r"/bin/sh: \d{1,6}: \S{1,400}: not found", ": not found", "ninja running $CXX / nvcc through /bin/sh (dash)",
                 "/bin/sh: 1: /nonexistent/c++: not found"),
              msg(CK.MSG_COMPILER_INCOMPATIBLE, f"{CPP_EXT} check_compiler_abi_compatibility warning (torch 1.x-2.14)",
                  "Your compiler (c++) is not compatible with the compiler Pytorch was built with for this platform, "
                  "which is g++ on linux.", note=True))),
    Cause("cuda-libs-missing", "DS107", "libcurand / libcudart missing where the CUDA cpu_adam build links",
          _cuda_libs_missing, predicted_by="check:cuda-libs-missing", signatures=(
              rx(r"cannot find -l(?:curand|cudart|cublas|cusparse|cusolver)", "cannot find -l",
                 "ld linking DeepSpeed's cpu_adam.so (-lcurand, DeepSpeed <= 0.19.7)",
                 "/usr/bin/ld: cannot find -lcurand: No such file or directory"),)),
    Cause("libaio-missing", "DS111", "libaio (async_io, NVMe offload) is missing",
          _libaio_missing, predicted_by="check:libaio-missing", signatures=(
              msg(K.MSG_LIBAIO, "deepspeed/ops/op_builder/async_io.py is_compatible warning (0.9-0.19.8)",
                  "[WARNING]  async_io requires the dev libaio .so object and headers but these were not found."),)),
    Cause("prebuilt-op-mismatch", "DS109", "Prebuilt DeepSpeed ops were built for another torch/CUDA",
          _prebuilt_op_mismatch, predicted_by="check:prebuilt-op-mismatch", signatures=(
              msg(K.MSG_PREBUILT_TORCH, f"{BUILDER} load, installed ops vs torch (0.9-0.19.8)",
                  "RuntimeError: PyTorch version mismatch! DeepSpeed ops were compiled and installed with a different "
                  "version than what is being used at runtime. Please re-install DeepSpeed or switch torch versions. "
                  "Install torch version=2.1, Runtime torch version=2.3"),
              msg(K.MSG_PREBUILT_CUDA, f"{BUILDER} load, installed ops vs torch's CUDA (0.9-0.19.8)",
                  "RuntimeError: CUDA version mismatch! DeepSpeed ops were compiled and installed with a different "
                  "version than what is being used at runtime. Please re-install DeepSpeed or switch torch versions. "
                  "Install CUDA version=11.8, Runtime CUDA version=12.1"))),
    Cause("ds-accelerator-invalid", "DS110", "DS_ACCELERATOR is not a value this DeepSpeed accepts",
          _ds_accelerator_invalid, predicted_by="check:ds-accelerator-invalid", signatures=(
              rx(r"DS_ACCELERATOR must be one of", "DS_ACCELERATOR must be one of",
                 "deepspeed/accelerator/real_accelerator.py get_accelerator (0.9-0.19.8)",
                 "ValueError: DS_ACCELERATOR must be one of ['cuda', 'cpu', 'xpu', 'npu', 'mps', 'hpu', 'mlu', "
                 "'sdaa', 'supa', 'klxpu']. Value \"gpu\" is not supported"),
              msg("CPU_Accelerator requires intel_extension_for_pytorch",
                  "deepspeed/accelerator/real_accelerator.py get_accelerator, DS_ACCELERATOR=cpu (older releases; not 0.15+)",
                  "ValueError: CPU_Accelerator requires intel_extension_for_pytorch, which is not installed on this "
                  "system."))),
    Cause("nvcc-arch-unsupported", "DS304", "nvcc does not know a GPU architecture in the arch list",
          _nvcc_arch_unsupported, predicted_by="none", signatures=(
              msg(CK.MSG_NVCC_ARCH, "nvcc (CUDA 12.x: compute_35; 13.0: compute_60/61/70 removed)",
                  "nvcc fatal   : Unsupported gpu architecture 'compute_60'"),
              msg(K.MSG_FORK_ARCH, f"{BUILDER} compute_capability_args (0.16-0.19.8)",
                  "RuntimeError: DeepSpeed JIT builder for 'fused_adam' cannot probe CUDA device capabilities in a "
                  "forked subprocess where CUDA has already been initialized. Set TORCH_CUDA_ARCH_LIST to specify "
                  "target architectures explicitly."),
              msg(K.MSG_NO_COMPUTE_CAPS, f"{BUILDER} compute_capability_args (0.12-0.19.8)",
                  "RuntimeError: Unable to load fused_adam op due to no compute capabilities remaining after "
                  "filtering")),
          docs=Docs(
              "nvcc refused a GPU architecture in the build's arch list (`Unsupported gpu architecture 'compute_60'`), "
              "or DeepSpeed found no compute capability left after filtering, or could not probe the GPUs in a forked "
              "child where CUDA was already initialised.",
              "CUDA 13's nvcc dropped compute_60/61/70, and DeepSpeed's default list still names them (a forked child "
              "cannot probe the GPUs to narrow it).",
              "List only your GPUs' architectures: `export TORCH_CUDA_ARCH_LIST=\"8.0;9.0\"` (`nvidia-smi "
              "--query-gpu=compute_cap --format=csv` gives them).",
              (log("nvcc-arch-unsupported", "A fused_adam build with CUDA 13's nvcc:",
                   "FAILED: [code=127] fused_adam.o \n"
                   "nvcc fatal   : Unsupported gpu architecture 'compute_60'\n"
                   "ninja: build stopped: subcommand failed.\n"),))),
    Cause("compiler-killed", "DS301", "The compiler was killed (usually out of memory) while building an op",
          _compiler_killed, predicted_by="none", signatures=(
              msg(CK.MSG_COMPILER_KILLED, "gcc driver when cc1plus is killed (gcc 9-14)",
                  "c++: fatal error: Killed signal terminated program cc1plus"),
              msg(CK.MSG_ICE_KILLED, "gcc driver, cc1plus killed mid-compile (gcc 7-14)",
                  "c++: internal compiler error: Killed (program cc1plus)")),
          docs=Docs(
              "The compiler was killed while building an op (`Killed signal terminated program cc1plus`, or an internal "
              "compiler error after a kill).",
              "ninja runs one compiler per core, and each cc1plus for DeepSpeed ops can take several GB: the host runs "
              "out of memory and the OOM killer stops the compiler. Almost always memory, not a code problem.",
              "Build with one compiler job at a time (`export MAX_JOBS=1`; every form of the variable is shown), or add "
              "memory / swap (check with `free -g; dmesg | grep -i 'killed process'`).",
              (log("compiler-killed", "A cpu_adam build whose compilers were killed:",
                   "FAILED: [code=127] cpu_adam.o \n"
                   "c++: fatal error: Killed signal terminated program cc1plus\n"
                   "compilation terminated.\n"
                   "ninja: build stopped: subcommand failed.\n" + CPU_ADAM_TAIL),))),
    Cause("libstdcxx-mismatch", "DS305", "A freshly built op fails to import: GLIBCXX version not found",
          _libstdcxx_mismatch, predicted_by="none", signatures=(
              msg(CK.MSG_GLIBCXX, "the dynamic loader importing the built <op>.so (glibc ld.so)",
                  "ImportError: /opt/conda/envs/ft/lib/libstdc++.so.6: version `GLIBCXX_3.4.32' not found (required "
                  "by /root/.cache/torch_extensions/py310_cu121/cpu_adam/cpu_adam.so)"),),
          docs=Docs(
              "A freshly built op fails to import: `version `GLIBCXX_3.4.NN' not found (required by .../<op>.so)`.",
              "The op was compiled with a newer gcc than the libstdc++ the process loaded (often conda's, older than "
              "the system compiler).",
              "Give the environment a newer libstdc++ (`conda install -c conda-forge 'libstdcxx-ng>=13'`), or (unsafe: "
              "may clash with other libraries) load the system one first: `export "
              "LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libstdc++.so.6`.",
              (log("libstdcxx-mismatch", "cpu_adam built, then its import failed:",
                   "Loading extension module cpu_adam...\n"
                   "Traceback (most recent call last):\n"
                   "  File \"/opt/conda/envs/ft/lib/python3.10/site-packages/torch/utils/cpp_extension.py\", line 1746, in "
                   "_import_module_from_library\n"
                   "    module = importlib.util.module_from_spec(spec)\n"
                   "ImportError: /opt/conda/envs/ft/lib/libstdc++.so.6: version `GLIBCXX_3.4.32' not found (required by "
                   "/root/.cache/torch_extensions/py310_cu121/cpu_adam/cpu_adam.so)\n"),))),
    Cause("windows-op-build-unsupported", "DS303", "DeepSpeed ops cannot be JIT-built on native Windows",
          _windows_op_build, predicted_by="none", signatures=(
              msg(CK.MSG_WINDOWS_POSIX_ONLY, "deepspeed/ops/op_builder/*.py is_compatible on Windows (0.10-0.19.8)",
                  "[WARNING]  async_io is only supported on POSIX platforms, not Windows."),
              msg(CK.MSG_MSVC_REQUIRED, "setuptools/_distutils/_msvccompiler.py (setuptools 60-75)",
                  "error: Microsoft Visual C++ 14.0 or greater is required. Get it with \"Microsoft C++ Build Tools\": "
                  "https://visualstudio.microsoft.com/visual-cpp-build-tools/"),
              msg(CK.MSG_MSVC_LINK, "MSVC link.exe (Visual Studio 2019-2022)",
                  "LINK : fatal error LNK1181: cannot open input file 'aio.lib'")),
          docs=Docs(
              "An op build failed on native Windows (MSVC required / not found, POSIX-only sources, link errors of the "
              "MSVC toolchain).",
              "DeepSpeed ops cannot be JIT-built on native Windows.",
              "Run training under WSL2 or Linux (`wsl --install`).",
              (log("windows-msvc", "A cpu_adam build on Windows:",
                   "error: Microsoft Visual C++ 14.0 or greater is required. Get it with \"Microsoft C++ Build Tools\"\n"
                   "ninja: build stopped: subcommand failed.\n" + CPU_ADAM_TAIL),))),
)
