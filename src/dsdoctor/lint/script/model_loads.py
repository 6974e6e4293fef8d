"""Shared by the load-time rules: the ``from_pretrained`` calls of a script with their resolved arguments."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, List, Optional, Tuple

from ...knowledge import transformers as TF
from ...model import Evidence
from ..target import Target, Usage
from . import Ctx, active, ctx, text_of, where
from .values import FALSE, NONE, TRUE, UNKNOWN

if TYPE_CHECKING:
    from .dataflow import Arg, Event, Val


def loads(t: Target, zero3_only: bool = True) -> Iterator[Tuple[Ctx, "Event"]]:
    c = active(t)
    if c is None or (zero3_only and c.zero3 is False):
        return
    assert c.script is not None
    for e in c.script.events:
        if e.kind == "load" and e.name.endswith(".from_pretrained") and not (zero3_only and e.dead) \
                and transformers_loader(t.usage, t.path, c, e.name):
            yield c, e


def transformers_loader(usage: Usage, path: str, c: Ctx, name: str) -> bool:
    """Can ``name`` (``Owner.from_pretrained``) be Transformers' loader? Not where the owner is imported from a
    library whose loaders are not Transformers' (diffusers), nor where it is a class of the project whose
    ``from_pretrained`` is not (:mod:`..own_loaders`: its own, or its bases are not Transformers'); nor, in a project
    with a wrapper class whose ``from_pretrained`` is an instance method loading itself, an attribute of an object
    (``self.slim_model.from_pretrained``: Transformers' loader is called on a class)."""
    from ..own_loaders import INSTANCE, TRANSFORMERS, library_of, own_loaders

    assert c.script is not None
    owner = name.rsplit(".", 1)[0]
    module = c.script.imported.get(owner.split(".")[0])
    lib = library_of(module) if module else None
    if lib is not None:
        return lib == TRANSFORMERS
    mine = usage.own_loaders if usage.own_loaders is not None else own_loaders([path])
    last = owner.split(".")[-1]
    if INSTANCE in mine and last[:1].islower() and not last.endswith(("cls", "class", "klass")):
        return False  # ``self.slim_model.from_pretrained``: an object, maybe of the project's wrapper class (module doc)
    return last not in mine


def arg(c: Ctx, e: "Event", key: str) -> Optional["Arg"]:
    assert c.values is not None
    return c.values.argument(e.call, key, e.scope)


def device_map_sources(c: Ctx, a: "Arg", bad: List["Val"], call: Any) -> Tuple[Evidence, ...]:
    """Where the non-None values ``bad`` of the ``device_map`` argument ``a`` are set (the first three, not the
    keyword itself when the load ``call`` holds it; ``kw.update(device_map=...)`` before ``**kw`` counts): the
    sources lint/script/flags.py gates on (``BY_SOURCE``)."""
    start, end = c.src.span(call)
    return tuple(where(c, v.node, "a non-None device_map comes from here") for v in bad
                 if v.node is not a.site or not start <= c.src.span(v.node)[0] < end)[:3]


def received(c: Ctx, e: "Event") -> Evidence:
    """The load a value reaches: the last evidence of a load-time finding."""
    return where(c, e.call, "the load that receives it")


def non_none(a: Optional["Arg"]) -> List["Val"]:
    return [v for v in a.values if v.kind in (TRUE, FALSE)] if a else []


def truthy(a: Optional["Arg"]) -> List["Val"]:
    return [v for v in a.values if v.kind == TRUE] if a else []


def maybe_true(vals: List["Val"]) -> bool:
    """Can the value be true (a true literal, or one the data flow cannot decide: a flag, ``args.bits == 8``)?"""
    return any(v.kind in (TRUE, UNKNOWN) for v in vals)


def definitely_falsy(a: Optional["Arg"]) -> bool:
    return bool(a and a.values and all(v.kind == FALSE for v in a.values))


def none_unless_zero3(t: Target, site: Any) -> str:
    """``<expr>`` -> ``None if is_deepspeed_zero3_enabled() else <expr>``."""
    old = text_of(t, site)
    return f"None if {TF.ZERO3_GUARD_NAME}() else {old}"


def false_if_zero3(t: Target, a: "Arg") -> str:
    old = text_of(t, a.site)
    if old.strip() == "True":
        return f"not {TF.ZERO3_GUARD_NAME}()"
    return f"False if {TF.ZERO3_GUARD_NAME}() else {old}"


def guard_message(c: Ctx, trigger: str) -> str:
    g = TF.zero3_load_guard(c.tf)
    if g is None:
        return TF.MSG_ZERO3_DEVICE_MAP if trigger == "device_map" else TF.MSG_ZERO3_COMBINED
    return g[1]


def version_note(c: Ctx) -> str:
    return c.tf_note


__all__ = ["loads", "arg", "non_none", "truthy", "ctx", "NONE"]
