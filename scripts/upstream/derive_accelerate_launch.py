"""Derive which names ``accelerate launch`` takes from a config YAML's ``deepspeed_config`` block onto its own
arguments (``src/dsdoctor/knowledge/data/accelerate_launch.json.gz``, read by ``dsdoctor.knowledge.accelerate``).

    python scripts/upstream/releases.py accelerate && python scripts/upstream/derive_accelerate_launch.py

For every unpacked accelerate release, ``accelerate/commands/launch.py`` is read with ``ast`` (nothing imported):
the destinations of its parser's options (``add_argument("--main_process_port", ...)`` -> ``main_process_port``;
``dest=`` where given), and whether the launch copies every ``deepspeed_config`` key onto its namespace
(``for k in defaults.deepspeed_config: setattr(args, k, ...)``, or from 1.5.0 a loop over every dict of the
config), which makes such a key set the argument of its name unless the command line gives it. A key named as
one of those arguments is no DeepSpeed setting: it sets the launch's argument.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path
from typing import Dict, List, Optional, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
import releases  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "src" / "dsdoctor" / "knowledge" / "data" / "accelerate_launch.json.gz"
SCRIPT = "scripts/upstream/derive_accelerate_launch.py"


def _dest(call: ast.Call) -> Optional[str]:
    """The destination of one ``add_argument`` call with a long option; None for a positional or a short one."""
    for k in call.keywords:
        if k.arg == "dest" and isinstance(k.value, ast.Constant) and isinstance(k.value.value, str):
            return k.value.value
    longs = [a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)
             and a.value.startswith("--")]
    return longs[0][2:].replace("-", "_") if longs else None


def _copies(tree: ast.AST) -> bool:
    """Does the launch copy each key of the config's ``deepspeed_config`` onto its arguments: a loop over
    ``defaults.deepspeed_config`` (to 1.4.0) or over every dict of ``defaults.__dict__`` (``for key, value in
    attr.items()``, from 1.5.0) that ``setattr``s the key on ``args``?"""
    for n in ast.walk(tree):
        if not (isinstance(n, ast.For) and any(w in ast.unparse(n.iter) for w in ("deepspeed_config", "__dict__"))):
            continue
        for inner in ast.walk(n):
            if isinstance(inner, ast.For) and any(
                    isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id == "setattr" and c.args
                    and isinstance(c.args[0], ast.Name) and c.args[0].id == "args" for c in ast.walk(inner)):
                if inner is not n or "deepspeed_config" in ast.unparse(n.iter):
                    return True
    return False


def read(root: Path) -> Optional[Tuple[List[str], bool]]:
    """(sorted option destinations, copies deepspeed_config keys) of one release; None without a launch.py."""
    path = root / "accelerate" / "commands" / "launch.py"
    if not path.is_file():
        return None
    tree = ast.parse(path.read_text(encoding="utf-8"))
    dests = {d for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
             and n.func.attr == "add_argument" for d in [_dest(n)] if d}
    return sorted(dests), _copies(tree)


def main() -> int:
    vers, sources, got = releases.read_each("accelerate", read, "accelerate_launch", "no commands/launch.py")
    if not vers:
        raise SystemExit("no accelerate release unpacked: run scripts/upstream/releases.py accelerate first")
    body: Dict[str, object] = {"releases": {v: {"args": a, "copies": c} for v, (a, c) in zip(vers, got)}}
    size = releases.write_data(OUT, SCRIPT, "accelerate", sources, body,
                               files=["accelerate/commands/launch.py (add_argument destinations; the "
                                      "deepspeed_config -> setattr(args, k, ...) loop)"])
    copying = [v for v, (_, c) in zip(vers, got) if c]
    print(f"[accelerate_launch] {len(vers)} releases ({vers[0]}-{vers[-1]}), {len(copying)} copy deepspeed_config "
          f"keys ({copying[0] if copying else '-'} on), {size} bytes -> {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
