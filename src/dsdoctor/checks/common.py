"""What every environment check shares: the result type, the section titles a report groups them under,
and two small helpers."""

from __future__ import annotations

from typing import Callable, Iterable, Optional, Tuple, Union

from ..model import Finding, Passed, Severity
from .context import Context
from .cpu_adam import OpPrediction

Result = Union[Finding, Passed]
Rule = Callable[[Context, OpPrediction], Iterable[Result]]

S_PKG, S_ACCEL, S_CUDA, S_BUILD, S_SYS = "Packages", "Accelerator", "CUDA toolkit", "JIT op build", "System"
E, W = Severity.ERROR, Severity.WARNING


def sev(pred: OpPrediction, name: str, otherwise: Severity = Severity.WARNING) -> Severity:
    """An error when ``name`` is what makes the predicted op fail, else ``otherwise``."""
    return Severity.ERROR if name in pred.blockers else otherwise


def mm(t: Optional[Tuple[int, int]]) -> str:
    """A ``(major, minor)`` release as ``"major.minor"`` (``"?"`` when unknown)."""
    return "%d.%d" % t if t else "?"
