"""``dsdoctor explain``: find the root cause in a failed DeepSpeed / Hugging Face training log.

Public API: ``diagnose_log(text, source="log") -> Report`` (findings ordered, the primary root cause
first; consequences are evidence with ``where == "consequence"``), ``diagnose_paths`` for files.
"""

from __future__ import annotations

from .diagnose import diagnose_log, diagnose_scan, scan_sources

__all__ = ["diagnose_log", "diagnose_scan", "scan_sources"]
