"""Findings inside a vendored copy of a known library (issue 18: LongVA ships trl as ``longva/trl``).

A directory named after a library the project could install instead (``trl``, ``peft``, ``transformers``,
``accelerate``, ``deepspeed``, ``diffusers``; or that name with a suffix: suri's ``ft/lib/trl_mod``), a package
(``__init__.py``) with that library's layout (``LAYOUT``), and not the library's own repository (no setup.py /
pyproject.toml beside it naming it), is a vendored copy. Its functions are library code paths: a k-bit branch of a
loader runs only with the arguments a caller passes. A finding inside a function or method of such a copy is info
unless the project's own code (its Python files outside the copy) names that function, its class or a class of the
copy derived from it: then the project may call it with the triggering arguments and the finding keeps its severity
(a name an own file binds to another module, ``from handbook import get_quantization_config``, or defines as its
own top-level function, is not the copy's).
Module-level code (run on import) is not demoted, unless the file is a script of the copy nothing starts or imports.
"""

from __future__ import annotations

import ast
import os
import re
from functools import lru_cache
from typing import Dict, FrozenSet, List, Optional, Set, Tuple

from ..reading import read_text

# library -> the entries (files / package directories) its import package has. Checked against the releases
# unpacked by scripts/upstream (.cache/upstream): every transformers (144), peft (33) and deepspeed (124) release
# read has them; trl from 0.1.1 on (0.0.1-0.1.0 have neither); accelerate from 0.8.0 on (0.1-0.7 have utils.py, so
# a copy of those is not recognised). diffusers' pair is not checked against releases (none are read); trlx (CarperAI,
# never on PyPI) has both in its repository's history from November 2022 on (read in its git history).
LAYOUT: Dict[str, Tuple[str, ...]] = {
    "trl": ("trainer", "models"),
    "transformers": ("modeling_utils.py", "models"),
    "peft": ("peft_model.py", "tuners"),
    "accelerate": ("accelerator.py", "utils"),
    "deepspeed": ("runtime", "ops"),
    "diffusers": ("pipelines", "models"),
    "trlx": ("trlx.py", "pipeline"),
}
_CLASS = re.compile(r"^[ \t]*class[ \t]+(\w+)[ \t]*\(([^)]*)\)", re.M)


@lru_cache(maxsize=256)
def library_copy(path: str) -> Optional[str]:
    """The vendored library directory ``path`` lies in (``longva/trl``), or None."""
    d = os.path.dirname(os.path.normpath(path))
    while d and d not in (".", os.sep):
        name = os.path.basename(d)
        if _is_copy(d, name):
            return d
        d = os.path.dirname(d)
    return None


_RENAMED = re.compile(r"^(" + "|".join(LAYOUT) + r")[_-]\w+$")  # ``trl_mod``, ``peft_local``: a copy kept under another name


def _is_copy(d: str, name: str) -> bool:
    """Is the directory ``d`` (named ``name``, or the library's name with a suffix) a vendored copy of a known
    library?"""
    renamed = _RENAMED.match(name)
    marks = LAYOUT.get(renamed.group(1) if renamed else name, ())
    return bool(marks) and os.path.isfile(os.path.join(d, "__init__.py")) and \
        all(os.path.exists(os.path.join(d, m)) for m in marks) and not _own_repo(d, name)


@lru_cache(maxsize=256)
def library_repo(path: str) -> Optional[Tuple[str, str]]:
    """(library, directory) when ``path`` lies in a copy of a known library's whole repository bundled inside the
    project (``dpkd/transformers``: a setup.py / pyproject.toml naming transformers, the package in
    ``transformers/`` or ``src/transformers/``), or None. Paths are taken relative to the current directory (the
    linted root): the root itself being that library's repository is no copy, and a path outside it is not judged."""
    rel = os.path.relpath(path) if os.path.isabs(path) else os.path.normpath(path)
    if rel.startswith(".."):
        return None
    d = os.path.dirname(rel)
    while d:
        for name in LAYOUT:
            if _names_itself(d, name) and copy_package(d, name) is not None:
                return name, d
        d = os.path.dirname(d)
    return None


def copy_package(d: str, name: str) -> Optional[str]:
    """The package directory of a library's repository copied at ``d``: ``d/name`` or ``d/src/name``."""
    return next((p for p in (os.path.join(d, name), os.path.join(d, "src", name)) if os.path.isdir(p)), None)


def _own_repo(d: str, name: str) -> bool:
    """Is ``d`` the library's own package (its repository's setup.py / pyproject.toml beside it names it)?"""
    return _names_itself(os.path.dirname(d) or ".", name)


def _names_itself(parent: str, name: str) -> bool:
    """Does the setup.py / pyproject.toml / setup.cfg in ``parent`` name the package ``name``?"""
    return re.search(rf"""\bname\s*=\s*["']?{re.escape(name)}["']?\s*(?:[,\n]|$)""", _setup_text(parent), re.M) is not None


@lru_cache(maxsize=512)
def _setup_text(parent: str) -> str:
    """The setup.py, pyproject.toml and setup.cfg of ``parent`` (1 MiB of each), one per line block."""
    parts = []
    for f in ("setup.py", "pyproject.toml", "setup.cfg"):
        path = os.path.join(parent, f)
        if os.path.exists(path):
            parts.append(_read(path, 1 << 20))
    return "\n".join(parts)


def enclosing(text: str, line: int, cache: Dict[str, object]) -> Optional[Tuple[Optional[str], str]]:
    """(class, function) of the innermost function holding ``line`` (class None for a function outside any class;
    the outermost class of a method); None at module level or when the text does not parse."""
    spans = cache.get("spans")
    if not isinstance(spans, list):
        spans = []
        try:
            _spans(ast.parse(text), None, spans)
        except (SyntaxError, ValueError, RecursionError):
            pass
        cache["spans"] = spans
    best: Optional[Tuple[int, Optional[str], str]] = None
    for first, last, cls, fn in spans:
        if first <= line <= last and (best is None or first >= best[0]):
            best = (first, cls, fn)
    return None if best is None else (best[1], best[2])


def _spans(node: ast.AST, cls: Optional[str], out: List[Tuple[int, int, Optional[str], str]]) -> None:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.ClassDef):
            _spans(child, cls or child.name, out)
        elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out.append((child.lineno, child.end_lineno or child.lineno, cls, child.name))
            _spans(child, cls, out)


@lru_cache(maxsize=16)
def _subclasses(lib: str) -> Dict[str, FrozenSet[str]]:
    """Class name -> the classes of the copy derived from it (by base name, transitively), itself included."""
    bases: Dict[str, List[str]] = {}
    for d, _, files in os.walk(lib):
        for f in files:
            if f.endswith(".py"):
                for m in _CLASS.finditer(_read(os.path.join(d, f))):
                    for b in re.findall(r"\w+", m.group(2)):
                        bases.setdefault(b, []).append(m.group(1))
    out: Dict[str, FrozenSet[str]] = {}
    for name in list(bases):
        seen, todo = {name}, [name]
        while todo:
            for sub in bases.get(todo.pop(), []):
                if sub not in seen:
                    seen.add(sub)
                    todo.append(sub)
        out[name] = frozenset(seen)
    return out


@lru_cache(maxsize=16)
def _own_texts(root: str, lib: str) -> Tuple[str, ...]:
    """The texts of the project's own Python files under ``root``: those outside the copy ``lib`` and outside every
    other vendored copy (a second copy of the same library names all of the first's classes)."""
    parts: List[str] = []
    skip = os.path.normpath(lib) + os.sep
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if not x.startswith(".") and x not in ("node_modules", "site-packages")
                   and not _is_copy(os.path.join(d, x), x)]
        for f in files:
            p = os.path.normpath(os.path.join(d, f))
            if f.endswith(".py") and not p.startswith(skip):
                parts.append(_read(p))
    return tuple(parts)


@lru_cache(maxsize=16)
def _own_files(root: str, lib: str) -> Tuple[Tuple[str, FrozenSet[str]], ...]:
    """The project's own Python files (as :func:`_own_texts`): each one's text and the names it binds to something
    else than the copy ``lib`` (a top-level function of its own, or a name imported from a module that is not the
    copy's): alignment-handbook's own ``get_quantization_config`` beside a copy of trl that has one too."""
    out: List[Tuple[str, FrozenSet[str]]] = []
    pkg = os.path.basename(os.path.normpath(lib))
    for text in _own_texts(root, lib):
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError):
            out.append((text, frozenset()))
            continue
        # its own top-level functions (a class of that name may derive from the copy's), and names imported from
        # another module
        other = [n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and pkg not in (node.module or "").split("."):
                other += [a.asname or a.name for a in node.names]
        out.append((text, frozenset(other)))
    return tuple(out)


def _own_names(root: str, lib: str, names: Set[str]) -> bool:
    """Does the project's own code name one of ``names`` where it may be the copy's (not a name it binds to another
    module's function or defines itself)?"""
    return any(n not in other and re.search(rf"\b{re.escape(n)}\b", text)
               for text, other in _own_files(root, lib) for n in names)


@lru_cache(maxsize=256)
def _imported_in(lib: str, module: str) -> bool:
    """Does a file of the copy ``lib`` import ``module`` (an import line naming it)?"""
    pat = re.compile(rf"^[ \t]*(?:from|import)[ \t][^\n]*\b{re.escape(module)}\b", re.M)
    for d, _, files in os.walk(lib):
        if any(f.endswith(".py") and pat.search(_read(os.path.join(d, f))) for f in files):
            return True
    return False


def _read(path: str, limit: int = 2 << 20) -> str:
    """The file's text as ``open(path)`` reads it (universal newlines), never waiting on a FIFO (lint/reading.py)."""
    return read_text(path, limit).replace("\r\n", "\n").replace("\r", "\n")


def library_path(path: str, text: str, line: int, cache: Dict[str, object], started: bool = False) -> Optional[str]:
    """Why a finding at ``line`` of ``path`` is a library path the project does not take (a note for the title),
    or None: not in a vendored copy, or the project's own code names the function or its class. At module level:
    a script of the copy (its ``commands/scripts/ppo.py``) that no recipe starts (``started``), no file of the copy
    imports and no file of the project's own names; other module-level code runs on import and keeps its
    severity."""
    lib = library_copy(path)
    if lib is None:
        return None
    root = "." if not os.path.isabs(path) and not path.startswith("..") else os.path.dirname(lib) or "."
    where = enclosing(text, line, cache)
    if where is None:
        module = os.path.splitext(os.path.basename(path))[0]
        if started or module == "__init__" or _imported_in(lib, module) or \
                any(re.search(rf"\b{re.escape(module)}\b", text) for text in _own_texts(root, lib)):
            return None  # it runs on import, or may
        return (f"in {os.path.basename(path)}, a script of the vendored {os.path.basename(lib)} copy {lib} that no "
                "recipe of the project starts and its own code never imports")
    cls, fn = where
    names = set(_subclasses(lib).get(cls, frozenset({cls}))) if cls else {fn}
    if _own_names(root, lib, names):
        return None
    what = f"{cls}.{fn}" if cls else f"{fn}()"
    return (f"in {what} of the vendored {os.path.basename(lib)} copy {lib}, which the project's own code never "
            "names: a library path taken only with arguments its callers pass")
