"""Machine facts: visible NVIDIA GPUs (NVML / nvidia-smi, never torch), memlock, /dev/shm, libaio,
torch-extension build dirs and their lock files."""

from __future__ import annotations

import ctypes
import glob
import os
import resource
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, List, Mapping, Optional, TypeVar

from ..knowledge import cuda as CK
from .run import run_tool, which

if TYPE_CHECKING:
    from .cache import ProbeCache

T = TypeVar("T")

@dataclass(frozen=True)
class Gpus:
    count: int  # physical devices the driver reports
    visible: int  # after CUDA_VISIBLE_DEVICES
    source: str  # "nvml", "nvidia-smi", "no NVIDIA driver"
    names: tuple = ()  # type: ignore[type-arg]


def _visible(count: int, env: Mapping[str, str]) -> int:
    cvd = env.get("CUDA_VISIBLE_DEVICES")
    if cvd is None:
        return count
    ids = []
    for tok in cvd.split(","):
        tok = tok.strip()
        if not tok:
            break
        if tok.startswith("-"):
            break  # torch stops at the first invalid / negative id
        ids.append(tok)
    return min(count, len(ids))


def probe_gpus(env: Mapping[str, str], path_env: Optional[str], cache: "Optional[ProbeCache]" = None) -> Gpus:
    driver = None
    if cache is not None:
        from .cache import driver_id

        driver = driver_id()
    if cache is not None and driver is not None and driver[0]:  # a loaded driver: its identity keys the count
        count = cache.memo("nvml-count", [list(driver)], _nvml_count, lambda n: n, lambda n: int(n))
    else:
        count = _nvml_count()
    if count is not None:
        return Gpus(count, _visible(count, env), "nvml")
    smi = which("nvidia-smi", path_env)
    if smi:
        if cache is not None and driver is not None:
            res = cache.tool([smi, "-L"], 5.0, list(driver))
        else:
            res = run_tool([smi, "-L"], timeout=5.0)
        if res.ok:
            names = tuple(ln for ln in res.stdout.splitlines() if ln.startswith("GPU "))
            return Gpus(len(names), _visible(len(names), env), "nvidia-smi", names)
    return Gpus(0, 0, "no NVIDIA driver")


def _nvml_count() -> Optional[int]:
    return _with_nvml(lambda lib, n: n)


def _with_nvml(read: "Callable[[ctypes.CDLL, int], Optional[T]]") -> "Optional[T]":
    """Load NVML (the driver's library; never torch), init, call ``read(lib, device_count)``, shut down.
    None when there is no driver or a call fails."""
    try:
        lib = ctypes.CDLL("libnvidia-ml.so.1")
    except OSError:
        return None
    try:
        if lib.nvmlInit_v2() != 0:
            return None
        try:
            n = ctypes.c_uint(0)
            if lib.nvmlDeviceGetCount_v2(ctypes.byref(n)) != 0:
                return None
            return read(lib, int(n.value))
        finally:
            lib.nvmlShutdown()
    except AttributeError:
        return None


def probe_gpu_memory(path_env: Optional[str]) -> List[int]:
    """Total memory (bytes) of each NVIDIA GPU the driver reports: NVML, else ``nvidia-smi``; [] without."""
    mem = _nvml_memory()
    if mem is not None:
        return mem
    smi = which("nvidia-smi", path_env)
    if smi:
        res = run_tool([smi, "--query-gpu=memory.total", "--format=csv,noheader,nounits"], timeout=5.0)
        if res.ok:
            try:
                return [int(float(ln.strip())) << 20 for ln in res.stdout.splitlines() if ln.strip()]  # MiB
            except ValueError:
                return []
    return []


class _NvmlMemory(ctypes.Structure):
    _fields_ = [("total", ctypes.c_ulonglong), ("free", ctypes.c_ulonglong), ("used", ctypes.c_ulonglong)]


def _nvml_memory() -> Optional[List[int]]:
    def read(lib: ctypes.CDLL, n: int) -> Optional[List[int]]:
        out: List[int] = []
        for i in range(n):
            handle = ctypes.c_void_p()
            info = _NvmlMemory()
            if lib.nvmlDeviceGetHandleByIndex_v2(i, ctypes.byref(handle)) != 0:
                return None
            if lib.nvmlDeviceGetMemoryInfo(handle, ctypes.byref(info)) != 0:
                return None
            out.append(int(info.total))
        return out

    return _with_nvml(read)


@dataclass(frozen=True)
class Limits:
    memlock_soft: Optional[int]  # bytes; None = unlimited
    shm_bytes: Optional[int]
    cpu_count: int
    mem_total: Optional[int]


def probe_limits() -> Limits:
    soft, _hard = resource.getrlimit(resource.RLIMIT_MEMLOCK)
    memlock = None if soft == resource.RLIM_INFINITY else int(soft)
    try:
        st = os.statvfs("/dev/shm")
        shm: Optional[int] = st.f_frsize * st.f_blocks
    except OSError:
        shm = None
    mem = None
    try:
        with open("/proc/meminfo", "rb") as fh:
            for line in fh:
                if line.startswith(b"MemTotal:"):
                    mem = int(line.split()[1]) * 1024
                    break
    except (OSError, ValueError, IndexError):
        pass
    return Limits(memlock, shm, os.cpu_count() or 1, mem)


@dataclass(frozen=True)
class Libaio:
    library: Optional[str]  # linkable libaio.so (dev symlink), what -laio needs
    runtime: Optional[str]  # libaio.so.1 (runtime only)
    header: Optional[str]


def probe_libaio(env: Mapping[str, str]) -> Libaio:
    from .toolchain import find_lib

    dirs = [d for d in env.get("LIBRARY_PATH", "").split(os.pathsep) if d] + list(CK.SYSTEM_LIB_DIRS)
    conda = env.get("CONDA_PREFIX")
    if conda:
        dirs.insert(0, os.path.join(conda, "lib"))
    lib, rt = find_lib("aio", dirs)
    incs = [os.path.join(d, "libaio.h") for d in ("/usr/include", "/usr/local/include")]
    incs += [os.path.join(d, "libaio.h") for d in env.get("CPATH", "").split(os.pathsep) if d]
    header = next((h for h in incs if os.path.exists(h)), None)
    return Libaio(lib, rt, header)


@dataclass(frozen=True)
class ExtLock:
    path: str
    age_s: float
    busy: bool  # some running process is building in that directory


@dataclass
class Extensions:
    roots: List[str] = field(default_factory=list)
    locks: List[ExtLock] = field(default_factory=list)


def extension_roots(env: Mapping[str, str]) -> List[str]:
    """``$TORCH_EXTENSIONS_DIR`` or every ``<cache>/torch_extensions/py*_*`` (torch's default root)."""
    if env.get("TORCH_EXTENSIONS_DIR"):
        return [env["TORCH_EXTENSIONS_DIR"]]
    cache = env.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return sorted(glob.glob(os.path.join(cache, "torch_extensions", "py*_*")))


def probe_extensions(env: Mapping[str, str]) -> Extensions:
    out = Extensions(roots=extension_roots(env))
    now = time.time()
    lock_paths = [p for r in out.roots for p in glob.glob(os.path.join(r, "*", "lock"))]
    if not lock_paths:
        return out
    cmdlines = _process_cmdlines()
    for p in lock_paths:
        try:
            age = now - os.stat(p).st_mtime
        except OSError:
            continue
        build_dir = os.path.dirname(p)
        busy = any(build_dir in c for c in cmdlines)
        out.locks.append(ExtLock(p, age, busy))
    return out


def _process_cmdlines() -> List[str]:
    """Command lines and working directories of running processes (to tell a live build from a stale lock)."""
    found: List[str] = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                found.append(fh.read().replace(b"\0", b" ").decode("utf-8", "replace"))
            found.append(os.readlink(f"/proc/{pid}/cwd"))
        except OSError:
            continue
    return found
