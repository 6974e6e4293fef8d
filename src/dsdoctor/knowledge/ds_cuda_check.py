"""DeepSpeed's CUDA version check (op_builder/builder.py: installed_cuda_version / assert_no_cuda_mismatch),
``DS_SKIP_CUDA_CHECK``, and how a mismatch or a missing toolkit affects cpu_adam's build, by version."""

from __future__ import annotations

from typing import Dict, Literal, Optional, Tuple

from packaging.version import Version

from .versions import Span, lookup, v

__all__ = ["SKIP_CUDA_CHECK_ON", "CUDA_MINOR_MISMATCH_OK", "cuda_minor_mismatch_ok", "PairVerdict", "cuda_pair_verdict",
    "SKIP_CUDA_CHECK_VAR", "SKIP_CUDA_CHECK_SINCE", "skip_cuda_check_supported", "skip_cuda_check_active",
    "CheckMode", "CPU_ADAM_CUDA_CHECK", "CPU_ADAM_PLAIN_CPU_FROM", "cpu_adam_cuda_check",
    "install_build_mismatch_fatal", "jit_check_uncaught", "missing_cuda_home_caught", "missing_nvcc_caught",
    "cuda_check_needs_gpu", "gpu_build_reads_toolkit_uncaught", "failed_nvcc_caught", "missing_nvcc_message"]

# ---------------------------------------------------------------------------------------------------
# 1. The CUDA version check (op_builder/builder.py: installed_cuda_version / assert_no_cuda_mismatch)
# ---------------------------------------------------------------------------------------------------

_K10 = ("10.0", "10.1", "10.2")
_K11 = tuple(f"11.{m}" for m in range(9))
_K12_0_1 = ("12.0", "12.1")
_K12_0_3 = tuple(f"12.{m}" for m in range(4))
_K12_0_5 = tuple(f"12.{m}" for m in range(6))
_K12_0_6 = tuple(f"12.{m}" for m in range(7))

CUDA_MINOR_MISMATCH_OK: Tuple[Span[Dict[int, Tuple[str, ...]]], ...] = (
    Span("0.8.0", "0.9.2", {10: _K10, 11: _K11}),
    Span("0.9.3", "0.12.0", {10: _K10, 11: _K11, 12: _K12_0_1}),
    Span("0.12.1", "0.14.2", {10: _K10, 11: _K11, 12: _K12_0_3}),
    Span("0.14.3", "0.15.2", {10: _K10, 11: _K11, 12: _K12_0_5}),
    Span("0.15.3", "0.16.3", {10: _K10, 11: _K11, 12: _K12_0_6}),
    Span("0.16.4", "0.17.1", {10: _K10, 11: _K11, 12: _K12_0_6 + ("12.8",)}),
    Span("0.17.2", None, {10: _K10, 11: _K11, 12: _K12_0_6 + ("12.8", "12.9")}),
)


def cuda_minor_mismatch_ok(ds: Version) -> Dict[int, Tuple[str, ...]]:
    """DeepSpeed's ``cuda_minor_mismatch_ok`` dict for this version (no key 13 in any version)."""
    return lookup(CUDA_MINOR_MISMATCH_OK, ds, {})


PairVerdict = Literal["equal", "compatible", "mismatch"]


def cuda_pair_verdict(ds: Version, system: Tuple[int, int], torch_cuda: Tuple[int, int]) -> PairVerdict:
    """What ``assert_no_cuda_mismatch`` decides for nvcc ``system`` vs ``torch.version.cuda``,
    before ``DS_SKIP_CUDA_CHECK`` is consulted."""
    sys_s = f"{system[0]}.{system[1]}"
    torch_s = f"{torch_cuda[0]}.{torch_cuda[1]}"
    if sys_s == torch_s:
        return "equal"
    table = cuda_minor_mismatch_ok(ds)
    ok = table.get(system[0], ())
    if sys_s in ok and torch_s in ok:
        return "compatible"
    return "mismatch"


SKIP_CUDA_CHECK_VAR = "DS_SKIP_CUDA_CHECK"
SKIP_CUDA_CHECK_SINCE = "0.9.3"
SKIP_CUDA_CHECK_ON = "1"  # the one value DeepSpeed accepts: os.getenv("DS_SKIP_CUDA_CHECK", "0") == "1"


def skip_cuda_check_supported(ds: Version) -> bool:
    """``DS_SKIP_CUDA_CHECK`` exists from 0.9.3 (PR #3436)."""
    return ds >= v(SKIP_CUDA_CHECK_SINCE)


def skip_cuda_check_active(ds: Version, value: Optional[str]) -> bool:
    """Only the exact string ``1`` counts (``os.getenv(..., "0") == "1"``)."""
    return skip_cuda_check_supported(ds) and value == SKIP_CUDA_CHECK_ON


# How a CUDA mismatch (or a failure to read the toolkit) affects cpu_adam's JIT build on the CUDA
# accelerator, via TorchCPUOpBuilder.cxx_args() -> is_cuda_enable()/get_cuda_compile_flag().
CheckMode = Literal["fatal", "swallowed", "not-checked"]
CPU_ADAM_CUDA_CHECK: Tuple[Span[CheckMode], ...] = (
    Span(None, "0.9.0", "fatal"),  # jit_load called the check without a try
    Span("0.9.1", "0.12.1", "swallowed"),  # except BaseException -> -D__DISABLE_CUDA__, CPU-only build
    Span("0.12.2", "0.12.2", "fatal"),  # jit_load calls the check with its try commented out
    Span("0.12.3", "0.12.3", "swallowed"),
    Span("0.12.4", "0.19.7", "fatal"),  # only MissingCUDAException is caught
    Span("0.19.8", None, "not-checked"),  # cpu_adam is a plain CPU build on every accelerator
)


# the first release whose cpu_adam needs no CUDA toolkit at all (the table's open-ended "not-checked" span)
CPU_ADAM_PLAIN_CPU_FROM: str = next(s.lo for s in CPU_ADAM_CUDA_CHECK if s.value == "not-checked" and s.hi is None and s.lo)


def cpu_adam_cuda_check(ds: Version) -> CheckMode:
    return lookup(CPU_ADAM_CUDA_CHECK, ds, "not-checked")


def install_build_mismatch_fatal(ds: Version) -> bool:
    """At install time (``DS_BUILD_OPS=1``/``DS_BUILD_<OP>=1``), a mismatch fails pip from 0.12.4
    (CUDAMismatchException propagates); earlier any exception fell back to a CPU build."""
    return ds >= v("0.12.4")


def jit_check_uncaught(ds: Version) -> bool:
    """0.12.2 only: ``jit_load`` calls ``assert_no_cuda_mismatch`` with its try/except commented out and
    then sets ``build_for_cpu = False`` whether or not a GPU is visible (0.12.3 restored
    ``build_for_cpu = not torch.cuda.is_available()`` and dropped the call)."""
    return ds == v("0.12.2")


def missing_cuda_home_caught(ds: Version) -> bool:
    """Does cpu_adam's JIT survive a missing CUDA_HOME (building CPU-only)? Yes from 0.9.1 (BaseException
    up to 0.12.3, MissingCUDAException after), except 0.12.2 (see jit_check_uncaught)."""
    return ds >= v("0.9.1") and not jit_check_uncaught(ds)


def missing_nvcc_caught(ds: Version) -> bool:
    """CUDA_HOME set but no ``bin/nvcc``: a raw FileNotFoundError up to 0.19.4 (fatal from 0.12.4,
    where only MissingCUDAException is caught); a MissingCUDAException from 0.19.5 (PR #8216)."""
    return (ds <= v("0.12.3") and not jit_check_uncaught(ds)) or ds >= v("0.19.5")


def cuda_check_needs_gpu(ds: Version) -> bool:
    """0.8.1-0.9.0: ``installed_cuda_version()`` returns (0, 0) when ``torch.cuda.is_available()`` is False,
    so without a GPU nothing about the toolkit is read or checked (jit_load then builds for CPU)."""
    return v("0.8.1") <= ds <= v("0.9.0")


def gpu_build_reads_toolkit_uncaught(ds: Version) -> bool:
    """From 0.12.3, with a GPU visible (``build_for_cpu`` False), cpu_adam's ``nvcc_args()`` reads the toolkit and
    nothing catches what that raises (MissingCUDAException)."""
    return ds >= v("0.12.3")


def failed_nvcc_caught(ds: Version) -> bool:
    """A nvcc that exists but cannot be run or exits non-zero (OSError / CalledProcessError): from 0.19.5
    (PR #8216) a MissingCUDAException that cpu_adam's compile-flag probe catches; before, it propagates
    (fatal from 0.12.4). An unparseable output (ValueError) or a hang is never caught."""
    return (ds <= v("0.12.3") and not jit_check_uncaught(ds)) or ds >= v("0.19.5")


def missing_nvcc_message(ds: Version, nvcc: str) -> str:
    if ds >= v("0.19.5"):
        return f"MissingCUDAException: Unable to run {nvcc}, unable to compile CUDA op(s)"
    return f"FileNotFoundError: [Errno 2] No such file or directory: '{nvcc}'"
