"""``dsdoctor explain``: find the root cause in a failed DeepSpeed / Hugging Face training log.

Public API: ``diagnose_log(text, source="log") -> Report`` (findings ordered, the primary root cause
first; consequences are evidence with ``where == "consequence"``), ``diagnose_paths`` for files.

The API is imported on first use: ``dsdoctor check`` reads the cause specs (``explain.causes``, through the
catalog) and must not pay for the scanner and the diagnoser.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .diagnose import diagnose_log, diagnose_scan, scan_sources

__all__ = ["diagnose_log", "diagnose_scan", "scan_sources"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from . import diagnose

        return getattr(diagnose, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
