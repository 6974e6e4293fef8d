"""ZeRO-3 context and target versions for Python scripts.

ZeRO-3 is known from the project (ds_configs the launch scripts / Python reference, accelerate YAML
``zero_stage``, ``--zero_stage`` / ``--zero-stage`` in launch scripts, ``ACCELERATE_DEEPSPEED_ZERO_STAGE``) and
from the script itself (``TrainingArguments(deepspeed={...})``, a config path in a call, argparse/dataclass
defaults). Versions come from ``--target transformers==X`` or the checked environment's package metadata.
"""

from __future__ import annotations

import os
import re
from typing import Dict, List, Optional, Sequence, Tuple

_ZERO_FLAG = re.compile(r"--zero[_-]stage[= ]+['\"]?(\d)|ACCELERATE_DEEPSPEED_ZERO_STAGE=['\"]?(\d)")
_YAML_STAGE = re.compile(r"^\s*zero_stage\s*:\s*['\"]?(\d)", re.M)
# an accelerate config (not any YAML with a zero_stage key: a memory calculator's, a training framework's own)
_ACCELERATE = re.compile(r"^\s*(?:distributed_type\s*:\s*['\"]?DEEPSPEED|deepspeed_config\s*:|compute_environment\s*:)",
                         re.M)


def accelerate_stage(text: str) -> Optional[int]:
    """The ``zero_stage`` of an accelerate config YAML; None when unset or when the YAML is no accelerate config."""
    m = _YAML_STAGE.search(text)
    return int(m.group(1)) if m is not None and _ACCELERATE.search(text) else None


def config_stage(path: str) -> Optional[int]:
    """``zero_optimization.stage`` of a ds_config file, or of a config embedded in another file
    (:mod:`..embedded`); None: unreadable or not set."""
    if not os.path.isfile(path):
        from ..embedded import stage

        return stage(path) if "#L" in path else None
    from ...hjsondoc import read

    try:
        doc = read(path)
    except Exception:  # noqa: BLE001 - the config rules report unreadable configs
        return None
    node = doc.root.get("zero_optimization", "stage") if doc.root is not None and doc.root.kind == "object" else None
    val = node.value if node is not None else None
    return val if isinstance(val, int) and not isinstance(val, bool) else None


# directories that hold a project's shared configs, not one example's: a stage-3 file in one reaches their parent
_SHARED_DIRS = frozenset({"config", "configs", "conf", "ds_config", "ds_configs", "deepspeed", "deepspeed_config",
                          "deepspeed_configs", "accelerate", "accelerate_config", "accelerate_configs", "scripts"})


def zero3_scope(path: str) -> str:
    """The directory whose files a stage-3 file found in the project (no launch names it) may apply to: its own
    directory, or, climbing out of shared config directories (``configs/``, ``scripts/`` ...), their parent, and
    out of ``examples/`` above such a directory (``examples/accelerate_configs/``: the project's shared configs).
    A config shipped with one example directory (``examples/int8/zero3.yaml``) says nothing about another's files."""
    d = os.path.dirname(os.path.abspath(path))
    shared = False
    while os.path.dirname(d) != d and (os.path.basename(d).lower() in _SHARED_DIRS or
                                       shared and os.path.basename(d).lower() in ("examples", "example")):
        shared, d = True, os.path.dirname(d)
    return d


def in_scope(path: str, config: str) -> bool:
    """Is ``path`` below :func:`zero3_scope` of the stage-3 file ``config``?"""
    return os.path.abspath(path).startswith(zero3_scope(config).rstrip(os.sep) + os.sep)


def _stage(path: str, kind: str, read: "object") -> Optional[int]:
    if kind == "ds_config":
        return config_stage(path)
    if kind in ("accelerate", "shell") and os.path.isfile(path):
        text = read(path)  # type: ignore[operator]
        if kind == "accelerate":
            return accelerate_stage(text)
        m = _ZERO_FLAG.search(text)
        return int(next(g for g in m.groups() if g)) if m else None
    return None


def project_zero3(kinds: Dict[str, str], read: "object") -> Tuple[Optional[bool], str, List[str], List[str]]:
    """(zero3, source, stage-3 files, stage-1/2 configs) from the files lint found, each read once: True with
    where (the first stage-3 file), False when every stage seen is < 3; every file that sets ZeRO stage 3
    (ds_config, accelerate YAML, ``--zero_stage 3`` in a launch: the project-wide context's files); and the
    ds_configs / accelerate YAMLs of stage 1 or 2 (where both sit beside a script, the stage is the user's pick)."""
    stages = [(path, kind, _stage(path, kind, read)) for path, kind in sorted(kinds.items())]
    threes = [path for path, _, stage in stages if stage == 3]
    lowers = [path for path, kind, stage in stages if stage in (1, 2) and kind in ("ds_config", "accelerate")]
    first = next(((path, kind) for path, kind, stage in stages if stage == 3), None)
    if first is not None:
        path, kind = first
        from ..embedded import shown

        return True, f"zero_optimization stage 3 in {shown(path)}" if kind == "ds_config" else \
            f"ZeRO stage 3 in {path}", threes, lowers
    if os.environ.get("ACCELERATE_DEEPSPEED_ZERO_STAGE") == "3":
        return True, "ACCELERATE_DEEPSPEED_ZERO_STAGE=3 in the environment", threes, lowers
    seen = [stage for _, _, stage in stages if stage is not None]
    if seen:
        return False, f"ZeRO stage {max(seen)} in the project's configs", threes, lowers
    return None, "", threes, lowers


def installed(python: Optional[str], names: Sequence[str] = ("transformers", "peft", "deepspeed")) -> Dict[str, str]:
    """Versions in the checked environment, from package metadata (nothing imported)."""
    from ...probes.interpreter import Interpreter, resolve, site_dirs
    from ...probes.packages import scan

    interp = resolve(python)
    if not isinstance(interp, Interpreter):
        return {}
    pk = scan(site_dirs(interp), names)
    return {n: v for n in names if (v := pk.version(n)) is not None}


def asked(source: str) -> bool:
    """Was the ZeRO-3 context given by the user (``--zero-stage``, the configuration file) rather than found in the
    project? Then it holds for every script linted, also a helper module that does not train by itself."""
    return source.startswith("--zero-stage") or "zero3 =" in source or "zero-stage =" in source
