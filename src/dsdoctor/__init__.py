"""dsdoctor: preflight, lint, explain, fix and verify DeepSpeed ZeRO-3 / ZeRO-Offload setups.

Python API (typed; ``import dsdoctor`` imports nothing else until a name is used)::

    import dsdoctor
    dsdoctor.preflight("ds_config.json")          # raises dsdoctor.DsDoctorError listing causes and fixes

    from dsdoctor.hf import zero3_safe_kwargs
    model = AutoModelForCausalLM.from_pretrained(name, **zero3_safe_kwargs(kwargs))
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from . import hf
    from .api import DsDoctorError, preflight
    from .model import Finding, Report, Severity
    from .version import __version__

__all__ = ["DsDoctorError", "Finding", "Report", "Severity", "__version__", "hf", "preflight"]

_LAZY = {"preflight": "api", "DsDoctorError": "api", "Finding": "model", "Report": "model", "Severity": "model",
         "__version__": "version"}


def __getattr__(name: str) -> Any:
    """Lazy attributes (PEP 562): the API costs nothing until it is used."""
    import importlib

    if name == "hf":
        return importlib.import_module(".hf", __name__)
    mod = _LAZY.get(name)
    if mod is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{mod}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> "list[str]":
    return sorted(set(globals()) | set(__all__))
