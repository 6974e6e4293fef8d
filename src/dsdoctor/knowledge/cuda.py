"""Facts about torch's CUDA / C++-extension handling (torch.utils.cpp_extension) and CUDA toolkits. No I/O."""

from __future__ import annotations

import re
from typing import Mapping, Optional, Sequence, Tuple

# torch.utils.cpp_extension._find_cuda_home() (torch 2.x): `CUDA_HOME or CUDA_PATH` (an empty value counts
# as unset; a set value is used even if the directory does not exist), then dirname(dirname(which nvcc))
# without resolving links, then /usr/local/cuda only if it exists. Only for CUDA builds of torch:
# on a CPU/ROCm torch CUDA_HOME is None whatever the environment says.
CUDA_HOME_ENV_ORDER: Tuple[str, ...] = ("CUDA_HOME", "CUDA_PATH")
CUDA_HOME_DEFAULT = "/usr/local/cuda"

# Where other toolkits commonly live (offered as a matching CUDA_HOME when the current one mismatches).
TOOLKIT_GLOBS: Tuple[str, ...] = ("/usr/local/cuda-*", "/opt/cuda*", "/usr/lib/cuda")


def parse_nvcc_release(output: str) -> Optional[Tuple[int, int]]:
    """Parse ``nvcc -V`` the way DeepSpeed does: the token after ``release``, comma stripped, major.minor.

    Returns None where DeepSpeed's own parse would raise (no ``release`` token, non-integer parts).
    """
    tokens = output.split()
    if "release" not in tokens:
        return None
    idx = tokens.index("release")
    if idx + 1 >= len(tokens):
        return None
    parts = tokens[idx + 1].replace(",", "").split(".")
    if len(parts) < 2:
        return None
    try:
        return int(parts[0]), int(parts[1])
    except ValueError:
        return None


_NVCC_FULL = re.compile(r"\bV(\d+\.\d+\.\d+)\b")


def parse_nvcc_full(output: str) -> Optional[str]:
    """``V13.0.88`` -> ``13.0.88`` (for display only)."""
    m = _NVCC_FULL.search(output)
    return m.group(1) if m else None


# Newest host GCC major that nvcc accepts (crt/host_config.h `#if __GNUC__ > N` -> #error).
# 13.0 read from the real toolkit's host_config.h; older rows from NVIDIA's release notes [unverified].
NVCC_MAX_GCC: Tuple[Tuple[Tuple[int, int], Tuple[int, int], int], ...] = (
    ((11, 0), (11, 0), 9),
    ((11, 1), (11, 3), 10),
    ((11, 4), (11, 8), 11),
    ((12, 0), (12, 3), 12),
    ((12, 4), (12, 6), 13),
    ((12, 8), (12, 9), 14),
    ((13, 0), (13, 99), 15),
)


def nvcc_max_gcc(cuda: Tuple[int, int]) -> Optional[int]:
    for lo, hi, gcc in NVCC_MAX_GCC:
        if lo <= cuda <= hi:
            return gcc
    return None


def torch_extensions_subdir(py: Tuple[int, int], torch_cuda: Optional[str], torch_hip: Optional[str],
                            abiflags: str = "") -> str:
    """torch's default JIT build root name: ``py311_cu121`` / ``py311_rocm60`` / ``py311_cpu`` (``py313t_...``
    for a free-threaded Python: ``sys.abiflags``). [cpp_extension._get_build_directory, torch 2.13.0 / 2.14.1]"""
    if torch_cuda:
        tag = "cu" + torch_cuda.replace(".", "")
    elif torch_hip:
        tag = "rocm" + torch_hip.replace(".", "")
    else:
        tag = "cpu"
    return f"py{py[0]}{py[1]}{abiflags}_{tag}"


def torch_install_check_fatal(system: Tuple[int, int], torch_cuda: Tuple[int, int]) -> bool:
    """torch's own ``_check_cuda_version`` (setup.py builds with ``.cu`` sources only, never JIT):
    a major difference raises, a minor one only warns. DS_SKIP_CUDA_CHECK cannot help here."""
    return system[0] != torch_cuda[0]


# Libraries the CUDA cpu_adam build links (``-lcurand`` always; ``-lcudart -lcublas`` with a GPU).
CPU_ADAM_CUDA_LIBS: Tuple[str, ...] = ("curand",)
CPU_ADAM_CUDA_LIBS_GPU: Tuple[str, ...] = ("curand", "cudart", "cublas")

# Default system library directories the linker searches (Debian/Ubuntu multiarch layout included).
SYSTEM_LIB_DIRS: Tuple[str, ...] = (
    "/usr/lib/x86_64-linux-gnu",
    "/usr/lib/aarch64-linux-gnu",
    "/usr/lib64",
    "/usr/lib",
    "/lib/x86_64-linux-gnu",
    "/lib64",
)


def cuda_lib_dirs(cuda_home: str) -> Sequence[str]:
    """Where DeepSpeed's TorchCPUOpBuilder points ``-L``: ``$CUDA_HOME/lib64``, else ``$CUDA_HOME/lib``."""
    return (f"{cuda_home}/lib64", f"{cuda_home}/lib")


def env_truthy(env: Mapping[str, str], name: str) -> bool:
    return env.get(name, "").strip().lower() in ("1", "true", "yes", "on")


# torch.utils.cpp_extension.verify_ninja_availability(), run by every JIT load() before building.
MSG_TORCH_NINJA = "RuntimeError: Ninja is required to load C++ extensions (pip install ninja to get it)"


def extension_lock_blocks(torch_version: Optional[str]) -> bool:
    """Does a leftover ``<build_dir>/lock`` hang the next JIT build?

    torch <= 2.13 guards builds with ``FileBaton``: the lock file's mere existence makes every later
    build wait forever, silently. torch 2.14 switched to an OS advisory ``FileLock`` (released by the
    kernel when the holder dies), so a leftover file no longer blocks. [read in 2.13.0, 2.14.0, 2.14.1]
    """
    from .versions import parse

    ver = parse(torch_version)
    return ver is None or ver < parse(TORCH_FILE_LOCK_SINCE)  # type: ignore[operator]


TORCH_FILE_LOCK_SINCE = "2.14.0"  # cpp_extension: `with FileLock(os.path.join(build_directory, 'lock'))` (2.14.1)
# torch releases whose sources/binaries the facts above were read in (`dsdoctor --version` prints the range)
TORCH_SOURCES_READ: Tuple[str, ...] = ("2.13.0", "2.14.0", "2.14.1")


# ---------------------------------------------------------------------------------------------------
# Messages torch, the compiler toolchain and the OS print when a JIT op build or a training run fails
# (``explain`` matches them through knowledge/signatures.py). Read in torch 2.13/2.14 sources and
# binaries, gcc 12 / nvcc 13 output; the producing fixture is named where one exists
# (tests/cases/explain/<name>.log).
# ---------------------------------------------------------------------------------------------------

MSG_ERROR_BUILDING = "Error building extension '{op}'"  # torch _run_ninja_build; compiler output follows
MSG_NINJA_STOPPED = "ninja: build stopped: subcommand failed."
MSG_SH_NOT_FOUND = "/bin/sh: {n}: {cmd}: not found"  # $CXX / nvcc missing (compiler-missing-ds0.19.8)
MSG_COMPILER_INCOMPATIBLE = "is not compatible with the compiler Pytorch was"  # torch's warning for an odd $CXX
MSG_PYTHON_H = "Python.h: No such file or directory"
CUDA_HEADERS = ("cuda_runtime.h", "cuda_runtime_api.h", "cuda.h", "cuda_fp16.h", "cuda_bf16.h", "curand.h",
                "curand_kernel.h", "cublas_v2.h", "cusparse.h", "cusolverDn.h")
MSG_HEADER_MISSING = "{header}: No such file or directory"
MSG_OMP_H = "omp.h: No such file or directory"
MSG_GCC_UNSUPPORTED = "unsupported GNU version! gcc versions later than {n} are not supported!"  # crt/host_config.h
MSG_NVCC_ARCH = "Unsupported gpu architecture 'compute_{arch}'"  # nvcc fatal (real nvcc 13.0: compute_60)
MSG_CANNOT_FIND_LIB = "cannot find -l{lib}"  # ld
MSG_COMPILER_KILLED = "Killed signal terminated program cc1plus"  # gcc when the OOM killer hits cc1plus
MSG_ICE_KILLED = "internal compiler error: Killed (program cc1plus)"
MSG_GLIBCXX = "version `GLIBCXX_{ver}' not found"  # importing a fresh .so against an older libstdc++
MSG_WINDOWS_POSIX_ONLY = "is only supported on POSIX platforms, not Windows."  # DeepSpeed op builders (pin_memory, ...)
MSG_MSVC_REQUIRED = "Microsoft Visual C++ 14.0 or greater is required"  # setuptools on Windows
MSG_MSVC_LINK = "LINK : fatal error LNK"  # MSVC linker (e.g. aio.lib / curand.lib not found)
MSG_CUDA_TORCH_CHECK = "The detected CUDA version ({sys}) mismatches the version that was used to compile PyTorch ({torch})."

# torch runtime: distributed rendezvous, DataLoader, allocator, serialization, torchrun
MSG_SOCKET_LISTEN = "The server socket has failed to listen on any local network address."  # c10d TCPStore
MSG_EADDRINUSE = "Address already in use"  # "errno: 98 - Address already in use"
MSG_DATALOADER_SIGNAL = "DataLoader worker (pid {pid}) is killed by signal: {signal}"
MSG_SHM = "insufficient shared memory (shm)"
MSG_CUDA_OOM = "CUDA out of memory. Tried to allocate"  # torch.OutOfMemoryError / torch.cuda.OutOfMemoryError
MSG_ENOSPC = "No space left on device"
MSG_STREAM_WRITER = "PytorchStreamWriter failed writing file"
MSG_ZIP_WRITE = "[enforce fail at inline_container.cc:{n}] . unexpected pos"  # torch 2.14 torch.save on a full disk (disk-full-save)
MSG_ELASTIC_SIGNAL = "Signal {n} (SIG{name}) received by PID"  # torch.distributed.elastic (torchrun)
MSG_CHILD_FAILED = "torch.distributed.elastic.multiprocessing.errors.ChildFailedError"
