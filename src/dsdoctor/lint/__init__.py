"""``dsdoctor lint``: DeepSpeed configs, accelerate YAML references, hostfiles, .deepspeed_env and launch commands.

Rules live one per module under ``lint/config`` (ds_config) and ``lint/launch`` (launch files), each a
:class:`~dsdoctor.lint.rule.Rule` with docs and valid/invalid examples; ``all_rules`` lists them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Set

from ..model import Finding, Report, Severity
from .judged_version import judged_versions
from .reading import memoized
from .rule import Edit, Hit
from .target import Target, Usage
from .unloaded import unloaded
from .user_code_warnings import quiet_user_code

if TYPE_CHECKING:
    from ..settings import Settings
    from .discover import Found
    from .file_hits import Near as FileNear
    from .pins import Pin, Pinned

__all__ = ["LintResult", "apply_edits", "covers", "lint", "lint_target", "make_target", "memlock_limit", "partial",
           "unloaded", "unused_entries"]


@dataclass
class LintResult:
    report: Report
    edits: List[Edit] = field(default_factory=list)
    files: List[str] = field(default_factory=list)
    dropped: Set[object] = field(default_factory=set)  # settings entries that dropped a finding
    fix_edits: Dict[Finding, List[Edit]] = field(default_factory=dict)  # the edits that fix each finding (SARIF fixes)
    diff_printed: bool = False  # --diff printed the fixes: nothing else is rendered


def memlock_limit() -> Optional[int]:
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_MEMLOCK)
        return None if soft == resource.RLIM_INFINITY else int(soft)
    except (ImportError, OSError, ValueError):
        return None


@quiet_user_code
@memoized
def lint(paths: Sequence[str], world_size: Optional[int] = None, ds_version: Optional[str] = None,
         loaded_by: Optional[str] = None, max_depth: Optional[int] = None, targets: Sequence[str] = (),
         python: Optional[str] = None, zero_stage: Optional[int] = None,
         settings: "Optional[Settings]" = None, machine: bool = False, tests: bool = True) -> LintResult:
    """Lint the named files/directories (and the ds_configs, hostfiles and .deepspeed_env they reference).

    ``settings`` (:mod:`dsdoctor.settings`; default: the configuration file found from ``paths``, which raises
    ``SettingsError`` when it is bad) gives select / ignore / per-file-ignores and the defaults for the
    arguments: ``world_size``, ``targets`` and ``zero_stage`` passed here win over it. ``machine``: the files are
    checked for this machine (``dsdoctor check``), so hardware-dependent rules read its CPU. ``tests=False``:
    directories walked leave out test directories (check's project lint). A file whose analysis fails is a
    ``lint-analysis-failed`` finding; the other files are still linted."""
    from ..settings import load
    from .discover import scan

    if settings is None:
        settings = load(None, paths)
    found = scan(list(paths), max_depth, tests)
    _named_configs(paths, found)
    from .launched import project_model

    project_model(paths, found)  # what the project's launch recipes run, with which configs
    _accelerate_json(found)
    found.roots = [os.path.normpath(p) for p in paths if os.path.isdir(p)]
    from .named import named_context

    named_context(paths, found, tests)  # a Python file named alone: what its project's recipes say of it
    base = Usage()
    pinned = judged_versions(base, ds_version, targets, python, settings, paths)
    base.world_size, base.world_size_source = (world_size, "--world-size") if world_size else \
        (found.world_size, found.world_size_source)
    if base.world_size is None and settings.world_size:
        base.world_size, base.world_size_source = settings.world_size, settings.where(f"world-size = {settings.world_size}")
    _project(base, found, machine)
    if any(k == "python" for k in found.kinds.values()):
        from .script.script_usage import python_usage

        python_usage(base, found.kinds, targets, python, zero_stage, settings, pinned, found, paths)
    result = LintResult(Report())
    configs: Dict[str, Target] = {}
    whole = max_depth is None and covers(paths, settings.root)
    from .embedded import is_embedded
    from .file_hits import Near as _Near
    from .file_hits import file_hits
    from .pins import Near

    near = _Near(None if python else Near(paths, _installed(found, paths)))
    for path, kind in sorted(found.kinds.items(), key=lambda pk: (pk[1] == "accelerate", pk[0])):
        if kind == "ds_config" and not os.path.exists(path) and not ("#L" in path and is_embedded(path)):
            continue
        result.files.append(path)
        for h in file_hits(path, kind, base, found, loaded_by, configs, near):
            _add(result, h if whole else partial(h), path, settings)
    linted = {p: k for p, k in found.kinds.items() if p in result.files}
    if whole:  # whether an ignore / per-file-ignores entry is used can only be known from the whole project
        for h in unused_entries(settings, linted, result.dropped):
            _add(result, h, settings.source, settings)
    _once(result)
    result.report.findings.sort(key=lambda f: (f.path or "", f.line or 0, f.col or 0))
    _facts(result, base, settings)
    if found.not_read:
        result.report.facts["not_read"] = found.not_read
    if found.roots and max_depth is None:  # `dsdoctor lint`; check's bounded walk keeps none of lint's lists
        result.report.facts["not_linted"] = _unnamed_configs(paths, found)
    result.report.facts["loaded_by"] = {p: {"loaded_by": t.usage.loaded_by, "source": t.usage.loaded_by_source}
                                        for p, t in configs.items() if t.usage.loaded_by}
    _pin_facts(result, pinned, ds_version, targets, settings)
    _near_facts(result, near)
    return result



def _near_facts(result: LintResult, near: "FileNear") -> None:
    """The pins nearer the files than the project's (lint/pins.py apply_near's notes) in the facts: those assumed,
    those listed (a range or conflict: nothing assumed), and the summary's DeepSpeed source: the nearer pin itself where
    its directory holds every file linted."""
    from .pins import LISTED
    from .target import NO_SINGLE_DS

    linted = {os.path.normpath(f) for f in result.report.facts.get("files", [])}
    for text, files in near.notes.items():
        more = f" (+{len(files) - 1} more)" if len(files) > 1 else ""
        listed = text.startswith(LISTED)  # a nearer DeepSpeed range or conflict: named, nothing assumed
        text = text[len(LISTED):] if listed else text
        result.report.facts.setdefault("not_assumed" if listed else "assumed", []).append(f"{text} for {files[0]}{more}")
        every = {os.path.normpath(f) for f in files} >= linted
        if text.startswith("deepspeed ") and not listed and every:  # one directory holds every file linted
            version, where = text[len("deepspeed "):].split(" ", 1)
            result.report.facts["deepspeed"], result.report.facts["deepspeed_source"] = version, f"pinned in {where[1:-1]}"
        elif text.startswith("deepspeed ") and not listed:  # a directory's own pin: the summary's release is not every file's
            result.report.facts.setdefault("deepspeed_near", []).append(text[len("deepspeed "):])
        elif text.startswith("deepspeed") and str(result.report.facts.get("deepspeed_source", "")).startswith(
                "no DeepSpeed found"):  # found, nearer the files, but no single release: say it was found
            result.report.facts["deepspeed_source"] = f"{NO_SINGLE_DS} ({text} for {files[0]}{more}): assuming " \
                f"{result.report.facts.get('deepspeed')}"
    near_ds, src = result.report.facts.get("deepspeed_near"), str(result.report.facts.get("deepspeed_source", ""))
    if near_ds and src.startswith("no DeepSpeed found"):  # found nearer the files: the source says where not
        result.report.facts["deepspeed_source"] = f"{src} where nothing nearer pins one ({', '.join(near_ds)})"

def _installed(found: "Found", paths: Sequence[str]) -> "Dict[str, List[Pin]]":
    """The directories the project's set-up scripts pip-install, with those scripts' exact pins (:mod:`.pin_installs`)."""
    from .pin_installs import installs

    roots = [p for p in paths if os.path.isdir(p)]
    return installs((p for p, k in found.kinds.items() if k == "shell"), roots[0]) if roots else {}


def _once(result: LintResult) -> None:
    """One finding per problem (:mod:`.once`): the findings of one rule at one file:line merged, their fix edits
    kept on the merged finding."""
    from .once import merge_same_place

    result.report.findings, replaced = merge_same_place(result.report.findings)
    for merged, group in replaced.items():
        edits: List[Edit] = []
        for f in group:
            edits += [e for e in result.fix_edits.pop(f, []) if e not in edits]
        if edits:
            result.fix_edits[merged] = edits


def _named_configs(paths: Sequence[str], found: "Found") -> None:
    """The DeepSpeed configs in a named directory that is a folder of configs (``dsdoctor lint deepspeed/``: no
    project root, and no script, YAML or launch file in it that could name them): linted as configs, though nothing
    names them (:mod:`.named_configs`)."""
    from .discover import is_project

    for p in paths:
        inside = os.path.join(os.path.abspath(p), "")
        if os.path.isdir(p) and not is_project(p) and not any(
                k != "ds_config" and os.path.abspath(f).startswith(inside) for f, k in found.kinds.items()):
            from .named_configs import named_configs

            for cfg in named_configs(p):
                found.kinds.setdefault(os.path.normpath(cfg), "ds_config")


def _unnamed_configs(paths: Sequence[str], found: "Found") -> List[str]:
    """The DeepSpeed configs in the project directories linted that no launch, script or YAML names (so not
    linted; ``dsdoctor lint FILE`` lints one), by file name (:data:`.named_configs.CONFIG_NAME`)."""
    from .named_configs import CONFIG_NAME, mostly_deepspeed, named_configs

    got = [os.path.normpath(c) for p in paths if os.path.isdir(p)
           for c in named_configs(p, 8, CONFIG_NAME)]
    return [c for c in got if c not in found.kinds and mostly_deepspeed(c)]


def _accelerate_json(found: "Found") -> None:
    """A ``.json`` file taken for a ds_config that is an accelerate config written as JSON (accelerate reads
    those too: lint/accelerate.py) is linted as one."""
    from .accelerate import is_json_config
    from .discover import _read

    for p, k in list(found.kinds.items()):
        if k == "ds_config" and p.endswith(".json") and os.path.isfile(p) and is_json_config(_read(p, 2**16)):
            found.kinds[p] = "accelerate"


def _project(base: Usage, found: "Found", machine: bool) -> None:
    """What the project's files and this machine tell about every file's use (optimizer, saves, launcher,
    accelerator, memlock, CPU fp16 on ``machine``, the names .deepspeed_env files set)."""
    from ..launcherfiles import env_file_vars
    from .client_passed import agreed
    from .discover import _read
    from .found import TEST_FILE

    base.client_optimizer, base.client_scheduler = agreed(found)
    base.saves_16bit, base.peft = found.saves_16bit, found.peft
    if base.client_optimizer or any(o for o, _ in found.config_client.values()):  # the optimizer it passes may be a
        # DeepSpeedCPUAdam its code builds (not its tests)
        from .client_optimizer import builds_cpu_adam

        base.client_cpu_adam = builds_cpu_adam(p for p, k in found.kinds.items() if k == "python" and
                                               found.never_zero3.get(p) != TEST_FILE)
    base.zero_to_fp32 = found.zero_to_fp32
    base.accelerate_fills = tuple(sorted(found.accelerate_fills))
    base.code_read = any(k == "python" for k in found.kinds.values())
    base.multinode = found.multinode
    if found.roots:  # what the recipes say per config / entry (imported here: a file linted alone needs none)
        from .entry_options import config_flag_values, zero3_entry_flags
        from .grad_norms import launch_grad_norms
        from .launch.ds_config_given_twice import twice_configs
        from .launch.launch_config_missing import missing_configs

        base.missing_configs, base.twice_configs = missing_configs(found.recipes, True), twice_configs(found.recipes)
        base.training_options = found.training_options
        base.config_grad_norms, base.config_grad_some = launch_grad_norms([r for r in found.recipes if r.where not in found.no_train])
        base.config_lr_schedulers = config_flag_values(found.recipes, "lr_scheduler_type")
        base.entry_launch_flags = zero3_entry_flags(found.recipes)
        base.reach_launch_flags = found.reach_values
        from ..knowledge.accelerate import registers_without_init_flag

        # accelerate before 1.0 pinned: a launch with zero3_init_flag false registers nothing (lint/hf_scope.py)
        old = registers_without_init_flag(base.accelerate) is False
        base.hf_unseen = found.hf_unseen_old_accelerate if old else found.hf_unseen
        from .script.vendored import library_repo

        # a bundled copy of a library's repository (its README's example commands) is not the project's launch
        ds_files = {r.file for r in found.recipes if r.launcher == "deepspeed"}
        ds_files = {f for f in ds_files if library_repo(f) is None}
        base.ds_launcher = bool(ds_files)
        base.ds_launch_files = tuple(sorted(os.path.abspath(f) for f in ds_files))
        base.ds_hostfiles = tuple(sorted({r.hostfile for r in found.recipes if r.launcher == "deepspeed" and
                                          r.hostfile and library_repo(r.file) is None}))
    base.accelerator = found.accelerator or os.environ.get("DS_ACCELERATOR")
    base.memlock = memlock_limit()
    base.memlock_host = machine  # lint elsewhere: the machine it runs on need not be the training host
    if machine:
        from ..probes.cpu_fp16 import machine_cpu_fp16

        base.cpu_fp16, base.cpu_fp16_source = machine_cpu_fp16()
    env_files = [p for p, k in found.kinds.items() if k == "deepspeed_env"]
    if not env_files and os.path.isfile(".deepspeed_env"):
        env_files.append(".deepspeed_env")
    for p in env_files:
        base.env_file_vars.update(env_file_vars(_read(p)))


def _facts(result: LintResult, base: Usage, settings: "Settings") -> None:
    result.report.facts = {"deepspeed": str(base.ds), "deepspeed_source": base.ds_source,
                           "world_size": base.world_size, "world_size_source": base.world_size_source,
                           "files": result.files}
    if settings.source:
        result.report.facts["config"] = settings.source
    if base.transformers or base.zero3 is not None:  # what the Python script verdicts assumed
        result.report.facts.update(transformers=base.transformers, transformers_source=base.transformers_source,
                                   zero3=base.zero3, zero3_source=base.zero3_source)


def _pin_facts(result: LintResult, pinned: "Dict[str, Pinned]", ds_version: Optional[str],
               targets: Sequence[str], settings: "Settings") -> None:
    """``facts["pins"]`` (what the project pins, per package) and ``facts["assumed"]``: the versions assumed from
    the pins (not those an option or the configuration's ``target`` gave), as ``deepspeed 0.17.1
    (requirements.txt:3)``; ``facts["not_assumed"]``: pins that give no single release (ranges, conflicts);
    ``facts["judged_for"]``: the Transformers (Python rules) and DeepSpeed (gradient clipping, PEFT checkpointing)
    ranges, or conflicting pins, whose allowed releases the rules were judged for."""
    from ..settings import parse_targets

    if not pinned:
        return
    given = {**parse_targets(settings.target), **parse_targets(targets)}
    if ds_version:
        given["deepspeed"] = ds_version
    facts = result.report.facts
    facts["pins"] = {pkg: p.to_json() for pkg, p in pinned.items()}
    facts["assumed"] = [p.describe() for pkg, p in pinned.items() if p.version and pkg not in given]
    facts["not_assumed"] = [p.describe() for pkg, p in pinned.items() if not p.version and pkg not in given]
    judged = []  # the ranges rules were judged over (lint/pins.py Pinned.allowed)
    tf, ds = pinned.get("transformers"), pinned.get("deepspeed")
    if tf is not None and not tf.version and tf.allowed and "transformers" not in given:
        judged.append(f"{tf.describe()}: {tf.allowed_text()}")
    if ds is not None and not ds.version and ds.allowed and str(facts.get("deepspeed_source")).startswith(
            ("installed", "no DeepSpeed")):
        judged.append(f"{ds.describe()}: {ds.allowed_text()} (gradient clipping, PEFT checkpointing; the other "
                      f"rules: DeepSpeed {facts.get('deepspeed')})")
    if judged:
        facts["judged_for"] = judged


def covers(paths: Sequence[str], root: str) -> bool:
    """Is ``root`` (the project: the configuration file's directory, else the cwd) inside a directory linted?"""
    r = os.path.realpath(root)
    for p in paths:
        if os.path.isdir(p):
            d = os.path.realpath(p)
            if r == d or r.startswith(d.rstrip(os.sep) + os.sep):
                return True
    return False


def partial(h: Hit) -> Hit:
    """An unused-suppression found when only part of the project was linted: a suppressed finding may depend on
    files not linted (the launch script that gives the world size, the script that loads a config ...), so the
    deletion is only an unsafe fix."""
    from dataclasses import replace

    from .suppress import NAME

    if h.finding.name != NAME or not h.edits:
        return h
    why = "only part of the project was linted: what it suppresses may depend on files that were not"
    fixes = tuple(replace(f, applicability="unsafe", reason=why) for f in h.finding.fixes)
    return Hit(replace(h.finding, fixes=fixes), tuple(replace(e, applicability="unsafe") for e in h.edits))


def _add(result: LintResult, h: Hit, path: str, settings: "Settings") -> None:
    """Keep a hit unless select / ignore / per-file-ignores drop it (then its edits are dropped too)."""
    entry = settings.dropped_by(h.finding.name, h.finding.path)
    if entry is not None:
        result.dropped.add(entry)
        return
    result.report.findings.append(h.finding)
    resolved = [_resolve(e, path) for e in h.edits]
    result.edits.extend(resolved)
    if resolved:
        result.fix_edits.setdefault(h.finding, []).extend(resolved)


def unused_entries(settings: "Settings", linted: Dict[str, str], dropped: "Set[object]") -> List[Hit]:
    """unused-suppression for ``ignore`` / ``per-file-ignores`` entries that dropped nothing, where that is known:
    a linted file is of a kind the rule reads (and, for per-file-ignores, matches the glob)."""
    from .all_rules import REGISTRY, VARIANTS
    from .suppress import NAME, RULE

    out: List[Hit] = []
    for e in settings.entries:
        if e.key == "select" or e in dropped or e.name == NAME:
            continue
        kinds = {r.kind for r in (*REGISTRY.values(), *VARIANTS) if r.name == e.name}
        if "ds_config" in kinds:
            kinds.add("accelerate")  # accelerate YAML is linted with the ds_config rules
        files = [p for p, k in linted.items() if k in kinds and (e.key == "ignore" or settings.matches(e.glob, p))]
        if not files:
            continue
        where = f"per-file-ignores {e.glob!r}" if e.key == "per-file-ignores" else "ignore"
        scope = f"{len(files)} matching file(s)" if e.key == "per-file-ignores" else f"the {len(files)} file(s) it applies to"
        f = Finding(NAME, Severity.WARNING, f"{e.token!r} in {where} suppresses nothing: no {e.name} finding in {scope}",
                    RULE.why, (), (), RULE.section, settings.source, e.line, 1 if e.line else None)
        out.append(Hit(f))
    return out


def _resolve(e: Edit, origin: str) -> Edit:
    if e.start < 0:  # an append to .deepspeed_env beside the launch script (the launcher reads it from the cwd)
        target = os.path.join(os.path.dirname(origin), e.path)
        return Edit(target, -1, -1, e.new, e.applicability, e.title)
    return e


def apply_edits(edits: Sequence[Edit], unsafe: bool = False) -> Dict[str, "tuple[str, str]"]:
    """New text per file (old, new), as ``--fix`` writes it (:mod:`dsdoctor.lint.edits` decides what applies)."""
    from .fix import plan

    return plan(edits, unsafe)


def __getattr__(name: str) -> Any:
    """``lint_target`` / ``make_target`` (:mod:`.one_file`), imported on first use: importing the package (what
    ``check``'s project lint does first) loads no rule."""
    if name in ("lint_target", "make_target"):
        from . import one_file

        return getattr(one_file, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
