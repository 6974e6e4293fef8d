"""Derive the model types each Transformers release knows (``src/dsdoctor/knowledge/data/model_types.json.gz``) from
the released wheels unpacked by ``releases.py``.

    python scripts/upstream/releases.py transformers   # download / unpack (network; releases already there skipped)
    python scripts/upstream/derive_model_types.py      # read every unpacked release, write the data file

A model type is a key of ``CONFIG_MAPPING_NAMES`` (``transformers/models/auto/configuration_auto.py``, from 5.x
also ``auto_mappings.py``): the ``model_type`` of a checkpoint's config.json that ``AutoConfig`` maps to a config
class, literal keys of the ``OrderedDict([...])`` / dict and of ``CONFIG_MAPPING_NAMES.update({...})``. Stored as
index ranges into the list of releases read (``dsdoctor.knowledge.release_spans``). Nothing is imported: ``ast``.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path
from typing import Dict, List, Set

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

import releases  # noqa: E402

from dsdoctor.knowledge import model_types  # noqa: E402
from dsdoctor.knowledge.release_spans import encode  # noqa: E402

FILES = ("transformers/models/auto/configuration_auto.py", "transformers/models/auto/auto_mappings.py")
NAME = "CONFIG_MAPPING_NAMES"


def _keys(node: ast.AST) -> Set[str]:
    """String keys of a dict literal, or of an ``OrderedDict([(k, v), ...])`` call."""
    if isinstance(node, ast.Dict):
        return {k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
    if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], (ast.List, ast.Tuple)):
        return {e.elts[0].value for e in node.args[0].elts if isinstance(e, ast.Tuple) and e.elts
                and isinstance(e.elts[0], ast.Constant) and isinstance(e.elts[0].value, str)}
    if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Dict):
        return _keys(node.args[0])
    return set()


def read_types(root: Path) -> Set[str]:
    """The model types one unpacked release maps (empty when neither file is there)."""
    out: Set[str] = set()
    for rel in FILES:
        path = root / rel
        if not path.is_file():
            continue
        for node in ast.walk(ast.parse(path.read_bytes())):
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == NAME for t in node.targets):
                out |= _keys(node.value)
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "update"
                  and isinstance(node.func.value, ast.Name) and node.func.value.id == NAME and node.args):
                out |= _keys(node.args[0])
    return out


def main() -> int:
    """Read every unpacked Transformers release, write the data file."""
    read, prov, found = releases.read_each("transformers", lambda root: read_types(root) or None, "model_types",
                                           f"no {NAME} found")
    seen: Dict[str, List[int]] = {}
    for idx, types in enumerate(found):
        for t in types:
            seen.setdefault(t, []).append(idx)
    out = Path(model_types.DATA)
    size = releases.write_data(out, "scripts/upstream/derive_model_types.py", "transformers", prov, {
        "releases": read, "types": {t: encode(ix) for t, ix in sorted(seen.items())}},
        files=list(FILES), mapping=NAME)
    print(f"[model_types] {len(seen)} model types, transformers {read[0]}-{read[-1]} ({len(read)} releases), "
          f"{size} bytes -> {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
