"""Log signatures: which finding a DeepSpeed/torch/Transformers message points to. Built from the message
texts in the knowledge modules (never a second copy of a message). Ordered: root causes before symptoms.

Every pattern is linear-time on any input: literals joined by bounded token classes, no nested or
unbounded repetition next to an overlapping class (``tests/test_explain_adversarial.py`` checks).
``needle`` is a literal every match contains; ``explain`` scans raw bytes for the needles and runs the
patterns only on those lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import List, Optional, Pattern, Tuple

from . import cuda as CK
from . import deepspeed as K
from . import transformers as TK


@dataclass(frozen=True)
class Signature:
    name: str  # finding name
    pattern: Pattern[str]
    symptom: bool = False  # a pointer to an earlier cause, never the cause itself
    needle: str = ""  # a literal every match contains (explain's fast prefilter); "" = derived from the pattern
    note: bool = False  # a notable warning, not a failure (listed when nothing failed)


WIDE = ("cls", "type", "cmd", "line", "path")  # placeholders whose values may contain spaces


def _lit(text: str) -> str:
    """A message template as a regex: each ``{placeholder}`` becomes a named group of one bounded token
    (of bounded text for the ``WIDE`` ones)."""
    out: List[str] = []
    pos = 0
    for m in re.finditer(r"\{([a-z_]+)\}", text):
        out.append(re.escape(text[pos:m.start()]))
        out.append(r"(?P<%s>%s)" % (m.group(1), r".{1,300}?" if m.group(1) in WIDE else r"\S{1,200}?"))
        pos = m.end()
    out.append(re.escape(text[pos:]))
    return "".join(out)


def _needle(text: str) -> str:
    """The longest literal piece of a message template (for the prefilter)."""
    return max(re.split(r"\{[a-z_]+\}", text), key=len)


def _sig(name: str, template: str, symptom: bool = False, note: bool = False, regex: Optional[str] = None,
         needle: Optional[str] = None) -> Signature:
    return Signature(name, re.compile(regex if regex is not None else _lit(template)), symptom,
                     needle if needle is not None else _needle(template), note)


_NINJA_TORCH = CK.MSG_TORCH_NINJA.split(": ", 1)[1].split(" (")[0]
_HEADERS = "|".join(re.escape(h) for h in CK.CUDA_HEADERS)

SIGNATURES: Tuple[Signature, ...] = (
    # ---- op build and environment (dsdoctor check / verify share these names)
    _sig("cuda-version-mismatch", K.MSG_MISMATCH_CORE + ", unable"),
    _sig("cuda-version-mismatch", CK.MSG_CUDA_TORCH_CHECK),
    _sig("cuda-toolkit-missing", K.MSG_MISSING_CUDA_HOME),
    _sig("cuda-toolkit-missing", "", regex=r"No such file or directory: '[^']{0,400}/bin/nvcc'", needle="/bin/nvcc'"),
    _sig("cuda-toolkit-missing", K.MSG_NVCC_UNRUNNABLE),
    _sig("ninja-missing", K.MSG_NINJA),
    _sig("ninja-missing", _NINJA_TORCH),
    _sig("python-headers-missing", CK.MSG_PYTHON_H),
    _sig("cuda-headers-missing", "", regex=r"(?:%s): No such file or directory" % _HEADERS, needle=".h: No such file"),
    _sig("host-compiler-unsupported", CK.MSG_GCC_UNSUPPORTED),
    _sig("host-compiler-unsupported", CK.MSG_OMP_H),
    _sig("host-compiler-unsupported", "", regex=r"/bin/sh: \d{1,6}: \S{1,400}: not found", needle=": not found"),
    _sig("cuda-libs-missing", "", regex=r"cannot find -l(?:curand|cudart|cublas|cusparse|cusolver)", needle="cannot find -l"),
    _sig("libaio-missing", K.MSG_LIBAIO),
    _sig("prebuilt-op-mismatch", K.MSG_PREBUILT_TORCH),
    _sig("prebuilt-op-mismatch", K.MSG_PREBUILT_CUDA),
    _sig("ds-accelerator-invalid", "", regex=r"DS_ACCELERATOR must be one of", needle="DS_ACCELERATOR must be one of"),
    _sig("ds-accelerator-invalid", "CPU_Accelerator requires intel_extension_for_pytorch"),
    # ---- further op-build causes (explain)
    _sig("nvcc-arch-unsupported", CK.MSG_NVCC_ARCH),
    _sig("compiler-killed", CK.MSG_COMPILER_KILLED),
    _sig("compiler-killed", CK.MSG_ICE_KILLED),
    _sig("libstdcxx-mismatch", CK.MSG_GLIBCXX),
    _sig("windows-op-build-unsupported", CK.MSG_WINDOWS_POSIX_ONLY),
    _sig("windows-op-build-unsupported", CK.MSG_MSVC_REQUIRED),
    _sig("windows-op-build-unsupported", CK.MSG_MSVC_LINK),
    _sig("nvcc-arch-unsupported", K.MSG_FORK_ARCH),
    _sig("nvcc-arch-unsupported", K.MSG_NO_COMPUTE_CAPS),
    # ---- ZeRO-3 model loading and parameters (Transformers)
    _sig("zero3-low-cpu-mem-usage-conflict", TK.MSG_ZERO3_LOW_MEM_411),
    _sig("zero3-low-cpu-mem-usage-conflict", TK.MSG_ZERO3_LOW_MEM_419),
    _sig("zero3-device-map-conflict", TK.MSG_ZERO3_DEVICE_MAP),
    # the 4.20-4.50 combined message: explain decides between the two names from the call line
    _sig("zero3-low-cpu-mem-usage-conflict", TK.MSG_ZERO3_COMBINED),
    _sig("zero3-device-map-conflict", TK.MSG_DEVICE_MAP_NEEDS_LOW_MEM),
    _sig("zero3-device-map-conflict", TK.MSG_ACCELERATE_DEVICE_MAP_AUTO),
    _sig("zero3-quantized-model-conflict", TK.MSG_DTYPE_MIXED),
    _sig("zero3-partitioned-param-access", TK.MSG_WEIGHT_2D),
    _sig("zero3-saved-partitioned-weights", TK.MSG_SIZE0_CHECKPOINT),
    _sig("zero3-saved-partitioned-weights", TK.MSG_PEFT_UNGATHERED),
    _sig("zero3-saved-partitioned-weights", TK.MSG_ACCELERATE_NO_16BIT),
    _sig("zero3-saved-partitioned-weights", TK.MSG_GATHER_16BIT_FALSE, note=True),
    # ---- config and integration
    _sig("offload-client-optimizer", K.MSG_CLIENT_OPTIMIZER.split(" Please")[0]),
    _sig("ds-config-trainer-mismatch", TK.MSG_CONFIG_MISMATCH),
    _sig("ds-config-trainer-mismatch", TK.MSG_CONFIG_MISMATCH_ACCELERATE),
    _sig("ds-config-auto-without-trainer", K.MSG_AUTO_COMPARE),
    _sig("batch-size-mismatch", K.MSG_BATCH),
    _sig("bucket-size-float", K.MSG_INT_FROM_FLOAT),
    _sig("deepspeed-no-sync-incompat", K.MSG_NO_SYNC),
    # ---- launch
    _sig("launcher-mpi-discovery", "", regex=r"No module named '" + K.MSG_MPI_DISCOVERY_MODULE + "'",
         needle=K.MSG_MPI_DISCOVERY_MODULE),
    _sig("hostfile-invalid", K.MSG_HOSTFILE_BAD_TEXT),
    *(_sig("hostfile-invalid", m) for m in K.MSG_HOSTFILE_ERRORS),
    _sig("ssh-unreachable", K.MSG_SSH_UNREACHABLE),
    _sig("ssh-unreachable", "", regex=r"ssh: (?:connect to host|Could not resolve hostname) \S{1,200}|"
         r"Permission denied \((?:publickey|password)", needle="ssh"),
    _sig("port-in-use", CK.MSG_SOCKET_LISTEN),
    _sig("port-in-use", CK.MSG_EADDRINUSE),
    # ---- resources
    _sig("gpu-oom", CK.MSG_CUDA_OOM),
    _sig("gpu-oom", "", regex=r"\bOutOfMemoryError\b", needle="OutOfMemoryError"),
    _sig("shm-too-small", CK.MSG_SHM),
    _sig("shm-too-small", "", regex=r"DataLoader worker \(pid \d{1,10}\) is killed by signal: Bus error",
         needle="is killed by signal: Bus error"),
    _sig("disk-write-failed", CK.MSG_ENOSPC),
    _sig("disk-write-failed", CK.MSG_STREAM_WRITER),
    _sig("disk-write-failed", CK.MSG_ZIP_WRITE),
    _sig("host-oom-killed", K.MSG_LAUNCH_EXIT, regex=_lit(K.MSG_LAUNCH_EXIT).replace(r"(?P<rc>\S{1,200}?)", r"(?P<rc>-9)\b"),
         needle="exits with return code = -9"),
    _sig("host-oom-killed", "", regex=r"exitcode\s{0,4}:\s{0,4}-9\b", needle="exitcode"),
    _sig("host-oom-killed", "", regex=r"Signal 9 \(SIGKILL\) received by PID", needle="SIGKILL"),
    _sig("host-oom-killed", "", regex=r"is killed by signal: Killed", needle="killed by signal: Killed"),
    _sig("shm-too-small", "", regex=r"exits with return code = -7\b", needle="exits with return code = -7"),
    _sig("shm-too-small", "", regex=r"Signal 7 \(SIGBUS\) received by PID", needle="SIGBUS"),
    _sig("shm-too-small", "", regex=r"exitcode\s{0,4}:\s{0,4}-7\b", needle="exitcode"),
    # ---- symptoms: pointers to an earlier cause, never the cause
    _sig("op-build-failed", CK.MSG_ERROR_BUILDING, symptom=True),
    _sig("op-build-failed", K.MSG_DS_OPT_ADAM, symptom=True),
    _sig("op-build-failed", K.MSG_CPU_ADAM_WRAPPED, symptom=True),
    _sig("op-build-failed", K.MSG_OP_WRAPPED, symptom=True),
    _sig("op-build-failed", K.MSG_NOT_COMPATIBLE, symptom=True),
    _sig("op-build-failed", CK.MSG_NINJA_STOPPED, symptom=True),
    _sig("launch-failed", K.MSG_LAUNCH_EXIT, symptom=True),
    _sig("launch-failed", CK.MSG_CHILD_FAILED, symptom=True),
    _sig("launch-failed", "", regex=r"Signal \d{1,2} \(SIG[A-Z]{2,6}\) received by PID", needle="received by PID", symptom=True),
    # ---- notable warnings (listed when nothing failed)
    _sig("cuda-version-mismatch", "Detected `DS_SKIP_CUDA_CHECK=1`: Allowing this combination of CUDA", note=True),
    _sig("cuda-version-mismatch", "", regex=re.escape(K.MSG_SWALLOWED.split("{op} ")[1]), needle="only cpu ops can be compiled", note=True),
    _sig("host-compiler-unsupported", CK.MSG_COMPILER_INCOMPATIBLE, note=True),
)

# Names of symptom signatures that say an op build/load failed (explain: "the cause is not in the log").
OP_BUILD_SYMPTOM = "op-build-failed"


def first_cause(log: str) -> Tuple[Optional[Signature], Optional[str]]:
    """The first root-cause signature in ``log`` (by priority), else the first symptom; with the line."""
    lines = log.splitlines()
    for symptoms in (False, True):
        for sig in (s for s in SIGNATURES if s.symptom is symptoms and not s.note):
            for ln in lines:
                if sig.pattern.search(ln):
                    return sig, ln.strip()
    return None, None


def all_matches(log: str) -> List[Tuple[Signature, str]]:
    return [(s, ln.strip()) for ln in log.splitlines() for s in SIGNATURES if not s.note and s.pattern.search(ln)]
