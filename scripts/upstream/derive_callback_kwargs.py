"""Derive the keyword arguments the HF Trainer hands a ``TrainerCallback``'s ``on_*`` methods, per Transformers release
(``src/dsdoctor/knowledge/data/callback_kwargs.json.gz``), from the released wheels unpacked by ``releases.py``.

    python scripts/upstream/releases.py transformers        # download / unpack (network; releases already there skipped)
    python scripts/upstream/derive_callback_kwargs.py       # read every unpacked release, write the data file

Read per release (``ast``, nothing imported), in every kept file of the package:

- ``CallbackHandler.call_event`` (``transformers/trainer_callback.py``): the keywords of its call of the callback's
  method (``getattr(callback, event)(args, state, control, model=..., ...)``);
- every ``....call_event(...)`` call: its keywords (``logs=``, ``metrics=``, ...);
- every ``....callback_handler.on_*(...)`` call: its keywords (what a handler method with ``**kwargs`` passes on).

A call that passes ``**something`` is counted as "open" (that release may pass any key: ``open`` in the data, and
``knowledge.callback_kwargs`` then claims nothing), except where a ``CallbackHandler`` method passes on its own
``**kwargs`` (``on_push_begin`` from 5.0): those are what its callers pass, read at each call. A release where ``call_event`` is not
found is skipped with a message.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path
from typing import Dict, List, Optional, Set, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

import releases  # noqa: E402

from dsdoctor.knowledge import callback_kwargs  # noqa: E402
from dsdoctor.knowledge.release_spans import encode  # noqa: E402

HANDLER_FILE = "transformers/trainer_callback.py"


def _keywords(call: ast.Call) -> Tuple[Set[str], bool]:
    """(the keyword names a call passes, whether it also passes ``**something``)."""
    return {k.arg for k in call.keywords if k.arg is not None}, any(k.arg is None for k in call.keywords)


def _handler_call(tree: ast.AST) -> Tuple[Set[str], bool]:
    """The keywords ``CallbackHandler.call_event`` passes to the callback's method (found: the second item)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == "CallbackHandler":
            for fn in node.body:
                if isinstance(fn, ast.FunctionDef) and fn.name == "call_event":
                    for call in ast.walk(fn):
                        if isinstance(call, ast.Call) and isinstance(call.func, ast.Call) and \
                                isinstance(call.func.func, ast.Name) and call.func.func.id == "getattr":
                            return _keywords(call)[0], True
    return set(), False


def _is_handler_method(call: ast.Call) -> bool:
    f = call.func
    if not isinstance(f, ast.Attribute):
        return False
    if f.attr == "call_event":
        return True
    return f.attr.startswith("on_") and isinstance(f.value, ast.Attribute) and f.value.attr == "callback_handler"


def _forwarding(tree: ast.AST) -> Set[int]:
    """id() of the calls in ``CallbackHandler``'s methods that pass on the method's own ``**kwargs`` (``on_push_begin``
    from 5.0): the keys are what ``callback_handler.on_*(...)`` callers pass, read at each call."""
    out: Set[int] = set()
    for cls in ast.walk(tree):
        if not (isinstance(cls, ast.ClassDef) and cls.name == "CallbackHandler"):
            continue
        for fn in cls.body:
            if isinstance(fn, ast.FunctionDef) and fn.args.kwarg is not None:
                own = fn.args.kwarg.arg
                out |= {id(c) for c in ast.walk(fn) if isinstance(c, ast.Call) and all(
                    isinstance(k.value, ast.Name) and k.value.id == own for k in c.keywords if k.arg is None)}
    return out


def read_keys(root: Path) -> Tuple[Set[str], bool, bool]:
    """(the keys one unpacked release passes to callbacks, whether some call passes ``**`` of unknown keys,
    whether ``call_event`` was found)."""
    keys: Set[str] = set()
    open_ = False
    handler = root / HANDLER_FILE
    if not handler.is_file():
        return keys, open_, False
    own, found = _handler_call(ast.parse(handler.read_bytes()))
    keys |= own
    for path in sorted((root / "transformers").rglob("*.py")):
        try:
            tree = ast.parse(path.read_bytes())
        except SyntaxError:
            continue
        forwarding = _forwarding(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _is_handler_method(node):
                got, star = _keywords(node)
                keys |= got
                open_ = open_ or (star and id(node) not in forwarding)
    return keys, open_, found


def main() -> int:
    """Read every unpacked Transformers release, write the data file."""
    def keys_of(root: Path) -> Optional[Tuple[Set[str], bool]]:
        keys, open_, found = read_keys(root)
        return (keys, open_) if found else None

    read, prov, found = releases.read_each("transformers", keys_of, "callback_kwargs", "no CallbackHandler.call_event")
    seen: Dict[str, List[int]] = {}
    for idx, (keys, _) in enumerate(found):
        for k in keys:
            seen.setdefault(k, []).append(idx)
    opened = [idx for idx, (_, open_) in enumerate(found) if open_]
    out = Path(callback_kwargs.DATA)
    size = releases.write_data(out, "scripts/upstream/derive_callback_kwargs.py", "transformers", prov, {
        "releases": read, "keys": {k: encode(ix) for k, ix in sorted(seen.items())},
        "open": encode(opened) if opened else ""}, files=[
            "transformers/**/*.py (CallbackHandler.call_event, call_event(...), callback_handler.on_*(...))"])
    print(f"[callback_kwargs] {len(seen)} keys ({', '.join(sorted(seen))}), transformers {read[0]}-{read[-1]} "
          f"({len(read)} releases, {len(opened)} open), {size} bytes -> {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
