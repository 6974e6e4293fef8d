"""Where importing a module stops: a top-level import of a project module the repository does not have.

A partial release imports its own package's modules that were never committed (``from ETrain.Models.InstructBlip
import base_model`` where ``ETrain/Models/`` has no ``InstructBlip``): Python raises ``ModuleNotFoundError`` at that
line, so nothing after it runs, and a module that imports such a module at its top level stops there too. Lint's
findings below that line describe code no run reaches (info, with the reason: lint/script ``emit``).

Only what is certain counts: an import statement at the top level (column 0: not in a ``try``, ``if`` or function),
a module path whose first part is a directory of the project found the way :mod:`.reach` finds it (the importing
file's directory, those above it up to the root, ``src/``), and a missing part below a regular package (one with an
``__init__.py`` that does not name the part: no ``__path__`` or ``sys.modules`` tricks). A part that may be built or
fetched is not missing: a file of that name with another suffix (``_C.so``, ``x.pyx``), a name git ignores, a
private or protobuf name (``_ext``, ``x_pb2``), a git submodule not checked out, a name the project's ``setup.py``
mentions. ``from pkg import name`` checks the module path ``pkg`` only (``name`` may be an attribute).
"""

from __future__ import annotations

import ast
import os
import re
from typing import TYPE_CHECKING, Dict, List, Optional, Set, Tuple

from .discover import _read
from .launch_root import unfetched_submodules
from .reach import _bases

if TYPE_CHECKING:
    from .gitignore import Ignored

Stop = Tuple[int, str]  # (line, why)
_MAX_FILES = 400  # the top-level imports followed from one file; beyond that: unknown (no stop)


class ImportStops:
    """The line each project file's import stops at, per project root, computed on demand and cached."""

    def __init__(self, root: str) -> None:
        self.root = os.path.normpath(root)
        self._stops: Dict[str, Optional[Stop]] = {}
        self._busy: Set[str] = set()
        self._setup = ""
        self._setup_read = False
        self._submodules: Optional[List[str]] = None
        self._ignored: "Optional[Ignored]" = None

    def stop(self, path: str) -> Optional[Stop]:
        """(line, why) where importing ``path`` raises ModuleNotFoundError (directly or through a project module it
        imports at its top level); None where no such import is certain."""
        path = os.path.normpath(path)
        if path in self._stops:
            return self._stops[path]
        if path in self._busy or len(self._busy) >= _MAX_FILES:
            return None  # an import cycle, or too deep to follow: unknown
        self._busy.add(path)
        try:
            got = self._first_stop(path)
        finally:
            self._busy.discard(path)
        self._stops[path] = got
        return got

    def _first_stop(self, path: str) -> Optional[Stop]:
        try:
            tree = ast.parse(_read(path, 4 * 2**20))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None
        for stmt in tree.body:
            if isinstance(stmt, ast.Import):
                mods = [(0, a.name) for a in stmt.names]
            elif isinstance(stmt, ast.ImportFrom):
                mods = [(stmt.level, stmt.module or "")]
            else:
                continue
            for level, dotted in mods:
                why = self._fails(path, level, dotted)
                if why is not None:
                    return stmt.lineno, why
        return None

    def _fails(self, path: str, level: int, dotted: str) -> Optional[str]:
        """Why importing ``dotted`` (``level`` dots) from ``path`` raises, or None."""
        if level:
            base = os.path.dirname(path) or "."
            for _ in range(level - 1):
                base = os.path.dirname(base) or "."
            if not dotted:
                return None
            return self._walk(base, dotted.split("."), dotted, relative=True)
        for base in _bases(path, self.root):
            first = dotted.split(".")[0]
            if os.path.isdir(os.path.join(base, first)) or os.path.isfile(os.path.join(base, first + ".py")):
                return self._walk(base, dotted.split("."), dotted)
        return None  # not a module of the project

    def _walk(self, base: str, parts: List[str], dotted: str, relative: bool = False) -> Optional[str]:
        cur = base
        for i, part in enumerate(parts):
            pkg = cur
            mod, sub = os.path.join(pkg, part + ".py"), os.path.join(pkg, part)
            if os.path.isdir(sub):
                init = os.path.join(sub, "__init__.py")
                if os.path.isfile(init):
                    got = self._through(init, dotted)
                    if got is not None:
                        return got
                cur = sub
                continue
            if os.path.isfile(mod):
                return self._through(mod, dotted) if i == len(parts) - 1 else None
            if (i or relative) and self._surely_missing(pkg, part):
                shown = os.path.relpath(sub, self.root)
                return f"`{'.' if relative else ''}{dotted}`: the repository has no {shown}.py or {shown}/"
            return None
        return None

    def _through(self, module: str, dotted: str) -> Optional[str]:
        inner = self.stop(module)
        if inner is None:
            return None
        return f"`{dotted}` stops at {os.path.relpath(module, self.root)}:{inner[0]}, {inner[1]}"

    def _surely_missing(self, pkg: str, part: str) -> bool:
        init = os.path.join(pkg, "__init__.py")
        if not os.path.isfile(init) or part.startswith("_") or part.endswith("_pb2"):
            return False  # a namespace package (other portions elsewhere), a private / built / generated name
        text = re.sub(r"#[^\n]*", "", _read(init, 2**20))  # a commented-out import names nothing
        if part in text or "__path__" in text or "sys.modules" in text:
            return False
        try:
            if any(n.split(".")[0] == part for n in os.listdir(pkg)):
                return False  # `part.so`, `part.pyx`, `part.cpython-311-x86_64-linux-gnu.so`
        except OSError:
            return False
        if part in self._setup_text():
            return False
        rel = os.path.relpath(os.path.join(pkg, part), self.root)
        if self._submodules is None:
            self._submodules = unfetched_submodules(self.root)
        if any(rel == m or rel.startswith(m.rstrip("/") + os.sep) or m.startswith(rel + os.sep) for m in self._submodules):
            return False
        if self._ignored is None:
            from .gitignore import Ignored

            self._ignored = Ignored(self.root)
        where = os.path.join(self.root, rel)
        return not (self._ignored(where + ".py", False) or self._ignored(where, True))

    def _setup_text(self) -> str:
        if not self._setup_read:
            self._setup_read = True
            self._setup = "".join(_read(os.path.join(self.root, f), 2**20) for f in ("setup.py", "setup.cfg",
                                                                                     "pyproject.toml")
                                  if os.path.isfile(os.path.join(self.root, f)))
        return self._setup

