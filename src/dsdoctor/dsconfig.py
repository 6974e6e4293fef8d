"""Reading a DeepSpeed config (ds_config) for what the environment checks need: NVMe / pinned offload.
The full config lint (schema per version, positions) is `dsdoctor lint`'s job."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Dict, Optional

from .errors import UsageError


class ConfigError(UsageError):
    """The config cannot be read or parsed (message says where and why)."""


@dataclass(frozen=True)
class OffloadIntent:
    nvme: bool = False  # some offload_* device is nvme
    offload: bool = False  # some offload_* device is cpu or nvme
    pin_memory: Optional[bool] = None  # explicit pin_memory in an active offload block; None = default
    source: str = ""


def load(path: str) -> Dict[str, Any]:
    """Parse a ds_config: JSON, or HJSON (what DeepSpeed itself accepts) when the hjson package is present."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror or exc}") from exc
    text = raw.decode("utf-8", errors="replace")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        try:
            import hjson
        except ImportError:
            raise ConfigError(f"{path}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg} "
                              "(HJSON configs need `pip install hjson`)") from exc
        try:
            data = hjson.loads(text)
        except Exception as hexc:  # hjson raises its own HjsonDecodeError
            raise ConfigError(f"{path}: not valid JSON/HJSON: {hexc}") from hexc
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: the top level must be an object, not {type(data).__name__}")
    return dict(data)


def offload_intent(cfg: Dict[str, Any], source: str = "") -> OffloadIntent:
    zero = cfg.get("zero_optimization")
    if not isinstance(zero, dict):
        return OffloadIntent(source=source)
    nvme = offload = False
    pin: Optional[bool] = None
    for key in ("offload_optimizer", "offload_param"):
        block = zero.get(key)
        if not isinstance(block, dict):
            continue
        device = str(block.get("device", "none")).lower()
        if device in ("cpu", "nvme"):
            offload = True
            nvme = nvme or device == "nvme"
            if isinstance(block.get("pin_memory"), bool):
                pin = bool(block["pin_memory"]) or bool(pin)
    return OffloadIntent(nvme=nvme, offload=offload, pin_memory=pin, source=source)
