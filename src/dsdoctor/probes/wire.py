"""EnvFacts <-> JSON, generically from the dataclass type hints (stdlib only: the remote probe uses it too).

The remote probe runs the same ``collect()`` and sends its ``EnvFacts`` back as JSON; the local side decodes
it into the same dataclasses and runs the same checks, so facts are gathered by one piece of code.
"""

from __future__ import annotations

import dataclasses
import typing
from typing import Any, Dict, Type, TypeVar, Union

T = TypeVar("T")


def encode(obj: Any) -> Any:
    """A JSON-able tree: dataclasses become dicts of their fields, tuples lists."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: encode(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, (list, tuple)):
        return [encode(x) for x in obj]
    if isinstance(obj, dict):
        return {str(k): encode(v) for k, v in obj.items()}
    return obj


def _decode(tp: Any, data: Any) -> Any:
    if data is None:
        return None
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is Union:
        inner = [a for a in args if a is not type(None)]
        return _decode(inner[0], data) if len(inner) == 1 else data
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return decode(tp, data)
    if origin in (list, typing.List) or tp is list:
        return [_decode(args[0], x) for x in data] if args else list(data)
    if origin in (dict, typing.Dict) or tp is dict:
        return {k: _decode(args[1], v) for k, v in data.items()} if args else dict(data)
    if origin in (tuple, typing.Tuple) or tp is tuple:
        if not args:
            return tuple(data)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], x) for x in data)
        return tuple(_decode(a, x) for a, x in zip(args, data))
    if origin is not None and str(origin).endswith("Sequence"):  # typing.Sequence[str]
        return tuple(data)
    return data


def decode(cls: Type[T], data: Dict[str, Any]) -> T:
    """Rebuild ``cls`` (a dataclass) from ``encode``'s output; unknown keys are ignored (newer remote)."""
    hints = typing.get_type_hints(cls)
    kwargs = {f.name: _decode(hints[f.name], data[f.name]) for f in dataclasses.fields(cls)  # type: ignore[arg-type]
              if f.name in data}
    return cls(**kwargs)
