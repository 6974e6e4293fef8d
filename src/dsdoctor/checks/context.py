"""Derived facts the environment rules share: versions, the accelerator DeepSpeed will pick, the
CUDA pair as DeepSpeed sees it. Pure functions of ``EnvFacts`` + knowledge."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import List, Optional, Tuple

from packaging.version import Version

from ..knowledge import cuda as CK
from ..knowledge import deepspeed as K
from ..knowledge.versions import major_minor, parse
from ..probes.environment import EnvFacts
from ..probes.system import ExtLock


@dataclass(frozen=True)
class Accelerator:
    name: Optional[str]  # None when DS_ACCELERATOR is invalid
    how: str  # "set by DS_ACCELERATOR", "auto-detect", ...
    error: Optional[str] = None  # what get_accelerator() will raise


@dataclass(frozen=True)
class Context:
    facts: EnvFacts
    ds: Optional[Version]
    torch_version: Optional[str]
    torch_cuda: Optional[Tuple[int, int]]
    torch_cuda_str: Optional[str]
    cuda_home: Optional[str]  # as torch will resolve it (None for a CPU/ROCm torch)
    nvcc_release: Optional[Tuple[int, int]]
    gpu_visible: bool  # what torch.cuda.is_available() will say (CUDA torch + visible NVIDIA GPU)
    accelerator: Accelerator

    @property
    def python_exe(self) -> Optional[str]:
        return self.facts.interpreter.executable if self.facts.interpreter else None

    @property
    def site(self) -> Optional[str]:
        """The site-packages directory holding torch (where ``pip install`` into this environment puts wheels)."""
        torch = self.facts.packages.torch
        return os.path.dirname(torch.package_dir.rstrip("/")) if torch and torch.package_dir else None

    @property
    def own_locks(self) -> List[ExtLock]:
        """Build locks in the checked torch's own extensions root: ``$TORCH_EXTENSIONS_DIR``, else
        ``<cache>/torch_extensions/py<XY><abiflags>_<cuXYZ|rocmXY|cpu>`` of that torch and Python (other roots
        belong to other environments, which this torch never builds in)."""
        torch, interp = self.facts.packages.torch, self.facts.interpreter
        root = self.facts.env.get("TORCH_EXTENSIONS_DIR")
        if root:
            return [lk for lk in self.facts.extensions.locks if _under(lk.path, root)]
        if torch is None or interp is None:
            return []
        sub = CK.torch_extensions_subdir(interp.version[:2], torch.cuda, torch.hip, interp.abiflags)
        return [lk for lk in self.facts.extensions.locks
                if os.path.basename(os.path.dirname(os.path.dirname(lk.path))) == sub]

    def env(self, name: str) -> Optional[str]:
        return self.facts.env.get(name)


def _under(path: str, root: str) -> bool:
    return os.path.dirname(os.path.dirname(os.path.realpath(path))) == os.path.realpath(root)


def _select_accelerator(facts: EnvFacts, ds: Version, gpu_visible: bool) -> Accelerator:
    forced = facts.env.get("DS_ACCELERATOR")
    pk = facts.packages
    if forced is not None and K.accelerator_env_read(ds):
        allowed = K.supported_accelerators(ds)
        if forced not in allowed:
            return Accelerator(None, "set by DS_ACCELERATOR",
                               K.MSG_ACCEL_INVALID.format(allowed=list(allowed), value=forced))
        if forced == "cpu" and K.cpu_accelerator_needs_ipex(ds) and not pk.version("intel_extension_for_pytorch"):
            return Accelerator(None, "set by DS_ACCELERATOR",
                               "CPU_Accelerator requires intel_extension_for_pytorch, which is not installed on this system.")
        return Accelerator(forced, "set by DS_ACCELERATOR")
    if K.ipex_deepspeed_selects_xpu(ds) and pk.version("intel_extension_for_deepspeed"):
        name = "xpu.external" if "xpu.external" in K.supported_accelerators(ds) else "xpu"
        return Accelerator(name, "auto-detect (intel_extension_for_deepspeed installed)")
    if K.ipex_selects_cpu(ds) and pk.version("intel_extension_for_pytorch"):
        return Accelerator("cpu", "auto-detect (intel_extension_for_pytorch installed)")
    if pk.version("torch_npu"):
        return Accelerator("npu", "auto-detect (torch_npu installed)")
    if gpu_visible or not K.cpu_fallback(ds):
        return Accelerator("cuda", "auto-detect")
    return Accelerator("cpu", "auto-detect (no visible CUDA GPU: CPU fallback)")


def build(facts: EnvFacts) -> Context:
    pk = facts.packages
    ds = parse(pk.version("deepspeed") or (pk.deepspeed.version if pk.deepspeed else None))
    torch = pk.torch
    torch_cuda_str = torch.cuda if torch else None
    torch_cuda = major_minor(torch_cuda_str)
    # torch sets CUDA_HOME only for CUDA builds of itself.
    cuda_home = facts.cuda_home.path if torch_cuda is not None else None
    nvcc_release = facts.nvcc.release if (facts.nvcc and cuda_home) else None
    gpu_visible = torch_cuda is not None and facts.gpus.visible > 0
    accel = _select_accelerator(facts, ds, gpu_visible) if ds else Accelerator(None, "deepspeed not installed")
    return Context(
        facts=facts,
        ds=ds,
        torch_version=torch.version if torch else None,
        torch_cuda=torch_cuda,
        torch_cuda_str=torch_cuda_str,
        cuda_home=cuda_home,
        nvcc_release=nvcc_release,
        gpu_visible=gpu_visible,
        accelerator=accel,
    )
