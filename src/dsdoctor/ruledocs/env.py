"""Environment checks (``dsdoctor check`` / ``dsdoctor verify``, DS1xx). The facts behind each text live in
``knowledge/deepspeed.py`` / ``knowledge/cuda.py``; the fixes quoted are the ones ``fixes.py`` builds.
(``ds-skip-cuda-check-ineffective`` DS102 and ``memlock-too-low`` DS113 are documented by their lint rules; their
``check`` forms are added here as ``ALSO``.)"""

from __future__ import annotations

from typing import Tuple

from ..model import Severity
from .spec import Also, Entry, RuleExample

E, W = Severity.ERROR, Severity.WARNING
CASES = "tests/cases/check/"
LOGS = "tests/cases/explain/"


def case(name: str, situation: str) -> RuleExample:
    return RuleExample("check", situation, source=CASES + name + ".toml")


def log(name: str, situation: str, text: str) -> RuleExample:
    return RuleExample("log", situation, text, source=LOGS + name + ".log")


ENTRIES: Tuple[Entry, ...] = (
    Entry(
        "cuda-version-mismatch", E, ("check", "verify", "explain"), "environment",
        what="The CUDA toolkit DeepSpeed will build with (`$CUDA_HOME/bin/nvcc -V`, CUDA_HOME resolved as torch "
             "resolves it) has another version than torch was built with (`torch.version.cuda`), and the installed "
             "DeepSpeed's own minor-mismatch table does not accept the pair. It is an error where it makes cpu_adam "
             "fail: DeepSpeed 0.12.4-0.19.7 (and 0.12.2, and <= 0.9.0) on the CUDA accelerator; a warning where "
             "DeepSpeed swallows it (<= 0.12.3: CPU-only ops) or only installs with DS_BUILD_OPS=1 / DS_BUILD_<OP>=1 "
             "are affected; cpu_adam is not checked at all from 0.19.8. `explain` finds DeepSpeed's "
             "CUDAMismatchException in a log.",
        why="DeepSpeed's TorchCPUOpBuilder runs `assert_no_cuda_mismatch` while computing cpu_adam's compile flags "
            "and raises CUDAMismatchException. The table accepts a differing minor only when both are listed under "
            "the toolkit's major, and no DeepSpeed version has an entry for CUDA 13, so 13.5 vs torch's 13.0 is "
            "fatal. The last line users see is `AttributeError: 'DeepSpeedCPUAdam' object has no attribute "
            "'ds_opt_adam'` (<= 0.19.7) or `DeepSpeedCPUAdam requires the cpu_adam op, which failed to build/load.` "
            "(0.19.8): consequences, not the cause.",
        fix="In the order dsdoctor ranks them: point CUDA_HOME at a toolkit with torch's CUDA version when one is "
            "already on disk (`export CUDA_HOME=<that toolkit>`); `export DS_SKIP_CUDA_CHECK=1` (exactly 1; offered "
            "only when the check is the sole blocker, and marked unsafe across CUDA major versions with a visible "
            "GPU); upgrade to `deepspeed>=0.19.8`, whose cpu_adam is a plain CPU build (when cpu_adam is the only op "
            "you need); or install a toolkit matching torch (`pip install 'nvidia-cuda-nvcc==13.0.*' "
            "'nvidia-cuda-crt==13.0.*' 'nvidia-nvvm==13.0.*'` then CUDA_HOME=<site-packages>/nvidia/cu13 for CUDA 13, "
            "`conda install -c nvidia 'cuda-nvcc=X.Y' 'cuda-libraries-dev=X.Y'` before). With `-v` every variable "
            "is shown as a one-off prefix, a shell rc line, an in-script line and a `.deepspeed_env` line.",
        examples=(
            case("cuda13-minor-13.5-vs-cu130-0.19.7-fatal",
                 "DeepSpeed 0.19.7, torch 2.9.0+cu130, a real CUDA 13.5 toolkit as CUDA_HOME, DS_ACCELERATOR=cuda: "
                 "`dsdoctor check` predicts that cpu_adam fails with this error."),
            log("cuda-mismatch-ds0.19.7",
                "The same failure in a training log (DeepSpeed 0.19.7); `dsdoctor explain` names it and marks the "
                "ds_opt_adam AttributeError as a consequence.",
                "    assert_no_cuda_mismatch(self.name)\n"
                "  File \"/opt/envs/ds/0.19.7/deepspeed/ops/op_builder/builder.py\", line 130, in assert_no_cuda_mismatch\n"
                "    raise CUDAMismatchException(\n"
                "deepspeed.ops.op_builder.builder.CUDAMismatchException: >- DeepSpeed Op Builder: Installed CUDA version "
                "13.5 does not match the version torch was compiled with 13.0, unable to compile cuda/cpp extensions "
                "without a matching cuda version.\n"
                "Exception ignored in: <function DeepSpeedCPUAdam.__del__ at 0x7fd7bd63dc60>\n"
                "Traceback (most recent call last):\n"
                "  File \"/opt/envs/ds/0.19.7/deepspeed/ops/adam/cpu_adam.py\", line 99, in __del__\n"
                "    self.ds_opt_adam.destroy_adam(self.opt_id)\n"
                "AttributeError: 'DeepSpeedCPUAdam' object has no attribute 'ds_opt_adam'\n"),
        ),
    ),
    Entry(
        "cuda-toolkit-missing", E, ("check", "verify", "explain"), "environment",
        what="No usable CUDA toolkit where DeepSpeed needs one: torch finds no CUDA_HOME (no CUDA_HOME/CUDA_PATH, "
             "no nvcc on PATH, no /usr/local/cuda), `$CUDA_HOME/bin/nvcc` does not exist, or `nvcc -V` prints no "
             "version. An error where it makes cpu_adam fail (the CUDA accelerator before 0.19.8, by version: a raw "
             "FileNotFoundError up to 0.19.4, MissingCUDAException with a visible GPU) or where `import deepspeed` "
             "itself fails (0.14.1-0.19.4 on a GPU machine without CUDA_HOME); otherwise a warning/info that CUDA "
             "ops cannot be built.",
        why="DeepSpeed reads the toolkit version by running `<CUDA_HOME>/bin/nvcc -V` (not the nvcc on PATH). "
            "DS_SKIP_CUDA_CHECK does not help with a missing toolkit: it is consulted only after a version was read.",
        fix="Install the CUDA toolkit matching torch's CUDA and export CUDA_HOME to it (`pip install "
            "'nvidia-cuda-nvcc==13.0.*' 'nvidia-cuda-crt==13.0.*' 'nvidia-nvvm==13.0.*'` then "
            "CUDA_HOME=<site-packages>/nvidia/cu13 for CUDA 13; `conda install -c "
            "nvidia 'cuda-nvcc=X.Y' 'cuda-libraries-dev=X.Y'` or `apt install cuda-toolkit-X-Y` before), or point "
            "CUDA_HOME at a matching toolkit dsdoctor found on disk; on the CUDA accelerator before 0.19.8, "
            "upgrading to `deepspeed>=0.19.8` also works (its cpu_adam needs no CUDA toolkit).",
        examples=(
            case("no-nvcc-0.19.4-fatal",
                 "DeepSpeed 0.19.4 with DS_ACCELERATOR=cuda and a CUDA_HOME that has no bin/nvcc: cpu_adam's JIT "
                 "build raises a raw FileNotFoundError."),
            log("cuda-toolkit-missing-ds0.16", "The same in a training log:",
                "  File \"/usr/lib/python3/dist-packages/deepspeed/ops/op_builder/builder.py\", line 52, in "
                "installed_cuda_version\n"
                "    output = subprocess.check_output([cuda_home + \"/bin/nvcc\", \"-V\"], universal_newlines=True)\n"
                "FileNotFoundError: [Errno 2] No such file or directory: '/usr/local/cuda-12.1/bin/nvcc'\n"),
        ),
    ),
    Entry(
        "ninja-missing", E, ("check", "verify", "explain"), "environment",
        what="ninja is not found the way the installed DeepSpeed looks for it: DeepSpeed <= 0.18.2 needs the Python "
             "`ninja` module (`import ninja`; apt's ninja-build does not count) and an executable; >= 0.18.3 runs "
             "`ninja --version` on PATH. Also reported when the environment's bin directory (with its ninja) is not "
             "on PATH because the environment was not activated.",
        why="Every JIT op build needs ninja; without it every op fails with `Unable to JIT load the <op> op due to "
            "ninja not being installed.`",
        fix="Install ninja into the training environment (`python -m pip install ninja`); from DeepSpeed 0.18.3 the "
            "system package also works (`apt-get install ninja-build`); when the environment's bin dir has ninja "
            "but is not on PATH, activate the environment (`export PATH=<env>/bin:$PATH`).",
        examples=(
            case("ninja-0.18.3-no-executable-fatal",
                 "DeepSpeed 0.18.3 with the ninja module installed but no ninja executable on PATH."),
            log("ninja-missing-ds0.19.8", "The same in a log (DeepSpeed 0.19.8):",
                "    raise RuntimeError(f\"Unable to JIT load the {self.name} op due to ninja not being installed.\") "
                "from e\n"
                "RuntimeError: Unable to JIT load the cpu_adam op due to ninja not being installed.\n"
                "RuntimeError: DeepSpeedCPUAdam requires the cpu_adam op, which failed to build/load.\n"),
        ),
    ),
    Entry(
        "host-compiler-unsupported", E, ("check", "verify", "explain"), "environment",
        what="No usable host C++ compiler for JIT op builds: no `$CXX` / `c++` on PATH, a compiler without an OpenMP "
             "runtime (cpu_adam is built with -fopenmp), or a gcc newer than the CUDA toolkit's nvcc accepts where "
             "cpu_adam still compiles a .cu kernel (DeepSpeed <= 0.14.2 with a visible GPU).",
        why="torch builds JIT ops with `$CXX` or `c++`; nvcc refuses host compilers newer than the one its release "
            "supports.",
        fix="Install a compiler (`apt-get install g++`) or point CXX at one (`unset CXX` / `export CXX=g++`); for "
            "OpenMP `apt-get install libgomp1 libomp-dev`; for a gcc nvcc rejects, `export CXX=g++-<newest "
            "supported>` (or, unsafe, `export NVCC_APPEND_FLAGS=-allow-unsupported-compiler`).",
        examples=(
            case("compiler-missing-fatal", "No c++ on PATH at all (DeepSpeed 0.15.4): every JIT build fails."),
            log("compiler-missing-ds0.19.8", "In a log, with CXX pointing at a compiler that does not exist:",
                "FAILED: [code=127] cpu_adam.o \n"
                "/bin/sh: 1: /nonexistent/c++: not found\n"
                "ninja: build stopped: subcommand failed.\n"),
        ),
    ),
    Entry(
        "python-headers-missing", E, ("check", "verify", "explain"), "environment",
        what="`Python.h` is missing from the checked interpreter's include directory (a Python installed without its "
             "-dev package).",
        why="Every op's C++ sources include torch/extension.h, which includes Python.h: no op can be compiled.",
        fix="Install the headers for that Python version (`apt-get install python3.X-dev`); conda environments ship "
            "them; with pyenv, reinstall the version.",
        examples=(
            case("python-headers-missing-fatal", "An interpreter whose include directory has no Python.h."),
            log("python-headers-missing", "In a log:",
                "/opt/envs/venv/lib/python3.11/site-packages/torch/include/torch/extension.h:9:10: fatal error: "
                "Python.h: No such file or directory\n"
                "compilation terminated.\n"
                "ninja: build stopped: subcommand failed.\n"),
        ),
    ),
    Entry(
        "cuda-libs-missing", E, ("check", "verify", "explain"), "environment",
        what="No linkable `libcurand.so` where cpu_adam's CUDA build links it: DeepSpeed <= 0.19.7 on the CUDA "
             "accelerator links cpu_adam with `-lcurand -L$CUDA_HOME/lib64` (or `lib`) when a GPU is visible (a "
             "warning when none is: the same environment fails wherever one is). Only a versioned runtime "
             "(`libcurand.so.10`) is not linkable. `explain` also recognises a missing -lcudart/-lcublas/-lcusparse/"
             "-lcusolver.",
        why="The link step fails (`cannot find -lcurand`) after compiling, and cpu_adam never loads.",
        fix="Give the linker a `libcurand.so`: beside a runtime-only `libcurand.so.N` (PyPI's `nvidia-curand`, "
            "which torch cu13 pulls, ships only that in `<site-packages>/nvidia/cu13/lib`) `ln -s libcurand.so.N "
            "libcurand.so` and put that directory on LIBRARY_PATH; for CUDA >= 13 without one, first `pip install "
            "'cuda-toolkit[curand]==X.Y.*'`; for a `/usr/local/cuda-X.Y` toolkit, NVIDIA's CUDA apt repository "
            "package `libcurand-dev-X-Y` (not in Debian's sources).",
        examples=(
            case("cuda-libs-missing-0.15.4-gpu-fatal",
                 "DeepSpeed 0.15.4 with a visible GPU and a toolkit without libcurand.so."),
            log("cuda-libs-missing", "In a log:",
                "FAILED: [code=127] cpu_adam.o \n"
                "/usr/bin/ld: cannot find -lcurand: No such file or directory\n"
                "collect2: error: ld returned 1 exit status\n"
                "ninja: build stopped: subcommand failed.\n"),
        ),
    ),
    Entry(
        "torch-extensions-lock-stale", E, ("check", "verify", "explain"), "environment",
        what="A `lock` file left in a torch-extensions build directory (`$TORCH_EXTENSIONS_DIR/<op>/lock`) by a "
             "killed build, with no process building there, under torch <= 2.13. An error when it is the op "
             "dsdoctor predicts (cpu_adam), a warning for other ops. With torch 2.14+ (an OS file lock) the "
             "leftover file is harmless and not reported. `explain` reports it (warning) when a log ends while a "
             "build was started or waited for.",
        why="torch <= 2.13 guards JIT builds with a FileBaton: the file's existence makes every later build of that "
            "op wait forever, printing nothing.",
        fix="Delete the stale lock (`rm -f <TORCH_EXTENSIONS_DIR>/<op>/lock`) when no build is running.",
        examples=(
            case("lock-stale-cpu-adam-fatal",
                 "A leftover cpu_adam/lock under TORCH_EXTENSIONS_DIR with no build running (torch 2.4)."),
            log("libstdcxx-mismatch",
                "A log that ends right after torch announced the build (the first line of a real build log; a "
                "run that hangs on a stale lock prints nothing after it):",
                "Using /root/.cache/torch_extensions/py310_cu121 as PyTorch extensions root...\n"),
        ),
    ),
    Entry(
        "prebuilt-op-mismatch", E, ("check", "verify", "explain"), "environment",
        what="DeepSpeed was installed with prebuilt ops (DS_BUILD_OPS=1 / DS_BUILD_<OP>=1) recorded for another "
             "torch or CUDA version than the installed one (`git_version_info_installed.py`'s torch_info). A "
             "warning when the prebuilt op is not used (built for another accelerator: JIT runs instead).",
        why="`load()` of a prebuilt op compares the recorded versions and raises `PyTorch version mismatch! "
            "DeepSpeed ops were compiled and installed with a different version` (or the CUDA one).",
        fix="Reinstall DeepSpeed against this torch, using JIT ops (`pip install --force-reinstall --no-cache-dir "
            "deepspeed`).",
        examples=(
            case("prebuilt-torch-version-mismatch-fatal",
                 "cpu_adam prebuilt against torch 2.3; torch is now 2.4.0+cu121 (DeepSpeed 0.15.4)."),
        ),
    ),
    Entry(
        "ds-accelerator-invalid", E, ("check", "verify", "explain"), "environment",
        what="`DS_ACCELERATOR` is not in the installed DeepSpeed's list (exact, lower-case: e.g. 0.19.8 accepts "
             "cuda, cpu, xpu, npu, mps, hpu, mlu, sdaa, supa, klxpu), or the selected accelerator has no cpu_adam "
             "(the CPU accelerator before 0.10.1; `cpu` <= 0.14.0 needs intel_extension_for_pytorch). A warning when "
             "DeepSpeed < 0.14.1 will auto-select cuda on a machine where torch sees no GPU (no CPU fallback yet).",
        why="`get_accelerator()` raises `DS_ACCELERATOR must be one of ...` for any other value, before training "
            "starts.",
        fix="Unset it to let DeepSpeed auto-detect (`unset DS_ACCELERATOR`), or use the exact lower-case value; for "
            "the CPU accelerator's missing cpu_adam, `pip install 'deepspeed>=0.10.1'`.",
        examples=(
            case("accel-tpu-invalid", "DS_ACCELERATOR=tpu with DeepSpeed 0.19.8."),
        ),
    ),
    Entry(
        "libaio-missing", E, ("check", "verify", "explain"), "environment",
        what="NVMe offload is configured (a ds_config offloading to nvme via `--ds-config`, or `--nvme`) and no "
             "linkable `libaio.so` + `libaio.h` is found.",
        why="async_io (ZeRO-Infinity's NVMe swapping) test-links `io_submit` against -laio: `async_io requires the "
            "dev libaio .so object and headers but these were not found.`",
        fix="Install libaio (`apt-get install libaio-dev`; yum: libaio-devel; pacman: libaio).",
        examples=(
            case("libaio-missing-nvme", "`dsdoctor check --nvme` on a machine without libaio."),
            log("libaio-missing", "In a log:",
                " [WARNING]  async_io requires the dev libaio .so object and headers but these were not found.\n"
                " [WARNING]  async_io: please install the libaio-dev package with apt\n"
                "RuntimeError: Unable to JIT load the async_io op due to it not being compatible due to "
                "hardware/software issue. None\n"),
        ),
    ),
    Entry(
        "shm-too-small", W, ("check", "explain"), "environment",
        what="`/dev/shm` is smaller than 512 MiB (the Docker default is 64 MiB). `explain` reports it when a "
             "DataLoader worker or a rank died of SIGBUS (bus error, exit -7).",
        why="NCCL and DataLoader workers pass data through /dev/shm; DeepSpeed's ds_report warns below 512 MB. "
            "Running out kills the process with SIGBUS.",
        fix="Docker: give the container more shared memory (`docker run --shm-size=16g ...` or `--ipc=host`); or "
            "load data in the main process (`DataLoader(..., num_workers=0)`).",
        examples=(
            RuleExample("facts", "A container whose /dev/shm is 64 MiB (a limit a test cannot change for real: the "
                                 "real facts of this machine are collected and /dev/shm's size replaced).",
                        data='{"limits": {"shm_bytes": 67108864}}'),
            log("dataloader-sigbus", "In a log:",
                "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared "
                "memory (shm).\n"
                "RuntimeError: DataLoader worker (pid(s) 13733) exited unexpectedly\n"),
        ),
    ),
    Entry(
        "probe-failed", W, ("check",), "environment",
        what="A probe of the environment hung (killed at its timeout), crashed, or printed something dsdoctor "
             "cannot parse: e.g. `nvcc -V` that hangs or prints garbage, a damaged torch/version.py, unreadable "
             "package metadata. Named, never a traceback.",
        why="dsdoctor could not read this fact, so checks that depend on it are less certain. DeepSpeed runs the "
            "same tool and will likely fail the same way.",
        fix="Run the named probe yourself (the finding shows the command and its output) and repair what it reads: "
            "the toolkit under CUDA_HOME, the package installation.",
        examples=(
            case("fault-nvcc-hangs", "`$CUDA_HOME/bin/nvcc` hangs: the probe is killed at its timeout and reported as "
                                     "`probe 'nvcc -V' failed`."),
        ),
    ),
    Entry(
        "package-missing", E, ("check",), "environment",
        what="torch or deepspeed is not installed in the checked environment (the interpreter running dsdoctor, or "
             "`--python`).",
        why="Nothing can be predicted or built without them; often the wrong interpreter was checked.",
        fix="Install it into that environment (`python -m pip install deepspeed`), or point `--python` at the "
            "training environment's interpreter.",
        examples=(
            case("package-missing-deepspeed", "An environment with torch but no deepspeed."),
        ),
    ),
    Entry(
        "op-build-failed", E, ("verify",), "environment",
        what="`dsdoctor verify` really built and loaded the op (DeepSpeed's own `<Builder>().load()` in a subprocess "
             "with a fresh TORCH_EXTENSIONS_DIR) and it failed or did not finish within `--timeout`, and the build "
             "log does not show a cause dsdoctor recognises. (A recognised cause is reported under its own name.)",
        why="The op will fail the same way in training; without the cause in the log only the build log and the "
            "environment can tell.",
        fix="Collect the full build log (shown with `-v`, and kept in the extensions dir) and `dsdoctor check -v`; "
            "on a timeout look for a stale lock in the build dir or raise `--timeout` for a slow compile.",
        examples=(
            RuleExample("verify", "`dsdoctor verify --op cpu_adam` where the build log ends with only the symptom "
                                  "(the compiler output is not in it). The log is fed to verify's diagnosis, which "
                                  "also runs `dsdoctor check` on this machine.",
                        "Exception ignored in: <function DeepSpeedCPUAdam.__del__ at 0x7f5cd4f4a020>\n"
                        "Traceback (most recent call last):\n"
                        "  File \"/opt/envs/ds/0.19.7/deepspeed/ops/adam/cpu_adam.py\", line 99, in __del__\n"
                        "    self.ds_opt_adam.destroy_adam(self.opt_id)\n"
                        "AttributeError: 'DeepSpeedCPUAdam' object has no attribute 'ds_opt_adam'\n",
                        source=LOGS + "op-build-cause-cut.log"),
        ),
    ),
)

ALSO: Tuple[Also, ...] = (
    Also("ds-skip-cuda-check-ineffective", "check", (
        case("skip-true-ignored-warning",
             "`dsdoctor check` with DS_SKIP_CUDA_CHECK=true in the environment (DeepSpeed 0.15.4, nvcc 13.0 vs torch "
             "cu121): the mismatch is the error, this finding a warning whose fix is exactly `1`."),
        case("skip-true-matching-13.0-unset",
             "`dsdoctor check` with DS_SKIP_CUDA_CHECK=true and a toolkit matching torch: no check fails, the fix "
             "is to unset it (the same as for `1`)."),
    ), note="`dsdoctor check` reports the environment variable form: a value other than exactly `1` where a CUDA "
            "check would fail without it (fix: `export DS_SKIP_CUDA_CHECK=1`), a DeepSpeed before 0.9.3 (no such "
            "variable), any value with no toolkit (it is read only after a version was read), any value where no "
            "check fails (a matching toolkit, or 0.19.8 whose cpu_adam is not checked: fix `unset DS_SKIP_CUDA_CHECK`), "
            "and `1` facing torch's own major-version check at install time."),
    Also("memlock-too-low", "check", (
        case("memlock-low-0.19.5-warning",
             "`dsdoctor check` with `ulimit -l` lowered to 1 MiB on DeepSpeed 0.19.5 (pin_memory defaults to true "
             "from 0.19.5: a warning; info before)."),
    ), note="`dsdoctor check` reports the machine's limit (RLIMIT_MEMLOCK below 64 MiB): only with a `--ds-config` "
            "that offloads (no offload, no pinned offload buffers): a warning when pinned buffers will be used (the "
            "config sets pin_memory, or the default is true from DeepSpeed 0.19.5), else info."),
)
