"""Configs nothing loads: why (a Python config with ``deepspeed = False``, a launch whose script never reads its
command line, an example of a bundled library repository only that copy launches) and their findings as info."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Optional

from .rule import Hit, as_info

if TYPE_CHECKING:
    from .discover import Found


def unloaded(path: str, found: "Found") -> Optional[str]:
    """Why nothing loads the ds_config ``path``: what names it does not load it (a Python config with
    ``deepspeed = False``, a launch whose script never reads its command line) and no recipe or code that may
    load it names it; or it lies in a bundled copy of a library's repository (its examples) and only that copy's
    own launches and code name it. None when something may load it, or nothing names it at all outside such a copy."""
    from .script.vendored import library_repo

    lib = library_repo(path)
    if lib is not None and all(_inside(p, lib[1]) for p in found.code_named.get(path, ())) and not any(
            path in r.configs and not _inside(r.where.rpartition(":")[0], lib[1]) for r in found.recipes):
        return (f"it is an example of the copy of {lib[0]}'s repository the project bundles ({lib[1]}); no launch "
                "or code of the project outside that copy names it")
    why = found.not_loaded.get(path)
    if why is None or path in found.recipe_loaded or path in found.code_named:
        return None
    return why


def _inside(path: str, directory: str) -> bool:
    return (os.path.normpath(path) + os.sep).startswith(os.path.normpath(directory) + os.sep)


def not_loaded(h: Hit, why: str) -> Hit:
    """A finding on a config nothing loads: info, saying why (DeepSpeed never reads the file as shipped)."""
    return as_info(h, f"nothing loads this config: {why}")
