"""A config path the entry script formats from its options: ``f'dsconfig/{args["model"]}_stage_{args["stage"]}.json'``
or ``"configs/ds_z{}.json".format(args.zero_stage)``.

The launch passes no config option; the script builds the path from options the launch does pass (``--model
openllama_peft --stage 1``). Each placeholder that reads an option (``args.x``, ``args["x"]``, ``opt.x``, a bare
name ``x``) takes the launch's value, else the default the entry script declares for it (``add_argument(...,
default=...)``, :mod:`.defaults`). A path with every placeholder known is resolved as a launch's path is (from
the entry's directory, its parents, the root). Where some placeholder stays unknown, the project's files that match
the pattern (a glob, each unknown piece any name) are the configs only when they are few (:data:`FEW`); many, or
none, resolve nothing. Only strings ending in ``.json`` count, and only files with a ZeRO stage (a config, not a
model's ``config.json``)."""

from __future__ import annotations

import ast
import glob
import os
from functools import lru_cache
from typing import Dict, List, Sequence, Set, Tuple

from .defaults import CONFLICT, declared_defaults
from .discover import _read
from .recipe import resolve
from .script.context import config_stage

FEW = 3  # at most this many project files matching a pattern with unknown pieces are taken
_MAX_BYTES = 512 * 1024  # an entry script larger than this is not parsed for formatted paths
Piece = Tuple[bool, str]  # (is a placeholder, constant text | option name or "" when not an option)


def _option(node: ast.AST) -> str:
    """The option a placeholder reads: ``args.model`` / ``args["model"]`` / ``model`` -> ``model``; "" else."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return node.attr
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        key = node.slice
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            return key.value
    if isinstance(node, ast.Name):
        return node.id
    return ""


def _fstring(node: ast.JoinedStr) -> List[Piece]:
    out: List[Piece] = []
    for v in node.values:
        if isinstance(v, ast.Constant) and isinstance(v.value, str):
            out.append((False, v.value))
        elif isinstance(v, ast.FormattedValue):
            out.append((True, _option(v.value) if v.format_spec is None and v.conversion == -1 else ""))
        else:
            return []
    return out


def _format(node: ast.Call) -> List[Piece]:
    """``"a/{}_{}.json".format(x, y)`` / ``"a/{m}.json".format(m=args.model)``: its pieces; [] where the template
    uses anything but plain ``{}`` / ``{N}`` / ``{name}`` fields."""
    func = node.func
    assert isinstance(func, ast.Attribute) and isinstance(func.value, ast.Constant)
    template = str(func.value.value)
    out: List[Piece] = []
    pos = 0
    kw = {k.arg: k.value for k in node.keywords if k.arg}
    rest: str = template
    while "{" in rest:
        head, _, tail = rest.partition("{")
        field, close, rest = tail.partition("}")
        if not close or "{" in field or ":" in field or "!" in field:
            return []
        out.append((False, head))
        if field == "" or field.isdigit():
            i = pos if field == "" else int(field)
            pos += field == ""
            out.append((True, _option(node.args[i]) if i < len(node.args) else ""))
        else:
            out.append((True, _option(kw[field]) if field in kw else ""))
    out.append((False, rest))
    return out


def _patterns(tree: ast.AST) -> List[List[Piece]]:
    """The formatted strings of ``tree`` that end in ``.json`` with at least one placeholder."""
    out: List[List[Piece]] = []
    for node in ast.walk(tree):
        pieces: List[Piece] = []
        if isinstance(node, ast.JoinedStr):
            pieces = _fstring(node)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format" \
                and isinstance(node.func.value, ast.Constant) and isinstance(node.func.value.value, str):
            pieces = _format(node)
        if pieces and any(p for p, _ in pieces) and not pieces[-1][0] and pieces[-1][1].endswith(".json"):
            out.append(pieces)
    return out


def _values(flags: Set[str]) -> Dict[str, str]:
    return dict(f.split("=", 1) for f in flags if "=" in f)


def _matches(pieces: Sequence[Piece], known: Dict[str, str], entry: str, root: str) -> List[str]:
    words = [known.get(v, "") if is_ph else v for is_ph, v in pieces]
    if all(known.get(v) for is_ph, v in pieces if is_ph):
        got = resolve("".join(words), entry, root)
        return [got] if got is not None else []
    if any(c in "".join(v for ph, v in pieces if not ph) for c in "*?[]"):
        return []
    pattern = "".join(glob.escape(w) if not ph or known.get(w_name) else "*"
                      for (ph, w_name), w in zip(pieces, words))
    if "*" in os.path.dirname(pattern) or os.path.basename(pattern).replace("*", "").strip("_-.") == "json":
        return []  # `{out}/ds.json`, `{name}.json`: the directory, or the whole name, is the unknown
    d = os.path.dirname(entry) or "."
    for base in (d, root):
        hits = sorted(glob.glob(os.path.join(glob.escape(base), pattern)))
        if hits:
            return [os.path.normpath(h) for h in hits] if len(hits) <= FEW else []
    return []


def _entry_patterns(entry: str) -> Tuple[List[List[Piece]], Dict[str, str]]:
    """The formatted ``.json`` strings of ``entry`` and the defaults its parser declares (known values only)."""
    if not os.path.isfile(entry) or os.path.getsize(entry) > _MAX_BYTES:
        return [], {}
    text = _read(entry)
    if ".json" not in text or ("{" not in text):
        return [], {}
    return _text_patterns(text)


@lru_cache(maxsize=256)  # an entry is asked once per launch reaching it
def _text_patterns(text: str) -> Tuple[List[List[Piece]], Dict[str, str]]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return [], {}
    pats = _patterns(tree)
    if not pats:
        return [], {}
    return pats, {k: v for k, v in declared_defaults(tree).items() if v not in (CONFLICT, "None")}


def formatted_configs(entry: str, flags: Set[str], root: str) -> List[str]:
    """The configs (files with a ZeRO stage) the entry script ``entry`` names by a formatted path, for a launch
    passing the options ``flags`` (``name`` / ``name=value``, :class:`.recipe.Recipe`); [] when none resolves."""
    pats, defaults = _entry_patterns(entry)
    if not pats:
        return []
    known = dict(defaults)
    known.update(_values(flags))
    out: List[str] = []
    for pieces in pats:
        for cfg in _matches(pieces, known, entry, root):
            if cfg not in out and config_stage(cfg) is not None:
                out.append(cfg)
    return out
