"""The build toolchain a JIT op build uses: CUDA_HOME and its nvcc, other toolkits on disk, ninja,
the C++ compiler with OpenMP, Python.h, CUDA libraries."""

from __future__ import annotations

import glob
import os
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from ..knowledge import cuda as CK
from .run import ProbeFailure, ToolResult, run_tool, which

if TYPE_CHECKING:
    from .cache import ProbeCache

NVCC_TIMEOUT = 5.0
TOOL_TIMEOUT = 5.0


@dataclass(frozen=True)
class CudaHome:
    path: Optional[str]
    source: str  # "CUDA_HOME", "CUDA_PATH", "nvcc on PATH (<path>)", "/usr/local/cuda", "none"


def resolve_cuda_home(env: Mapping[str, str], default: str = CK.CUDA_HOME_DEFAULT) -> CudaHome:
    """Exactly torch's ``_find_cuda_home()`` order (for a CUDA build of torch)."""
    for var in CK.CUDA_HOME_ENV_ORDER:
        val = env.get(var)
        if val:  # torch uses `os.environ.get(a) or os.environ.get(b)`: empty counts as unset
            return CudaHome(val, var)
    nvcc = which("nvcc", env.get("PATH"))
    if nvcc:
        return CudaHome(os.path.dirname(os.path.dirname(nvcc)), f"nvcc on PATH ({nvcc})")
    if os.path.exists(default):
        return CudaHome(default, default)
    return CudaHome(None, "none")


@dataclass(frozen=True)
class Nvcc:
    path: str
    release: Optional[Tuple[int, int]]  # as DeepSpeed parses it
    full: Optional[str]
    result: ToolResult

    @property
    def exists(self) -> bool:
        return self.result.error != "not found"


def _run(argv: Sequence[str], timeout: float, cache: "Optional[ProbeCache]", depends: Sequence[Any] = (),
         keep: Optional[Callable[[ToolResult], bool]] = None, valid: Optional[Callable[[ToolResult], bool]] = None) -> ToolResult:
    """``run_tool``, or its cached result when a probe cache is given (``dsdoctor.preflight``)."""
    if cache is None:
        return run_tool(argv, timeout=timeout)
    return cache.tool(argv, timeout, depends, keep or (lambda r: r.ok), valid or (lambda r: True))


def run_nvcc(path: str, cache: "Optional[ProbeCache]" = None) -> Nvcc:
    res = _run([path, "-V"], NVCC_TIMEOUT, cache, keep=lambda r: r.ok and CK.parse_nvcc_release(r.output) is not None)
    out = res.output
    return Nvcc(path, CK.parse_nvcc_release(out) if res.ok else None, CK.parse_nvcc_full(out), res)


def nvcc_failure(n: Nvcc) -> Optional[ProbeFailure]:
    """A nvcc that exists but hangs, crashes or prints no parseable release is a probe failure."""
    if not n.exists:
        return None
    if not n.result.ok:
        return ProbeFailure("nvcc -V", n.result.describe_failure(), n.path)
    if n.release is None:
        shown = n.result.output.strip().replace("\n", " ")[:120]
        return ProbeFailure("nvcc -V", f"no 'release X.Y' in its output: {shown!r}", n.path)
    return None


def toolkit_candidates(env: Mapping[str, str], site_dirs: Sequence[str]) -> List[str]:
    """Other CUDA homes on disk: /usr/local/cuda-*, $CONDA_PREFIX, pip ``nvidia-cuda-nvcc`` packages."""
    homes: List[str] = []
    for pattern in CK.TOOLKIT_GLOBS:
        homes.extend(sorted(glob.glob(pattern)))
    conda = env.get("CONDA_PREFIX")
    if conda:
        homes.append(conda)
    for d in site_dirs:
        homes.extend(sorted(glob.glob(os.path.join(d, "nvidia", "cu*"))))  # CUDA 13 wheels
        homes.append(os.path.join(d, "nvidia", "cuda_nvcc"))  # CUDA 12 wheels
    seen: List[str] = []
    for h in homes:
        if os.path.isfile(os.path.join(h, "bin", "nvcc")):
            real = os.path.realpath(h)
            if all(os.path.realpath(s) != real for s in seen):
                seen.append(h)
    return seen


@dataclass(frozen=True)
class Ninja:
    module_dir: Optional[str]  # the Python ``ninja`` package (DeepSpeed <= 0.18.2 imports it)
    executable: Optional[str]  # ``ninja`` on PATH (torch's verify_ninja_availability, DS >= 0.18.3)
    version: Optional[str]
    result: Optional[ToolResult]


def probe_ninja(path_env: Optional[str], module_dir: Optional[str], cache: "Optional[ProbeCache]" = None) -> Ninja:
    exe = which("ninja", path_env)
    if not exe:
        return Ninja(module_dir, None, None, None)
    res = _run([exe, "--version"], TOOL_TIMEOUT, cache)
    ver = res.stdout.strip().splitlines()[0] if res.ok and res.stdout.strip() else None
    return Ninja(module_dir, exe if res.ok else None, ver, res)


@dataclass(frozen=True)
class Compiler:
    name: str  # what torch uses: $CXX or "c++"
    path: Optional[str]
    kind: Optional[str]  # "gcc" | "clang" | None
    version: Optional[Tuple[int, ...]]
    openmp: Optional[str]  # path of libgomp/libomp the compiler finds, None when not found
    result: Optional[ToolResult]


_GCC_VER = re.compile(r"\b(\d+)\.(\d+)(?:\.(\d+))?\b")


# Environment variables that change where gcc looks for its runtime libraries (-print-file-name).
GCC_SEARCH_VARS = ("GCC_EXEC_PREFIX", "COMPILER_PATH", "LIBRARY_PATH")


def _found_lib(r: ToolResult) -> bool:
    out = r.stdout.strip()
    return r.ok and os.path.isabs(out) and os.path.exists(out)


def probe_compiler(env: Mapping[str, str], cache: "Optional[ProbeCache]" = None) -> Compiler:
    name = env.get("CXX") or "c++"
    path = which(name, env.get("PATH"))
    if path is None:
        return Compiler(name, None, None, None, None, None)
    res = _run([path, "--version"], TOOL_TIMEOUT, cache)
    if not res.ok:
        return Compiler(name, path, None, None, None, res)
    first = res.stdout.splitlines()[0] if res.stdout else ""
    kind = "clang" if "clang" in res.stdout.lower() else ("gcc" if res.stdout else None)
    m = _GCC_VER.search(first.split(")")[-1]) or _GCC_VER.search(first)
    version = tuple(int(g) for g in m.groups() if g is not None) if m else None
    lib = "libomp.so" if kind == "clang" else "libgomp.so"
    # the tool runs with this process's environment (run_tool's default): that is what the key depends on
    depends = [os.environ.get(k) for k in GCC_SEARCH_VARS]
    omp = _run([path, f"-print-file-name={lib}"], TOOL_TIMEOUT, cache, depends, keep=_found_lib, valid=_found_lib)
    found = omp.stdout.strip() if omp.ok else ""
    openmp = found if found and os.path.isabs(found) and os.path.exists(found) else None
    return Compiler(name, path, kind, version, openmp, res)


def find_lib(name: str, dirs: Sequence[str]) -> Tuple[Optional[str], Optional[str]]:
    """(linkable ``lib<name>.so`` path, any versioned ``lib<name>.so.*`` path) in ``dirs``."""
    return find_libs((name,), dirs)[name]


def find_libs(names: Sequence[str], dirs: Sequence[str]) -> Dict[str, Tuple[Optional[str], Optional[str]]]:
    """:func:`find_lib` for several names, listing each directory once (system lib dirs hold thousands of
    files: one glob per name and directory was most of a cached preflight's time)."""
    found: Dict[str, List[Optional[str]]] = {n: [None, None] for n in names}
    for d in dirs:
        try:
            entries = os.listdir(d)
        except OSError:
            continue
        for n in names:
            linkable, versioned = found[n]
            if linkable is None and f"lib{n}.so" in entries and os.path.exists(os.path.join(d, f"lib{n}.so")):
                found[n][0] = os.path.join(d, f"lib{n}.so")
            if versioned is None:
                prefix = f"lib{n}.so."
                hits = [e for e in entries if e.startswith(prefix)]
                if hits:
                    found[n][1] = os.path.join(d, min(hits))
    return {n: (v[0], v[1]) for n, v in found.items()}


def linker_dirs(cuda_home: Optional[str], env: Mapping[str, str]) -> List[str]:
    """Where ``-lcurand`` is searched when DeepSpeed links cpu_adam: its ``-L`` dir, LIBRARY_PATH,
    then the system directories."""
    dirs: List[str] = []
    if cuda_home:
        for d in CK.cuda_lib_dirs(cuda_home):
            if os.path.isdir(d):
                dirs.append(d)
                break
    dirs += [d for d in env.get("LIBRARY_PATH", "").split(os.pathsep) if d]
    dirs += list(CK.SYSTEM_LIB_DIRS)
    return dirs
