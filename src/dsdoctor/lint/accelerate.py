"""accelerate config YAML: the DeepSpeed config accelerate's ``DeepSpeedPlugin`` builds from the
``deepspeed_config`` section, linted with the ds_config rules; findings point at the YAML keys.

As in accelerate 1.1.1 / 1.15.0 (``utils/dataclasses.py``, ``DeepSpeedPlugin.__post_init__`` and
``set_mixed_precision``): without ``deepspeed_config_file`` the config is ``train_batch_size`` /
``train_micro_batch_size_per_gpu`` "auto", ``gradient_accumulation_steps``, ``zero_optimization`` with
``stage`` (default 2), ``offload_optimizer``/``offload_param`` ``{device, nvme_path (nvme only)}``,
``stage3_gather_16bit_weights_on_model_save``; ``mixed_precision`` fp16 adds ``fp16: {enabled, auto_cast}``,
bf16/fp8 add ``bf16: {enabled}``. With a config file, ``mixed_precision`` must not contradict the file's
fp16/bf16 (accelerate raises ``ValueError``). Only accelerate's own simple YAML layout is read (flat
``key: value`` lines, one nested ``deepspeed_config`` mapping); no YAML library is needed. accelerate reads a
``.json`` config file the same way (``load_config_from_file``: ``ClusterConfig.from_json_file``): a JSON object
with accelerate's own top-level keys (:func:`is_json_config`) is such a config, never a DeepSpeed one.
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any, Dict, List, Optional, Tuple

from .target import Target

_LINE = re.compile(r"^(\s*)([A-Za-z_][\w.-]*)\s*:\s*(.*?)\s*$")
Pos = Tuple[int, int]


@dataclasses.dataclass
class AccelerateYaml:
    top: Dict[str, Tuple[Any, Pos]]
    ds: Dict[str, Tuple[Any, Pos]]
    ds_pos: Pos


def _scalar(raw: str) -> Any:
    raw = re.sub(r"\s+#.*$", "", raw)
    if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "'\"":
        return raw[1:-1]
    low = raw.lower()
    if low in ("true", "false"):
        return low == "true"
    if low in ("null", "~", ""):
        return None
    try:
        return int(raw)
    except ValueError:
        try:
            return float(raw)
        except ValueError:
            return raw


_JSON_KEYS = re.compile(r'^[ \t]*"(?:compute_environment|distributed_type)"[ \t]*:', re.M)


def is_json_config(text: str) -> bool:
    """Is ``text`` an accelerate config written as JSON (an object with accelerate's ``compute_environment`` /
    ``distributed_type`` keys)?"""
    return text.lstrip().startswith("{") and _JSON_KEYS.search(text) is not None


def _parse_json(text: str) -> Optional[AccelerateYaml]:
    """:func:`parse` for a JSON config: the same keys, at their JSON positions."""
    from ..hjsondoc import parse as parse_json
    from ..textpos import LineIndex

    root = parse_json(text).root
    if root is None or root.kind != "object":
        return None
    at = LineIndex(text)
    top: Dict[str, Tuple[Any, Pos]] = {}
    ds: Dict[str, Tuple[Any, Pos]] = {}
    ds_pos: Optional[Pos] = None
    for m in root.members:
        if m.key == "deepspeed_config" and m.value.kind == "object":
            ds_pos = at.linecol(m.start)
            ds.update((d.key, (d.value.value, at.linecol(d.start))) for d in m.value.members
                      if d.value.kind not in ("object", "array"))
        elif m.value.kind not in ("object", "array"):
            top[m.key] = (m.value.value, at.linecol(m.start))
    return AccelerateYaml(top, ds, ds_pos) if ds_pos is not None else None


def parse(text: str) -> Optional[AccelerateYaml]:
    """The top-level keys and the ``deepspeed_config`` mapping, with 1-based (line, col) of each key."""
    if is_json_config(text):
        return _parse_json(text)
    top: Dict[str, Tuple[Any, Pos]] = {}
    ds: Dict[str, Tuple[Any, Pos]] = {}
    ds_pos: Optional[Pos] = None
    in_ds = False
    ds_indent: Optional[int] = None  # deepspeed_config's own keys; deeper lines belong to a nested block
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = _LINE.match(line)
        if m is None:
            continue
        indent, key, raw = m.groups()
        pos = (n, len(indent) + 1)
        if not indent:
            in_ds = key == "deepspeed_config" and raw == ""
            if in_ds:
                ds_pos = pos
            else:
                top[key] = (_scalar(raw), pos)
        elif in_ds:
            ds_indent = len(indent) if ds_indent is None else ds_indent
            if len(indent) == ds_indent:
                ds[key] = (_scalar(raw), pos)
    if ds_pos is None:
        return None
    return AccelerateYaml(top, ds, ds_pos)


def build(y: AccelerateYaml) -> Tuple[str, Dict[int, Pos]]:
    """The DeepSpeedPlugin config as JSON text, one key per line, and a map JSON line -> YAML position."""
    lines: List[str] = []
    where: Dict[int, Pos] = {}

    def emit(s: str, key: Optional[str] = None, top: bool = False) -> None:
        lines.append(s)
        src = (y.top if top else y.ds).get(key or "")
        where[len(lines)] = src[1] if src else y.ds_pos

    def get(key: str, default: Any) -> Any:
        v = y.ds.get(key, (None, y.ds_pos))[0]
        return default if v is None else v

    gas = get("gradient_accumulation_steps", "auto")
    emit("{")
    emit('"train_batch_size": "auto",')
    emit('"train_micro_batch_size_per_gpu": "auto",')
    emit(f'"gradient_accumulation_steps": {json.dumps(gas)},', "gradient_accumulation_steps")
    clip = get("gradient_clipping", "auto")
    if clip:
        emit(f'"gradient_clipping": {json.dumps(clip)},', "gradient_clipping")
    mp = y.top.get("mixed_precision", (None, y.ds_pos))[0]
    if mp == "fp16":
        emit('"fp16": {"enabled": true, "auto_cast": true},', "mixed_precision", top=True)
    elif mp in ("bf16", "fp8"):
        emit('"bf16": {"enabled": true},', "mixed_precision", top=True)
    emit('"zero_optimization": {')
    emit(f'"stage": {json.dumps(get("zero_stage", 2))},', "zero_stage")
    for part in ("optimizer", "param"):
        dev = get(f"offload_{part}_device", "none")
        nvme = get(f"offload_{part}_nvme_path", "none") if dev == "nvme" else None
        emit(f'"offload_{part}": {{', f"offload_{part}_device")
        emit(f'"device": {json.dumps(dev)},', f"offload_{part}_device")
        emit(f'"nvme_path": {json.dumps(nvme)}', f"offload_{part}_nvme_path" if nvme is not None else f"offload_{part}_device")
        emit("},", f"offload_{part}_device")
    emit(f'"stage3_gather_16bit_weights_on_model_save": {json.dumps(bool(get("zero3_save_16bit_model", False)))}',
         "zero3_save_16bit_model")
    emit("}")
    emit("}")
    return "\n".join(lines) + "\n", where


def mixed_precision_conflict(y: AccelerateYaml, cfg: Target) -> Optional[str]:
    """accelerate's ``set_mixed_precision`` ValueError: ``mixed_precision`` vs the config file's other dtype."""
    mp = y.top.get("mixed_precision", (None, y.ds_pos))[0]
    if mp not in ("fp16", "bf16", "fp8") or cfg.doc is None or cfg.doc.root is None:
        return None
    other = "bf16" if mp == "fp16" else "fp16"
    node = cfg.node(other, "enabled")
    if node is not None and node.value is True:
        return other
    return None
