"""launch-script-line-continuation-broken: options on the lines after a launch command whose `\\` continuation is
broken (a missing backslash, or a space after it) never reach the launcher; the shell runs them as a command."""

from __future__ import annotations

import re
from typing import Iterator, List, Optional, Tuple

from ... import names as N
from ...model import Fix, Severity
from ..rule import Example, Hit, Rule, spec
from ..target import Target

_LAUNCH = re.compile(r"(?:^|[\s;&|(])(?:deepspeed|torchrun|accelerate\s+launch|python3?\s+(?:-m\s+torch\.distributed\.\w+|"
                     r"-u\s+)?\S*\.py)(?:\s|$)")
_OPTION = re.compile(r"^[ \t]*(--[A-Za-z][\w.-]*)")
# a distributed run: a launcher that starts ranks, or DeepSpeed named on the command (another engine's
# ``python train.py`` script is not what this project's rules are about)
_DISTRIBUTED = re.compile(r"\b(?:deepspeed|torchrun|accelerate\s+launch|torch\.distributed\.(?:launch|run))\b")
_HEREDOC = re.compile(r"<<-?\s*['\"]?(\w+)['\"]?")
_ARRAY = re.compile(r"(?:^|[\s;])\w+\+?=\(")  # a bash array assignment: its lines need no `\` up to its `)`


def _cut(lines: List[str]) -> Iterator[Tuple[int, int, str, str]]:
    """(line of the first option cut off, line of the launch, the option, how the line before it ends) for each
    launch command followed by an option line it does not reach (lines 0-based)."""
    start: Optional[int] = None  # the first line of the command being read
    heredoc = ""
    depth = 0  # parentheses open in an array assignment (``CMD=(`` ... ``)``)
    for i, line in enumerate(lines):
        if heredoc:
            heredoc = "" if line.strip() == heredoc else heredoc
            continue
        array = _ARRAY.search(line) if not depth and not line.lstrip().startswith("#") else None
        if depth or array is not None:
            code = line[array.end() - 1:] if array is not None else line
            depth = max(0, depth + code.count("(") - code.count(")"))
            if depth or array is None:
                start = None
                continue
        m = _HEREDOC.search(line)
        if m is not None and not line.lstrip().startswith("#"):
            heredoc = m.group(1)
        opt = _OPTION.match(line)
        if opt is not None and start is None and i > 0:
            before, launch = _before(lines, i)
            cmd = " ".join(lines[launch:before + 1]) if launch is not None else ""
            rest = " ".join(lines[i:i + 60])
            if launch is not None and _LAUNCH.search(cmd) and (_DISTRIBUTED.search(cmd) or "--deepspeed" in rest):
                end = lines[before].rstrip("\n")
                how = "ends with `\\` and a space after it" if re.search(r"\\[ \t]+$", end) else "ends without a `\\`"
                yield i, launch, opt.group(1), how
        if start is None:
            start = i
        if not line.rstrip("\r\n").endswith("\\") or line.lstrip().startswith("#"):
            start = None


def _before(lines: List[str], i: int) -> Tuple[int, Optional[int]]:
    """The line right before ``i`` and the first line of the command it ends (None: a blank or comment line)."""
    before = i - 1
    if not lines[before].strip() or lines[before].lstrip().startswith("#"):
        return before, None
    first = before
    while first > 0 and lines[first - 1].rstrip("\r\n").endswith("\\") and not lines[first - 1].lstrip().startswith("#"):
        first -= 1
    return before, first


def check(t: Target) -> Iterator[Hit]:
    from ..script.vendored import library_repo

    lines = t.text.splitlines(keepends=True)

    lib = library_repo(t.path)  # an example script of a library's repository the project bundles: not its recipe
    seen = set()
    for i, launch, opt, how in _cut(lines):
        if launch in seen:
            continue
        seen.add(launch)
        yield RULE.hit(t, t.index.line_offset(i + 1) + len(lines[i]) - len(lines[i].lstrip()),
                       f"`{opt}` and the lines after it never reach the launch of line {launch + 1}: the line before "
                       f"{how}, so the launcher starts without them and the shell runs `{opt}` as a command"
                       + (f" (in the copy of {lib[0]}'s repository the project bundles, {lib[1]})" if lib else ""),
                       fixes=(Fix(f"end line {i} with `\\` as its very last character", "safe"),),
                       severity=Severity.INFO if lib else None)


RULE = Rule(
    spec(
        N.LAUNCH_SCRIPT_LINE_CONTINUATION_BROKEN,
        "shell",
        Severity.ERROR,
        summary="A broken `\\` line continuation in the launch script: an option ran as a command",
        what="A line starting with an option (`--tf32 True \\`) right after a launch command (`deepspeed`, `torchrun`, "
        "`accelerate launch`, or `python train.py` with `--deepspeed`) whose last line does not end with `\\`, or with `\\` and a "
        "space (not inside a bash array assignment, `CMD=(` ... `)`, whose lines need none); in a log, the shell's "
        "`run.sh: line 7: --deepspeed: command not found` (dash: `run.sh: 7: "
        "--deepspeed: not found`).",
        why="A command split over lines continues only where `\\` is the line's very last character; a missing "
        "backslash, a space or a comment after it ends the command there. The launcher starts without the options "
        "that follow, and the next line, starting with `--`, is run as a command of its own.",
        fix="End the line before with `\\` as its very last character (`grep -n '\\\\[[:space:]]\\+$' run.sh` finds a "
        "space after one).",
        section="Launch"),
    check=check,
    valid=(Example("deepspeed train.py \\\n    --deepspeed ds.json \\\n    --bf16 True\n"),
           Example("deepspeed train.py --deepspeed ds.json\n\n# --bf16 True\necho done\n"),
           Example('CMD=(\n    torchrun\n    --nproc_per_node="${NUM_GPU}"\n)\n"${CMD[@]}" train.py --deepspeed ds.json\n',
                   note="a bash array's lines need no `\\`")),
    invalid=(Example("deepspeed train.py \\\n    --deepspeed ds.json \\\n    --report_to wandb\n    --tf32 True \\\n"
                     "    --gradient_checkpointing True\n"),
             Example("torchrun --nproc_per_node 8 train.py \\ \n    --deepspeed ds.json\n",
                     note="a space after the backslash")),
)
