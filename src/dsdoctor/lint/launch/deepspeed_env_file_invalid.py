"""deepspeed-env-file-invalid: .deepspeed_env lines the launcher crashes on or exports wrongly."""

from __future__ import annotations

import os
import re
from typing import Iterator

from ... import names as N
from ...knowledge import deepspeed as K
from ...launcherfiles import env_file_lines
from ...model import Severity
from ..rule import Edit, Example, Hit, Rule, as_info, spec
from ..target import Target


def _no_launch_reads(t: Target) -> str:
    """Why no launch of the project reads this file ("" where one may): only the deepspeed launcher's multi-node
    runner reads it, from the directory it is started in (and the home directory), so only launches in this file's
    directory or below it count."""
    if t.usage.ds_launcher is False:
        return "no launch of the project does"
    here = os.path.dirname(os.path.abspath(t.path)) + os.sep
    if t.usage.ds_launch_files and not any(f.startswith(here) for f in t.usage.ds_launch_files):
        return f"no launch in {os.path.dirname(t.path) or '.'} or below it does (the runner reads the file of the directory it starts in)"
    return ""


def check(t: Target) -> Iterator[Hit]:
    why = _no_launch_reads(t)
    if why:
        for h in _problems(t):
            yield as_info(h, f"only if launched with the deepspeed launcher on several nodes, which {why}: only its "
                             "multi-node runner reads this file")
        return
    yield from _problems(t)


def _problems(t: Target) -> Iterator[Hit]:
    quotes = K.env_file_quotes_values(t.usage.ds)
    for off, line in env_file_lines(t.text):
        err = K.env_file_parse_error(line)
        if err is not None:
            what = "a blank line" if not line.strip() else ("a comment (no comment support)" if line.lstrip().startswith("#")
                                                             else "a line without '='")
            yield RULE.hit(t, off, f"{what}: the launcher fails with {err}",
                           edits=(Edit(t.path, off, off + len(line) + 1, "", "safe", "delete the line"),))
            continue
        key, val = line.split("=", 1)
        if line.lstrip().startswith("#"):
            yield RULE.hit(t, off, f"a comment line becomes a variable named {key.strip()!r} (no comment support)",
                           severity=Severity.WARNING,
                           edits=(Edit(t.path, off, off + len(line) + 1, "", "safe", "delete the line"),))
        elif not quotes and not re.match(K.ENV_FILE_SAFE_VALUE, val.strip()):
            yield RULE.hit(t, off, f"{key}: the value {val.strip()!r} is exported unquoted by DeepSpeed {t.usage.ds} "
                           "(quoting arrived in 0.16.5): the remote shell splits or interprets it",
                           severity=Severity.WARNING)


RULE = Rule(
    spec(
        N.DEEPSPEED_ENV_FILE_INVALID,
        "deepspeed_env",
        Severity.ERROR,
        summary=".deepspeed_env has lines the launcher cannot parse",
        what="Blank lines, comment lines or lines without `=` (the runner does `key, val = line.split('=', 1)`), and "
         "values with spaces or shell characters before 0.16.5 (exported unquoted). Only the deepspeed launcher's "
         "multi-node runner reads the file: where no launch of the project uses that launcher, info.",
        why="A blank line raises `ValueError: not enough values to unpack` in the launcher; `# A=1` defines a variable "
        "named `# A`.",
        fix="One KEY=VALUE per line, nothing else (safe --fix deletes blank and comment lines).",
        section="Launch"),
    check=check,
    valid=(Example("DS_SKIP_CUDA_CHECK=1\nNCCL_DEBUG=INFO\n"),
           Example("HF_HOME=~/.cache/hf\n", (("ds", "0.10.0"),),
                   note="exported unquoted before 0.16.5: the remote shell expands the leading ~ to its user's home, "
                        "as the value means")),
    invalid=(Example("DS_SKIP_CUDA_CHECK=1\n\nCUDA_HOME=/usr/local/cuda\n",
                     fixed="DS_SKIP_CUDA_CHECK=1\nCUDA_HOME=/usr/local/cuda\n"),
             Example("# env\nDS_SKIP_CUDA_CHECK=1\n", fixed="DS_SKIP_CUDA_CHECK=1\n")),
)
