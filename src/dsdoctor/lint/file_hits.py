"""One file's findings in a project lint (:func:`file_hits`): its target built with what the project says of its
use (loader, world size, saves, pins near it), its rules run, and what the project knows applied: a config nothing
loads or names is info, keys the launch's script sets in code are info (:mod:`.code_filled`), a config written inside
another file reports at that file's lines (:mod:`.embedded`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Dict, List, Optional

from .rule import Hit, as_info
from .target import Target, Usage
from .unloaded import not_loaded, unloaded

if TYPE_CHECKING:
    from .discover import Found
    from .pins import Near as Pins


@dataclass
class Near:
    """The pins nearest each file (None with --python) and what they made lint assume, per pin."""

    pins: "Optional[Pins]"
    notes: Dict[str, List[str]] = field(default_factory=dict)


def _embedded(path: str) -> bool:
    """Is ``path`` the name of a config written inside another file (:mod:`.embedded`)?"""
    if "#L" not in path:
        return False
    from .embedded import is_embedded

    return is_embedded(path)


def file_hits(path: str, kind: str, base: Usage, found: "Found", loaded_by: Optional[str],
              configs: Dict[str, Target], near: Near) -> List[Hit]:
    """One file's hits (inline suppressions applied); accelerate YAML after the ds_configs it may name; a config
    written inside another file: at that file's lines, without edits (:mod:`.embedded`)."""
    hits = _hits(path, kind, base, found, loaded_by, configs, near)
    if kind != "ds_config" or not _embedded(path):
        return hits
    from .embedded import load, to_host

    e = load(path)
    assert e is not None
    return [Hit(f) for f in (to_host(h.finding, e) if h.finding.path == path else h.finding for h in hits)
            if f is not None]


def _save_fallback(path: str, found: "Found") -> str:
    """lint/saves.py save_fallback over the project's Python files, where the project saves at all."""
    if not found.saves_16bit:
        return ""
    from .saves import save_fallback

    return save_fallback(path, [p for p, k in found.kinds.items() if k == "python"])


def _hits(path: str, kind: str, base: Usage, found: "Found", loaded_by: Optional[str],
          configs: Dict[str, Target], near: Near) -> List[Hit]:
    if kind == "accelerate":
        from .discover import _read
        from .lint_analysis_failed import failed
        from .one_file import lint_yaml
        from .suppress import apply_to_findings

        try:
            text = _read(path)
            own = Usage(**{**base.__dict__, "trainer_saves": found.yaml_trainer.get(path, False),
                           "saves_16bit": found.config_saves.get(path, base.saves_16bit),
                           "peft": found.config_peft.get(path, base.peft),
                           "max_grad_norms": base.config_grad_norms.get(path, ()),
                           "some_grad_norms": base.config_grad_some.get(path, ()),
                           "trainer_launches": tuple(found.trainer_launches.get(path, ())),
                           "save_fallback": _save_fallback(path, found)})
            return _unnamed(path, found, list(apply_to_findings(path, kind, text, lint_yaml(path, text, own, configs))))
        except Exception as exc:  # noqa: BLE001 - never a crash on an input: lint-analysis-failed
            return [failed(path, exc)]
    usage = Usage(**{**base.__dict__, "env_file_vars": base.env_file_vars})
    usage.twice_launches = base.twice_configs.get(path, [])
    usage.training_launches = base.training_options.get(path, [])
    if near.pins is not None:
        from .pins import apply_near

        apply_near(usage, path, kind, near.pins, near.notes)
    usage.loaded_by = loaded_by or found.loaded_by.get(path)
    usage.loaded_by_source = "--loaded-by" if loaded_by else "the project's launch files and scripts" if usage.loaded_by else ""
    if path in found.config_client:  # what the code its launches run hands deepspeed.initialize (lint/client_passed.py)
        usage.client_optimizer, usage.client_scheduler = found.config_client[path]
    if usage.loaded_by == "trainer" and path in found.recipe_loaded:  # the Trainer builds its launches' engine: the
        usage.client_scheduler = None  # lr_scheduler another script hands deepspeed.initialize is not this config's
    usage.accelerate_save_16bit = found.accelerate_save_16bit.get(path)
    if path in found.config_saves:  # its own launches, not the whole project's scripts
        usage.saves_16bit = found.config_saves[path]
    usage.peft = found.config_peft.get(path, usage.peft)
    usage.max_grad_norms = base.config_grad_norms.get(path, ())
    usage.some_grad_norms = base.config_grad_some.get(path, ())
    usage.lr_scheduler_types = base.config_lr_schedulers.get(path, ())
    usage.trainer_launches = tuple(found.trainer_launches.get(path, ()))
    usage.consolidates = path in found.config_consolidates
    usage.code_filled = found.code_filled.get(path, {}) if kind == "ds_config" else {}
    # the project's saves, not its launches': the code beside the config (read by a ds_config rule only: a scan of the
    # project's files per file linted would make a whole-project lint quadratic)
    if kind == "ds_config" and path not in found.config_saves:
        usage.save_fallback = _save_fallback(path, found)
    usage.unnamed = kind == "ds_config" and bool(found.recipes) and not loaded_by and path not in found.code_named and (
        path in found.unlaunched or path not in found.loaded_by and path not in found.recipe_loaded and
        path not in found.not_loaded)
    if base.world_size_source == found.world_size_source and (path in found.config_world or path in found.recipe_loaded):
        # not --world-size: its own launches' size; where they give none, not another script's (unknown)
        usage.world_size, usage.world_size_source = found.config_world.get(path, (None, ""))
    from .one_file import make_target

    target = make_target(path, kind, usage)
    if kind == "ds_config":
        configs[path] = target
    hits = _config_hits(path, target, found, loaded_by)
    root = target.doc.root if target.doc is not None else None
    if kind == "ds_config" and found.code_filled.get(path):
        from .code_filled import soften

        hits = soften(hits, path, target.text, root, found.code_filled[path])
    if kind == "ds_config" and found.fragments.get(path):
        from . import fragment

        hits = fragment.soften(hits, path, target.text, root, found.fragments[path])
    return hits


def _config_hits(path: str, target: Target, found: "Found", loaded_by: Optional[str]) -> List[Hit]:
    """The hits of one file's target; a ds_config's as what loads it (or nothing) makes them."""
    from .one_file import lint_target

    kind, usage = target.kind, target.usage
    if kind == "ds_config":
        if usage.loaded_by is None:
            from .config.assumed_loader import assume_hf

            assume_hf(target)
        why = None if loaded_by else unloaded(path, found)
        if why:
            return [not_loaded(h, why) for h in lint_target(target)]
        if not loaded_by:
            return _unnamed(path, found, lint_target(target))
    return lint_target(target)


def _unnamed(path: str, found: "Found", hits: List[Hit]) -> List[Hit]:
    """Errors and warnings on a config nothing in its project names, or only configs nothing names do
    (lint/mentions.py), are info, saying so."""
    from ..model import Severity

    if not any(h.finding.severity in (Severity.ERROR, Severity.WARNING) for h in hits):
        return hits
    from .mentions import why_unmentioned

    why = why_unmentioned(path, found)
    if why is None:
        return hits
    return [as_info(h, why) if h.finding.path == path else h for h in hits]
