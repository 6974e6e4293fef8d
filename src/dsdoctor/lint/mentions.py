"""Configs that nothing in their project names: no launch line, script, README, doc or other config mentions the
file (by its name, its name without the extension, or a name pattern with a variable, ``zero${STAGE}.json``).

In a project whose recipes launch other configs, such a file is one a user may pick by hand, and no shipped recipe
runs it: its errors and warnings are info, and say so (as a problem behind an option no ZeRO-3 launch passes). A
config any recipe, Python code or accelerate YAML hands over, or that some text names, keeps them."""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Dict, List, Optional, Tuple

if TYPE_CHECKING:
    from .discover import Found

WHY = "no launch, script, README, doc or other config of the project names this config"
_TEXT = (".sh", ".bash", ".slurm", ".sbatch", ".py", ".md", ".mdx", ".rst", ".txt", ".yaml", ".yml", ".json", ".hjson",
         ".toml", ".cfg", ".ini", ".ipynb", ".env")
_PLAIN = ("Makefile", "Dockerfile", "justfile")
_TEMPLATE = re.compile(r"[\w./+-]*(?:\$\{?\w+\}?|\{\w*\}|%s|%\(\w+\)s)[\w./${}%()+-]*\.(?:h?json|ya?ml)\b")
_MAX_FILES = 20000
_cache: Dict[str, Optional[Tuple[List[Tuple[str, str]], List["re.Pattern[str]"]]]] = {}


def _texts(root: str) -> Optional[Tuple[List[Tuple[str, str]], List["re.Pattern[str]"]]]:
    """(path, text) of the project's text files and the config-name patterns they write with a variable; None
    when there are too many files to tell."""
    key = os.path.realpath(root)
    if key in _cache:
        return _cache[key]
    from .discover import _read

    out: List[Tuple[str, str]] = []
    pats: List["re.Pattern[str]"] = []
    got: Optional[Tuple[List[Tuple[str, str]], List["re.Pattern[str]"]]] = (out, pats)
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if not x.startswith(".") and x not in ("node_modules", "__pycache__")]
        for f in files:
            if f.endswith(_TEXT) or f in _PLAIN or f.lower().startswith("readme"):
                p = os.path.normpath(os.path.join(d, f))
                text = _read(p, 2 * 2**20)
                out.append((p, text))
                for m in _TEMPLATE.finditer(text):
                    pat = re.sub(r"\\\$\\\{?\w+\\\}?|\\\{\w*\\\}|%s|%\\\(\w+\\\)s", ".*",
                                 re.escape(os.path.basename(m.group(0))))
                    pats.append(re.compile(pat))
        if len(out) > _MAX_FILES:
            got = None
            break
    _cache[key] = got
    return got


def unmentioned(path: str, found: "Found", root: str = ".") -> bool:
    """Is the config ``path`` (under ``root``) one that no recipe loads and no other text file of the project names,
    in a project whose recipes launch configs?"""
    p = os.path.normpath(path)
    if os.path.isabs(p) or p.startswith("..") or not any(r.configs or r.yaml for r in found.recipes):
        return False
    if p in found.recipe_loaded or p in found.loaded_by or p in found.code_named or p in found.not_loaded:
        return False
    got = _texts(root)
    if got is None:
        return False
    texts, pats = got
    base = os.path.basename(p)
    stem = re.compile(r"(?<![\w+-])" + re.escape(os.path.splitext(base)[0]) + r"(?![\w+-])")
    if any(q != p and (base in t or stem.search(t)) for q, t in texts):
        return False
    return not any(pat.fullmatch(base) for pat in pats)
