"""Hugging Face helpers: ``from_pretrained`` keyword arguments that are safe under an active ZeRO-3 config.

    from dsdoctor.hf import zero3_safe_kwargs
    model = AutoModelForCausalLM.from_pretrained(name, **zero3_safe_kwargs(dict(device_map="auto", torch_dtype=dtype)))

Never imports transformers: whether ZeRO-3 is active is read the way Transformers' own
``is_deepspeed_zero3_enabled()`` reads it, from the module Transformers keeps that state in, and only when
the calling script has already imported it (it has, when it is about to call ``from_pretrained``). The
version facts (which argument raises in which Transformers version, and the message) live in
``dsdoctor.knowledge.transformers``; see docs/api.md.
"""

from __future__ import annotations

import sys
import warnings
from typing import Any, Dict, Mapping, Optional

from .knowledge import transformers as TF

__all__ = ["ZeRO3KwargsWarning", "installed_transformers", "zero3_enabled", "zero3_safe_kwargs"]


class ZeRO3KwargsWarning(UserWarning):
    """zero3_safe_kwargs dropped a ``from_pretrained`` argument (filter with ``warnings.simplefilter``)."""


def zero3_enabled() -> Optional[bool]:
    """Transformers' own verdict (``is_deepspeed_zero3_enabled()``) without importing transformers.

    None when transformers is not imported in this process; False when no live ZeRO-3 HfDeepSpeedConfig is
    registered (the registering objects — TrainingArguments(deepspeed=...), HfDeepSpeedConfig, an
    Accelerator with a DeepSpeed plugin — all import the module the state lives in)."""
    for name in TF.ZERO3_STATE_MODULES:
        mod = sys.modules.get(name)
        if mod is None:
            continue
        guard = getattr(mod, TF.ZERO3_GUARD_NAME, None)
        if callable(guard):
            return bool(guard())
        ref = getattr(mod, TF.ZERO3_STATE_WEAKREF, None)
        obj = ref() if callable(ref) else None
        return bool(obj is not None and obj.is_zero3())
    return False if "transformers" in sys.modules else None


def installed_transformers() -> Optional[str]:
    """The Transformers version from package metadata (the imported module's ``__version__`` when the
    distribution has no metadata, e.g. a source checkout on sys.path)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("transformers")
    except PackageNotFoundError:
        mod = sys.modules.get("transformers")
        ver = getattr(mod, "__version__", None) if mod is not None else None
        return ver if isinstance(ver, str) else None


def _low_mem_raising_versions() -> str:
    """The Transformers range where ``low_cpu_mem_usage=True`` raises under ZeRO-3, from the knowledge table."""
    spans = [s for s in TF.ZERO3_LOAD_GUARD if s.value[0] != "device_map"]

    def show(ver: Optional[str]) -> str:
        return "" if ver is None else ver[:-3] if ver.endswith(".99") else ver

    return f"{show(spans[0].lo)}-{show(spans[-1].hi)}" if spans else "some versions"


def _warn(message: str) -> None:
    warnings.warn(f"dsdoctor.hf.zero3_safe_kwargs: {message}", ZeRO3KwargsWarning, stacklevel=3)


def zero3_safe_kwargs(kwargs: Mapping[str, Any], *, transformers_version: Optional[str] = None,
                      zero3: Optional[bool] = None) -> Dict[str, Any]:
    """A copy of ``kwargs`` for ``from_pretrained`` without the arguments that conflict with ZeRO-3.

    When ZeRO-3 is active (``zero3``, else Transformers' own state, see :func:`zero3_enabled`):

    - ``device_map`` (any value but None) is dropped: Transformers' ZeRO-3 guard raises for it (the
      version ranges and messages are ``knowledge.transformers.ZERO3_LOAD_GUARD``; the warning quotes the
      message of the installed version), and ZeRO-3 places the weights itself;
    - ``low_cpu_mem_usage`` (truthy) is dropped in the versions where it raises under ZeRO-3, and when the
      version is unknown; where Transformers ignores it, it is left alone.

    One :class:`ZeRO3KwargsWarning` per dropped argument names it and why. The input is never modified;
    without ZeRO-3 the copy is returned unchanged. ``transformers_version`` defaults to the installed one.
    """
    if not isinstance(kwargs, Mapping):
        raise TypeError(f"zero3_safe_kwargs: kwargs must be a mapping, not {type(kwargs).__name__}")
    out = dict(kwargs)
    active = zero3 if zero3 is not None else bool(zero3_enabled())
    if not active:
        return out
    tf = transformers_version or installed_transformers()
    guard = TF.zero3_load_guard(tf)
    who = f"Transformers {tf}" if tf else "Transformers (version unknown)"
    if out.get("device_map") is not None:
        dm = out.pop("device_map")
        if guard is not None and guard[0] in ("either", "device_map"):
            why = f"{who} raises ValueError: {guard[1]}"
        else:
            why = f"ZeRO-3 partitions the weights itself (the version here is unknown: {who})"
        _warn(f"dropped device_map={dm!r} because DeepSpeed ZeRO-3 is active: {why}")
    if out.get("low_cpu_mem_usage"):
        raises = TF.low_cpu_mem_usage_raises_under_zero3(tf)
        if raises is not False:
            low = out.pop("low_cpu_mem_usage")
            why = (f"{who} raises ValueError: {guard[1]}" if raises and guard is not None else
                   f"it raises under ZeRO-3 in Transformers {_low_mem_raising_versions()}, and the version here is "
                   "unknown (ZeRO-3's zero.Init loads with low memory anyway)")
            _warn(f"dropped low_cpu_mem_usage={low!r} because DeepSpeed ZeRO-3 is active: {why}")
    return out
