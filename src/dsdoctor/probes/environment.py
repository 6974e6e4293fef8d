"""Collect every environment fact for ``check`` in parallel. Decides nothing."""

from __future__ import annotations

import glob
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Dict, List, Mapping, Optional, Tuple

from ..knowledge import cuda as CK
from . import interpreter as interp_mod
from .interpreter import Interpreter
from .packages import Packages, scan
from .run import ProbeFailure, ToolResult
from .system import Extensions, Gpus, Libaio, Limits, probe_extensions, probe_gpus, probe_libaio, probe_limits
from .toolchain import (
    Compiler,
    CudaHome,
    Ninja,
    Nvcc,
    find_libs,
    linker_dirs,
    nvcc_failure,
    probe_compiler,
    probe_ninja,
    resolve_cuda_home,
    run_nvcc,
    toolkit_candidates,
)

if TYPE_CHECKING:
    from .cache import ProbeCache


@dataclass
class EnvFacts:
    """Everything the environment checks decide from."""

    env: Dict[str, str]
    interpreter: Optional[Interpreter]
    packages: Packages
    path_env: str
    scripts_off_path: Optional[str]  # the checked env's bin dir when it is not on PATH (env not activated)
    cuda_home: CudaHome
    nvcc: Optional[Nvcc]
    other_toolkits: List[Nvcc]
    ninja: Ninja
    compiler: Compiler
    python_h: Optional[str]
    cuda_libs: Dict[str, Tuple[Optional[str], Optional[str]]]
    gpus: Gpus
    limits: Limits
    libaio: Libaio
    extensions: Extensions
    failures: List[ProbeFailure] = field(default_factory=list)


def unlisted_scripts_dir(env: Mapping[str, str], interp: Optional[Interpreter]) -> Optional[str]:
    """The env's ``bin`` when it is not on PATH: ``venv/bin/python train.py`` without activating the env
    runs with that PATH, so tools installed there (pip's ninja) are not found by torch or DeepSpeed."""
    if interp is None or not interp.scripts:
        return None
    parts = env.get("PATH", os.defpath).split(os.pathsep)
    return None if interp.scripts in parts else interp.scripts


def collect(
    python: Optional[str] = None,
    env: Optional[Mapping[str, str]] = None,
    interp_known: Optional[Interpreter] = None,
    cache: "Optional[ProbeCache]" = None,
) -> EnvFacts:
    """``cache`` (``dsdoctor.preflight``): reuse stored results of the subprocess probes (see ``probes.cache``)."""
    environ = dict(os.environ if env is None else env)
    failures: List[ProbeFailure] = []
    got = interp_known or interp_mod.resolve(python, environ)
    interp: Optional[Interpreter] = None
    if isinstance(got, ProbeFailure):
        failures.append(got)
    else:
        interp = got
    dirs = interp_mod.site_dirs(interp) if interp else []
    path_env = environ.get("PATH", os.defpath)  # as the training process will see it
    tool_env = dict(environ, PATH=path_env)
    cuda_home = resolve_cuda_home(tool_env)

    with ThreadPoolExecutor(max_workers=8) as pool:
        f_pkgs = pool.submit(scan, dirs)
        f_nvcc = pool.submit(run_nvcc, os.path.join(cuda_home.path, "bin", "nvcc"), cache) if cuda_home.path else None
        f_cands = pool.submit(toolkit_candidates, tool_env, dirs)
        f_comp = pool.submit(probe_compiler, tool_env, cache)
        f_gpus = pool.submit(probe_gpus, tool_env, path_env, cache)
        f_aio = pool.submit(probe_libaio, tool_env)
        f_ext = pool.submit(probe_extensions, tool_env)
        limits = probe_limits()
        pkgs = f_pkgs.result()
        f_ninja = pool.submit(probe_ninja, path_env, pkgs.module_dirs.get("ninja"), cache)
        cands = f_cands.result()
        current_real = os.path.realpath(cuda_home.path) if cuda_home.path else None
        f_others = [
            pool.submit(run_nvcc, os.path.join(h, "bin", "nvcc"), cache)
            for h in cands
            if os.path.realpath(h) != current_real
        ]
        nvcc = f_nvcc.result() if f_nvcc else None
        others = [f.result() for f in f_others]
        compiler, gpus, libaio, ext, ninja = (
            f_comp.result(), f_gpus.result(), f_aio.result(), f_ext.result(), f_ninja.result()
        )

    failures.extend(pkgs.failures)
    failures.extend(_tool_failures(nvcc, compiler.result, ninja.result))
    return EnvFacts(
        env=environ,
        interpreter=interp,
        packages=pkgs,
        path_env=path_env,
        scripts_off_path=unlisted_scripts_dir(environ, interp),
        cuda_home=cuda_home,
        nvcc=nvcc,
        other_toolkits=[o for o in others if o.release is not None],
        ninja=ninja,
        compiler=compiler,
        python_h=_python_h(interp),
        cuda_libs=_cuda_libs(cuda_home.path, tool_env, dirs),
        gpus=gpus,
        limits=limits,
        libaio=libaio,
        extensions=ext,
        failures=failures,
    )


def _tool_failures(nvcc: Optional[Nvcc], *results: Optional[ToolResult]) -> List[ProbeFailure]:
    """The nvcc probe's failure, and the compiler's and ninja's (``c++ --version``, ``ninja --version``) other
    than not being found (reported as findings of their own)."""
    failures: List[ProbeFailure] = []
    if nvcc is not None:
        fail = nvcc_failure(nvcc)
        if fail:
            failures.append(fail)
    for tool, res in zip(("c++ --version", "ninja --version"), results):
        if res is not None and not res.ok and res.error != "not found":
            failures.append(ProbeFailure(tool, res.describe_failure(), " ".join(res.argv[:1])))
    return failures


def _python_h(interp: Optional[Interpreter]) -> Optional[str]:
    """The interpreter's ``Python.h`` when it exists."""
    if interp and interp.include:
        cand = os.path.join(interp.include, "Python.h")
        return cand if os.path.exists(cand) else None
    return None


def _cuda_libs(cuda_home: Optional[str], tool_env: Mapping[str, str], dirs: List[str]) -> Dict[str, Tuple[Optional[str], Optional[str]]]:
    """The CUDA libraries cpu_adam's GPU build links, on the link path (linkable, versioned)."""
    cuda_libs = find_libs(CK.CPU_ADAM_CUDA_LIBS_GPU, linker_dirs(cuda_home, tool_env))
    # Not on the link path: PyPI's CUDA runtime wheels in the env (torch cu13 pulls nvidia-curand: only the
    # versioned libcurand.so.10 in <site>/nvidia/cu13/lib), a copy a fix can give the linker name to.
    wheel_dirs = [d for s in dirs for d in sorted(glob.glob(os.path.join(s, "nvidia", "cu*", "lib")))]
    for name, (_linkable, versioned) in find_libs(tuple(cuda_libs), wheel_dirs).items():
        if cuda_libs[name][1] is None and versioned is not None:
            cuda_libs[name] = (cuda_libs[name][0], versioned)
    return cuda_libs
