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

The same holds for regular expressions (:func:`_regexes`): ``re`` parses a pattern and assembles its program in
Python (0.03-0.1 CPU s of each ``dsdoctor lint``: some 400 patterns, most compiled at import, many of them long
alternations) before handing the program to ``_sre.compile``. While :func:`installed` is active, the arguments
of that last call, recorded the first time, are looked up by (pattern, flags) in a table beside the others and
given to ``_sre.compile`` again: the same compiled pattern, without the parse. A pattern the table cannot hold
(its program does not ``marshal``), one compiled with ``re.DEBUG``, and a pattern ``re`` refuses go through
``re`` as before.
"""

from __future__ import annotations

import builtins
import marshal
import os
import re
import sys
import threading
from contextlib import ExitStack, contextmanager
from typing import Any, Callable, Dict, Iterator, List, Optional, Set, Tuple

__all__ = ["installed"]

MAX_CODES = 4000  # a table grown past this (many versions of a package) is rewritten with this run's texts only


def _compiled(text: Any) -> Any:
    return compile(text, "<string>", "exec", dont_inherit=True)


class _Table:
    """What was compiled from each key (a method text of one top-level package; a pattern and its flags), made by
    ``make`` where missing: read on first use, written back when some were new."""

    def __init__(self, path: str, make: Callable[[Any], Any] = _compiled) -> None:
        self.path = path
        self.codes: Dict[Any, Any] = _read(path)
        self.used: Set[Any] = set()
        self.new = False
        self.make = make

    def code(self, key: Any) -> Any:
        if key in self.codes:
            got = self.codes[key]
        else:
            got = self.codes[key] = self.make(key)
            self.new = True
        self.used.add(key)
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
            version, codes = marshal.loads(fh.read())  # load(fh) reads object by object: ten times slower
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    return codes if version == sys.version and isinstance(codes, dict) else {}


def _directory() -> Optional[str]:
    """Where this module's bytecode is (and so the tables): None where bytecode is not cached."""
    cached = globals().get("__cached__")
    return os.path.dirname(cached) if isinstance(cached, str) else None


@contextmanager
def installed() -> Iterator[None]:
    """``dataclasses`` compiles each method text, ``re`` each pattern, once across runs while in this context
    (see the module)."""
    where = _directory()
    if where is None:
        yield
        return
    tag = getattr(sys.implementation, "cache_tag", None) or "python"
    with ExitStack() as stack:
        stack.enter_context(_regexes(where, tag))
        stack.enter_context(_dataclass_code(where, tag))
        yield


@contextmanager
def _dataclass_code(where: str, tag: str) -> Iterator[None]:
    import dataclasses

    module = vars(dataclasses)
    if "exec" in module:
        yield
        return
    tables: Dict[str, _Table] = {}

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


_SWAP = threading.Lock()  # the recording swaps a module global of re's compiler: one thread at a time


@contextmanager
def _regexes(where: str, tag: str) -> Iterator[None]:
    """``re``'s compiler gives each pattern's recorded program to ``_sre.compile`` (see the module)."""
    compiler: Any = getattr(re, "_compiler", None) or getattr(re, "sre_compile", None)  # 3.11+ / 3.9-3.10
    real = getattr(compiler, "compile", None)
    sre = getattr(compiler, "_sre", None)
    if real is None or sre is None or getattr(real, "__qualname__", "").startswith(_regexes.__name__):
        yield
        return
    table = _Table(os.path.join(where, f"regex-code.{tag}.marshal"), lambda key: _program(compiler, real, key))

    def cached(p: Any, flags: Any = 0) -> Any:
        if isinstance(p, (str, bytes)) and isinstance(flags, int) and not flags & re.DEBUG:
            args = table.code((p, int(flags)))
            if args is not None:
                return sre.compile(*args)
        return real(p, flags)

    compiler.compile = cached
    try:
        yield
    finally:
        compiler.compile = real
        if not sys.dont_write_bytecode and table.new and os.path.isdir(where):
            table.write()


def _program(compiler: Any, real: Callable[..., Any], key: Tuple[Any, int]) -> Optional[Tuple[Any, ...]]:
    """The arguments ``re``'s compiler gives ``_sre.compile`` for (pattern, flags); None where they do not
    ``marshal`` (re.error propagates: nothing is kept for a pattern re refuses)."""
    sre, owner = compiler._sre, threading.get_ident()
    got: List[Tuple[Any, ...]] = []

    class Recorder:
        def compile(self, *args: Any) -> Any:
            if threading.get_ident() == owner:
                got.append(args)
            return sre.compile(*args)

        def __getattr__(self, name: str) -> Any:
            return getattr(sre, name)

    with _SWAP:
        compiler._sre = Recorder()
        try:
            real(*key)
        finally:
            compiler._sre = sre
    try:
        args: Tuple[Any, ...] = _plain(got[-1])
        marshal.dumps(args)
    except (IndexError, ValueError):
        return None
    return args


def _plain(x: Any) -> Any:
    """``x`` with its ints plain ``int`` (the program's opcodes are named int constants, which marshal refuses;
    ``_sre`` reads only their values), through lists, tuples and dicts."""
    if isinstance(x, int) and not isinstance(x, bool):
        return int(x)
    if type(x) in (list, tuple):
        return type(x)(_plain(v) for v in x)
    if isinstance(x, dict):
        return {_plain(k): _plain(v) for k, v in x.items()}
    return x
