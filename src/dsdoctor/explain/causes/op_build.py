"""Causes of a failed op build / load past the toolchain: prebuilt ops (and cached JIT builds) made for another
torch, the accelerator choice, GPU architectures nvcc does not know, the build host (the compiler killed, an older
libstdc++, native Windows, CPU SIMD flags, an nvcc too old for C++17) and DeepSpeed's own op-builder bugs. The
messages live in ``knowledge/deepspeed.py`` and ``knowledge/cuda.py``."""

from __future__ import annotations

import re
from typing import Tuple

from ... import fixes as F
from ... import names as N
from ...knowledge import cuda as CK
from ...knowledge import deepspeed as K
from ...model import Severity
from .build import BUILD_FAILED, BUILDER
from .cause import Advice, Cause, Docs, LogFacts, Seen, cause, code_fix, form, frame, log, msg, rx

CPU_ADAM_TAIL = ("  File \"/opt/envs/ds/0.19.8/deepspeed/ops/adam/cpu_adam.py\", line 95, in __init__\n"
                 "    raise RuntimeError(\"DeepSpeedCPUAdam requires the cpu_adam op, which failed to build/load.\") from e\n"
                 "RuntimeError: DeepSpeedCPUAdam requires the cpu_adam op, which failed to build/load.\n")


def _prebuilt_op_mismatch(s: Seen, f: LogFacts) -> Advice:
    cached = re.search(r"(\S{1,400}torch_extensions\S{0,200})/[\w.-]{1,200}\.so: undefined symbol", s.text)
    if cached:  # a JIT build cached by an earlier torch: torch's extensions dir is keyed by Python/CUDA, not torch
        return Advice("A cached JIT build of the op was made against another torch: its torch symbols are gone",
                      "torch's extensions root is per Python and CUDA version, not per torch version, so after a torch "
                      "upgrade the old .so is loaded and misses the symbols it was linked against.",
                      [code_fix("Remove the cached build so the op is rebuilt for this torch", f"rm -rf {cached.group(1)}")])
    return Advice("DeepSpeed's prebuilt ops were built for another torch/CUDA", s.text, [F.prebuilt_reinstall_fix(None)])


def _ds_accelerator_invalid(s: Seen, f: LogFacts) -> Advice:
    return Advice("DS_ACCELERATOR names an accelerator this DeepSpeed cannot use", s.text, [F.unset_accelerator_fix()])


def _nvcc_arch_unsupported(s: Seen, f: LogFacts) -> Advice:
    arch = s.groups.get("arch", "")
    since = CK.NVCC_ARCH_SINCE.get(arch)
    arch_list = F.env_fix("TORCH_CUDA_ARCH_LIST", "8.0;9.0", "Or list only architectures this nvcc knows",
                          reason="your GPUs' ones: nvidia-smi --query-gpu=compute_cap --format=csv")
    if since:  # a GPU newer than the toolkit
        want = f"{since[0]}.{since[1]}"
        return Advice(f"The CUDA toolkit building the op is too old for compute_{arch} (its nvcc needs CUDA >= {want})",
                      f"compute_{arch} is known to nvcc from CUDA {want}; the nvcc under CUDA_HOME / on PATH is older. "
                      "torch and the toolkit may agree with each other: no version check fails, nvcc just has no target.",
                      [code_fix(f"Build with a CUDA >= {want} toolkit (matching torch's CUDA)",
                                f"export CUDA_HOME=/usr/local/cuda-{want}   # a newer one; torch built for CUDA 12 needs a 12.x "
                                "toolkit", "docker: a CUDA 12 -devel base image"), arch_list])
    return Advice("nvcc cannot build for a GPU architecture in the arch list",
                  "",
                  [F.env_fix("TORCH_CUDA_ARCH_LIST", "8.0;9.0", "List only your GPUs' architectures",
                             reason="nvidia-smi --query-gpu=compute_cap --format=csv gives them")])


def _arch_list_unparsed(s: Seen, f: LogFacts) -> Advice:
    part = re.search(r"base 10: '([^'\n]{0,40})'", s.text)
    return Advice(f"TORCH_CUDA_ARCH_LIST has an entry DeepSpeed's JIT builder cannot parse"
                  f"{f' (its part {part.group(1)!r})' if part else ''}",
                  "", [F.arch_list_fix(None)],
                  f"DeepSpeed {K.JIT_ARCH_LIST_INT_SINCE} and later sort the JIT arch list by int() of each part; torch "
                  "accepts suffixed entries such as 9.0a, DeepSpeed does not.")


def _compiler_killed(s: Seen, f: LogFacts) -> Advice:
    return Advice("The compiler was killed while building the op (almost always out of host memory)",
                  "",
                  [F.env_fix("MAX_JOBS", "1", "Build with one compiler job at a time"),
                   code_fix("Or add memory / swap", "free -g; dmesg | grep -i 'killed process'")])


def _libstdcxx_mismatch(s: Seen, f: LogFacts) -> Advice:
    return Advice("The freshly built op needs a newer libstdc++ than the one the process loaded",
                  "",
                  [code_fix("Give the environment a newer libstdc++", "conda install -c conda-forge 'libstdcxx-ng>=13'"),
                   F.env_fix("LD_PRELOAD", "/usr/lib/x86_64-linux-gnu/libstdc++.so.6", "Or load the system libstdc++ first",
                             "unsafe", "may clash with other libraries in the environment")])


def _windows_op_build(s: Seen, f: LogFacts) -> Advice:
    return Advice("DeepSpeed ops cannot be JIT-built on native Windows", "",
                  [code_fix("Run training under WSL2 or Linux", "wsl --install")])


# ---- build causes dsdoctor had no name for (corpus new:op-builder-bug, new:cpu-simd-flags-mismatch, new:nvcc-too-old)

# an op .so that loads but misses a CUDA-library symbol (not linked) or one of DeepSpeed's own (a source left out)
_OP_SO_SYMBOL = r"\.so: undefined symbol: (?P<symbol>curand\w{1,60}|_ZN\d{1,3}deepspeed\w{1,300})"
_BUG_KEYS = (("curand", "curand-unlinked"), ("deepspeed_io_handle", "npu-aio-sources"), ("NoneType", "rocm-compile-flag-none"),
             ("C++20", "cxx17-with-torch-cxx20"), ("multiple definition", "evoformer-same-object"))


def _op_builder_bug(s: Seen, f: LogFacts) -> Advice:
    key = next((k for word, k in _BUG_KEYS if word in s.text), "prebuild-objects-missing")
    bug = K.BUILDER_BUGS[key]
    if bug.fixed:
        fixes = [F.pip_fix(f"deepspeed>={bug.fixed}", f"Upgrade DeepSpeed to {bug.fixed} or later (PR {bug.pr} fixes this "
                           "builder bug)", reason="then rebuild the op: remove its torch_extensions dir, or reinstall with "
                           "the same DS_BUILD_* settings")]
    else:
        fixes = [code_fix(f"Install DeepSpeed with PR {bug.pr} (not in a release yet)",
                          "pip install git+https://github.com/deepspeedai/DeepSpeed.git")]
    if key == "curand-unlinked":
        fixes.append(code_fix("Or let the op JIT-build instead of loading the prebuilt one",
                              "pip uninstall -y deepspeed && DS_BUILD_OPS=0 pip install deepspeed",
                              reason="the JIT builds of those releases pass -lcurand"))
    elif key == "rocm-compile-flag-none":
        fixes.append(F.pip_fix("deepspeed==0.17.4", "Or use the release before the regression"))
    return Advice(f"DeepSpeed's op builder produced a broken build: {bug.what}", "", fixes,
                  f"This one is in DeepSpeed {bug.versions}; PR {bug.pr} fixes it.")


def _cpu_simd_flags_mismatch(s: Seen, f: LogFacts) -> Advice:
    if CK.MSG_GCC_EMPTY_ARG in s.text:
        return Advice("cpu_adam was compiled with an empty SIMD flag: DeepSpeed did not recognise this CPU",
                      "",
                      [F.pip_fix(f"deepspeed>={K.SIMD_EMPTY_FLAG_FIXED}", f"Upgrade DeepSpeed ({K.SIMD_EMPTY_FLAG_FIXED} "
                                 "builds unknown CPUs with -D__SCALAR__, PR #796)")],
                      facts=f"DeepSpeed < {K.SIMD_EMPTY_FLAG_FIXED}'s simd_width() returned '' for this CPU; gcc read the "
                            "empty argument as a file name.")
    return Advice("cpu_adam's AVX-512 code was compiled for a target without AVX-512",
                  "",
                  [code_fix("Let the compiler target this CPU: find and remove the -march override",
                            "env | grep -E '^C(XX)?FLAGS'; c++ -Q --help=target | grep -- '-march='",
                            reason="DeepSpeed itself passes -march=native"),
                   code_fix("Build the op on (and for) the machine that runs it",
                            "python -c 'import deepspeed; deepspeed.ops.op_builder.CPUAdamBuilder().load()'")])


def _nvcc_too_old(s: Seen, f: LogFacts) -> Advice:
    fixes = F.toolkit_fixes(f.torch_cuda, f.ds) if f.torch_cuda else [
        code_fix("Point CUDA_HOME at a toolkit matching torch's CUDA",
                 "python -c 'import torch; print(torch.version.cuda)'   # then: export CUDA_HOME=/usr/local/cuda-<that>",
                 "which nvcc; nvcc -V   # the nvcc the build runs")]
    std = s.groups.get("value", "c++17")
    since = CK.NVCC_STD_SINCE.get(std, (11, 0))
    facts = "" if std == "c++17" else f"-std={std} needs nvcc from CUDA {since[0]}.{since[1]} on."  # the docs' is c++17's
    return Advice(f"The nvcc that built the op is too old: it rejects -std={std}", "", list(fixes), facts)


_ARCH_SAMPLE = (
    "Traceback (most recent call last):\n"
    "  File \"/opt/venv/lib/python3.12/site-packages/deepspeed/ops/op_builder/builder.py\", line 603, in jit_load\n"
    "    nvcc_args = self.strip_empty_entries(self.nvcc_args())\n"
    "  File \"/opt/venv/lib/python3.12/site-packages/deepspeed/ops/op_builder/builder.py\", line 916, in nvcc_args\n"
    "    args += self.compute_capability_args()\n"
    "  File \"/opt/venv/lib/python3.12/site-packages/deepspeed/ops/op_builder/builder.py\", line 718, in "
    "compute_capability_args\n"
    "    ccs = sorted(ccs, key=lambda cc: tuple(int(part.split('+')[0]) for part in cc.split('.')))\n"
    "  File \"/opt/venv/lib/python3.12/site-packages/deepspeed/ops/op_builder/builder.py\", line 718, in <genexpr>\n"
    "    ccs = sorted(ccs, key=lambda cc: tuple(int(part.split('+')[0]) for part in cc.split('.')))\n"
    "ValueError: invalid literal for int() with base 10: '0a'\n")

SPECS: Tuple[Cause, ...] = (
    form(N.CUDA_ARCH_LIST_UNPARSED, _arch_list_unparsed, signatures=(
              frame("op_builder/builder.py", "compute_capability_args", f"{BUILDER} compute_capability_args: the JIT arch "
                    "list sorted by int() of each part (0.19.0-0.19.8)", _ARCH_SAMPLE,
                    exc=r"^ValueError: invalid literal for int\(\) with base 10", anywhere=True),)),
    form(N.PREBUILT_OP_MISMATCH, _prebuilt_op_mismatch, signatures=(
              msg(K.MSG_PREBUILT_TORCH, f"{BUILDER} load, installed ops vs torch (0.9-0.19.8)",
                  "RuntimeError: PyTorch version mismatch! DeepSpeed ops were compiled and installed with a different "
                  "version than what is being used at runtime. Please re-install DeepSpeed or switch torch versions. "
                  "Install torch version=2.1, Runtime torch version=2.3"),
              msg(K.MSG_PREBUILT_CUDA, f"{BUILDER} load, installed ops vs torch's CUDA (0.9-0.19.8)",
                  "RuntimeError: CUDA version mismatch! DeepSpeed ops were compiled and installed with a different "
                  "version than what is being used at runtime. Please re-install DeepSpeed or switch torch versions. "
                  "Install CUDA version=11.8, Runtime CUDA version=12.1"),
              # an op .so (prebuilt, or cached by torch's JIT) linked against another torch's C++ symbols
              rx(r"(?:torch_extensions|/deepspeed/)[^:\s]{0,400}\.so: undefined symbol: _ZNK?\d{1,2}(?:c10|at|torch)",
                 ".so: undefined symbol: _ZN", "the dynamic loader importing a DeepSpeed op built against another torch "
                 "(c10 / at / torch symbols; any torch and DeepSpeed)",
                 "ImportError: /root/.cache/torch_extensions/py310_cu121/cpu_adam/cpu_adam.so: undefined symbol: "
                 "_ZN3c104cuda9SetDeviceEi"))),
    form(N.DS_ACCELERATOR_INVALID, _ds_accelerator_invalid, signatures=(
              rx(r"DS_ACCELERATOR must be one of", "DS_ACCELERATOR must be one of",
                 "deepspeed/accelerator/real_accelerator.py get_accelerator (0.9-0.19.8)",
                 "ValueError: DS_ACCELERATOR must be one of ['cuda', 'cpu', 'xpu', 'npu', 'mps', 'hpu', 'mlu', "
                 "'sdaa', 'supa', 'klxpu']. Value \"gpu\" is not supported"),
              msg("CPU_Accelerator requires intel_extension_for_pytorch",
                  "deepspeed/accelerator/real_accelerator.py get_accelerator, DS_ACCELERATOR=cpu (older releases; not 0.15+)",
                  "ValueError: CPU_Accelerator requires intel_extension_for_pytorch, which is not installed on this "
                  "system."))),
    cause(
    N.NVCC_ARCH_UNSUPPORTED,
    Severity.ERROR,
    "nvcc does not know a GPU architecture in the arch list",
    _nvcc_arch_unsupported,
    Docs(
        what="nvcc refused a GPU architecture in the build's arch list (`Unsupported gpu architecture 'compute_60'`), "
              "or DeepSpeed found no compute capability left after filtering, or could not probe the GPUs in a forked "
              "child where CUDA was already initialised.",
        why=f"CUDA 13's nvcc dropped every architecture below compute_{CK.NVCC_13_ARCHS[0]}, and DeepSpeed's default list "
              "still names compute_60/61/70 (a forked child cannot probe the GPUs to narrow it).",
        fix="List only your GPUs' architectures: `export TORCH_CUDA_ARCH_LIST=\"8.0;9.0\"` (`nvidia-smi "
              "--query-gpu=compute_cap --format=csv` gives them).",
        examples=(log(N.NVCC_ARCH_UNSUPPORTED, "A fused_adam build with CUDA 13's nvcc:",
                   "FAILED: [code=127] fused_adam.o \n"
                   "nvcc fatal   : Unsupported gpu architecture 'compute_60'\n"
                   "ninja: build stopped: subcommand failed.\n"),),
        reads="log"),
    signatures=(
              msg(CK.MSG_NVCC_ARCH, "nvcc (CUDA 12.x: compute_35; 13.0: compute_60/61/70 removed)",
                  "nvcc fatal   : Unsupported gpu architecture 'compute_60'"),
              msg(K.MSG_FORK_ARCH, f"{BUILDER} compute_capability_args (0.19.0-0.19.8)",
                  "RuntimeError: DeepSpeed JIT builder for 'fused_adam' cannot probe CUDA device capabilities in a "
                  "forked subprocess where CUDA has already been initialized. Set TORCH_CUDA_ARCH_LIST to specify "
                  "target architectures explicitly."),
              msg(K.MSG_NO_COMPUTE_CAPS, f"{BUILDER} compute_capability_args (0.12-0.19.8)",
                  "RuntimeError: Unable to load fused_adam op due to no compute capabilities remaining after "
                  "filtering"))),
    cause(
    N.COMPILER_KILLED,
    Severity.ERROR,
    "The compiler was killed (usually out of memory) while building an op",
    _compiler_killed,
    Docs(
        what="The compiler was killed while building an op (`Killed signal terminated program cc1plus`, or an internal "
              "compiler error after a kill).",
        why="ninja runs one compiler per core, and each cc1plus for DeepSpeed ops can take several GB: the host runs "
              "out of memory and the OOM killer stops the compiler. Almost always memory, not a code problem.",
        fix="Build with one compiler job at a time (`export MAX_JOBS=1`; every form of the variable is shown), or add "
              "memory / swap (check with `free -g; dmesg | grep -i 'killed process'`).",
        examples=(log(N.COMPILER_KILLED, "A cpu_adam build whose compilers were killed:",
                   "FAILED: [code=127] cpu_adam.o \n"
                   "c++: fatal error: Killed signal terminated program cc1plus\n"
                   "compilation terminated.\n"
                   "ninja: build stopped: subcommand failed.\n" + CPU_ADAM_TAIL),),
        reads="log"),
    signatures=(
              msg(CK.MSG_COMPILER_KILLED, "gcc driver when cc1plus is killed (gcc 9-14)",
                  "c++: fatal error: Killed signal terminated program cc1plus"),
              msg(CK.MSG_ICE_KILLED, "gcc driver, cc1plus killed mid-compile (gcc 7-14)",
                  "c++: internal compiler error: Killed (program cc1plus)"))),
    cause(
    N.LIBSTDCXX_MISMATCH,
    Severity.ERROR,
    "A freshly built op fails to import: GLIBCXX version not found",
    _libstdcxx_mismatch,
    Docs(
        what="A freshly built op fails to import: `version `GLIBCXX_3.4.NN' not found (required by .../<op>.so)`.",
        why="The op was compiled with a newer gcc than the libstdc++ the process loaded (often conda's, older than "
              "the system compiler).",
        fix="Give the environment a newer libstdc++ (`conda install -c conda-forge 'libstdcxx-ng>=13'`), or (unsafe: "
              "may clash with other libraries) load the system one first: `export "
              "LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libstdc++.so.6`.",
        examples=(log(N.LIBSTDCXX_MISMATCH, "cpu_adam built, then its import failed:",
                   "Loading extension module cpu_adam...\n"
                   "Traceback (most recent call last):\n"
                   "  File \"/opt/conda/envs/ft/lib/python3.10/site-packages/torch/utils/cpp_extension.py\", line 1746, in "
                   "_import_module_from_library\n"
                   "    module = importlib.util.module_from_spec(spec)\n"
                   "ImportError: /opt/conda/envs/ft/lib/libstdc++.so.6: version `GLIBCXX_3.4.32' not found (required by "
                   "/root/.cache/torch_extensions/py310_cu121/cpu_adam/cpu_adam.so)\n"),),
        reads="log"),
    signatures=(
              msg(CK.MSG_GLIBCXX, "the dynamic loader importing the built <op>.so (glibc ld.so)",
                  "ImportError: /opt/conda/envs/ft/lib/libstdc++.so.6: version `GLIBCXX_3.4.32' not found (required "
                  "by /root/.cache/torch_extensions/py310_cu121/cpu_adam/cpu_adam.so)"),)),
    cause(
    N.WINDOWS_OP_BUILD_UNSUPPORTED,
    Severity.ERROR,
    "DeepSpeed ops cannot be JIT-built on native Windows",
    _windows_op_build,
    Docs(
        what="An op build failed on native Windows (MSVC required / not found, POSIX-only sources, link errors of the "
              "MSVC toolchain), or failed for a Linux reason (libaio, a compiler, CUDA libraries) in a log whose paths "
              "or tools show native Windows (`C:\\Users\\...`, `\\Lib\\site-packages\\`, `.pyd`, MSVC's `LNK` errors).",
        why="DeepSpeed ops cannot be JIT-built on native Windows.",
        fix="Run training under WSL2 or Linux (`wsl --install`).",
        examples=(log("windows-msvc", "A cpu_adam build on Windows:",
                   "error: Microsoft Visual C++ 14.0 or greater is required. Get it with \"Microsoft C++ Build Tools\"\n"
                   "ninja: build stopped: subcommand failed.\n" + CPU_ADAM_TAIL),
                  log("windows-precompile-async-io", "DS_BUILD_AIO=1 on native Windows (DeepSpeed 0.9.2): the libaio probe "
                      "fails; no `apt-get install libaio-dev` applies there:",
                      "       [ERROR]  Unable to pre-compile async_io\n"
                      "      Traceback (most recent call last):\n"
                      "        File \"C:\\Users\\user\\AppData\\Local\\Temp\\pip-install-k2x9q1\\deepspeed_5d0e\\setup.py\", "
                      "line 162, in <module>\n"
                      "          abort(f\"Unable to pre-compile {op_name}\")\n")),
        reads="log"),
    signatures=(
              msg(CK.MSG_WINDOWS_POSIX_ONLY, "deepspeed/ops/op_builder/*.py is_compatible on Windows (0.19.5-0.19.8)",
                  "[WARNING]  async_io is only supported on POSIX platforms, not Windows."),
              msg(CK.MSG_MSVC_REQUIRED, "setuptools/_distutils/_msvccompiler.py (setuptools 60-75)",
                  "error: Microsoft Visual C++ 14.0 or greater is required. Get it with \"Microsoft C++ Build Tools\": "
                  "https://visualstudio.microsoft.com/visual-cpp-build-tools/"),
              msg(CK.MSG_MSVC_LINK, "MSVC link.exe (Visual Studio 2019-2022)",
                  "LINK : fatal error LNK1181: cannot open input file 'aio.lib'"))),
    cause(
    N.OP_BUILDER_BUG,
    Severity.ERROR,
    "DeepSpeed's own op builder produced a broken build (fixed in a later release)",
    _op_builder_bug,
    Docs(
        what="An op built (or was prebuilt) and then failed because of DeepSpeed's own build setup: an op `.so` that "
              "imports with `undefined symbol: curandCreateGenerator` (not linked with -lcurand) or a DeepSpeed symbol "
              "(a source file left out), torch's `C++20 or later compatible compiler is required` under DeepSpeed's "
              "hard-coded `-std=c++17`, `multiple definition of` DeepSpeed functions, or the link step missing the "
              "build's own object files.",
        why="The sources, objects, compile and link flags of an op come from DeepSpeed's op builder; these failures "
              "were DeepSpeed bugs, each fixed in a release (knowledge/deepspeed.py BUILDER_BUGS). The toolkit, compiler "
              "and libraries are not the problem, and reinstalling them does not help.",
        fix="Upgrade DeepSpeed to the release that fixed it (the finding names it), then rebuild the op. For prebuilt "
              "ops missing -lcurand, a JIT build (`DS_BUILD_OPS=0`) also works.",
        examples=(log("op-builder-bug-curand-unlinked", "Importing a prebuilt cpu_adam_op linked without libcurand:",
                   "ImportError: /home/user/proj/site/deepspeed/ops/adam/cpu_adam_op.cpython-311-x86_64-linux-gnu.so: "
                   "undefined symbol: curandCreateGenerator\n"),),
        reads="log"),
    signatures=(
              rx(_OP_SO_SYMBOL, ".so: undefined symbol: ", "the dynamic loader (glibc ld.so) importing an op .so that "
                 f"{BUILDER} linked without -lcurand (cpu_adam_op < 0.6.2, transformer_inference < 0.5.10, quantizer "
                 "< 0.10.0) or built without one of its sources (NPU async_io, PR #7894)",
                 "ImportError: /opt/conda/lib/python3.8/site-packages/deepspeed/ops/adam/cpu_adam_op.cpython-38-x86_64-"
                 "linux-gnu.so: undefined symbol: curandCreateGenerator",
                 "ImportError: /opt/envs/ds/ops/aio/async_io.so: undefined symbol: _ZN21deepspeed_io_handle_t18_create_io"),
              msg(CK.MSG_TORCH_CXX20, "torch 2.14.1 torch/csrc/api/include/torch/all.h, compiled with DeepSpeed <= 0.19.4's "
                  "hard-coded -std=c++17 (PR #8238)",
                  "torch/csrc/api/include/torch/all.h:5:2: error: #error C++20 or later compatible compiler is required to "
                  "use PyTorch."),
              rx(r"multiple definition of `\w{1,200}\(", CK.MSG_MULTIPLE_DEFINITION, "GNU ld linking an op whose DeepSpeed "
                 "builder lists two sources with one object name (evoformer_attn < 0.11.2, PR #4556)",
                 "attention.o:(.text+0x330): multiple definition of `attention_impl(at::Tensor&, at::Tensor&)'; "
                 "attention.o:(.text+0x330): first defined here"),
              rx(r"ld: cannot find \S{1,400}/build/temp\S{1,300}\.o: No such file or directory", "ld: cannot find ",
                 "GNU ld in DeepSpeed 0.13.3's pre-build (setup.py build_ext, DS_BUILD_*=1; fixed 0.13.4)",
                 "/usr/bin/ld: cannot find /tmp/pip-install-q/deepspeed_1/build/temp.linux-x86_64-3.10/csrc/adam/"
                 "multi_tensor_adam.o: No such file or directory"),
              frame("op_builder/builder.py", "strip_empty_entries", f"{BUILDER} jit_load on a flag builder that returned "
                    "None (get_cuda_compile_flag on ROCm, 0.17.5; PR #7521)",
                    "Traceback (most recent call last):\n"
                    "  File \"/opt/rocm/venv/lib/python3.12/site-packages/deepspeed/ops/op_builder/builder.py\", line 570, in "
                    "jit_load\n"
                    "    cxx_args = self.strip_empty_entries(self.cxx_args())\n"
                    "  File \"/opt/rocm/venv/lib/python3.12/site-packages/deepspeed/ops/op_builder/builder.py\", line 401, in "
                    "strip_empty_entries\n"
                    "    return [x for x in args if len(x) > 0]\n"
                    "TypeError: object of type 'NoneType' has no len()\n",
                    exc=r"^TypeError: object of type 'NoneType' has no len", anywhere=True))),
    cause(
    N.CPU_SIMD_FLAGS_MISMATCH,
    Severity.ERROR,
    "cpu_adam's SIMD flags do not fit the compile target",
    _cpu_simd_flags_mismatch,
    Docs(
        what="cpu_adam failed to compile because its SIMD code path does not fit the compile target: gcc warns "
              "`AVX512F vector return without AVX512F enabled changes the ABI` / fails with `target specific option "
              "mismatch` on simd.h's _mm512 intrinsics, or (DeepSpeed < 0.3.12) gets an empty argument "
              "(`gcc: error: : No such file or directory`).",
        why="DeepSpeed chooses `-D__AVX512__` / `-D__AVX256__` from the CPU's flags (py-cpuinfo / lscpu) but the "
              "compiler's `-march` comes from elsewhere (a site compiler wrapper or module default such as x86-64-v3, "
              "CFLAGS/CXXFLAGS, or a build host unlike the run host), so simd.h's intrinsics cannot compile. Old "
              "releases passed an empty flag for CPUs they did not recognise.",
        fix="Remove the `-march` override so the compiler targets the CPU (DeepSpeed passes `-march=native`), or build "
              "the op on the machine that runs it; for the empty flag, upgrade DeepSpeed (>= 0.3.12).",
        examples=(log(N.CPU_SIMD_FLAGS_MISMATCH, "cpu_adam compiled by a compiler wrapper targeting x86-64-v3:",
                   "/opt/envs/ds/0.19.8/deepspeed/ops/csrc/includes/simd.h:51:51: warning: AVX512F vector return without "
                   "AVX512F enabled changes the ABI [-Wpsabi]\n"
                   "ninja: build stopped: subcommand failed.\n"),),
        reads="log"),
    signatures=(
              msg(CK.MSG_PSABI_AVX512, "gcc -Wpsabi on DeepSpeed's csrc/includes/simd.h __m512 path (gcc 7-14; 12.2 run here)",
                  "csrc/includes/simd.h:51:51: warning: AVX512F vector return without AVX512F enabled changes the ABI "
                  "[-Wpsabi]", note=True, cause_with=BUILD_FAILED),
              msg(CK.MSG_TARGET_MISMATCH, "gcc inlining an always_inline _mm512 intrinsic for a non-AVX-512 target (12.2 run here)",
                  "avx512fintrin.h:6331:1: error: inlining failed in call to 'always_inline' '__m512 _mm512_loadu_ps(const "
                  "void*)': target specific option mismatch"),
              rx(r"(?:gcc|g\+\+|c\+\+|cc): error: : No such file or directory", CK.MSG_GCC_EMPTY_ARG,
                 "the gcc driver given DeepSpeed < 0.3.12's empty SIMD flag (builder.py simd_width, PR #796)",
                 "x86_64-linux-gnu-gcc: error: : No such file or directory"))),
    cause(
    N.NVCC_TOO_OLD,
    Severity.ERROR,
    "The nvcc building the op predates CUDA 11 (no -std=c++17)",
    _nvcc_too_old,
    Docs(
        what="nvcc rejected `-std=c++17` (`Value 'c++17' is not defined for option 'std'`) while building an op.",
        why="Only nvcc from CUDA 11 on knows C++17, which DeepSpeed's sources and torch's headers need: the nvcc the "
              "build ran is older than torch's CUDA (often a second, older toolkit first on PATH or in CUDA_HOME).",
        fix="Point CUDA_HOME (and PATH) at a toolkit matching torch's CUDA (`python -c 'import torch; "
              "print(torch.version.cuda)'`), then rebuild.",
        examples=(log(N.NVCC_TOO_OLD, "fused_adam built by a CUDA 10 nvcc:",
                   "nvcc fatal   : Value 'c++17' is not defined for option 'std'\n"),),
        reads="log"),
    signatures=(
              msg(CK.MSG_NVCC_VALUE_UNDEFINED, "nvcc < 11.0 (message template read in the nvcc 13.0 binary)",
                  "nvcc fatal   : Value 'c++17' is not defined for option 'std'"),)),
)
