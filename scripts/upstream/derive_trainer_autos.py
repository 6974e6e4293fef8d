"""Derive which ds_config ``"auto"`` keys the HF Trainer path fills, per release, from the released sources.

    python scripts/upstream/derive_trainer_autos.py [--json OUT] [--unpack]

``--unpack`` first downloads / unpacks the releases named in ``TRANSFORMERS`` / ``ACCELERATE`` with ``releases.py``
(network); without it, only what is already in ``.cache/upstream`` (and the oracle's hf/tf* directories,
``DSDOCTOR_ORACLE_DIR``) is read. Nothing is imported: ``ast``.

Read per release:

- transformers: the first argument of every ``self.fill_match(...)`` / ``self.fill_only(...)`` call in
  ``HfTrainerDeepSpeedConfig.trainer_config_process`` and ``trainer_config_finalize``
  (``transformers/integrations/deepspeed.py``, ``transformers/deepspeed.py`` before 4.33), and whether the Trainer
  hands the model to ``accelerator.prepare`` for DeepSpeed (``deepspeed.initialize`` is no longer called in the
  integration module: from 4.30.0 DeepSpeed is initialised by accelerate);
- accelerate: the keys ``DeepSpeedPlugin`` fills (the values of ``plugin_to_config_mapping`` in ``__post_init__``
  and the ``kwargs`` keys of ``set_mixed_precision``), the keys ``Accelerator._prepare_deepspeed`` passes to
  ``deepspeed_config_process`` (``config_kwargs``: the dict literal, its ``.update({...})`` calls and
  ``config_kwargs[...] =`` assignments; some only under a condition: a model config with a hidden size, a
  DummyOptim / DummyScheduler), and whether ``DeepSpeedPlugin.fill_match`` raises for an ``"auto"`` key it is given
  no value for (``deepspeed_config_process`` walks every key of the config, so any other ``"auto"`` left there
  stops ``prepare()`` with that ValueError).

Prints one line per release (or writes JSON with ``--json``) with the file each set was read from.
"""

from __future__ import annotations

import ast
import json
import os
import sys
from pathlib import Path
from typing import Dict, List, Optional, Set, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))

import releases  # noqa: E402

TRANSFORMERS = ("4.10.0", "4.18.0", "4.20.0", "4.25.1", "4.29.2", "4.30.0", "4.30.2", "4.31.0", "4.36.2", "4.41.2",
                "4.46.3", "4.51.3", "4.57.1", "5.0.0", "5.24.0")
ACCELERATE = ("0.20.3", "0.21.0", "0.25.0", "0.30.1", "1.0.0", "1.1.1", "1.15.0")
ORACLE = Path(os.environ.get("DSDOCTOR_ORACLE_DIR") or releases.ROOT / ".cache" / "oracle")
TF_FILES = ("transformers/integrations/deepspeed.py", "transformers/deepspeed.py")
TRAINER_METHODS = ("trainer_config_process", "trainer_config_finalize")


def _root(dist: str, ver: str) -> Optional[Path]:
    """Where release ``ver`` of ``dist`` is unpacked: .cache/upstream, else an oracle hf/tf* directory."""
    up = releases.CACHE / dist / ver
    if (up / dist).is_dir():
        return up
    for d in sorted((ORACLE / "hf").glob("tf*")):
        if (d / f"{dist}-{ver}.dist-info").is_dir():
            return d
    return None


def _str_arg(call: ast.Call) -> Optional[str]:
    a = call.args[0] if call.args else None
    return a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None


def _method(tree: ast.AST, cls: str, name: str) -> Optional[ast.FunctionDef]:
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == cls:
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == name:
                    return item
    return None


def _self_calls(fn: ast.AST, names: Tuple[str, ...]) -> List[ast.Call]:
    return [n for n in ast.walk(fn) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            and n.func.attr in names and isinstance(n.func.value, ast.Name) and n.func.value.id == "self"]


def trainer_fills(root: Path) -> Tuple[str, Dict[str, List[str]], bool]:
    """(file read, {method: keys it fills}, whether the integration module still calls deepspeed.initialize)."""
    for rel in TF_FILES:
        path = root / rel
        if not path.is_file():
            continue
        text = path.read_text()
        tree = ast.parse(text)
        out: Dict[str, List[str]] = {}
        for m in TRAINER_METHODS:
            fn = _method(tree, "HfTrainerDeepSpeedConfig", m)
            if fn is not None:
                out[m] = sorted({k for c in _self_calls(fn, ("fill_match", "fill_only")) if (k := _str_arg(c))})
        if out:
            direct = any(isinstance(n, ast.Attribute) and n.attr == "initialize" and isinstance(n.value, ast.Name)
                         and n.value.id == "deepspeed" for n in ast.walk(tree))
            return rel, out, direct
    raise SystemExit(f"{root}: no HfTrainerDeepSpeedConfig with {TRAINER_METHODS}")


def _dict_keys(node: ast.AST) -> Set[str]:
    if isinstance(node, ast.Dict):
        return {k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
    return set()


def accelerate_fills(root: Path) -> Dict[str, object]:
    """The keys DeepSpeedPlugin and _prepare_deepspeed fill, and whether fill_match raises for an unfilled "auto"."""
    dc = root / "accelerate/utils/dataclasses.py"
    acc = root / "accelerate/accelerator.py"
    tree = ast.parse(dc.read_text())
    plugin: Set[str] = set()
    post = _method(tree, "DeepSpeedPlugin", "__post_init__")
    for n in ast.walk(post) if post else ():
        if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "plugin_to_config_mapping"
                                             for t in n.targets) and isinstance(n.value, ast.Dict):
            plugin |= {v.value for v in n.value.values if isinstance(v, ast.Constant) and isinstance(v.value, str)}
    mp = _method(tree, "DeepSpeedPlugin", "set_mixed_precision")
    for n in ast.walk(mp) if mp else ():
        if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "kwargs" for t in n.targets):
            plugin |= _dict_keys(n.value)
    fm = _method(tree, "DeepSpeedPlugin", "fill_match")
    raises = any(isinstance(n, ast.Raise) for n in ast.walk(fm)) if fm else False
    atree = ast.parse(acc.read_text())
    prep = _method(atree, "Accelerator", "_prepare_deepspeed")
    prepare: Set[str] = set()
    processes = False
    for n in ast.walk(prep) if prep else ():
        if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "config_kwargs" for t in n.targets):
            prepare |= _dict_keys(n.value)
        elif isinstance(n, ast.Assign):
            for t in n.targets:
                if (isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id == "config_kwargs"
                        and isinstance(t.slice, ast.Constant) and isinstance(t.slice.value, str)):
                    prepare.add(t.slice.value)
        elif (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "update"
              and isinstance(n.func.value, ast.Name) and n.func.value.id == "config_kwargs" and n.args):
            prepare |= _dict_keys(n.args[0])
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "deepspeed_config_process":
            processes = True
    return {"files": ["accelerate/utils/dataclasses.py", "accelerate/accelerator.py"], "plugin": sorted(plugin),
            "prepare": sorted(prepare), "unfilled_auto_raises": raises and processes}


def main(argv: List[str]) -> int:
    if "--unpack" in argv:
        for dist, vers in (("transformers", TRANSFORMERS), ("accelerate", ACCELERATE)):
            for v in vers:
                if _root(dist, v) is None:
                    releases.unpack(releases.PACKAGES[dist], v)
    out: Dict[str, Dict[str, object]] = {"transformers": {}, "accelerate": {}}
    for v in TRANSFORMERS:
        root = _root("transformers", v)
        if root is None:
            print(f"transformers {v}: not unpacked (run with --unpack)", file=sys.stderr)
            continue
        rel, fills, direct = trainer_fills(root)
        out["transformers"][v] = {"file": rel, **fills, "deepspeed_initialize_in_module": direct}
        print(f"transformers {v} ({rel}): direct deepspeed.initialize={direct}")
        for m, keys in fills.items():
            print(f"  {m}: {', '.join(keys)}")
    for v in ACCELERATE:
        root = _root("accelerate", v)
        if root is None:
            print(f"accelerate {v}: not unpacked (run with --unpack)", file=sys.stderr)
            continue
        got = accelerate_fills(root)
        out["accelerate"][v] = got
        print(f"accelerate {v}: unfilled \"auto\" raises={got['unfilled_auto_raises']}\n"
              f"  DeepSpeedPlugin: {', '.join(got['plugin'])}\n  _prepare_deepspeed: {', '.join(got['prepare'])}")
    if "--json" in argv:
        Path(argv[argv.index("--json") + 1]).write_text(json.dumps(out, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
