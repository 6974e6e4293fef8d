"""Lint of Python training scripts (libcst): ZeRO-3 load-time conflicts, load order, saving, quantization.

Rules live one per module here (kind ``"python"``), registered in ``lint/all_rules.py`` like the config and
launch rules; they read the analysis that :func:`make_target` stores in ``Target.extra["script"]``. libcst is
imported only when a .py file is linted. ``# dsdoctor: ignore[name]`` comments are applied by ``lint_target``
(``lint/suppress.py``) and select / ignore by ``lint()``, as for every file kind.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, List, Optional, Set, Tuple

from ...knowledge import transformers as TF
from ...model import Evidence, Fix, Severity
from ..rule import Edit, Hit, Rule
from ..target import Target, Usage
from .context import asked

if TYPE_CHECKING:
    from .dataflow import Event, Script
    from .evaluation import Values
    from .source import Source

@dataclass
class Ctx:
    src: "Source"
    script: Optional["Script"]
    values: Optional["Values"]
    zero3: Optional[bool]
    zero3_source: str
    tf: Optional[str]
    tf_source: str
    tf_pins: Tuple[str, ...] = ()  # tf unknown: the releases the project's pins allow (range / conflicting pins)
    asked: bool = False  # the user asked about this file (named it on the command line) or for ZeRO-3 (settings)
    reached: bool = True  # False: ZeRO-3 only because a stage-3 config exists somewhere in the project (no launch,
    # no config of the script's own, no import by a ZeRO-3 launch reaches this file): no option is known to be passed
    tf_url: str = ""  # tf unknown because the project installs Transformers from a URL (a git commit): where

    def on_tf(self, fact: Callable[[Optional[str]], Optional[bool]]) -> Optional[bool]:
        """``fact`` of the Transformers judged: of :attr:`tf` where known, else the answer every release the
        pins allow (:attr:`tf_pins`) gives; None where they disagree or nothing is known."""
        if self.tf or not self.tf_pins:
            return fact(self.tf)
        got = {fact(v) for v in self.tf_pins}
        return got.pop() if len(got) == 1 else None

    @property
    def tf_note(self) -> str:
        """``transformers 4.46.3 (pinned in requirements.txt:3)``, the range the pins allow, or unknown."""
        if self.tf:
            return f"transformers {self.tf} ({self.tf_source})"
        return self.tf_source if self.tf_pins else "transformers version unknown"

    @property
    def under(self) -> str:
        """How a finding states the ZeRO-3 context."""
        if self.zero3:
            return f"under ZeRO-3 ({self.zero3_source})"
        return f"if run with ZeRO-3 ({self.zero3 is None and self.zero3_source or 'no ZeRO-3 config found'})"

    @property
    def zero3_severity(self) -> Severity:
        """An error under ZeRO-3; where no ZeRO-3 entry point reaches the file (the context is unknown) only
        info ("if run with ZeRO-3 ..."), unless the user asked (:attr:`asked`): then a warning."""
        return Severity.ERROR if self.zero3 else self.at_most(Severity.WARNING)

    def at_most(self, severity: Severity) -> Severity:
        """``severity`` under ZeRO-3 (or when the user asked for it); info when the context is unknown."""
        return severity if self.zero3 or self.asked else Severity.INFO


def make_target(path: str, usage: Usage) -> Target:
    from .quiet import quiet
    from .source import read

    zero3, source = usage.zero3, usage.zero3_source
    launched = launch_context(path, usage)
    if launched is not None:
        zero3, source = launched
    # ZeRO-3 only from a stage-3 config somewhere in the project: no entry point is known to reach this file
    wide = zero3 is True and launched is None and not asked(source) and os.path.normpath(path) not in usage.imported
    if wide:
        zero3, source = _scoped(path, usage, source)
    src = read(path, lambda text: quiet(path, text, usage, zero3, source))
    t = Target(path, "python", src.text, usage)
    script = values = None
    if src.module is not None:
        from .evaluation import Values, analyse
        from .local import args_without_deepspeed, script_zero3
        from .not_taken import main_block_dead, not_taken

        # the launches that run it (as their entry, or a module their imports reach): their option values
        own_launches = usage.reach_launch_flags.get(os.path.normpath(path)) if os.path.normpath(path) in \
            usage.imported else None
        own_launches = own_launches or usage.entry_launch_flags.get(os.path.normpath(path), [])
        script = analyse(src.module, own_launches)
        # run by ZeRO-3 launches only as an import (by name, or reached through a package): its __main__ never runs
        main_dead = (os.path.normpath(path) in usage.imported or launched is not None and launched[0] is True) and \
            os.path.normpath(path) not in usage.entries
        if usage.imported.get(os.path.normpath(path)) is not None:
            not_taken(script, usage.imported[os.path.normpath(path)] or set(), src.module, main_dead)
        if main_dead:
            main_block_dead(script, src.module)  # imported by a ZeRO-3 launch, started by none: its __main__ block never runs
        values = Values(script)
        values.launches = own_launches
        own, own_source = script_zero3(path, script, values)
        never = usage.never_zero3.get(os.path.normpath(path))
        if never is not None:
            zero3, source = False, never
        elif own is True or (own is False and (zero3 is None or wide)):  # its own config beats a project-wide one
            if own is True and zero3 is not True:  # its own config is all the ZeRO-3 it has: only where it reaches
                from .local import outside_own_zero3

                outside_own_zero3(path, script, values)
            zero3, source, wide = own, own_source, False
        elif wide and not any(f in source for f in usage.zero3_yamls) and args_without_deepspeed(script):
            zero3 = None  # a project-wide ds_config, and training arguments built in code that name none
            source = f"{source}, which this file's training arguments (built in code, no deepspeed=) never load"
        elif not _trains(script, usage.plain_classes) and not asked(source) and os.path.normpath(path) not in usage.imported:
            zero3 = False  # an inference / merge / export script in a ZeRO-3 project: the ZeRO-3 rules stay quiet
            # (a module a ZeRO-3 launch imports keeps the launch's context: it runs in that process)
    if zero3 is None and not asked(source) and os.path.normpath(path) in usage.no_deepspeed:
        zero3, source = False, usage.no_deepspeed[os.path.normpath(path)]  # lint/no_deepspeed.py
    tf_source = usage.transformers_source
    t.extra["script"] = Ctx(src, script, values, zero3, source, usage.transformers, tf_source,
                            usage.transformers_pins, asked(source) or os.path.normpath(path) in usage.named_files,
                            not wide, "" if usage.transformers else usage.transformers_url)
    return t


def _scoped(path: str, usage: Usage, source: str) -> Tuple[Optional[bool], str]:
    """The project-wide ZeRO-3 context of a file no launch reaches: from a stage-3 file whose scope covers it
    (:func:`.context.zero3_scope`: the directory of a stage-3 config, or the parent of a shared config
    directory); unknown when every stage-3 file of the project belongs to another directory, or is an accelerate
    YAML that none of the launches running the file loads (``Usage.own_setup``), or the file belongs to a bundled
    copy of a library's whole repository (its examples: only a stage-3 file of that copy covers them)."""
    from .context import in_scope
    from .vendored import library_repo

    repo = library_repo(path)
    if repo is not None and not any(in_scope(path, f) and f.startswith(repo[1] + os.sep) for f in usage.zero3_files):
        return None, (f"ZeRO stage 3 in the project's {usage.zero3_files[0] if usage.zero3_files else 'configs'}, but "
                      f"this file is part of the bundled {repo[0]} repository {repo[1]} (an example or tool of that "
                      "library), which no launch of the project runs")
    if not usage.zero3_files:
        return True, source
    files = usage.zero3_files
    own = usage.own_setup.get(os.path.normpath(path))
    if own is not None:  # lint/yaml_scope.py: an accelerate YAML sets up only the launches that load it
        files = [f for f in files if f not in usage.zero3_yamls]
        if not files:
            return None, (f"ZeRO stage 3 only in {usage.zero3_files[0]}, an accelerate YAML that none of the "
                          f"launches running this file loads, {own}")
    for cfg in files:
        if in_scope(path, cfg):
            lower = next((f for f in usage.lower_files if in_scope(path, f)), None)
            if lower is not None:  # stage 3 is one of the configs offered beside it: the user's pick
                return None, (f"ZeRO stage 3 in {cfg}, but {lower} beside it is stage 1/2 and no launch of the "
                              "project picks one for this file")
            return True, source if cfg in source else f"ZeRO stage 3 in {cfg}"
    from ..embedded import shown

    return None, (f"ZeRO stage 3 only in {shown(usage.zero3_files[0])}, a config of another directory; no launch of the "
                  "project runs this file under ZeRO-3")


def launch_context(path: str, usage: Usage) -> Optional[Tuple[Optional[bool], str]]:
    """The ZeRO-3 context the project's launch recipes give ``path`` (:mod:`dsdoctor.lint.launched`): (True, why)
    when a ZeRO-3 launch reaches it, (False, why) when the project's launches do not run it under ZeRO-3; None
    when they do not say (the project-wide context holds)."""
    return usage.launches.get(os.path.normpath(path))


def _trains(script: "Script", plain: Set[str]) -> bool:
    """Does the script use DeepSpeed, the HF Trainer/TrainingArguments or accelerate (not just inference)? An
    ``HfArgumentParser`` over the project's plain classes (``plain``: :mod:`..plain_classes`) only parses them."""
    parsers = _plain_parsers(script, plain)
    if any(re.search(r"(?i)deepspeed|accelerate|trl|Trainer|TrainingArguments", v) or
           (not parsers and "HfArgumentParser" in v) for v in script.imported.values()):
        return True
    return "deepspeed" in script.field_defaults or any(
        e.kind in ("register", "initialize", "trainer", "hfds") and not (parsers and e.kind == "register" and
                                                                         e.name.split(".")[-1].startswith("parse_"))
        for e in script.events)


def _plain_parsers(script: "Script", plain: Set[str]) -> bool:
    """Is every ``HfArgumentParser(...)`` of the script (there is one at least) over classes of the project that
    never register DeepSpeed (defined or imported by name, none of them a registering class of the file)?"""
    import libcst as cst

    calls = [node for node, name in script.calls_with if name.split(".")[-1] == "HfArgumentParser"]
    if not calls or not plain:
        return False
    for node in calls:
        if not node.args:
            return False
        arg = node.args[0].value
        items = [e.value for e in arg.elements] if isinstance(arg, (cst.Tuple, cst.List)) else [arg]
        for item in items:
            if not isinstance(item, cst.Name) or item.value not in plain or item.value in script.args_classes \
                    or script.imported.get(item.value, "").split(".")[0] in ("transformers", "trl"):
                return False
    return True


def ctx(t: Target) -> Ctx:
    c = t.extra.get("script")
    assert isinstance(c, Ctx)
    return c


def active(t: Target) -> Optional[Ctx]:
    """The analysis, when the file parsed."""
    c = t.extra.get("script")
    return c if isinstance(c, Ctx) and c.script is not None else None


def zero3_candidate(t: Target) -> Optional[Ctx]:
    """The analysis of a parsed script that may run under ZeRO-3 (its context is not known to be off)."""
    c = active(t)
    return None if c is None or c.zero3 is False else c


def emit(rule: Rule, t: Target, node: Any, title: str, explanation: str = "", fixes: Tuple[Fix, ...] = (),
         edits: Tuple[Edit, ...] = (), severity: Optional[Severity] = None,
         evidence: Tuple[Evidence, ...] = (), anywhere: bool = False) -> List[Hit]:
    """A hit at ``node``; edits only for files read as UTF-8. ``anywhere``: the problem needs no ZeRO-3, so an
    option's branch gates it against every launch of the file, not only its ZeRO-3 ones."""
    c = ctx(t)
    pos = c.src.span(node)[0] if node is not None else 0
    if c.src.encoding.lower().replace("_", "-") not in ("utf-8", "utf8"):
        edits = ()
    passed = (t.usage.launch_flags if anywhere else t.usage.zero3_flags).get(os.path.normpath(t.path))
    if passed is None and not c.reached and not c.asked:
        passed = set()  # no ZeRO-3 launch reaches the file: none sets an option, so an option's branch is conditional
    if passed is not None and (c.zero3 or anywhere) and node is not None and \
            (severity or rule.severity) != Severity.INFO:
        from .flags import BY_SOURCE, GATED
        from .flags_gating import gating_flag

        cache = t.extra.setdefault("flag_gates", {})
        line, col = t.linecol(pos)  # libcst's columns (the gates') are 0-based
        declared = t.usage.zero3_defaults.get(os.path.normpath(t.path))  # lint/defaults.py
        flag = gating_flag(c.src, [(line, col - 1)], passed, cache, defaults=declared) if rule.name in GATED else None
        sources = [(e.line, max((e.col or 1) - 1, 0)) for e in evidence[:-1] if e.line is not None and e.path == t.path]
        if flag is None and rule.name in BY_SOURCE and sources:  # the values it names; the last is the load
            flag = gating_flag(c.src, sources, passed, cache, defaults=declared)
        if flag is None and rule.name in GATED and c.values is not None:
            from .flags_gating import apart  # behind options no one launch passes all of

            flag = apart(c.src, (line, col - 1), sources if rule.name in BY_SOURCE else [], c.values.launches, cache,
                         declared)
        if flag is None:  # in a function / class the file uses only with an option: for every rule
            flag = gating_flag(c.src, [(line, col - 1)], passed, cache, "defs",
                               t.usage.imported.get(os.path.normpath(t.path), set()), declared)
        note: Optional[str] = f"only with --{flag}, which no {'' if anywhere else 'ZeRO-3 '}launch of the project passes"
        if flag is None and c.script is not None:  # every call in the files the launches reach is behind an option
            from .callers import caller_flag

            flag = note = caller_flag(t, c.src.module, c.src, line, cache)
        if flag is None and c.script is not None:  # in a method every call of which is behind an option
            from .method_callers import method_flag

            flag = note = method_flag(t, c.src.module, c.src, line, cache)
        if flag is None and c.script is not None:  # in ``if p:`` of a function every such call passes p=False
            from .callers import param_off

            flag = note = param_off(t, c.src.module, c.src, line, cache)
            if flag is None and rule.name in BY_SOURCE and sources:  # or every value it names is in such an ``if``
                offs = [param_off(t, c.src.module, c.src, ln, cache) for ln, _ in sources]
                flag = note = offs[0] if all(offs) else None
        if flag is None and c.script is not None and not c.reached:  # a standalone tool's class
            from .main_only import main_only

            flag = note = main_only(t, c.src.module, c.src, line, cache)
        if flag is not None:  # a file named alone keeps a warning (lint/named.py)
            severity = Severity.WARNING if os.path.normpath(t.path) in t.usage.named else Severity.INFO
            title += f" ({note})"
    if c.zero3 and node is not None and (severity or rule.severity) != Severity.INFO:
        from .engines import other_engine_branch

        engine = other_engine_branch(c.src, t.linecol(pos)[0], t.extra.setdefault("engine_branches", {}))
        if engine is not None:
            severity = Severity.INFO
            title += f" (in a branch for {engine}, another engine: a DeepSpeed run never takes it)"
    if node is not None and (severity or rule.severity) != Severity.INFO:
        stop = _import_stop(t)
        if stop is not None and t.linecol(pos)[0] > stop[0]:
            severity = Severity.INFO
            title += f" (never runs: importing this file stops at its line {stop[0]}: {stop[1]}: ModuleNotFoundError)"
    fn = _named_only(t, c, node, pos, severity or rule.severity)
    if fn is not None:
        severity = Severity.INFO
        title += f" ({fn})"
    if node is not None and (severity or rule.severity) != Severity.INFO and \
            os.path.normpath(t.path) not in t.usage.named_files:
        from .vendored import library_path

        lib = library_path(t.path, t.text, t.linecol(pos)[0], t.extra.setdefault("vendored", {}),
                           os.path.normpath(t.path) in t.usage.entries)
        if lib is not None:
            severity, title = Severity.INFO, f"{title} ({lib})"
    return [rule.hit(t, pos, title, explanation, fixes, edits, severity, evidence)]


def _import_stop(t: Target) -> Optional[Tuple[int, str]]:
    """Where importing ``t`` stops at a module the repository does not have (lint/import_stops.py)."""
    from ..import_stops import ImportStops
    from ..launch_root import project_root

    root = project_root(t.path)
    stops = t.usage.import_stops.get(root)
    if stops is None:
        stops = t.usage.import_stops[root] = ImportStops(root)
    return stops.stop(t.path)


def _named_only(t: Target, c: Ctx, node: Any, pos: int, severity: Severity) -> Optional[str]:
    """Why the finding is only info, where the top-level function holding ``node`` is one the file's ZeRO-3
    launches only name (a registry, a callback, ``getattr``), never call (a call that cannot be resolved), or a
    method of a class they never use, or a function only such methods use (lint/calls.py)."""
    ranges = t.usage.named_only.get(os.path.normpath(t.path))
    if not ranges or not c.zero3 or node is None or severity == Severity.INFO:
        return None
    line = t.linecol(pos)[0]
    return next((name for first, last, name in ranges if first <= line <= last), None)


def uncalled(c: Ctx, e: "Event") -> bool:
    """Is the event in a top-level function of a script (it has a ``__main__`` block) that nothing in the file
    calls or names? (dead code: a helper left behind after the script moved to ``trainer.save_model()``)"""
    s = c.script
    assert s is not None
    fn = e.scope
    while fn.parent is not None and fn.parent is not s.module_scope:
        fn = fn.parent
    name = getattr(getattr(fn.node, "name", None), "value", None)
    return bool(s.has_main and fn.parent is s.module_scope and id(fn.node) not in s.methods and name
                and s.name_count.get(name, 0) <= 1)


def where(c: Ctx, node: Any, what: str) -> Evidence:
    line, col = c.src.linecol(c.src.span(node)[0])
    return Evidence(what, f"{c.src.path}:{line}:{col}", c.src.path, line, col)


def guard_import(t: Target, applicability: str = "safe") -> Tuple[Edit, ...]:
    """Insert the ``is_deepspeed_zero3_enabled`` import after the last top-level import (none if present)."""
    c = ctx(t)
    s = c.script
    if s is None or TF.ZERO3_GUARD_NAME in s.imported or re.search(rf"\bdef {TF.ZERO3_GUARD_NAME}\b", c.src.text):
        return ()
    if s.last_top_import is not None:
        pos = c.src.span(s.last_top_import)[1]
        nl = c.src.text.find("\n", pos)
        pos = len(c.src.text) if nl < 0 else nl + 1
        new = TF.ZERO3_GUARD_IMPORT + "\n"
        if pos == len(c.src.text) and not c.src.text.endswith("\n"):
            new = "\n" + new
    else:
        pos = 0
        for m in re.finditer(r"^(#.*|\s*)\n", c.src.text, re.M):  # after the shebang / coding / comment header
            if m.start() != pos:
                break
            pos = m.end()
        new = TF.ZERO3_GUARD_IMPORT + "\n"
    return (Edit(t.path, pos, pos, new, applicability, f"import {TF.ZERO3_GUARD_NAME}"),)  # type: ignore[arg-type]


def replace(t: Target, node: Any, new: str, applicability: str = "safe", title: str = "") -> Edit:
    start, end = ctx(t).src.span(node)
    return Edit(t.path, start, end, new, applicability, title)  # type: ignore[arg-type]


def text_of(t: Target, node: Any) -> str:
    start, end = ctx(t).src.span(node)
    return ctx(t).src.text[start:end]
