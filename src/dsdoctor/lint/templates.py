"""DeepSpeed config templates the project's code loads: a JSON file beside a module (found from the module's own
``__file__``: ``Path(__file__).parent / "ds_train_template.json"``, ``os.path.join(os.path.dirname(__file__),
"ds.json")``) that a function reads (``cfg = json.load(f)``), fills (``cfg["train_batch_size"] = ...``,
``cfg["zero_optimization"]["stage"] = stage``) and returns or hands to ``deepspeed.initialize``.

No launch line names such a file, yet every launch of the code runs with it: it is linted as a config (the walk
lists no JSON), and the keys the loading function assigns are the code's, not the file's: findings on them (or under
them) are info, saying where the code sets them (:mod:`.code_filled`'s ``soften``; a ZeRO stage the code sets
replaces the file's, yet rules judge the file's stage elsewhere than at its key). Only a file that exists beside the module (or below its directory),
holds DeepSpeed keys (``zero_optimization``, a batch size) and is read by ``json.load`` in the function that names
it (directly or through a module constant) counts: a data file the code reads does not.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Dict, Iterable, List, Optional, Tuple

from .code_filled import _assigned, module_text
from .discover import _read, is_ds_config

if TYPE_CHECKING:
    from .discover import Found

_NAME = re.compile(r"""(?:/|,)[ \t]*[rR]?["']([\w./-]+\.h?json)["']""")  # `DIR / "x.json"`, `join(DIR, "x.json")`
_CONST = re.compile(r"^([A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?=[^=\n]*$", re.M)  # a module-level assignment line
_LOADS = re.compile(r"\b([A-Za-z_]\w*)[ \t]*=[ \t]*h?json\.load\(")
_DEF = re.compile(r"^([ \t]*)(?:async[ \t]+)?def[ \t]", re.M)


def code_templates(pyfiles: Iterable[str], found: "Found") -> None:
    """Record the config templates the Python files load (:func:`loaded_templates`): linted as ds_configs, with the
    keys the code fills as ``found.code_filled``; loaded by ``deepspeed.initialize`` where the project calls it and
    builds no HF Trainer (the dict the code fills is handed to it), else as the file's values suggest. The keys the
    code sets in a config's ``deepspeed`` field are recorded too, for the configs written inline under a YAML's
    ``deepspeed:`` key (:mod:`.inline_filled`)."""
    from .inline_filled import inline_filled

    files = sorted(pyfiles)
    inline_filled(files, found)
    how: Optional[str] = None
    for py in files:
        for cfg, filled in loaded_templates(py).items():
            found.kinds.setdefault(cfg, "ds_config")
            if found.kinds[cfg] != "ds_config":
                continue
            if how is None:
                how = _loader(files)
            if how and cfg not in found.recipe_loaded:
                found.loaded_by.setdefault(cfg, how)
            found.templates[cfg] = py
            old = found.code_filled.get(cfg)
            found.code_filled[cfg] = filled if old is None else {**filled, **old}


def _loader(files: List[str]) -> str:
    """"deepspeed" where the project's code calls ``deepspeed.initialize`` and never builds an HF Trainer; else ""."""
    from .discover import _PY_INIT, _PY_TRAINER

    texts = [_read(f) for f in files]
    if any(_PY_TRAINER.search(t) for t in texts):
        return ""
    return "deepspeed" if any("deepspeed.initialize" in t and _PY_INIT.search(t) for t in texts) else ""


def loaded_templates(py: str) -> Dict[str, Dict[str, str]]:
    """Template path -> {key path: "file:line"} of the keys the code that loads it assigns, for each DeepSpeed
    config template the module ``py`` finds from its own directory and reads with ``json.load``."""
    text = module_text(py)
    if text is None or "__file__" not in text or "json.load" not in text or ".json" not in text:
        return {}
    here = os.path.dirname(py)
    names: Dict[str, List[str]] = {}  # template path -> the words that name it (its literal, module constants)
    for m in _NAME.finditer(text):
        cfg = os.path.normpath(os.path.join(here, m.group(1)))
        if not _inside(cfg, here) or not is_ds_config(cfg):
            continue
        words = names.setdefault(cfg, [m.group(1)])
        eol = text.find("\n", m.end())
        const = _CONST.match(text[text.rfind("\n", 0, m.start()) + 1:eol if eol >= 0 else len(text)])
        if const is not None and const.group(1) not in words:
            words.append(const.group(1))
    out: Dict[str, Dict[str, str]] = {}
    for var, start, body in _loads(text):
        named = _named_in(names, text[body[0]:start])
        if named is not None:
            keys = _assigned(text[:body[1]], var, start)
            out.setdefault(named, {}).update((k, f"{py}:{line}") for k, line in keys)
    return out


def _loads(text: str) -> List[Tuple[str, int, Tuple[int, int]]]:
    """(variable, offset, (start, end) of the enclosing function) of each ``var = json.load(...)``."""
    defs = [(m.start(), len(m.group(1).expandtabs())) for m in _DEF.finditer(text)]
    out = []
    for m in _LOADS.finditer(text):
        inner = [(at, ind) for at, ind in defs if at < m.start()]
        if not inner:
            continue  # module level: no function fills it
        at, ind = inner[-1]
        end = next((a for a, i in defs if a > m.start() and i <= ind), len(text))
        out.append((m.group(1), m.end(), (at, end)))
    return out


def _named_in(names: Dict[str, List[str]], body: str) -> Optional[str]:
    """The one template the function text ``body`` names (its literal or a module constant); None: none or several."""
    hit = [cfg for cfg, words in names.items() if any(re.search(r"(?<![\w.])" + re.escape(w) + r"(?!\w)", body)
                                                      for w in words)]
    return hit[0] if len(hit) == 1 else None


def _inside(path: str, d: str) -> bool:
    rel = os.path.relpath(os.path.abspath(path), os.path.abspath(d or "."))
    return not rel.startswith("..")
