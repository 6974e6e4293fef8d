"""Materialize a fixture environment from a case file: a site-packages dir with real-format metadata and
``torch/version.py``, a CUDA home (a real nvcc when one can be had, else a stub printing the exact
``nvcc -V`` format, or a faulty nvcc for fault injection), a PATH holding only the tools the case
names, a HOME with no caches. torch/deepspeed are never imported: only their files are laid out."""

from __future__ import annotations

import os
import shutil
import socket
import stat
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Dict, List, Optional

import pytest

REPO = Path(__file__).resolve().parents[1]
ORACLE_DIR = Path(os.environ.get("DSDOCTOR_ORACLE_DIR", REPO / ".cache" / "oracle"))
# cpu_adam, deepspeed_shm_comm and fused_adam of ds/0.19.8 on the oracle venv's torch (CPU accelerator), built once by
# scripts/provision-oracle.sh step 9: the training oracles share it instead of each building its own.
EXT_0198 = ORACLE_DIR / "ext-0.19.8"


def ext_0198_path() -> str:
    """PATH for a process that loads the ops of EXT_0198: the oracle venv's bin first, whose ninja (PyPI's) built
    them (provision-oracle.sh step 9), as ``dsdoctor smoke`` runs a venv. Debian's ninja 1.11 and PyPI's 1.13 hash a
    command line differently, so an op loaded under the other one is built again (minutes, back and forth)."""
    return f"{ORACLE_DIR / 'venv' / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}"


def one_rank_env(pythonpath: str) -> Dict[str, str]:
    """The environment of a one-rank DeepSpeed run on the CPU accelerator (gloo) with the ops of EXT_0198: a free
    local port, ``pythonpath`` (the provisioned DeepSpeed, and the Hugging Face stack where one is needed)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = str(s.getsockname()[1])
    return dict(os.environ, PYTHONPATH=pythonpath, MASTER_ADDR="127.0.0.1", MASTER_PORT=port, RANK="0",
                LOCAL_RANK="0", WORLD_SIZE="1", OMP_NUM_THREADS="1", TORCH_EXTENSIONS_DIR=str(EXT_0198),
                PATH=ext_0198_path(), DS_ACCELERATOR="cpu")


def require_oracle() -> bool:
    """CI sets DSDOCTOR_REQUIRE_ORACLE=1: a missing oracle is then a failure, never a skip."""
    return os.environ.get("DSDOCTOR_REQUIRE_ORACLE") == "1"


def need_oracle(path: Path) -> Path:
    """``path`` of the provisioned oracle; missing: a skip, or a failure where CI requires the oracle."""
    if not path.exists():
        msg = f"{path} missing: run scripts/provision-oracle.sh"
        if require_oracle():
            pytest.fail(msg)
        pytest.skip(msg)
    return path

NVCC_V = """nvcc: NVIDIA (R) Cuda compiler driver
Copyright (c) 2005-2024 NVIDIA Corporation
Built on Tue_Feb_27_16:19:38_PST_2024
Cuda compilation tools, release {mm}, V{full}
Build cuda_{mm}.r{mm}/compiler.33961263_0
"""
FULL = {"11.8": "11.8.89", "12.1": "12.1.105", "12.2": "12.2.140", "12.4": "12.4.131", "12.6": "12.6.85",
        "12.7": "12.7.33", "12.8": "12.8.93", "12.9": "12.9.86", "10.2": "10.2.89"}


class Unavailable(Exception):
    """A real binary the case needs is not on this machine (run scripts/provision-oracle.sh)."""


def real_toolkit(mm: str) -> Path:
    """A directory whose bin/nvcc is a real NVIDIA nvcc of release ``mm``."""
    cands = [ORACLE_DIR / "nvcc" / mm / "nvidia" / "cu13"]
    if mm == "13.0":
        cands.append(Path("/usr/local/cuda-13.0"))
    for c in cands:
        if (c / "bin" / "nvcc").exists():
            return c
    raise Unavailable(f"no real nvcc {mm} (looked in {', '.join(map(str, cands))})")


def _tool(name: str) -> str:
    """Absolute path of a host tool: stub scripts run with the case's PATH, which holds only its bin dir."""
    found = shutil.which(name)
    assert found, f"tests need {name}"
    return found


def _printer(text: str) -> str:
    """A /bin/sh script printing ``text`` with the printf builtin (no external tools on PATH needed)."""
    assert "'" not in text
    return "#!/bin/sh\nprintf '%s\\n' " + " ".join(f"'{ln}'" for ln in text.rstrip("\n").split("\n")) + "\n"


def _exe(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def make_toolkit(spec: str, root: Path, home: Optional[Path] = None) -> Optional[Path]:
    """``real:13.5`` | ``stub:12.1`` | ``empty`` | ``hang`` | ``garbage`` | ``crash`` | ``nonutf8`` | ``none``.

    Laid out at ``home`` (default ``root/cuda``); a real toolkit is linked there when ``home`` is given."""
    kind, _, arg = spec.partition(":")
    at = home
    home = home or root / "cuda"
    if kind == "none":
        return None
    if kind == "real":
        real = real_toolkit(arg)
        if at is None:
            return real
        at.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(real, at)
        return at
    home.mkdir(parents=True)
    nvcc = home / "bin" / "nvcc"
    if kind == "stub":
        _exe(nvcc, _printer(NVCC_V.format(mm=arg, full=FULL.get(arg, arg + ".0"))))
    elif kind == "hang":
        _exe(nvcc, f"#!/bin/sh\nexec {_tool('sleep')} 300\n")
    elif kind == "garbage":
        _exe(nvcc, f"#!/bin/sh\n{_tool('head')} -c 3000 /dev/urandom | {_tool('tr')} -d '\\000'\necho\necho release banana,\n")
    elif kind == "crash":
        _exe(nvcc, "#!/bin/sh\nkill -SEGV $$\n")
    elif kind == "nonutf8":
        _exe(nvcc, "#!/bin/sh\nprintf 'Cuda compilation tools, \\377\\376 r\\351lease 12.1\\n'\n")
    elif kind != "empty":
        raise ValueError(f"unknown toolkit spec {spec!r}")
    return home  # stubs ship no libraries: a missing libcurand is itself a real failure mode


def _dist(site: Path, name: str, version: str) -> None:
    d = site / f"{name.replace('-', '_')}-{version}.dist-info"
    d.mkdir(parents=True)
    (d / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\nSummary: fixture\n\n")


def make_site(spec: Dict[str, Any], site: Path) -> None:
    site.mkdir(parents=True)
    if "torch" in spec:
        ver = spec["torch"]
        _dist(site, "torch", ver)
        pkg = site / "torch"
        pkg.mkdir()
        (pkg / "__init__.py").write_text("raise ImportError('fixture torch must never be imported')\n")
        cuda = spec.get("torch_cuda") or None
        hip = spec.get("torch_hip") or None
        (pkg / "version.py").write_text(
            "from typing import Optional\n\n"
            "__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip', 'xpu']\n"
            f"__version__ = {ver!r}\ndebug = False\ncuda: Optional[str] = {cuda!r}\n"
            f"git_version = 'd7a3a2e2b8b4e5d5c5b5a5f5e5d5c5b5a5f5e5d5'\nhip: Optional[str] = {hip!r}\n"
            "xpu: Optional[str] = None\n"
        )
    if "torch_version_py" in spec:  # fault injection: a damaged version.py
        (site / "torch" / "version.py").write_text(spec["torch_version_py"])
    if "deepspeed" in spec:
        ver = spec["deepspeed"]
        _dist(site, "deepspeed", ver)
        pkg = site / "deepspeed"
        pkg.mkdir()
        (pkg / "__init__.py").write_text("raise ImportError('fixture deepspeed must never be imported')\n")
        ops = spec.get("installed_ops", {})
        tinfo = spec.get("ds_torch_info", {"version": "0.0", "cuda_version": "0.0", "hip_version": "0.0"})
        (pkg / "git_version_info_installed.py").write_text(
            f"version='{ver}'\ngit_hash='unknown'\ngit_branch='unknown'\ninstalled_ops={ops!r}\n"
            f"accelerator_name={spec.get('ds_accelerator_name', 'cuda')!r}\ntorch_info={tinfo!r}\n"
        )
    if spec.get("ninja_module"):
        _dist(site, "ninja", "1.11.1.1")
        (site / "ninja").mkdir()
        (site / "ninja" / "__init__.py").write_text("")
    for name, ver in spec.get("extra", {}).items():
        _dist(site, name, ver)
    if spec.get("unreadable_metadata"):
        meta = next(site.glob("deepspeed-*.dist-info")) / "METADATA"
        meta.unlink()
        meta.mkdir()  # reading it fails with IsADirectoryError


def make_bin(machine: Dict[str, Any], bindir: Path) -> List[str]:
    """A PATH with only what the case names. Returns the PATH entries."""
    bindir.mkdir(parents=True)
    compiler = machine.get("compiler", "real")
    if compiler == "real":
        cxx = shutil.which("c++")
        assert cxx, "tests need a C++ compiler"
        os.symlink(cxx, bindir / "c++")
    elif compiler.startswith(("fake:", "fake-noomp:")):
        # ``fake:16.1.0`` = a g++ of that version (with libgomp); ``fake-noomp:X`` finds no OpenMP runtime.
        kind, _, ver = compiler.partition(":")
        omp = bindir / "libgomp.so"
        omp.write_text("")
        found = str(omp) if kind == "fake" else "libgomp.so"  # gcc echoes the bare name when not found
        _exe(bindir / "c++", "#!/bin/sh\ncase \"$1\" in\n"
             f"  --version) echo 'c++ (GCC) {ver}'; echo 'Copyright (C) Free Software Foundation, Inc.' ;;\n"
             f"  -print-file-name=*) echo '{found}' ;;\n"
             "  *) exit 1 ;;\nesac\n")
    elif compiler != "missing":
        raise ValueError(f"unknown compiler spec {compiler!r}")
    if machine.get("ninja_exe", True):
        nj = shutil.which("ninja") or str(Path(sys.executable).parent / "ninja")
        if not os.path.exists(nj):
            raise Unavailable("no ninja executable to link (apt-get install ninja-build)")
        os.symlink(nj, bindir / "ninja")
    gpus = int(machine.get("gpus", 0))
    if gpus:  # no GPU here: a stub nvidia-smi stands in for the driver (fault injection of hardware)
        lines = "\n".join(f"GPU {i}: NVIDIA H100 80GB HBM3 (UUID: GPU-{i:08d}-0000-0000-0000-000000000000)" for i in range(gpus))
        _exe(bindir / "nvidia-smi", _printer(lines + "\n"))
    entries = [str(bindir)]
    if machine.get("broken_path"):
        entries = ["/nonexistent/bin", "", "relative/bin", str(bindir), "/etc/passwd"]
    return entries


def make_libs(names: List[str], libdir: Path) -> Path:
    """Empty ``lib<name>.so`` files (found by dsdoctor's linker-path probe, never linked)."""
    libdir.mkdir(parents=True, exist_ok=True)
    for n in names:
        (libdir / f"lib{n}.so").write_text("")
    return libdir


def load_bench(name: str) -> "ModuleType":
    """Import ``bench/<name>.py`` (benchmarks are scripts, not a package; tests reuse their scoring)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, Path(__file__).resolve().parents[1] / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses in the module look themselves up there
    spec.loader.exec_module(mod)
    return mod
