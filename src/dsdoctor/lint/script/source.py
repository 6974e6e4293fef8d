"""Read and parse one Python file with libcst (imported here, lazily: only when a .py file is linted).

A file that cannot be read or parsed (syntax error, Python 2, undecodable bytes) gives a per-file error; the
run goes on with the other files.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass
from typing import Any, Callable, Dict, Optional, Tuple

from ...regular_file import read_bytes
from ...textpos import HasLines
from .values import COLLECTIVE_SAVES

MAX_BYTES = 16 * 2**20


@dataclass
class Source(HasLines):
    path: str
    text: str
    encoding: str
    module: Any = None  # libcst.Module
    error: Optional[str] = None
    padding: Optional[Tuple[int, int]] = None  # trailing NUL bytes cut off the text: (their first line, how many)
    newer: Optional[Tuple[Tuple[int, int], str]] = None  # refused by this interpreter's parser, read by a later
    # Python's grammar (lint/script/grammar.py): (that release, the construct); ``error`` then holds the refusal
    reader_only: bool = False  # ``error`` is libcst's alone: Python compiles the file
    script_only: Optional[str] = None  # undecodable bytes where an import reads past them (comments): why only
    # ``python FILE`` refuses the file (Python 3.11+); the text has U+FFFD in their place
    unread: str = ""  # ``error`` is about reading, not syntax: "unreadable" (no permission, a FIFO) or "too large"
    _positions: Any = None  # node -> CodeRange, computed on first use (:attr:`positions`)
    _upto: Any = None  # node -> CodeRange of the nodes before the first one a span was asked of

    @property
    def positions(self) -> Any:
        """libcst's PositionProvider of every node (node -> CodeRange), computed on first use: most parsed files
        have no finding, and no position is asked of them (the codegen pass costs as much as the parse)."""
        if self._positions is None and self.module is not None:
            from libcst.metadata import MetadataWrapper, PositionProvider

            wrapper = MetadataWrapper(self.module, unsafe_skip_copy=True)
            gen = getattr(PositionProvider(), "_gen", None)  # the provider alone: resolve() is the same mapping,
            # after an empty batched visit of the whole tree (libcst 1.x runs one for the batchable providers)
            self._positions = gen(wrapper) if gen is not None else wrapper.resolve(PositionProvider)
        return self._positions

    def offset(self, line: int, col: int) -> int:
        """Offset of 1-based ``line`` and 0-based ``col`` (libcst's positions)."""
        return self.index.line_offset(line) + col

    def span(self, node: Any) -> Tuple[int, int]:
        """(start, end) character offsets of a node."""
        r = self._range(node)
        return self.offset(r.start.line, r.start.column), self.offset(r.end.line, r.end.column)

    def _range(self, node: Any) -> Any:
        """The node's CodeRange: the first asked of a file is read from a codegen pass that stops after the
        top-level statement holding that node (a finding at an import need not generate the whole file; its
        ancestors and neighbours in that statement come with it); a node past it, from :attr:`positions`."""
        if self._positions is None and self.module is not None:
            if self._upto is None:
                self._upto = positions_until(self.module, node)
            got = self._upto.get(node)
            if got is not None:
                return got
        return self.positions[node]

    def ranges_through(self, node: Any) -> Any:
        """node -> CodeRange of every node whose code ends by the end of the top-level statement holding ``node``
        (its own subtree among them), from a codegen pass that stops there; all of :attr:`positions` once they
        are computed. The same ranges as the whole pass gives."""
        if self._positions is not None or self.module is None:
            return self.positions
        if self._upto is None or node not in self._upto:
            self._upto = positions_until(self.module, node)
        return self._upto

    def line_text(self, line: int) -> str:
        lines = self.text.splitlines()
        return lines[line - 1] if 0 < line <= len(lines) else ""


class _Reached(Exception):
    pass


def positions_until(module: Any, node: Any) -> Dict[Any, Any]:
    """libcst's PositionProvider mapping (node -> CodeRange) of the nodes whose code is generated up to the end of
    the top-level statement holding ``node`` (or the first one after it; all of them when ``node`` is not in
    ``module`` or follows its last statement): the same ranges as the whole pass gives them."""
    from libcst.metadata import PositionProvider
    from libcst.metadata.position_provider import PositionProvidingCodegenState

    top = {id(s) for s in module.body}
    seen = [False]

    class Until(PositionProvidingCodegenState):
        def after_codegen(self, n: Any) -> None:
            super().after_codegen(n)
            seen[0] = seen[0] or n is node
            if seen[0] and id(n) in top:  # the ranges so far: unwinding would record the open ancestors' ranges
                done.update(provider._computed)  # cut short (here only the module's)
                raise _Reached

    done: Dict[Any, Any] = {}
    provider = PositionProvider()
    state = Until(default_indent=module.default_indent, default_newline=module.default_newline, provider=provider)
    try:
        module._codegen(state)
    except Exception:  # _Reached, or what an open ancestor's range raises as it unwinds (a child not reached)
        if not done:
            raise
    return done or dict(provider._computed)


def read(path: str, quiet: Optional[Callable[[str], bool]] = None) -> Source:
    """Decode with the PEP 263 cookie (utf-8 by default) and parse; ``error`` says why it could not. ``quiet(text)``
    true: no rule can fire on the file (:mod:`.quiet`), it is parsed with libcst only when the stdlib parser fails
    (the same error message)."""
    try:
        raw = read_bytes(path, MAX_BYTES + 1)
    except OSError as exc:
        return Source(path, "", "utf-8", error=f"cannot read: {exc.strerror or exc}", unread="unreadable")
    if len(raw) > MAX_BYTES:
        return Source(path, "", "utf-8", error=f"larger than {MAX_BYTES // 2**20} MiB: not linted", unread="too large")
    script_only = None
    try:
        enc, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
        text = raw.decode(enc)
    except UnicodeDecodeError as exc:
        if not _imports_past(raw, path):
            return _undecodable(path, exc)
        text = raw.decode(enc, errors="replace")
        line = raw.count(b"\n", 0, exc.start) + 1
        script_only = (f"undecodable bytes at line {line} ({exc.reason}) that an "
                       "import reads past (only in comments), but Python 3.11+ refuses to run the file as a script")
    except (SyntaxError, LookupError) as exc:
        return _undecodable(path, exc)
    if text.startswith("\ufeff"):
        text = text[1:]
    text, padding = cut_padding(text)
    text = _notebook_python(text)
    src = Source(path, text, "utf-8" if enc == "utf-8-sig" else enc, padding=padding, script_only=script_only)
    if not RELEVANT.search(text):  # nothing a rule looks at: a fast syntax check only (C parser, no libcst)
        return _compile_only(src)
    if quiet is not None and quiet(text):
        if _compile_only(src).error is None:
            return src
        src.error, src.newer = None, None
    return parse(src)


def _undecodable(path: str, exc: Exception) -> Source:
    return Source(path, "", "utf-8", error=f"cannot decode: {exc} (declare the encoding with a '# -*- coding: ...' "
                                           "line or save as UTF-8)")


def _imports_past(raw: bytes, path: str) -> bool:
    """Does Python compile the file's bytes as an import does (``compile`` of bytes: the tokenizer decodes tokens,
    not comments), though they do not decode? (``python FILE`` reads it line by line and refuses on 3.11+.)"""
    try:
        compile(raw, path, "exec", flags=ast.PyCF_ONLY_AST, dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def cut_padding(text: str) -> Tuple[str, Optional[Tuple[int, int]]]:
    """The text before a run of NUL bytes that only whitespace and more NULs follow (a file padded by a broken
    copy or editor), and (the line of the first NUL, how many); the text as it is, None, where there is none or
    code follows a NUL (NULs inside code: no Python reads that)."""
    i = text.find("\0")
    if i < 0 or text[i:].strip("\0 \t\r\n\f\v"):
        return text, None
    return text[:i], (text.count("\n", 0, i) + 1, text.count("\0", i))


# A file without any of these cannot trigger a script rule: it is only syntax-checked (libcst is ~100x slower).
RELEVANT = re.compile(r"from_pretrained|from_config|HfDeepSpeedConfig|For(?:CausalLM|ConditionalGeneration|Seq2SeqLM|"
                      r"SequenceClassification|TokenClassification|MaskedLM|QuestionAnswering)|LMHeadModel|deepspeed|"
                      r"save_pretrained|prepare_model_for_kbit_training|gradient_checkpointing|DS_SKIP_CUDA_CHECK|"
                      r"state_dict|" + "|".join(COLLECTIVE_SAVES))


def _compile_only(src: Source) -> Source:
    """The stdlib's syntax check: the parser and symbol table alone (``symtable``: no Python objects for the
    tree as ``ast.parse`` makes, no bytecode as ``compile`` makes: a fifth cheaper than ``compile``), and where
    that fails, ``ast.parse`` for the verdict and message (the symbol table also refuses what parses, e.g.
    ``nonlocal`` at module level; its warnings are not the linted file's business)."""
    import ast
    import symtable
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            symtable.symtable(src.text, src.path, "exec")
        return src
    except Exception:  # noqa: BLE001 - SyntaxError, ValueError, RecursionError ...: ast.parse decides
        pass
    try:
        ast.parse(src.text, src.path)
    except SyntaxError as exc:
        py2 = " (Python 2 syntax?)" if _looks_py2(src.text, exc.msg) else ""
        at = f" at line {exc.lineno}, column {exc.offset}" if exc.lineno is not None else (
            f" at line {src.text.count(chr(10), 0, src.text.find(chr(0))) + 1}" if "\0" in src.text else "")
        src.error = f"syntax error{at}{py2}: {exc.msg}"
        from .grammar import newer_grammar

        src.newer = newer_grammar(src.text) if "\0" not in src.text else None
    except (ValueError, RecursionError, MemoryError) as exc:
        src.error = f"cannot parse: {exc}"
    return src


def _notebook_python(text: str) -> str:
    """A notebook exported as a ``.py`` file (Databricks' notebook source, a Jupyter export) that no parser reads
    for its IPython shell escapes (``!deepspeed ...``, ``%pip install``): its Python, those lines made comments
    (:func:`..notebook_text.comment_escapes`, each line's length kept). Any other text as it is."""
    from ..notebook_text import DATABRICKS, comment_escapes

    if (not text.startswith(DATABRICKS) and "\n!" not in text and "\n%" not in text) or _python_says(text) is None:
        return text  # no escape lines, or Python reads it as it is
    return comment_escapes(text)


def _no_validation(node: Any) -> None:
    """What a node built by libcst's parser runs after its fields are set: nothing (:func:`parsed_module`)."""


def parsed_module(text: str) -> Any:
    """libcst's parse of ``text``, without validating again each node the parser builds (``CSTNode.__post_init__``):
    the parser makes only valid nodes (libcst's own comment there says as much), and the validation was a fifth of
    the parse's time. Only during this call: a node built elsewhere (a fix's edit) is validated as before. Lint
    parses in one thread."""
    import libcst as cst

    post = cst.CSTNode.__dict__.get("__post_init__")
    if post is None:  # a libcst whose nodes validate elsewhere
        return cst.parse_module(text)
    setattr(cst.CSTNode, "__post_init__", _no_validation)  # noqa: B010 - a class attribute, restored below
    try:
        return cst.parse_module(text)
    finally:
        setattr(cst.CSTNode, "__post_init__", post)  # noqa: B010


def parse(src: Source) -> Source:
    import libcst as cst

    try:
        module = parsed_module(src.text)
    except cst.ParserSyntaxError as exc:
        # where Python refuses it too, its place and words: the interpreter that runs the file says them (libcst's
        # tokenizer names no place; its parser can point lines past Python's: LLM-Kit's train.py, 117 for 115)
        said = _python_says(src.text)
        if said is None:  # Python reads it (a tab then spaces starting a line): only dsdoctor's parser does not
            src.error = f"dsdoctor's parser (libcst) cannot read it, though Python compiles it ({exc.message})"
            src.reader_only = True
            return src
        line, col, msg = said
        py2 = " (Python 2 syntax?)" if _looks_py2(src.text, msg) else ""
        src.error = f"syntax error at line {line}, column {col}{py2}: {msg}"
        return src
    except (RecursionError, MemoryError) as exc:  # pragma: no cover - pathological nesting
        src.error = f"cannot parse: {type(exc).__name__}"
        return src
    src.module = module
    return src


def _python_says(text: str) -> Optional[Tuple[int, int, str]]:
    """(line, column, message) of the syntax error this Python's own parser reports for ``text``; None if none."""
    try:
        compile(text, "<lint>", "exec", flags=ast.PyCF_ONLY_AST, dont_inherit=True)
    except SyntaxError as exc:
        return exc.lineno or 1, exc.offset or 1, exc.msg
    except (ValueError, RecursionError, MemoryError):
        return None
    return None


def parses(text: str) -> bool:
    """Does ``text`` parse as Python 3 (used before writing a fixed file)?"""
    import libcst as cst

    try:
        cst.parse_module(text)
    except Exception:  # noqa: BLE001 - any parser failure means "do not write"
        return False
    return True


def _looks_py2(text: str, error: str = "") -> bool:
    """Python 2 statements (``print x``, ``exec "..."``, ``except E, e:``), or the TabError of tabs and spaces mixed
    in one block, which Python 2 read (a tab to the next multiple of 8) and Python 3 refuses."""
    if error.startswith("inconsistent use of tabs"):
        return True
    return bool(re.search(r"^\s*print\s+[\"'\w]|^\s*exec\s+[\"']|except\s+\w+\s*,\s*\w+\s*:", text, re.M))
