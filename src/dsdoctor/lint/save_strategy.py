"""Does an HF Trainer launch write checkpoints at all?

A Trainer that trains saves checkpoints with ``save_model`` every ``save_steps`` (TrainingArguments' default
``save_strategy`` is ``"steps"``), which reads stage3_gather_16bit_weights_on_model_save. With ``save_strategy="no"``
it saves none: an evaluation or throughput launch, or a script that saves only when asked::

    TrainingArguments(..., save_strategy="steps" if args.saving_model_checkpoints else "no")

with ``--saving_model_checkpoints`` a ``store_true`` option the launch does not pass. What the launch passes
(``--save_strategy no``) decides first; else every ``save_strategy=`` the code its entry reaches writes must come out
``"no"`` for that launch (a literal, or a conditional on one option whose value the launch's options and the
code's declared default give); else the option's declared default.
"""

from __future__ import annotations

import ast
import functools
from typing import TYPE_CHECKING, Dict, List, Optional, Tuple

from .defaults import CONFLICT, OFF
from .entry_options import given

if TYPE_CHECKING:
    from .launched import _Entries
    from .recipe import Recipe

def code_saves(e: str, entries: "_Entries") -> bool:
    """Does the code project file ``e`` runs save with a save that reads the 16-bit gathering flag: a call of its
    own, or an HF Trainer that trains (and so checkpoints, unless a launch says otherwise: :func:`launch_saves`)?"""
    return entries.uses(e, "saves") or (entries.uses(e, "trainer") and entries.uses(e, "trains"))


def launch_saves(r: "Recipe", entries: "_Entries") -> bool:
    """Does launch ``r`` (its entry in the project) save with a save that reads the 16-bit gathering flag: a call of
    its own, or an HF Trainer that trains and checkpoints?"""
    assert r.entry is not None
    e = r.entry
    return code_saves(e, entries) and (entries.uses(e, "saves") or not never_checkpoints(r, entries))


def never_checkpoints(r: "Recipe", entries: "_Entries") -> bool:
    """Does the Trainer of launch ``r`` (its entry trains with one) save no checkpoint (save_strategy "no")?"""
    assert r.entry is not None
    passed = given(r.flags, "save_strategy")
    if passed or r.opaque:  # options the launch passes unseen ($EXTRA_ARGS) may ask for checkpoints
        return passed == {"no"}
    defaults = entries.defaults(r.entry)
    written = _written(sorted(entries.reached(r.entry)))
    if not written:
        return defaults.get("save_strategy") == "no"
    return all(_value(v, r, defaults) == "no" for v in written)


def _written(files: List[str]) -> List[ast.expr]:
    """The values of every ``save_strategy=`` keyword of a call in ``files``."""
    from .discover import _read

    out: List[ast.expr] = []
    for f in files:
        text = _read(f, 2**20)
        if "save_strategy" in text:
            out += _keywords(text)
    return out


@functools.lru_cache(maxsize=64)
def _keywords(text: str) -> Tuple[ast.expr, ...]:
    """The ``save_strategy=`` values of one file's calls, parsed once per text (each launch of an entry asks)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return (ast.Constant(None),)  # unknown: it may save
    return tuple(k.value for n in ast.walk(tree) if isinstance(n, ast.Call) for k in n.keywords
                 if k.arg == "save_strategy")


def _value(node: ast.expr, r: "Recipe", defaults: Dict[str, str]) -> Optional[str]:
    """The string ``node`` gives for launch ``r``; None where it is not known."""
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, str) else None
    if isinstance(node, ast.IfExp):
        test = _truth(node.test, r, defaults)
        return None if test is None else _value(node.body if test else node.orelse, r, defaults)
    return None


def _truth(node: ast.expr, r: "Recipe", defaults: Dict[str, str]) -> Optional[bool]:
    """Whether ``args.X`` / ``X`` / ``not X`` holds for launch ``r``: X passed (a ``store_true`` option's flag, or a
    value), else X's declared default; None where not known."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        got = _truth(node.operand, r, defaults)
        return None if got is None else not got
    name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
    if name is None:
        return None
    values = given(r.flags, name)
    if name in r.flags or values:
        return bool(values - OFF) if values else True
    default = defaults.get(name)
    return None if default is None or default == CONFLICT else default not in OFF
