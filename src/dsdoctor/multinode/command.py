"""The CLI side of ``check --hostfile``: usage errors exit 2 with one line, no traceback."""

from __future__ import annotations

from typing import Optional

from ..cliparse import usage_error
from ..model import Report
from . import check_nodes, nodes_of
from .hosts import HostfileError
from .transport import TRANSPORTS


def check_hostfile(hostfile: str, include: str, exclude: str, transport: str, python: Optional[str],
                   timeout: float, nvme: bool = False) -> Report:
    """``check`` on every node of ``hostfile``; exit 2 (SystemExit) on a usage error."""
    if transport not in TRANSPORTS:
        usage_error(f"unknown --transport {transport!r}; choose from {', '.join(TRANSPORTS)}")
    if python is not None and not python.startswith("/"):
        usage_error("--python must be an absolute path with --hostfile (it is looked up on every node)")
    try:
        hosts = nodes_of(hostfile, include, exclude)
    except HostfileError as exc:
        usage_error(str(exc))
    return check_nodes(hosts, python=python, transport=transport, timeout=timeout, nvme=nvme)
