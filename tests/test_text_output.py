"""``--format text``: rich colours on a terminal; plain text when stdout is not a TTY or NO_COLOR is set.
Runs the real CLI under a real pseudo-terminal (no mocking of isatty)."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "zero3-offload"
ANSI = re.compile(r"\x1b\[[0-9;]*m")

COMMANDS = {
    "lint": ["lint", str(EXAMPLE)],
    "explain": ["explain", str(EXAMPLE / "train.log")],
    "check": ["check", "--no-lint"],
}


def _env(**extra: str) -> Dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TERM", "COLUMNS")}
    env.update(TERM="xterm-256color", COLUMNS="160", **extra)
    return env


def _on_tty(argv: List[str], env: Dict[str, str]) -> Tuple[int, str]:
    """Run with stdout on a pseudo-terminal; returns (exit code, what the terminal showed)."""
    master, slave = pty.openpty()
    p = subprocess.Popen([sys.executable, "-m", "dsdoctor", *argv], stdout=slave, stderr=subprocess.DEVNULL,
                         stdin=subprocess.DEVNULL, env=env, cwd=str(REPO))
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    return p.wait(timeout=120), b"".join(chunks).decode("utf-8", "replace")


@pytest.mark.parametrize("cmd", sorted(COMMANDS))
def test_colours_only_on_a_terminal_without_no_color(cmd: str) -> None:
    argv = COMMANDS[cmd]
    rc_tty, tty = _on_tty(argv, _env())
    assert ANSI.search(tty), f"{cmd}: no colour on a terminal:\n{tty[:2000]}"
    rc_nc, no_color = _on_tty(argv, _env(NO_COLOR="1"))
    assert not ANSI.search(no_color), f"{cmd}: colour despite NO_COLOR:\n{no_color[:2000]}"
    piped = subprocess.run([sys.executable, "-m", "dsdoctor", *argv], capture_output=True, text=True, env=_env(),
                           cwd=str(REPO), timeout=120)
    assert not ANSI.search(piped.stdout), f"{cmd}: colour in a pipe"
    # the same words either way: colour is decoration only
    assert ANSI.sub("", tty).split() == no_color.split() == piped.stdout.split() or cmd == "check"
    assert rc_tty == rc_nc == piped.returncode
