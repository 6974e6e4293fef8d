"""Log signatures: which finding a DeepSpeed/torch message points to. Built from the message texts in
the knowledge modules (never a second copy of a message). Ordered: root causes before symptoms."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import List, Optional, Pattern, Tuple

from . import cuda as CK
from . import deepspeed as K


@dataclass(frozen=True)
class Signature:
    name: str  # finding name
    pattern: Pattern[str]
    symptom: bool = False  # a pointer to an earlier cause, never the cause itself


def _lit(text: str) -> str:
    """A message template as a regex: ``{placeholders}`` match one token."""
    parts = re.split(r"\{[a-z_]+\}", text)
    return r"\S+?".join(re.escape(p) for p in parts)


SIGNATURES: Tuple[Signature, ...] = (
    Signature("cuda-version-mismatch", re.compile(_lit(K.MSG_MISMATCH_CORE + ", unable"))),
    Signature("cuda-toolkit-missing", re.compile(
        re.escape(K.MSG_MISSING_CUDA_HOME) + r"|No such file or directory: '[^']*/bin/nvcc'|Unable to run \S*/bin/nvcc")),
    Signature("ninja-missing", re.compile(_lit(K.MSG_NINJA) + "|" + re.escape(CK.MSG_TORCH_NINJA.split(": ", 1)[1].split(" (")[0]))),
    Signature("python-headers-missing", re.compile(r"Python\.h: No such file or directory")),
    Signature("host-compiler-unsupported", re.compile(r"unsupported GNU version|omp\.h: No such file or directory|/bin/sh: \d+: \S+: not found")),
    Signature("cuda-libs-missing", re.compile(r"cannot find -l(?:curand|cudart|cublas)")),
    Signature("libaio-missing", re.compile(re.escape(K.MSG_LIBAIO))),
    Signature("prebuilt-op-mismatch", re.compile(re.escape(K.MSG_PREBUILT_TORCH) + "|" + re.escape(K.MSG_PREBUILT_CUDA))),
    Signature("ds-accelerator-invalid", re.compile(r"DS_ACCELERATOR must be one of|CPU_Accelerator requires intel_extension_for_pytorch")),
    Signature("op-build-failed", re.compile(r"Error building extension '(\w+)'"), symptom=True),
    Signature("op-build-failed", re.compile(re.escape(K.MSG_DS_OPT_ADAM) + "|" + re.escape(K.MSG_CPU_ADAM_WRAPPED)), symptom=True),
)


def first_cause(log: str) -> Tuple[Optional[Signature], Optional[str]]:
    """The first root-cause signature in ``log`` (by priority), else the first symptom; with the line."""
    lines = log.splitlines()
    for symptoms in (False, True):
        for sig in (s for s in SIGNATURES if s.symptom is symptoms):
            for ln in lines:
                if sig.pattern.search(ln):
                    return sig, ln.strip()
    return None, None


def all_matches(log: str) -> List[Tuple[Signature, str]]:
    return [(s, ln.strip()) for ln in log.splitlines() for s in SIGNATURES if s.pattern.search(ln)]
