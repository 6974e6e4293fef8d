"""``check --hostfile``: the nodes of the hostfile checked and diffed; bad input raises UsageError (exit 2)."""

from __future__ import annotations

from typing import Optional

from ..errors import UsageError
from ..model import Report
from . import check_nodes, nodes_of
from .transport import TRANSPORTS


def check_hostfile(hostfile: str, include: str, exclude: str, transport: str, python: Optional[str],
                   timeout: float, nvme: bool = False) -> Report:
    """``check`` on every node of ``hostfile``; UsageError (HostfileError) for a bad transport, python or hostfile."""
    if transport not in TRANSPORTS:
        raise UsageError(f"unknown --transport {transport!r}; choose from {', '.join(TRANSPORTS)}")
    if python is not None and not python.startswith("/"):
        raise UsageError("--python must be an absolute path with --hostfile (it is looked up on every node)")
    hosts = nodes_of(hostfile, include, exclude)
    return check_nodes(hosts, python=python, transport=transport, timeout=timeout, nvme=nvme)
