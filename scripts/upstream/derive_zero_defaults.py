"""Derive the defaults of DeepSpeed's ``zero_optimization`` fields per release
(``src/dsdoctor/knowledge/data/zero_defaults.json.gz``) from the released sdists unpacked by ``releases.py``.

    python scripts/upstream/releases.py deepspeed          # download / unpack (network; releases already there skipped)
    python scripts/upstream/derive_zero_defaults.py        # read every unpacked release, write the data file

Read per release (``ast``, nothing imported): the fields of ``DeepSpeedZeroConfig`` in
``deepspeed/runtime/zero/config.py`` (the pydantic model, from 0.7.0): ``name: type = default`` and
``name: type = Field(default, ..., alias="stage3_...")``, where the default is a literal or ``pp_int(<number>)``.
A default computed otherwise (``sys.maxsize``, a ``default_factory``, ``None`` that a validator replaces, such as
``overlap_comm``'s, true at stage 3) is not recorded: lint says nothing about such a key's default. Releases whose
module has no pydantic class (before 0.7.0) are skipped.
"""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path
from typing import Dict, List, Optional, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

import releases  # noqa: E402

from dsdoctor.knowledge import zero_defaults  # noqa: E402
from dsdoctor.knowledge.release_spans import encode  # noqa: E402

FILE = "deepspeed/runtime/zero/config.py"
CLASS = "DeepSpeedZeroConfig"
_UNSET = object()


def _value(node: Optional[ast.expr]) -> object:
    """A literal default (``pp_int(5e8)`` -> 500000000); ``_UNSET`` for anything else (and for None: a None
    default is the field's "not set", which a validator may fill)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "pp_int" and node.args:
        inner = _value(node.args[0])
        return int(inner) if isinstance(inner, (int, float)) and not isinstance(inner, bool) else _UNSET
    if isinstance(node, ast.Constant) and node.value is not None and isinstance(node.value, (bool, int, float, str)):
        return node.value
    return _UNSET


def read_fields(root: Path) -> Optional[Tuple[Dict[str, object], Dict[str, str]]]:
    """({field: default}, {alias: field}) of one unpacked release; None when it has no pydantic DeepSpeedZeroConfig."""
    path = root / FILE
    if not path.is_file():
        return None
    for node in ast.walk(ast.parse(path.read_bytes())):
        if isinstance(node, ast.ClassDef) and node.name == CLASS:
            break
    else:
        return None
    defaults: Dict[str, object] = {}
    aliases: Dict[str, str] = {}
    for item in node.body:
        if not (isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)):
            continue
        name, value = item.target.id, item.value
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "Field":
            kw = {k.arg: k.value for k in value.keywords if k.arg}
            alias = kw.get("alias")
            if isinstance(alias, ast.Constant) and isinstance(alias.value, str):
                aliases[alias.value] = name
            value = value.args[0] if value.args else kw.get("default")
        got = _value(value)
        if got is not _UNSET:
            defaults[name] = got
    return (defaults, aliases) if defaults else None  # before 0.7.0: a plain class that reads the dict in __init__


def main() -> int:
    """Read every unpacked DeepSpeed release, write the data file."""
    read, prov, found = releases.read_each("deepspeed", read_fields, "zero_defaults", f"no {CLASS}")
    seen: Dict[str, Dict[str, List[int]]] = {}
    aliases: Dict[str, str] = {}
    for idx, (defaults, names) in enumerate(found):
        for name, value in defaults.items():
            seen.setdefault(name, {}).setdefault(json.dumps(value), []).append(idx)
        aliases.update(names)
    out = Path(zero_defaults.DATA)
    size = releases.write_data(out, "scripts/upstream/derive_zero_defaults.py", "deepspeed", prov, {
        "releases": read, "aliases": dict(sorted(aliases.items())),
        "defaults": {k: {v: encode(ix) for v, ix in sorted(vals.items())} for k, vals in sorted(seen.items())}},
        files=[FILE], **{"class": CLASS})
    print(f"[zero_defaults] {len(seen)} fields, {len(aliases)} aliases, deepspeed {read[0]}-{read[-1]} "
          f"({len(read)} releases), {size} bytes -> {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
