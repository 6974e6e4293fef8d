"""Which nodes a launch uses: the hostfile (parsed as lint's hostfile rule parses it) filtered by
``--include`` / ``--exclude`` exactly as DeepSpeed's ``runner.py`` (``parse_resource_filter``) does.

Host names are validated before anything runs: only ``[A-Za-z0-9._-]`` (what DNS names, IPv4 addresses and
Slurm node names use). Anything else is refused, so no hostfile text can reach a shell.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from typing import Dict, List, Tuple

from ..errors import UsageError
from ..lint.launch.launcher_files import hostfile_problems

HOST_OK = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9._-]{0,252}$")


class HostfileError(UsageError, ValueError):
    """The hostfile or --include/--exclude cannot be used (the message says why)."""


def check_host(name: str) -> str:
    if not HOST_OK.match(name):
        raise HostfileError(f"refusing host name {name!r}: only letters, digits, '.', '_' and '-' are allowed "
                            "(nothing from the hostfile is passed to a shell)")
    return name


def read_hostfile(path: str) -> "OrderedDict[str, int]":
    """host -> slots; HostfileError with the launcher's own message for what it would refuse."""
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as fh:
            text = fh.read()
    except OSError as exc:
        raise HostfileError(f"cannot read hostfile {path}: {exc.strerror or exc}") from exc
    hosts, problems = hostfile_problems(text)
    if problems:
        off, msg = problems[0]
        line = text[off:].split("\n", 1)[0].strip()
        raise HostfileError(f"{path}: the deepspeed launcher refuses this hostfile: {msg} (line {line!r})")
    for h in hosts:
        check_host(h)
    return OrderedDict(hosts)


def _node_config(spec: str) -> Tuple[str, List[int]]:
    if ":" not in spec:
        return spec, []
    parts = spec.split(":")
    if len(parts) != 2:  # runner.py: "too many values to unpack"
        raise HostfileError(f"bad node spec {spec!r} (NAME[:SLOT[,SLOT]])")
    try:
        return parts[0], [int(x) for x in parts[1].split(",")]
    except ValueError as exc:
        raise HostfileError(f"bad slot list in {spec!r}: {exc}") from exc


def _node_config_list(text: str) -> Dict[str, List[int]]:
    got: Dict[str, List[int]] = {}
    for spec in text.split("@"):
        host, slots = _node_config(spec)
        got.setdefault(host, []).extend(slots)
    return {k: sorted(set(v)) for k, v in got.items()}


def select(pool: "OrderedDict[str, int]", include: str = "", exclude: str = "") -> "OrderedDict[str, List[int]]":
    """runner.py parse_inclusion_exclusion: host -> slot ids in hostfile order, same errors."""
    hosts: "OrderedDict[str, List[int]]" = OrderedDict((h, list(range(n))) for h, n in pool.items())
    if include and exclude:
        raise HostfileError("include_str and exclude_str are mutually exclusive.")
    if not include and not exclude:
        return hosts
    filtered: Dict[str, List[int]] = {h: list(s) for h, s in hosts.items()} if exclude else {}
    for name, slots in _node_config_list(include or exclude).items():
        if name not in hosts:
            raise HostfileError(f"Hostname '{name}' not found in hostfile")
        for s in slots:
            if s not in hosts[name]:
                raise HostfileError(f"No slot '{s}' specified on host '{name}'")
        if include:
            filtered[name] = slots if slots else hosts[name]
        elif slots:
            filtered[name] = [s for s in filtered[name] if s not in slots]
        else:
            filtered[name] = []
    return OrderedDict((h, list(dict.fromkeys(filtered[h]))) for h in hosts
                       if h in filtered and filtered[h])

