"""Where a Python file calls a model save (for the project model, lint/launched.py: does a launch save?), where
the project consolidates ZeRO checkpoints with zero_to_fp32.py, and code whose save reads the 16-bit gathering flag
itself (:func:`save_fallback`)."""

from __future__ import annotations

import functools
import os
import re
from typing import Dict, List, Optional, Sequence, Tuple

from ..knowledge import transformers as TF
from .discover import _PY_FLAG_SAVE, _PY_SAVE, _read

_DEF = re.compile(r"(?:async[ \t]+)?def[ \t]+(\w+)")
_SAVE_METHODS = {"save_model", "_save", "save_pretrained", "save_16bit_model", "save_fp16_model"}  # (DeepSpeed's old alias)
# the HF Trainer's checkpoint methods (transformers trainer.py: _save_checkpoint, _maybe_log_save_evaluate; the
# hyperparameter search's _tune_save_checkpoint), also as a Trainer subclass overrides them: they save only when the
# Trainer checkpoints, which the launch's save_strategy decides (lint/save_strategy.py), no save of their own
_CHECKPOINT_METHODS = {"_save_checkpoint", "_maybe_log_save_evaluate", "_tune_save_checkpoint"}


def _owner(lines: List[str], at: int) -> Optional[str]:
    """The name of the innermost ``def`` enclosing line ``at`` (None: module or class level), by indentation."""
    level = len(lines[at]) - len(lines[at].lstrip())
    for line in reversed(lines[:at]):
        body = line.lstrip()
        indent = len(line) - len(body)
        if not body or body.startswith("#") or indent >= level:
            continue
        m = _DEF.match(body)
        if m:
            return m.group(1)
        level = indent
        if level == 0:
            return None
    return None


def save_lines(text: str, save_model: bool = True) -> List[int]:
    """The lines (1-based) where the file calls a model save that reads the 16-bit gathering flag
    (``_PY_FLAG_SAVE``: save_model, save_16bit_model, get_state_dict; not a bare save_pretrained) outside an override
    of a save method or of a Trainer checkpoint method:
    a Trainer subclass's ``save_model`` calling another save runs only when something saves, no save of its own. A
    commented-out call (``# model.save_pretrained(...)``) is none; so is ``x.save_model(...)`` without
    ``save_model`` (a process with no Trainer and no Accelerator: the project's own method)."""
    out: List[int] = []
    lines: Optional[List[str]] = None
    for m in _PY_FLAG_SAVE.finditer(text):
        lines = text.splitlines() if lines is None else lines
        at = text.count("\n", 0, m.start())
        if "#" in text[text.rfind("\n", 0, m.start()) + 1:m.start()] and lines[at].lstrip().startswith("#"):
            continue
        if not save_model and m.group(1) == "save_model":
            continue
        if _owner(lines, at) not in _SAVE_METHODS | _CHECKPOINT_METHODS:
            out.append(at + 1)
    return out


_ZERO_TO_FP32 = re.compile(r"\bzero_to_fp32\b")


def zero_to_fp32(root: str, kinds: Dict[str, str]) -> str:
    """The first README or shell script of the project (``kinds``: its files) that runs or names zero_to_fp32.py
    (``Found.zero_to_fp32``), "" when none: the project's workflow consolidates the ZeRO checkpoint a save writes
    when 16-bit gathering is off."""
    from .markdown import markdown_files

    shells = sorted(p for p, k in kinds.items() if k == "shell")
    for path in [*markdown_files(root, (os.path.dirname(p) or "." for p in kinds)), *shells]:
        if _ZERO_TO_FP32.search(_read(path)):
            return path
    return ""


# the 16-bit gathering flag read by the project's code: accelerate's environment variable (its DeepSpeedPlugin
# writes zero3_save_16bit_model there), the plugin's attribute, the ds_config key read (not written)
_FLAG_READ = re.compile(re.escape(TF.ACCELERATE_SAVE_16BIT_ENV) + r"|\.zero3_save_16bit_model\b(?!\s*=[^=])|"
                        r"[\"'](?:stage3_)?gather_16bit_weights_on_model_save[\"']\s*(?:\](?!\s*=[^=])|\))")
_SAVE_CHECKPOINT = re.compile(r"\.save_checkpoint\s*\(")
_UNDER_DEEPSPEED = re.compile(r"\b(?:deepspeed|accelerate|Accelerator)\b")


@functools.lru_cache(maxsize=8192)
def _verdict(path: str) -> Tuple[bool, int]:
    """(does the file save a model in code that may run under DeepSpeed: a model save, and deepspeed / accelerate
    named; the line where a function of it reads the 16-bit gathering flag and calls the engine's
    ``save_checkpoint`` in an ``if`` / ``else`` branch, 0 when none does)."""
    text = _read(path)
    saves = any(not _commented(text, m.start()) for m in _PY_SAVE.finditer(text)) and \
        _UNDER_DEEPSPEED.search(text) is not None
    if not saves or _FLAG_READ.search(text) is None or _SAVE_CHECKPOINT.search(text) is None:
        return saves, 0
    return saves, _branching_function(text)


def _branching_function(text: str) -> int:
    """The line of the flag read in the first function that reads the flag and calls ``save_checkpoint`` inside a
    branch of an ``if`` (the save it chooses when gathering is off), 0 when none does (or the file does not parse
    here)."""
    import ast

    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return 0
    lines = text.splitlines(keepends=True)
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or fn.end_lineno is None:
            continue
        start = sum(len(x) for x in lines[:fn.lineno - 1])
        flag = _FLAG_READ.search("".join(lines[fn.lineno - 1:fn.end_lineno]))
        if flag is not None and any(_calls_save_checkpoint(stmt) for node in ast.walk(fn) if isinstance(node, ast.If)
                                    for stmt in [*node.body, *node.orelse]):
            return text.count("\n", 0, start + flag.start()) + 1
    return 0


def _calls_save_checkpoint(stmt: "object") -> bool:
    import ast

    assert isinstance(stmt, ast.AST)
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "save_checkpoint"
               for n in ast.walk(stmt))


def _commented(text: str, at: int) -> bool:
    return text[text.rfind("\n", 0, at) + 1:at].lstrip().startswith("#")


def save_fallback(config: str, pyfiles: Sequence[str]) -> str:
    """Where the code beside ``config`` chooses its save by the 16-bit gathering flag itself ("path:line"), "" when
    it does not: the Python files of the nearest directory above the config that holds any (the config's
    subproject) that save a model under DeepSpeed (deepspeed / accelerate named) all read the flag (accelerate's
    ACCELERATE_DEEPSPEED_ZERO3_SAVE_16BIT_MODEL, ``zero3_save_16bit_model``, the ds_config key) in a function that
    calls the engine's ``save_checkpoint`` in a branch (the ZeRO checkpoint written when it is off: nothing is lost, zero_to_fp32.py recovers the
    weights); at least one such file."""
    by_dir = _by_dir(tuple(pyfiles))
    d = os.path.dirname(os.path.normpath(config))
    while True:
        under = by_dir.get(d, []) if d else list(pyfiles)
        if under or not d or os.path.dirname(d) == d:
            break
        d = os.path.dirname(d)
    got = [(f, _verdict(f)) for f in sorted(under)]
    savers = [(f, line) for f, (saves, line) in got if saves]
    if not savers or any(line == 0 for _, line in savers):
        return ""
    return f"{savers[0][0]}:{savers[0][1]}"


@functools.lru_cache(maxsize=4)  # one list per lint run, asked once per config
def _by_dir(pyfiles: Tuple[str, ...]) -> Dict[str, List[str]]:
    """Directory -> the files of ``pyfiles`` below it (at any depth)."""
    out: Dict[str, List[str]] = {}
    for f in pyfiles:
        d = os.path.dirname(os.path.normpath(f))
        while d:
            out.setdefault(d, []).append(f)
            if os.path.dirname(d) == d:
                break
            d = os.path.dirname(d)
    return out
