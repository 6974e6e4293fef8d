"""Where a module uses a name (lint/script/name_uses.py): one walk of the module answers every name the option-gate
reading asks about, with what that reading relies on: an import line, a docstring, ``__all__``, a keyword, a registry
key or a compared string is no use; a string naming it or an alias makes the answer unknown; a left-out ``__main__``
block is reported apart."""

from __future__ import annotations

from typing import Any, Dict

from dsdoctor.lint.script.name_uses import name_uses
from dsdoctor.lint.script.source import Source, parse

_TEXT = '''"""merge() docstring mentions merge."""
from pkg.merge import merge
from pkg import tools as t
__all__ = ["merge", "load"]
METHODS = {"load": 1}


def load(cfg, merge=None):
    if cfg.mode == "load":
        return cfg
    if cfg.merge_lora:
        merge(cfg)
    return dict(merge=cfg)


if __name__ == "__main__":
    load(None)
'''


def _uses(text: str, main_dead: bool = False) -> Any:
    return name_uses(parse(Source("m.py", text, "utf-8")), main_dead, {})


def test_uses_left_out_where_no_lookup() -> None:
    uses = _uses(_TEXT)
    # ``merge`` as a parameter (line 8) and as a call (line 12) are uses; the import, the docstring, the __all__
    # entry and the keyword ``merge=`` are not
    assert uses.uses("merge", None, set()) == ([(8, 14), (12, 8)], False)
    # ``load``: the def's own name is skipped by the caller; the compared string and the dict key are no uses
    load = uses.uses("load", None, set())
    assert load is not None and load[0] == [(8, 4), (17, 4)]


def test_left_out_main_block_and_registry_entries() -> None:
    uses = _uses(_TEXT, main_dead=True)
    assert uses.uses("load", None, set()) == ([(8, 4)], True)
    assert uses.uses("load", None, {(8, 4)}) == ([], True)


def test_strings_and_aliases_make_it_unknown() -> None:
    assert _uses(_TEXT + 'getattr(mod, "merge_all")\nx = "call load here"\n').uses("load", None, set()) is None
    assert _uses(_TEXT).uses("tools", None, set()) is None  # imported as ``t``
    assert _uses(_TEXT).uses("absent", None, set()) == ([], False)


def test_walked_once_per_linted_file() -> None:
    src = parse(Source("m.py", _TEXT, "utf-8"))
    cache: Dict[str, Any] = {}
    assert name_uses(src, False, cache) is name_uses(src, False, cache)
    assert name_uses(src, True, cache) is not name_uses(src, False, cache)
