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
    idx = tokens.index("release")  # (not versions.major_minor: this module ships to other nodes, stdlib only)
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


# Libraries the CUDA cpu_adam build links (``-lcurand`` always; ``-lcudart -lcublas`` with a GPU): the probe looks for each.
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
# (``explain`` matches them through its cause specs, explain/causes/). Read in torch 2.13/2.14 sources and
# binaries, gcc 12 / nvcc 13 output; the producing fixture is named where one exists
# (tests/cases/explain/<name>.log).
# ---------------------------------------------------------------------------------------------------

MSG_ERROR_BUILDING = "Error building extension '{op}'"  # torch _run_ninja_build; compiler output follows
MSG_ERROR_COMPILING = "Error compiling objects for extension"  # torch BuildExtension (setup.py / pip pre-builds)
# pip (26.3 _internal/exceptions/build.py; older pips the same words): a package's build step failed
MSG_PIP_STEP_FAILED = "did not run successfully."  # "× Getting requirements to build wheel did not run successfully."
MSG_PIP_WHEEL_FAILED = "Failed building wheel for {name}"  # pip < 24 (wheel_builder.py); 24+: "Failed to build {name}"
MSG_NINJA_STOPPED = "ninja: build stopped: subcommand failed."
MSG_COMPILER_INCOMPATIBLE = "is not compatible with the compiler Pytorch was"  # torch's warning for an odd $CXX
MSG_PYTHON_H = "Python.h: No such file or directory"
CUDA_HEADERS = ("cuda_runtime.h", "cuda_runtime_api.h", "cuda.h", "cuda_fp16.h", "cuda_bf16.h", "curand.h",
                "curand_kernel.h", "cublas_v2.h", "cusparse.h", "cusolverDn.h",
                "cuda_profiler_api.h")  # DeepSpeed's csrc/includes/gemm_test.h (cpu_adam's CUDA part <= 0.14.2)
MSG_OMP_H = "omp.h: No such file or directory"
MSG_GCC_UNSUPPORTED = "unsupported GNU version! gcc versions later than {n} are not supported!"  # crt/host_config.h
MSG_NVCC_ARCH = "Unsupported gpu architecture 'compute_{arch}'"  # nvcc fatal (real nvcc 13.0: compute_60)
MSG_COMPILER_KILLED = "Killed signal terminated program cc1plus"  # gcc when the OOM killer hits cc1plus
MSG_ICE_KILLED = "internal compiler error: Killed (program cc1plus)"
MSG_GLIBCXX = "version `GLIBCXX_{ver}' not found"  # importing a fresh .so against an older libstdc++
MSG_WINDOWS_POSIX_ONLY = "is only supported on POSIX platforms, not Windows."  # DeepSpeed op builders (pin_memory, ...)
MSG_MSVC_REQUIRED = "Microsoft Visual C++ 14.0 or greater is required"  # setuptools on Windows
MSG_MSVC_LINK = "LINK : fatal error LNK"  # MSVC linker (e.g. aio.lib / curand.lib not found)
# torch _check_cuda_version: the message goes on with "PyTorch (<torch's CUDA>)" on the next line (torch <= 2.13:
# a newline in the template) or glued on ("compilePyTorch", 2.14): the prefix is what every version prints on one line
MSG_CUDA_TORCH_CHECK = "The detected CUDA version ({sys}) mismatches the version that was used to compile"

# torch runtime: distributed rendezvous, DataLoader, allocator, serialization, torchrun
MSG_SOCKET_LISTEN = "The server socket has failed to listen on any local network address."  # c10d TCPStore
MSG_EADDRINUSE = "Address already in use"  # "errno: 98 - Address already in use"
# c10d TCPStore barrier (libtorch_cpu.so, torch 2.x: "Timed out after {} seconds waiting for clients. {}/{} clients joined.")
MSG_STORE_WAIT_CLIENTS = "Timed out after {secs} seconds waiting for clients. {joined}/{world} clients joined."
# torch/distributed/distributed_c10d.py _store_based_barrier (torch 1.x-2.14)
MSG_STORE_BARRIER = "Timed out initializing process group in store based barrier"
MSG_SHM = "insufficient shared memory (shm)"
# NCCL include/shm.h / transport/shm.cc (2.7-2.2x), NCCL_DEBUG=WARN: creating its /dev/shm segment failed (ENOSPC)
MSG_NCCL_SHM_SEGMENT = "Error while creating shared memory segment {path} (size {n})"
MSG_CUDA_OOM = "CUDA out of memory. Tried to allocate"  # torch.OutOfMemoryError / torch.cuda.OutOfMemoryError
# cudaErrorMemoryAllocation ("out of memory", libcudart.so.13 strings) through C10_CUDA_CHECK: RuntimeError (torch
# 1.8-2.7), torch.AcceleratorError (a RuntimeError, 2.8+; c10::AcceleratorError in libc10_cuda.so 2.14.1); not the
# caching allocator's "CUDA out of memory. Tried to allocate" (a device allocation): cudaHostAlloc, a context, a library
MSG_CUDA_ERROR_OOM = "CUDA error: out of memory"
MSG_THC_OOM = "cuda runtime error (2) : out of memory"  # THCudaCheck, torch < 1.8 (THCCachingHostAllocator.cpp) [unverified]
MSG_ENOSPC = "No space left on device"
MSG_STREAM_WRITER = "PytorchStreamWriter failed writing file"
MSG_ZIP_WRITE = "[enforce fail at inline_container.cc:{n}] . unexpected pos"  # torch 2.14 torch.save on a full disk (disk-full-save)
MSG_CHILD_FAILED = "torch.distributed.elastic.multiprocessing.errors.ChildFailedError"


# ---------------------------------------------------------------------------------------------------
# Build / load messages of the toolchain (explain/causes/build.py, op_build.py). nvcc texts read in the nvcc 13.0 binary
# (.cache/oracle nvcc, its printf templates); gcc / ld / ld.so texts from gcc 12 / binutils 2.40 / glibc 2.36 runs here;
# torch header texts from the installed torch 2.13.0 / 2.14.1 (torch/include), older torch where marked [unverified].
# ---------------------------------------------------------------------------------------------------

MSG_NVCC_HOST_STD = "flag is not supported with the configured host compiler. Flag will be ignored."  # nvcc: host gcc too old
MSG_NVCC_VALUE_UNDEFINED = "Value '{value}' is not defined for option 'std'"  # nvcc < 11 has no -std=c++17
# the first CUDA whose nvcc accepts each -std (NVIDIA's CUDA release notes [unverified])
NVCC_STD_SINCE = {"c++14": (9, 0), "c++17": (11, 0), "c++20": (12, 0)}
MSG_CXX11_REQUIRED = "This file requires compiler and library support for the ISO C++ 2011 standard"  # libstdc++ <= 5 c++0x_warning.h
MSG_TORCH_GCC9 = "trying to build PyTorch with a too old version of GCC"  # c10/util/C++17.h, torch 2.1-2.12 [unverified]
# torch ATen/ATen.h #error: "C++14" in torch 1.x (read in the torch 1.8.1 wheel), "C++17" in 2.13.0, "C++20" in 2.14.1.
# DeepSpeed passes -std=c++14 or later to every op build (0.3-0.19.8), so the C++14 form means the compiler (or nvcc's
# host compiler, which drops a -std it does not support) is older than C++14 (gcc < 5); the later forms can also be a
# DeepSpeed builder older than the torch (-std=c++14 before 0.10, -std=c++17 with torch 2.14)
MSG_ATEN_CXX14 = "C++14 or later compatible compiler is required to use ATen."
MSG_TORCH_CXX20 = "C++20 or later compatible compiler is required to use PyTorch."  # torch/csrc/api/include/torch/all.h (2.14.1)
MSG_TORCH_NO_CUDA_HOME = "CUDA_HOME environment variable is not set."  # cpp_extension _join_cuda_home (torch 1.x-2.14)
MSG_LIBAIO_HEADER = "libaio.h: No such file or directory"  # gcc on DeepSpeed's csrc/aio (async_io / gds)
MSG_LIBC_HEADER = "features.h: No such file or directory"  # glibc's headers missing (no libc6-dev / broken sysroot)
MSG_NVHPC_CXX = "nvc++"  # NVIDIA HPC SDK's C++ compiler as $CXX in ninja's compile line: torch's headers reject it
MSG_PSABI_AVX512 = "AVX512F vector return without AVX512F enabled changes the ABI"  # gcc -Wpsabi (gcc 12 here)
MSG_TARGET_MISMATCH = "target specific option mismatch"  # gcc: always_inline _mm512_* intrinsic on a non-AVX-512 target
MSG_GCC_EMPTY_ARG = "error: : No such file or directory"  # gcc driver given an empty argument ('' on the command line)
MSG_MULTIPLE_DEFINITION = "multiple definition of `"  # GNU ld: the same object/symbol linked twice
MSG_WHICH_CXX = "Command '['which', '{cxx}']' returned non-zero exit status"  # torch 1.x cpp_extension compiler check [unverified]
# GPU architectures: the first CUDA whose nvcc knows each (NVIDIA's CUDA release notes [unverified]); what nvcc
# 13.0 knows (`nvcc --list-gpu-arch` of the real 13.0 binary: everything below compute_75 was dropped).
NVCC_ARCH_SINCE = {"80": (11, 0), "86": (11, 1), "87": (11, 4), "89": (11, 8), "90": (11, 8), "100": (12, 8), "120": (12, 8)}
NVCC_13_ARCHS = ("75", "80", "86", "87", "88", "89", "90", "100", "103", "110", "120", "121")

# torch / CUDA / NCCL at run time (torch 2.14 binaries libtorch_cuda.so, libc10_cuda.so; libcudart.so.13 error strings;
# NCCL sources v2.7.8-v2.30 from github.com/NVIDIA/nccl)
MSG_NCCL_WATCHDOG = "Watchdog caught collective operation timeout: "  # ProcessGroupNCCL.cpp (torch 1.10-2.14)
# ProcessGroupNCCL.cpp's error log when a collective failed or timed out, then its reason for ending the process, and
# its heartbeat monitor's report of a watchdog blocked in an NCCL / CUDA call (each read in torch 2.14.1+cu130's
# libtorch_cuda.so strings; the first two are LOG(ERROR) lines, "[E ProcessGroupNCCL.cpp:...]")
MSG_NCCL_OPS_FAILED = "Some NCCL operations have failed or timed out"
MSG_NCCL_TAKE_DOWN = "To avoid data inconsistency, we are taking the entire process down"
MSG_NCCL_WATCHDOG_STUCK = "ProcessGroupNCCL's watchdog got stuck for "
# NCCL transport/net_socket.cc ncclNetSocketInit (2.x): the same interface search for the socket transport
MSG_NCCL_NO_NET_IF = "NET/Socket : no interface found"
MSG_NCCL_NO_SOCKET = "Bootstrap : no socket interface found"  # NCCL src/bootstrap.cc (2.x): NCCL_SOCKET_IFNAME matches nothing
MSG_PEER_ACCESS = "peer access is not supported between these"  # CUDA error 217 (cudaErrorPeerAccessUnsupported), NCCL p2p.cc / "Cuda failure 217"
MSG_UNDEFINED_NCCL = "undefined symbol: nccl"  # ld.so loading libtorch_cuda.so against an older libnccl (e.g. ncclCommRegister, NCCL 2.19+)
NCCL_P2P_DISABLE = "NCCL_P2P_DISABLE"
NCCL_SOCKET_IFNAME = "NCCL_SOCKET_IFNAME"
# c10/cuda/CUDAFunctions.cpp; torch < 1.5 cuda/__init__.py _check_driver
MSG_DRIVER_TOO_OLD = "The NVIDIA driver on your system is too old (found version {ver})"
# CUDA error 35 (cudaErrorInsufficientDriver): the CUDA runtime torch ships needs a newer driver
MSG_DRIVER_INSUFFICIENT = "CUDA driver version is insufficient for CUDA runtime version"
MSG_NO_KERNEL_IMAGE = "no kernel image is available for execution on the device"  # CUDA error 209 (cudaErrorNoKernelImageForDevice)
# torch/cuda/__init__.py _check_capability
MSG_ARCH_NOT_COMPATIBLE = "with CUDA capability sm_{cap} is not compatible with the current PyTorch installation."
MSG_INVALID_ORDINAL = "CUDA error: invalid device ordinal"  # CUDA error 101, torch.cuda.set_device(n) with n >= visible GPUs
MSG_CUBLAS_NOT_SUPPORTED = "CUBLAS_STATUS_NOT_SUPPORTED"  # cuBLAS refusing a GEMM; with CUDA_R_16BF: bf16 on a GPU before sm_80
# torch/utils/checkpoint.py (2.1-2.14)
MSG_CHECKPOINT_META = "Recomputed values for the following tensors have different metadata than during the forward pass."
MSG_RECOMPUTED_SIZE0 = "recomputed metadata: {'shape': torch.Size([0])"  # the same error's per-tensor line: a ZeRO-3 partition
MSG_UNRECOGNIZED_LOCAL_RANK = "error: unrecognized arguments: --local"  # argparse, on the --local_rank / --local-rank a launcher appends
