"""The launcher's own file formats: hostfile (runner.py fetch_hostfile) and .deepspeed_env (runner.py main)."""

from __future__ import annotations

import re
from typing import Dict, List, Tuple

from ...knowledge import deepspeed as K


def hostfile_problems(text: str) -> Tuple[Dict[str, int], List[Tuple[int, str]]]:
    """(host -> slots, [(offset, message)]) exactly as fetch_hostfile/_parse_hostfile decide."""
    hosts: Dict[str, int] = {}
    problems: List[Tuple[int, str]] = []
    off = 0
    for raw in text.splitlines(keepends=True):
        line = raw.strip()
        if line and not line.startswith("#"):
            m = re.search(K.HOSTFILE_LINE, line)
            if m is None:
                problems.append((off, K.MSG_HOSTFILE_BAD.format(line=line)))
            else:
                host, slots = m.group(1), int(m.group(2))
                if host in hosts:
                    problems.append((off, K.MSG_HOSTFILE_DUPLICATE.format(host=host)))
                hosts[host] = slots
        off += len(raw)
    if not hosts and not problems:
        problems.append((0, K.MSG_HOSTFILE_EMPTY))
    return hosts, problems


def env_file_lines(text: str) -> List[Tuple[int, str]]:
    out = []
    off = 0
    for raw in text.splitlines(keepends=True):
        out.append((off, raw.rstrip("\n")))
        off += len(raw)
    return out


def env_file_vars(text: str) -> Dict[str, str]:
    got = {}
    for _, line in env_file_lines(text):
        if "=" in line:
            k, val = line.split("=", 1)
            got[k] = val.strip()
    return got
