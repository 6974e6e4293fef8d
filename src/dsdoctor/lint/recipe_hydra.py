"""A Hydra entry script's own config: ``@hydra.main(config_path="config", config_name="forget")`` reads
``config/forget.yaml`` beside the script (a launch's ``--config-name`` / ``-cn`` and ``--config-path`` / ``-cp``
choose another); its top-level keys are the script's options, as a training YAML's are, and the launch line's
``key=value`` overrides (``save_model=false``, ``++bits=4``) set or unset them."""

from __future__ import annotations

import os
import re
from typing import List, Optional, Set, Tuple

from ..literal_gate import gated
from .discover import _read
from .recipe import Recipe

_MAIN = gated(r"\bhydra\.main\s*\(([^)]*)\)|^[ \t]*@main\s*\(([^)]*)\)", re.M)
_KW = re.compile(r"\b(config_path|config_name)\s*=\s*['\"]([^'\"]*)['\"]")
_OVERRIDE = re.compile(r"^[+~]{0,2}([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*)=(.*)$")
_FALSE = ("false", "no", "null", "none", "~")


def _names(entry: str) -> Optional[Tuple[str, str]]:
    """(config_path, config_name) ``@hydra.main`` of ``entry`` names as literals; None where it has none."""
    text = _read(entry)
    m = _MAIN.search(text) if "hydra" in text else None
    if m is None or (m.group(2) is not None and not re.search(r"from[ \t]+hydra[ \t]+import[^\n]*\bmain\b", text)):
        return None
    kw = dict(_KW.findall(m.group(1) if m.group(1) is not None else m.group(2)))
    return kw.get("config_path", ""), kw.get("config_name", "")


def _chosen(args: List[str]) -> Tuple[Optional[str], Optional[str]]:
    """The ``--config-path`` / ``-cp`` and ``--config-name`` / ``-cn`` the launch gives, if any."""
    got = {"path": None, "name": None}  # type: dict[str, Optional[str]]
    for i, a in enumerate(args):
        for key, flags in (("path", ("--config-path", "-cp")), ("name", ("--config-name", "-cn"))):
            for flag in flags:
                if a == flag and i + 1 < len(args):
                    got[key] = args[i + 1]
                elif a.startswith(flag + "="):
                    got[key] = a[len(flag) + 1:]
    return got["path"], got["name"]


def hydra_config(entry: str, args: List[str]) -> Optional[str]:
    """The YAML a Hydra entry script reads as its config under these launch arguments; None where the script is
    no Hydra app, names its config other than by literals, or the file is not there."""
    names = _names(entry)
    if names is None:
        return None
    path, name = _chosen(args)
    path = names[0] if path is None else path
    name = names[1] if name is None else name
    if not name or "$" in name or "$" in path:
        return None
    name = name if name.endswith((".yaml", ".yml")) else name + ".yaml"
    base = path if os.path.isabs(path) else os.path.join(os.path.dirname(entry), path)
    found = os.path.normpath(os.path.join(base, name))
    return found if os.path.isfile(found) else None


def hydra_overrides(r: Recipe, args: List[str], off: Set[str]) -> None:
    """The launch's Hydra overrides (``key=value``, ``+key=value``, ``++key=value``): options set or unset (the last
    dotted part names one)."""
    for a in args:
        m = _OVERRIDE.match(a)
        if m is None:
            continue
        val = m.group(2).strip("'\"")
        r.override(m.group(1).rsplit(".", 1)[-1], val, val.lower() in _FALSE or a.startswith("~"), off)
