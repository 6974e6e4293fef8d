"""Reading a DeepSpeed config (ds_config) for what the environment checks need: NVMe / pinned offload.
The file is read by the reader lint uses (:mod:`dsdoctor.hjsondoc`); the full config lint (schema per version)
is `dsdoctor lint`'s job."""

from __future__ import annotations

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
    """Parse a ds_config as DeepSpeed loads it (HJSON: JSON plus comments, quoteless keys and strings, ...) with
    the reader ``lint`` uses, so every command accepts and rejects the same files; no hjson package needed.
    Raises :class:`ConfigError` (``path:line:col: ...`` when the text is at fault)."""
    from .hjsondoc import FileError, read

    doc = read(path)
    if isinstance(doc.error, FileError):
        raise ConfigError(f"{path}: {doc.error.msg}")
    if doc.error is not None:
        line, col = doc.linecol(doc.error.pos)
        raise ConfigError(f"{path}:{line}:{col}: not a loadable DeepSpeed config: {doc.error.msg}")
    root = doc.root
    if root is None or not isinstance(root.value, dict):
        kind = type(root.value).__name__ if root is not None else "nothing"
        raise ConfigError(f"{path}: the top level must be an object, not {kind}")
    return dict(root.value)


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
