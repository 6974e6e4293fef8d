"""What a JIT op build needs: prebuilt ops matching torch, ninja, a C++ compiler with OpenMP, Python.h,
linkable CUDA libraries and no stale torch-extensions lock."""

from __future__ import annotations

import os
from typing import Iterable, Tuple

from .. import names as N
from ..fixes import (
    compiler_fix,
    curand_fix,
    gcc_limit_fixes,
    ninja_fixes,
    openmp_fix,
    prebuilt_reinstall_fix,
    python_headers_fix,
    stale_lock_fix,
)
from ..knowledge import cuda as CK
from ..knowledge import deepspeed as K
from ..model import Evidence, Fix, Passed, Severity
from ..spec import Docs, FindingSpec, case, log
from .common import S_BUILD, E, Result, mm, sev
from .context import Context
from .cpu_adam import OpPrediction, prebuilt_mismatch, stale_lock

NINJA_MISSING = FindingSpec(
    N.NINJA_MISSING,
    E,
    "ninja, needed for JIT op builds, is not found the way DeepSpeed looks",
    Docs(
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
        reads="environment"),
    ("check", "verify", "explain"))


HOST_COMPILER_UNSUPPORTED = FindingSpec(
    N.HOST_COMPILER_UNSUPPORTED,
    E,
    "No usable C++ compiler / OpenMP for JIT op builds",
    Docs(
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
        reads="environment"),
    ("check", "verify", "explain"))


PYTHON_HEADERS_MISSING = FindingSpec(
    N.PYTHON_HEADERS_MISSING,
    E,
    "Python.h is missing, so no op can be compiled",
    Docs(
        what="`Python.h` is missing from the checked interpreter's include directory (a Python installed without its "
         "-dev package).",
        why="Every op's C++ sources include torch/extension.h, which includes Python.h: no op can be compiled.",
        fix="Install the headers for that Python version (`apt-get install python3.X-dev`); conda environments ship "
        "them; with pyenv, reinstall the version.",
        examples=(
        case("python-headers-missing-fatal", "An interpreter whose include directory has no Python.h."),
        log(N.PYTHON_HEADERS_MISSING, "In a log:",
            "/opt/envs/venv/lib/python3.11/site-packages/torch/include/torch/extension.h:9:10: fatal error: "
            "Python.h: No such file or directory\n"
            "compilation terminated.\n"
            "ninja: build stopped: subcommand failed.\n"),
    ),
        reads="environment"),
    ("check", "verify", "explain"))


TORCH_EXTENSIONS_LOCK_STALE = FindingSpec(
    N.TORCH_EXTENSIONS_LOCK_STALE,
    E,
    "A leftover torch-extensions lock file: the next build hangs",
    Docs(
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
        log(N.LIBSTDCXX_MISMATCH,
            "A log that ends right after torch announced the build (the first line of a real build log; a "
            "run that hangs on a stale lock prints nothing after it):",
            "Using /root/.cache/torch_extensions/py310_cu121 as PyTorch extensions root...\n"),
    ),
        reads="environment"),
    ("check", "verify", "explain"))


PREBUILT_OP_MISMATCH = FindingSpec(
    N.PREBUILT_OP_MISMATCH,
    E,
    "Prebuilt DeepSpeed ops were built for another torch/CUDA",
    Docs(
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
        reads="environment"),
    ("check", "verify", "explain"))


def build(ctx: Context, pred: OpPrediction) -> Iterable[Result]:
    """Prebuilt ops, then (when the op is JIT-built) ninja, the compiler, Python.h, CUDA libraries and stale locks."""
    if ctx.ds is None:
        return
    yield from _prebuilt(ctx, pred)
    if pred.path == "prebuilt":
        return
    yield from _ninja(ctx, pred)
    yield from _compiler(ctx, pred)
    yield from _python_headers(ctx, pred)
    # CUDA libraries (CUDA builder with a visible GPU links -lcurand -L$CUDA_HOME/lib64)
    if K.cpu_adam_builder(ctx.ds, ctx.accelerator.name or "") == "cuda-torchcpu" and ctx.cuda_home:
        yield from _curand(ctx, pred)
    yield from _locks(ctx, pred)


def _prebuilt(ctx: Context, pred: OpPrediction) -> Iterable[Result]:
    f = ctx.facts
    inst = f.packages.deepspeed
    if inst and any(inst.installed_ops.values()):
        bad = prebuilt_mismatch(ctx)
        built = ", ".join(sorted(k for k, v in inst.installed_ops.items() if v))
        if bad:
            yield PREBUILT_OP_MISMATCH.finding(sev(pred, N.PREBUILT_OP_MISMATCH),
                          "DeepSpeed's prebuilt ops were built for another torch/CUDA and will refuse to load",
                          f"Prebuilt ops: {built} (accelerator {inst.accelerator_name!r}). {bad}",
                          (Evidence(f"torch_info={inst.torch_info}", os.path.join(inst.package_dir, "git_version_info_installed.py")),),
                          (prebuilt_reinstall_fix(ctx.python_exe),),
                          S_BUILD)
        else:
            yield Passed(S_BUILD, f"prebuilt ops match this torch: {built}")


def _ninja(ctx: Context, pred: OpPrediction) -> Iterable[Result]:
    assert ctx.ds is not None
    f, ds = ctx.facts, ctx.ds
    mode = K.ninja_detection(ds)
    nj = f.ninja
    need = "the Python ninja module (import ninja) and a ninja executable on PATH" if mode == "module" else "a ninja executable on PATH"
    if (mode == "module" and not nj.module_dir) or not nj.executable:
        hint, off = "", f.scripts_off_path
        if not nj.executable and off and os.path.exists(os.path.join(off, "ninja")):
            hint = (f" {off}/ninja exists, but {off} is not on PATH: activate the environment "
                    f"(or export PATH={off}:$PATH) before launching training.")
        elif nj.module_dir and not nj.executable:
            hint = " The ninja module is installed but its executable is not on PATH."
        yield NINJA_MISSING.finding(sev(pred, N.NINJA_MISSING),
                      f"ninja not found the way DeepSpeed {ds} looks for it ({need})",
                      f"DeepSpeed {'<= 0.18.2 checks `import ninja`' if mode == 'module' else '>= 0.18.3 runs `ninja --version`'}; "
                      f"a missing ninja fails every JIT op with `{K.MSG_NINJA.format(op='cpu_adam')}`.{hint}",
                      (Evidence(f"module: {nj.module_dir or 'not found'}; executable: {nj.executable or 'not on PATH'}", "PATH / sys.path"),),
                      _ninja_fixes(ctx, mode, hint), S_BUILD)
    else:
        yield Passed(S_BUILD, f"ninja {nj.version or ''}".strip(), nj.executable or "")


def _compiler(ctx: Context, pred: OpPrediction) -> Iterable[Result]:
    """The host C++ compiler, its OpenMP runtime, and the newest gcc nvcc accepts."""
    f = ctx.facts
    c = f.compiler
    if c.path is None:
        yield HOST_COMPILER_UNSUPPORTED.finding(sev(pred, N.HOST_COMPILER_UNSUPPORTED),
                      f"No C++ compiler: {c.name!r} is not on PATH", None,
                      (Evidence(f"{c.name}: not found", "PATH"),),
                      (compiler_fix(),), S_BUILD)
    elif c.kind is not None and c.openmp is None:
        yield HOST_COMPILER_UNSUPPORTED.finding(sev(pred, N.HOST_COMPILER_UNSUPPORTED),
                      f"{c.name} has no OpenMP runtime: cpu_adam is built with -fopenmp",
                      evidence=(Evidence(f"{c.path} -print-file-name=lib{'omp' if c.kind == 'clang' else 'gomp'}.so found nothing", c.path),),
                      fixes=(openmp_fix(),), section=S_BUILD)
    else:
        ver = ".".join(map(str, c.version)) if c.version else "?"
        limit = CK.nvcc_max_gcc(ctx.nvcc_release) if ctx.nvcc_release else None
        if N.HOST_COMPILER_UNSUPPORTED in pred.blockers and limit is not None:
            yield HOST_COMPILER_UNSUPPORTED.finding(Severity.ERROR,
                          f"nvcc {mm(ctx.nvcc_release)} rejects host gcc {ver} (newest supported: {limit})", pred.message,
                          (Evidence(f"{c.path} {ver}", c.path or ""),),
                          gcc_limit_fixes(limit), S_BUILD)
        else:
            yield Passed(S_BUILD, f"C++ compiler {c.kind or ''} {ver} with OpenMP", c.path or "")


def _python_headers(ctx: Context, pred: OpPrediction) -> Iterable[Result]:
    f = ctx.facts
    if f.python_h is None and f.interpreter is not None:
        v = f.interpreter.version
        yield PYTHON_HEADERS_MISSING.finding(sev(pred, N.PYTHON_HEADERS_MISSING),
                      f"Python.h is missing for Python {v[0]}.{v[1]}: no op can be compiled",
                      evidence=(Evidence(f"{f.interpreter.include}/Python.h not found", f.interpreter.include),),
                      fixes=(python_headers_fix((v[0], v[1])),), section=S_BUILD)
    elif f.python_h:
        yield Passed(S_BUILD, "Python.h present", f.python_h)


def _locks(ctx: Context, pred: OpPrediction) -> Iterable[Result]:
    # stale locks: only torch <= 2.13 waits on a leftover lock file (FileBaton); 2.14's OS file lock is released
    # by the kernel when its holder dies, so a leftover file there is nothing to report
    if not CK.extension_lock_blocks(ctx.torch_version):
        return
    for lock in ctx.own_locks:
        op = os.path.basename(os.path.dirname(lock.path))
        if lock.busy:
            yield Passed(S_BUILD, f"{op}: a build is running now", lock.path)
            continue
        is_cause = N.TORCH_EXTENSIONS_LOCK_STALE in pred.blockers and stale_lock(ctx, pred.op) == lock.path
        yield TORCH_EXTENSIONS_LOCK_STALE.finding(Severity.ERROR if is_cause else Severity.WARNING,
                      f"Stale build lock for {op}: the next build of {op} will hang silently",
                      f"torch waits on {lock.path} forever (no message) and no running process is building there. "
                      f"Left by a killed build {lock.age_s / 60:.0f} min ago.",
                      (Evidence(f"lock file, {lock.age_s:.0f}s old, no process building", lock.path),),
                      (stale_lock_fix(lock.path),), S_BUILD)


CUDA_LIBS_MISSING = FindingSpec(
    N.CUDA_LIBS_MISSING,
    E,
    "libcurand / libcudart missing where the CUDA cpu_adam build links",
    Docs(
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
        log(N.CUDA_LIBS_MISSING, "In a log:",
            "FAILED: [code=127] cpu_adam.o \n"
            "/usr/bin/ld: cannot find -lcurand: No such file or directory\n"
            "collect2: error: ld returned 1 exit status\n"
            "ninja: build stopped: subcommand failed.\n"),
    ),
        reads="environment"),
    ("check", "verify", "explain"))


def _curand(ctx: Context, pred: OpPrediction) -> Iterable[Result]:
    """``cuda-libs-missing``: TorchCPUOpBuilder links ``-lcurand -L$CUDA_HOME/lib64`` (or ``lib``) whenever torch
    sees a GPU. Without one here the build is CPU-only, but the same environment fails on a GPU machine."""
    assert ctx.cuda_home is not None
    linkable, versioned = ctx.facts.cuda_libs.get("curand", (None, None))
    if linkable is not None:
        return
    dirs = list(CK.cuda_lib_dirs(ctx.cuda_home))
    searched = dirs + [d for d in (ctx.env("LIBRARY_PATH") or "").split(os.pathsep) if d] + list(CK.SYSTEM_LIB_DIRS)
    if N.CUDA_LIBS_MISSING in pred.blockers:
        sev, title = Severity.ERROR, "cpu_adam will fail to link: no libcurand.so (`cannot find -lcurand`)"
    elif ctx.gpu_visible:
        sev, title = Severity.WARNING, "libcurand.so not found where cpu_adam's CUDA build links"
    else:
        sev, title = Severity.WARNING, ("no libcurand.so: cpu_adam builds CPU-only here (no visible GPU), but fails to "
                                        "link (`cannot find -lcurand`) wherever a GPU is visible")
    extra = f" Only {versioned} exists (a runtime library: ld needs the linker name libcurand.so)." if versioned else ""
    yield CUDA_LIBS_MISSING.finding(sev, title,
                  f"DeepSpeed {ctx.ds} links cpu_adam with -lcurand -L<CUDA_HOME>/lib64 (or lib) when a GPU is visible."
                  f"{extra}",
                  (Evidence("no libcurand.so in " + ", ".join(dirs) + ", LIBRARY_PATH or the system lib dirs", ctx.cuda_home),),
                  (curand_fix(ctx.torch_cuda, cuda_home=ctx.cuda_home, versioned=versioned, searched=searched, site=ctx.site,
                              python=ctx.python_exe),), S_BUILD)


def _ninja_fixes(ctx: Context, mode: str, hint: str) -> Tuple[Fix, ...]:
    off = ctx.facts.scripts_off_path
    return ninja_fixes(ctx.python_exe, mode == "module", off if off and "is not on PATH: activate" in hint else None)
