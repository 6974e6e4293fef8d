"""Predict what ``CPUAdamBuilder().load()`` will do with this environment and DeepSpeed version.

The prediction walks DeepSpeed's own order (``jit_load``: ninja, then ``nvcc_args()`` when a GPU is
visible, then ``cxx_args()`` with the CUDA check, then the compile and link) and stops at the first
failure, naming it with the finding that explains it. Oracle tests compare it with the real DeepSpeed.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from .. import names as N
from ..knowledge import cuda as CK
from ..knowledge import deepspeed as K
from ..knowledge.versions import major_minor
from .context import Context


@dataclass
class OpPrediction:
    op: str
    loads: bool
    cause: Optional[str] = None  # finding name of the first failure
    message: str = ""  # the innermost message DeepSpeed will print
    path: str = ""  # "prebuilt", "jit", "none"
    builder: str = ""
    accelerator: Optional[str] = None
    notes: List[str] = field(default_factory=list)  # warnings DeepSpeed will print on the way
    blockers: List[str] = field(default_factory=list)  # every cause that would fail it, in DeepSpeed's order

    def to_json(self) -> Dict[str, Any]:
        return {
            "loads": self.loads,
            "cause": self.cause,
            "message": self.message,
            "path": self.path,
            "builder": self.builder,
            "accelerator": self.accelerator,
            "notes": self.notes,
            "blockers": self.blockers,
        }


def _fail(p: OpPrediction, cause: str, message: str) -> OpPrediction:
    """Record a blocker. The first one is what DeepSpeed reports; later ones surface once it is fixed."""
    if p.loads:
        p.loads, p.cause, p.message = False, cause, message
    if cause not in p.blockers:
        p.blockers.append(cause)
    return p


def predict(ctx: Context, op: str = "cpu_adam") -> OpPrediction:
    f = ctx.facts
    p = OpPrediction(op=op, loads=True, accelerator=ctx.accelerator.name)
    if f.packages.torch is None:
        return _fail(p, N.PACKAGE_MISSING, "No module named 'torch'")
    if ctx.ds is None:
        return _fail(p, N.PACKAGE_MISSING, "No module named 'deepspeed'")
    if ctx.accelerator.name is None:
        return _fail(p, N.DS_ACCELERATOR_INVALID, ctx.accelerator.error or "")
    ds, accel = ctx.ds, ctx.accelerator.name
    builder = K.cpu_adam_builder(ds, accel)
    p.builder = builder
    if builder == "not-implemented":
        return _fail(p, N.DS_ACCELERATOR_INVALID, "This op had not been implemented on CPU backend.")

    # A prebuilt op is imported instead of JIT-building when it was built for this accelerator.
    inst = f.packages.deepspeed
    if inst and inst.installed_ops.get(op) and inst.accelerator_name == accel:
        p.path = "prebuilt"
        mismatch = prebuilt_mismatch(ctx)
        if mismatch:
            return _fail(p, N.PREBUILT_OP_MISMATCH, mismatch)
        return p
    p.path = "jit"

    # DeepSpeed <= 0.18.2 tests `import ninja`; torch's build then always needs the executable.
    if K.ninja_detection(ds) == "module" and not f.ninja.module_dir:
        _fail(p, N.NINJA_MISSING, K.MSG_NINJA.format(op=op))
    elif not f.ninja.executable:
        msg = K.MSG_NINJA.format(op=op) if K.ninja_detection(ds) == "executable" else CK.MSG_TORCH_NINJA
        _fail(p, N.NINJA_MISSING, msg)

    if builder == "cuda-torchcpu":
        _cuda_builder_steps(ctx, p)

    if stale_lock(ctx, op):
        _fail(p, N.TORCH_EXTENSIONS_LOCK_STALE, "(no message: the build waits on the lock forever)")
    if f.compiler.path is None:
        _fail(p, N.HOST_COMPILER_UNSUPPORTED, f"/bin/sh: 1: {f.compiler.name}: not found")
    elif f.compiler.openmp is None and f.compiler.kind is not None:
        _fail(p, N.HOST_COMPILER_UNSUPPORTED, "fatal error: omp.h: No such file or directory")
    if f.python_h is None:
        _fail(p, N.PYTHON_HEADERS_MISSING, "fatal error: Python.h: No such file or directory")
    return p


def _cuda_builder_steps(ctx: Context, p: OpPrediction) -> Optional[OpPrediction]:
    """TorchCPUOpBuilder (DeepSpeed <= 0.19.7 on the CUDA accelerator)."""
    assert ctx.ds is not None
    ds, f = ctx.ds, ctx.facts
    nvcc_path = os.path.join(ctx.cuda_home, "bin", "nvcc") if ctx.cuda_home else ""
    nvcc_missing = ctx.cuda_home is not None and (f.nvcc is None or not f.nvcc.exists)
    nvcc_broken = ctx.cuda_home is not None and not nvcc_missing and ctx.nvcc_release is None

    def toolkit_unreadable(exc: str) -> Optional[OpPrediction]:
        """A toolkit read that nothing catches: no CUDA_HOME, no nvcc, or an nvcc giving no release."""
        if ctx.cuda_home is None:
            return _fail(p, N.CUDA_TOOLKIT_MISSING, f"{exc}: {K.MSG_MISSING_CUDA_HOME}")
        if nvcc_missing:
            return _fail(p, N.CUDA_TOOLKIT_MISSING, K.missing_nvcc_message(ds, nvcc_path))
        if nvcc_broken:
            return _fail(p, N.CUDA_TOOLKIT_MISSING, f"{nvcc_path} -V failed or printed no release")
        return None

    if K.cuda_check_needs_gpu(ds):
        # 0.8.1-0.9.0: jit_load runs the check itself, with no try; without a GPU it reads nothing.
        if not ctx.gpu_visible:
            return None
        failed = toolkit_unreadable("AssertionError")
    elif ctx.gpu_visible and K.gpu_build_reads_toolkit_uncaught(ds):
        failed = toolkit_unreadable("MissingCUDAException")
    else:
        failed = None
    if failed:
        return failed
    if ctx.gpu_visible and ctx.cuda_home is not None:  # nvcc_args(): the arch list, before cxx_args' CUDA check
        bad = K.arch_list_unparsed(ds, ctx.env("TORCH_CUDA_ARCH_LIST"))
        if bad:
            _fail(p, N.CUDA_ARCH_LIST_UNPARSED, K.ARCH_LIST_INT_ERROR.format(part=bad[1]))

    # cxx_args() -> the CUDA check (is_cuda_enable / get_cuda_compile_flag).
    mode = K.cpu_adam_cuda_check(ds)
    if ctx.cuda_home is None:
        if not K.missing_cuda_home_caught(ds):
            return _fail(p, N.CUDA_TOOLKIT_MISSING, f"AssertionError: {K.MSG_MISSING_CUDA_HOME}")
        p.notes.append(K.MSG_SWALLOWED.format(op=p.op))
    elif nvcc_missing:
        if not K.missing_nvcc_caught(ds):
            return _fail(p, N.CUDA_TOOLKIT_MISSING, K.missing_nvcc_message(ds, nvcc_path))
        p.notes.append(K.MSG_SWALLOWED.format(op=p.op))
    elif nvcc_broken:
        # nvcc ran and exited non-zero / could not be run: caught from 0.19.5; unparseable or hung: never.
        res = f.nvcc.result if f.nvcc else None
        ran_and_failed = res is not None and not res.ok and not (res.error or "").startswith("timed out")
        if mode == "fatal" and not (ran_and_failed and K.failed_nvcc_caught(ds)):
            return _fail(p, N.CUDA_TOOLKIT_MISSING, f"{nvcc_path} -V failed or printed no release")
        p.notes.append(K.MSG_SWALLOWED.format(op=p.op))
    else:
        assert ctx.nvcc_release is not None and ctx.torch_cuda is not None
        verdict = K.cuda_pair_verdict(ds, ctx.nvcc_release, ctx.torch_cuda)
        sys_s = "%d.%d" % ctx.nvcc_release
        if verdict == "compatible":
            p.notes.append(K.MSG_COMPATIBLE.format(sys=sys_s, torch=ctx.torch_cuda_str))
        elif verdict == "mismatch":
            if mode == "swallowed":
                p.notes.append(K.MSG_SWALLOWED.format(op=p.op))
            elif K.skip_cuda_check_active(ds, ctx.env(K.SKIP_CUDA_CHECK_VAR)):
                p.notes.append(K.MSG_SKIP_WARNING.format(sys=sys_s, torch=ctx.torch_cuda_str))
            else:  # recorded; the later steps still run so a skip's consequences are known too
                _fail(p, N.CUDA_VERSION_MISMATCH,
                      "CUDAMismatchException: " + K.MSG_MISMATCH.format(sys=sys_s, torch=ctx.torch_cuda_str))

    # build_for_cpu is False (CUDA sources, -lcurand) with a visible GPU, and always on 0.12.2.
    if (ctx.gpu_visible or K.jit_check_uncaught(ds)) and ctx.cuda_home is not None:
        if K.cpu_adam_compiles_cuda_sources(ds) and ctx.nvcc_release and f.compiler.kind == "gcc":
            limit = CK.nvcc_max_gcc(ctx.nvcc_release)
            if limit is not None and f.compiler.version and f.compiler.version[0] > limit:
                return _fail(p, N.HOST_COMPILER_UNSUPPORTED,
                             f"#error -- unsupported GNU version! gcc versions later than {limit} are not supported!")
        if f.cuda_libs.get("curand", (None, None))[0] is None:
            return _fail(p, N.CUDA_LIBS_MISSING, "/usr/bin/ld: cannot find -lcurand")
    return None


def prebuilt_mismatch(ctx: Context) -> Optional[str]:
    """DeepSpeed's validate_torch_version / validate_torch_op_version against the install record."""
    inst = ctx.facts.packages.deepspeed
    if inst is None or not ctx.torch_version:
        return None
    built = inst.torch_info.get("version", "0.0")
    now = ".".join(ctx.torch_version.split(".")[:2])
    if built != now:
        return f"{K.MSG_PREBUILT_TORCH} (install torch {built}, runtime torch {now})"
    if ctx.accelerator.name == "cuda" and ctx.torch_cuda_str:
        built_cuda = inst.torch_info.get("cuda_version", "0.0")
        mm = major_minor(ctx.torch_cuda_str)
        now_cuda = "%d.%d" % mm if mm else ctx.torch_cuda_str
        if built_cuda != now_cuda:
            return f"{K.MSG_PREBUILT_CUDA} (install CUDA {built_cuda}, runtime CUDA {now_cuda})"
    return None


def stale_lock(ctx: Context, op: str) -> Optional[str]:
    """The op's ``lock`` file when no running process is building it and this torch waits on it."""
    if not CK.extension_lock_blocks(ctx.torch_version):
        return None
    for lock in ctx.own_locks:
        if os.path.basename(os.path.dirname(lock.path)) == op and not lock.busy:
            return lock.path
    return None
