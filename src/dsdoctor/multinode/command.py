"""The CLI side of ``check --hostfile``: usage errors exit 2 with one line, no traceback."""

from __future__ import annotations

from typing import Optional

import typer

from ..model import Report
from . import check_nodes, nodes_of
from .hosts import HostfileError
from .transport import TRANSPORTS


def check_hostfile(hostfile: str, include: str, exclude: str, transport: str, python: Optional[str],
                   timeout: float, nvme: bool = False) -> Report:
    if transport not in TRANSPORTS:
        typer.echo(f"dsdoctor: unknown --transport {transport!r}; choose from {', '.join(TRANSPORTS)}", err=True)
        raise typer.Exit(2)
    if python is not None and not python.startswith("/"):
        typer.echo("dsdoctor: --python must be an absolute path with --hostfile (it is looked up on every node)",
                   err=True)
        raise typer.Exit(2)
    try:
        hosts = nodes_of(hostfile, include, exclude)
    except HostfileError as exc:
        typer.echo(f"dsdoctor: {exc}", err=True)
        raise typer.Exit(2) from exc
    return check_nodes(hosts, python=python, transport=transport, timeout=timeout, nvme=nvme)
