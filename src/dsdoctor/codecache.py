"""The code of the methods ``dataclasses`` writes, compiled once and kept beside dsdoctor's bytecode.

Every ``@dataclass`` class makes ``dataclasses`` write the source text of its ``__init__``, ``__repr__``,
``__eq__``, ``__hash__`` (and, frozen, ``__setattr__`` / ``__delattr__``) and ``exec`` it: a compile per method,
in every process. libcst declares about 200 frozen dataclass nodes, so that compile is about 0.1 CPU s of each
``dsdoctor lint`` that parses a Python file with libcst, and dsdoctor's own classes add to every start.

While :func:`installed` is active, ``dataclasses``' ``exec`` of a text looks the text up in a table of compiled
code objects (one file per top-level package, ``marshal``-ed, under the directory of this module's own
bytecode: ``__pycache__`` or ``PYTHONPYCACHEPREFIX``), compiles and adds it where it is missing, and runs it.
The key is the whole text, and the file is tied to the exact interpreter (``sys.version``), so the result is
the one ``exec`` of the text gives: only the compile is saved. Like bytecode, nothing is written where
``sys.dont_write_bytecode`` is set or the directory cannot be written, and a file that cannot be read is
ignored.
"""

from __future__ import annotations

import builtins
import marshal
import os
import sys
from contextlib import contextmanager
from typing import Any, Dict, Iterator, Optional, Set, Tuple

__all__ = ["installed"]

MAX_CODES = 4000  # a table grown past this (many versions of a package) is rewritten with this run's texts only


class _Table:
    """The compiled texts of one top-level package: read on first use, written back when some were new."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.codes: Dict[str, Any] = _read(path)
        self.used: Set[str] = set()
        self.new = False

    def code(self, text: str) -> Any:
        got = self.codes.get(text)
        if got is None:
            got = self.codes[text] = compile(text, "<string>", "exec", dont_inherit=True)
            self.new = True
        self.used.add(text)
        return got

    def write(self) -> None:
        codes = self.codes if len(self.codes) <= MAX_CODES else {t: self.codes[t] for t in self.used}
        tmp = f"{self.path}.{os.getpid()}.tmp"
        try:
            with open(tmp, "wb") as fh:
                marshal.dump((sys.version, codes), fh)
            os.replace(tmp, self.path)
        except (OSError, ValueError):
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _read(path: str) -> Dict[str, Any]:
    try:
        with open(path, "rb") as fh:
            version, codes = marshal.load(fh)
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    return codes if version == sys.version and isinstance(codes, dict) else {}


def _directory() -> Optional[str]:
    """Where this module's bytecode is (and so the tables): None where bytecode is not cached."""
    cached = globals().get("__cached__")
    return os.path.dirname(cached) if isinstance(cached, str) else None


@contextmanager
def installed() -> Iterator[None]:
    """``dataclasses`` compiles each method text once across runs while in this context (see the module)."""
    import dataclasses

    where, module = _directory(), vars(dataclasses)
    if where is None or "exec" in module:
        yield
        return
    tables: Dict[str, _Table] = {}
    tag = getattr(sys.implementation, "cache_tag", None) or "python"

    def table(package: str) -> _Table:
        got = tables.get(package)
        if got is None:
            got = tables[package] = _Table(os.path.join(where, f"dataclass-code.{package}.{tag}.marshal"))
        return got

    def cached_exec(source: Any, globals_: Optional[Dict[str, Any]] = None, locals_: Any = None) -> None:
        if globals_ is None:  # exec's default where dataclasses calls it: its own module's globals
            globals_ = module
        if isinstance(source, str):
            package = str(globals_.get("__name__") or "").partition(".")[0]
            if package.isidentifier():
                source = table(package).code(source)
        builtins.exec(source, globals_, locals_)

    module["exec"] = cached_exec  # a global of dataclasses' own: it shadows the builtin there alone
    try:
        yield
    finally:
        module.pop("exec", None)
        if not sys.dont_write_bytecode:
            for t in _new(tables):
                t.write()


def _new(tables: Dict[str, _Table]) -> Tuple[_Table, ...]:
    return tuple(t for t in tables.values() if t.new and os.path.isdir(os.path.dirname(t.path)))
