"""Derive the defaults DeepSpeed's Adam optimizers give ``lr``, ``betas``, ``eps`` and ``weight_decay`` per release
(``src/dsdoctor/knowledge/data/adam_defaults.json.gz``) from the released sdists unpacked by ``releases.py``.

    python scripts/upstream/releases.py deepspeed          # download / unpack (network; releases already there skipped)
    python scripts/upstream/derive_adam_defaults.py        # read every unpacked release, write the data file

Read per release (``ast``, nothing imported): the keyword defaults of ``__init__`` of ``FusedAdam``
(``deepspeed/ops/adam/fused_adam.py``), the optimizer a config's Adam / AdamW block builds on the GPU, and of
``DeepSpeedCPUAdam`` (``deepspeed/ops/adam/cpu_adam.py``), the one it builds under optimizer offload. A default that
is no literal (a tuple of numbers counts as one) is not recorded; a release without the class is skipped for it.
"""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path
from typing import Dict, List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

import releases  # noqa: E402

from dsdoctor.knowledge import adam_defaults  # noqa: E402
from dsdoctor.knowledge.release_spans import encode  # noqa: E402

FILES = {"FusedAdam": "deepspeed/ops/adam/fused_adam.py", "DeepSpeedCPUAdam": "deepspeed/ops/adam/cpu_adam.py"}
KEYS = ("lr", "betas", "eps", "weight_decay")


def _literal(node: ast.expr) -> Optional[object]:
    try:
        value = ast.literal_eval(node)
    except ValueError:
        return None
    if isinstance(value, tuple):
        value = list(value)
    ok = isinstance(value, (int, float)) or (isinstance(value, list) and all(isinstance(v, (int, float)) for v in value))
    return value if ok and not isinstance(value, bool) else None


def _init_defaults(path: Path, cls: str) -> Optional[Dict[str, object]]:
    if not path.is_file():
        return None
    for node in ast.walk(ast.parse(path.read_bytes())):
        if isinstance(node, ast.ClassDef) and node.name == cls:
            break
    else:
        return None
    init = next((f for f in node.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"), None)
    if init is None:
        return None
    args = init.args.args[len(init.args.args) - len(init.args.defaults):]
    out: Dict[str, object] = {}
    for arg, dflt in zip(args, init.args.defaults):
        got = _literal(dflt) if arg.arg in KEYS else None
        if got is not None:
            out[arg.arg] = got
    return out


def read_release(root: Path) -> Optional[Dict[str, Dict[str, object]]]:
    """{class: {key: default}} of one unpacked release; None when it has neither class."""
    found = {cls: d for cls, f in FILES.items() for d in [_init_defaults(root / f, cls)] if d}
    return found or None


def main() -> int:
    """Read every unpacked DeepSpeed release, write the data file."""
    read, prov, found = releases.read_each("deepspeed", read_release, "adam_defaults", "no Adam class")
    seen: Dict[str, Dict[str, Dict[str, List[int]]]] = {}
    for idx, classes in enumerate(found):
        for cls, defaults in classes.items():
            for key, value in defaults.items():
                seen.setdefault(cls, {}).setdefault(key, {}).setdefault(json.dumps(value), []).append(idx)
    out = Path(adam_defaults.DATA)
    body = {"releases": read, "defaults": {c: {k: {v: encode(ix) for v, ix in sorted(vals.items())}
                                               for k, vals in sorted(keys.items())} for c, keys in sorted(seen.items())}}
    size = releases.write_data(out, "scripts/upstream/derive_adam_defaults.py", "deepspeed", prov, body,
                               files=sorted(FILES.values()), classes=sorted(FILES))
    print(f"[adam_defaults] {sorted(seen)}, deepspeed {read[0]}-{read[-1]} ({len(read)} releases), {size} bytes -> {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
