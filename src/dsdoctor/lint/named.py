"""A Python file named on the command line, linted in its project: ``dsdoctor lint train.py`` in a clone.

The project model (:mod:`.launched`) is built for each directory linted. A file named alone lies in a project
too (the nearest directory above it with ``.git`` or ``pyproject.toml``): its launch recipes (shell scripts,
README commands, accelerate YAML) say whether the file runs under ZeRO-3, and a helper module the ZeRO-3 launch
imports runs in that launch's process. What the model says for the named file is taken from that project, built
apart so that nothing else of the project is linted:

- ZeRO-3 when a ZeRO-3 recipe reaches it (errors, "under ZeRO-3 (the launch of ...)"), with the options those
  launches pass (a finding behind an option none passes stays a warning: the user named this file, and the
  option is one of its own; a whole-project lint makes it info);
- the modules such a launch imports, with the names it takes from them (``imported``, ``named_only``);
- files that use FSDP / Megatron-Core and not DeepSpeed (a test file named alone is linted, unlike in a
  whole-project lint).

A recipe that runs the file with a lower ZeRO stage does not turn it off: the user asked about this file and
may run it with another config; its findings stay "if run with ZeRO-3" warnings (``Usage.named_files``: in a
directory linted, a finding in a file no ZeRO-3 launch reaches is info).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Dict, List, Optional, Sequence

if TYPE_CHECKING:
    from .discover import Found


def project_root(path: str) -> Optional[str]:
    """The nearest directory at or above ``path``'s own that is a project (:func:`.discover.is_project`)."""
    from .discover import is_project

    d = os.path.dirname(os.path.abspath(path))
    while True:
        if is_project(d):
            return d
        up = os.path.dirname(d)
        if up == d:
            return None
        d = up


def named_context(paths: Sequence[str], found: "Found", tests: bool = True) -> None:
    """Fill ``found``'s project model for the Python files named in ``paths`` that no directory of ``paths``
    covers, from the project each lies in."""
    dirs = [os.path.abspath(p) for p in paths if os.path.isdir(p)]
    roots: Dict[str, List[str]] = {}
    for p in paths:
        if not p.endswith(".py") or not os.path.isfile(p):
            continue
        ap = os.path.abspath(p)
        if any(ap.startswith(d.rstrip(os.sep) + os.sep) for d in dirs):
            continue
        root = project_root(p)
        if root is not None:
            roots.setdefault(root, []).append(os.path.normpath(p))
    for root, files in roots.items():
        _take(root, files, found, tests)


def _take(root: str, files: List[str], found: "Found", tests: bool) -> None:
    from .discover import scan
    from .launched import _model
    from .test_paths import is_test

    rel = os.path.relpath(root)
    model = scan([rel], None, tests)
    _model(os.path.normpath(rel), model)
    by_abs = {os.path.abspath(k): k for k in set(model.launches) | set(model.imported) | set(model.never_zero3)}
    for f in files:
        k = by_abs.get(os.path.abspath(f))
        if k is None:
            continue
        launch = model.launches.get(k)
        if k in model.launch_flags:
            found.launch_flags[f] = set(model.launch_flags[k])
        if k in model.zero_init_off:
            found.zero_init_off.add(f)
        if launch is not None and launch[0] is True:
            found.launches[f] = launch
            found.zero3_flags[f] = set(model.zero3_flags.get(k, set()))
            found.zero3_defaults[f] = dict(model.zero3_defaults.get(k, {}))
            found.named.add(f)
        elif launch is not None:  # the project's launches do not run it under ZeRO-3: still asked about
            found.launches[f] = (None, f"not in the project's ZeRO-3 launches: {launch[1]}")
        if k in model.imported:
            found.imported[f] = model.imported[k]
            if k in model.named_only:
                found.named_only[f] = model.named_only[k]
        if k in model.never_zero3 and not is_test(k, rel):  # FSDP / Megatron-Core code; a test named alone is linted
            found.never_zero3[f] = model.never_zero3[k]
