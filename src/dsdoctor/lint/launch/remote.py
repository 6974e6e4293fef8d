"""The commands a launch script runs on other hosts: what ``ssh`` / ``pdsh`` take as the remote command line
(read by :func:`.shell.unwrap`)."""

from __future__ import annotations

from typing import Dict, List, Optional

# programs that run a command line on other hosts: ``ssh [options] HOST COMMAND...`` (the words after the host,
# joined with spaces, are the remote shell's command line), ``pdsh -w HOSTS [options] COMMAND...``; per program the
# options that take a value (``-p 22``, ``-w node[1-4]``)
REMOTE: Dict[str, str] = {"ssh": "BbcDEeFIiJLlmOoPpQRSWw", "pdsh": "wxlRtufgXM"}


def remote_command(prog: str, argv: List[str]) -> Optional[int]:
    """The index of the first word of the command ``ssh`` / ``pdsh`` runs remotely; None when it runs none (an
    interactive login)."""
    takes = REMOTE[prog]
    i, host = 1, prog == "pdsh"  # pdsh names its hosts with -w: no host word
    while i < len(argv):
        a = argv[i]
        if a == "--":
            i += 1
            break
        if not a.startswith("-") or len(a) < 2:
            break
        i += 2 if a[-1] in takes and len(a) == 2 else 1  # -p 22 / -p22 / -tt
    if not host:
        i += 1
    return i if i < len(argv) else None
