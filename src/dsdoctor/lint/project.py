"""What ``dsdoctor check`` lints: the project in the current directory (launch scripts, Python, accelerate
YAML, hostfiles, .deepspeed_env, and the ds_configs they reference), merged into check's report.

Kept cheap when there is nothing to lint: a bounded directory walk first; the rules (and the hjson
reader) are imported only when that walk finds a file lint reads.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Optional

from ..model import Report

if TYPE_CHECKING:
    from ..settings import Settings

MAX_DEPTH = 2  # Python files two levels below the project directory (check is a preflight, not a repo crawl);
# the recipes at any depth, so that each script gets the launch context `dsdoctor lint .` gives it
MAX_FILES = 200
# what check's project lint reads, said in its facts beside the files (``dsdoctor lint .`` reads every level and the
# tests; both walks stop at discover.MAX_FILES level by level, so check's files are lint's where neither stops)
SCOPE = (f"Python files up to {MAX_DEPTH} directory levels down, test directories left out; launch recipes, accelerate "
         "YAMLs, hostfiles and .deepspeed_env at any depth; the configs they name (dsdoctor lint . reads every level)")


def lint_project(root: str = ".", ds_version: Optional[str] = None, python: Optional[str] = None,
                 settings: "Optional[Settings]" = None) -> Optional[Report]:
    """Lint findings for the project under ``root`` (a git root or a directory with a pyproject.toml; its test
    directories left out); None when ``root`` is no project or has nothing lint reads. ``ds_version``: the
    DeepSpeed to judge for (None: the release the project pins, else the one installed). ``settings``:
    the command's configuration (default: the one found from ``root``)."""
    from .discover import is_project, walk

    if not os.path.isdir(root) or not is_project(root) or not walk(root, MAX_DEPTH, max_files=1, tests=False):
        return None
    from . import lint

    res = lint([root], ds_version=ds_version, max_depth=MAX_DEPTH, python=python, settings=settings,
               machine=True, tests=False)  # python: versions of the checked env; machine: its CPU
    return res.report


def merge(check: Report, linted: Optional[Report]) -> Report:
    """Append lint's findings to check's report (a name check already reported from the environment,
    e.g. memlock-too-low, stays check's one); record what was linted under ``facts["lint"]``."""
    if linted is None:
        check.facts["lint"] = {"files": []}
        return check
    have = {f.name for f in check.findings}
    check.findings += [f for f in linted.findings if f.name not in have]
    check.findings.sort(key=lambda f: -f.severity.rank)
    keys = ("files", "deepspeed", "deepspeed_source", "world_size", "assumed", "not_assumed", "judged_for", "pins",
            "not_read")
    check.facts["lint"] = {k: linted.facts.get(k) for k in keys if k in linted.facts}
    check.facts["lint"]["scope"] = SCOPE
    return check
