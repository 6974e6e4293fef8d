"""Configs that nothing in their project names: no launch line, script, README, doc or other config mentions the
file (by its name, its name without the extension, or a name pattern with a variable, ``zero${STAGE}.json``; a path
written with a directory that leads to another existing file, ``conf/zero3.yaml`` for ``deploy/conf/zero3.yaml``,
names that file, not this one; ``./zero3.yaml`` is a bare name). The text searched is the linted directory's, not the working directory's.

In a project whose recipes launch other configs, such a file is one a user may pick by hand, and no shipped recipe
runs it: its errors and warnings are info, and say so (as a problem behind an option no ZeRO-3 launch passes). A
config any recipe, Python code or accelerate YAML hands over, or that some text names, keeps them."""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Dict, FrozenSet, List, Optional, Set, Tuple

if TYPE_CHECKING:
    from .discover import Found

WHY = "no launch, script, README, doc or other config of the project names this config"
_TEXT = (".sh", ".bash", ".slurm", ".sbatch", ".py", ".md", ".mdx", ".rst", ".txt", ".yaml", ".yml", ".json", ".hjson",
         ".toml", ".cfg", ".ini", ".ipynb", ".env")
_PLAIN = ("Makefile", "Dockerfile", "justfile")
_TEMPLATE = re.compile(r"(?<![\w./+-])[\w./+-]*(?:\$\{?\w+\}?|\{\w*\}|%s|%\(\w+\)s)[\w./${}%()+-]*\.(?:h?json|ya?ml)\b")
_VARS = re.compile(r"\\\$(?:\\\{)?\w+(?:\\\})?|\\\{\w*\\\}|%s|%\\\(\w+\\\)s")  # a variable, escaped
_MAX_FILES = 20000
_MAX_CHAIN = 8  # configs naming configs: past this many, taken as named
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
                loose = not f.endswith(".py") or "deepspeed" in text.lower()
                pats.extend(x for x in (_pattern(m.group(0), loose) for m in _templates(text)) if x)
        if len(out) > _MAX_FILES:
            got = None
            break
    _cache[key] = got
    return got


def _templates(text: str) -> "List[re.Match[str]]":
    """The config names written with a variable in ``text``; lines over 4 KiB (a notebook's base64 output, minified
    JSON) are skipped: the pattern backtracks over such tokens for minutes, and no launch writes a name there."""
    if "json" not in text and ".y" not in text:
        return []
    return [m for line in text.splitlines() if len(line) <= 4096 and ("$" in line or "{" in line or "%" in line)
            and ("json" in line or ".y" in line) for m in _TEMPLATE.finditer(line)]


def _pattern(written: str, loose: bool = True) -> "Optional[re.Pattern[str]]":
    """The config paths a name written with a variable may stand for (matched whole against a project path): by
    its file name (``zero${STAGE}.json``), or, where the file name is only a variable (``data/{split}.json``), by
    its directory too (a data file's template names no config of another directory). A file name that is only a
    variable in no directory may be any config, unless ``loose`` is false (Python code that never names DeepSpeed
    formats data files' names, ``f"./{split}.json"``): None."""
    name = re.escape(os.path.basename(written))
    base = _VARS.sub("[^/]*", name)
    folder = os.path.dirname(written)
    while folder.startswith("./"):
        folder = folder[2:]
    if re.fullmatch(r"\\\.\w+", _VARS.sub("", name)) and folder not in ("", "."):
        return re.compile("(?:.*/)?" + _VARS.sub(".*", re.escape(folder)) + "/" + base)
    if not loose and re.fullmatch(r"\\\.\w+", _VARS.sub("", name)):
        return None
    return re.compile("(?:.*/)?" + base)


def why_unmentioned(path: str, found: "Found", root: Optional[str] = None) -> Optional[str]:
    """Why nothing launches the config ``path`` (:data:`WHY`, or the configs nobody names that alone name it);
    None when something may. ``root``: the project whose text is searched, by default the directory linted that
    holds the config (not the working directory)."""
    p = os.path.normpath(path)
    if root is None:
        root = next((r for r in found.roots if _under(p, r)), None)
    if root is None or not _under(p, root) or not any(r.configs or r.yaml for r in found.recipes):
        return None
    namers = _namers(p, found, root, frozenset())
    if namers is None:
        return None
    if not namers:
        return WHY
    return (f"only {', '.join(sorted(namers))}, which no launch, script or doc of the project selects, names this "
            "config")


def _under(p: str, root: str) -> bool:
    """Is ``p`` inside the linted directory ``root``, written the same way (``.``: a relative path not above it;
    ``/abs/proj`` or ``../proj``: a path below it)?"""
    root = os.path.normpath(root)
    if root == ".":
        return not os.path.isabs(p) and not p.startswith("..")
    return p.startswith(root.rstrip(os.sep) + os.sep)


def _namers(p: str, found: "Found", root: str, seen: FrozenSet[str]) -> Optional[Set[str]]:
    """The files naming config ``p``, all of them configs nothing launches (empty: nothing names it); None when
    something that may launch it names it (a recipe, code, a script, a doc, a config some launch reaches). Each
    config's answer is computed once per project (configs naming each other by stem made the walk exponential: a
    repository with many such configs never finished); a config met again on the chain being read counts as
    unlaunched, as before."""
    key = (os.path.realpath(root), p)
    if key not in found.namers_memo:
        found.namers_memo[key] = _namers_of(p, found, root, seen)
    return found.namers_memo[key]


def _namers_of(p: str, found: "Found", root: str, seen: FrozenSet[str]) -> Optional[Set[str]]:
    if p in found.code_named or p in found.not_loaded or len(seen) > _MAX_CHAIN:
        return None
    seen = seen | {p}
    namers: Set[str] = set()
    if p in found.recipe_loaded or p in found.loaded_by:
        by = {os.path.normpath(r.file) for r in found.recipes if p in r.configs}
        if not by or any(not _unlaunched_config(q, found, root, seen) for q in by):
            return None
        namers |= by
    got = _texts(root)
    if got is None:
        return None
    texts, pats = got
    base = os.path.basename(p)
    if any(pat.fullmatch(p) for pat in pats):
        return None
    word = os.path.splitext(base)[0]
    stem = re.compile(r"(?<![\w+-])" + re.escape(word) + r"(?![\w+-])")
    for q, t in texts:  # the substring test first: a pattern opening with a lookbehind is searched at every offset
        # not the bare name: infer_single_node.yaml names no single_node.yaml
        if q != p and word in t and any(not _elsewhere(t, m, q, p, root) for m in stem.finditer(t)):
            if not _unlaunched_config(q, found, root, seen):
                return None
            namers.add(q)
    return namers


_PATH_CHARS = re.compile(r"[\w./+-]*")
_MAX_PATH = 512  # characters of a path around a name


def _elsewhere(text: str, m: "re.Match[str]", q: str, p: str, root: str) -> bool:
    """Is the name at ``m`` (in file ``q``) part of a path with a directory that resolves, from ``q``'s directory or
    the root, to another existing file than ``p`` (a README's ``conf/zero3.yaml`` names the root's copy, not
    ``deploy/conf/zero3.yaml``)? A path that resolves nowhere may still mean ``p``."""
    start, stop = m.start(), max(0, m.start() - _MAX_PATH)  # (bounded: a megabyte of `a/a/a/...` stays linear)
    while start > stop and _PATH_CHARS.fullmatch(text[start - 1]):
        start -= 1
    token = _PATH_CHARS.match(text, start, m.end() + _MAX_PATH)
    written = token.group(0).rstrip(".") if token else ""  # (a sentence's full stop)
    while written.startswith("./"):  # `./ds_config.json` is a bare name: any directory's file of that name may be meant
        written = written[2:]
    if "/" not in written:
        return False
    places = {os.path.normpath(os.path.join(d, written)) for d in (os.path.dirname(q), root)}
    return p not in places and any(os.path.isfile(x) for x in places)


def _unlaunched_config(q: str, found: "Found", root: str, seen: FrozenSet[str]) -> bool:
    """Is ``q`` a config (a ds_config, or an accelerate YAML: a launch's own settings, not a training YAML, which
    is a recipe of its own) that nothing launching names, itself (configs naming each other launch none)?"""
    q = os.path.normpath(q)
    kind = found.kinds.get(q, found.kinds.get("./" + q))
    if kind == "accelerate":
        if not any(r.launcher is None and r.flag_loaded_by == "accelerate" and
                   os.path.normpath(r.file) == q for r in found.recipes):
            return False
    elif kind != "ds_config":
        return False
    return q in seen or _namers(q, found, root, seen) is not None
