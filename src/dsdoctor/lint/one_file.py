"""Lint one file: build what the rules see (:func:`make_target`) and run the rules of its kind (:func:`lint_target`).

Never a crash on an input: an exception, a RecursionError or a time-out while analysing one file becomes a
``lint-analysis-failed`` finding about that file (:mod:`dsdoctor.lint.lint_analysis_failed`), and the run goes on.
``lint()`` imports this module; :func:`lint_yaml` lints an accelerate YAML (read by :mod:`dsdoctor.lint.accelerate`)
with the ds_config rules."""

from __future__ import annotations

import dataclasses
import gc
import signal
import threading
from contextlib import contextmanager
from typing import Any, Dict, Iterator, List

from ..model import Finding, Severity
from .lint_analysis_failed import AnalysisTimeout, failed
from .rule import Hit
from .target import Target, Usage

FAILED = "lint_analysis_failed"  # Target.extra key: the exception analysing the file raised
FILE_SECONDS = 120.0  # time budget to analyse one file (main thread on POSIX only: SIGALRM)
_active = [False]


@contextmanager
def time_budget(seconds: float) -> Iterator[None]:
    """Raise :class:`AnalysisTimeout` in the block once ``seconds`` have passed. Only where a timer signal can be
    used (POSIX, main thread, no other SIGALRM handler) and not nested (the outer budget holds)."""
    usable = (hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
              and not _active[0] and signal.getsignal(signal.SIGALRM) in (signal.SIG_DFL, None))
    if not usable:
        yield
        return

    def _expired(signum: int, frame: Any) -> None:
        raise AnalysisTimeout(f"took over {seconds:g} s")

    old = signal.signal(signal.SIGALRM, _expired)
    _active[0] = True
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        _active[0] = False


@contextmanager
def gc_paused() -> Iterator[None]:
    """The cyclic garbage collector off in the block (issue 18): parsing and analysing a file allocates objects
    that all stay alive until the block ends (libcst and ``ast`` trees, the analysis), so the collections the
    allocations trigger find nothing; ~15 % of a whole-repository lint. Reference counting still frees what the
    block drops, and the collector, back on after it, collects what cycles it left once."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def make_target(path: str, kind: str, usage: Usage) -> Target:
    """What the rules see of the file ``path`` of ``kind``. When building it raises (e.g. a RecursionError on a
    deeply nested script), a plain target holding the exception (``extra[FAILED]``) that lint_target reports."""
    try:
        with time_budget(FILE_SECONDS), gc_paused():
            return _make(path, kind, usage)
    except Exception as exc:  # noqa: BLE001 - never a crash on an input: reported as lint-analysis-failed
        from .discover import _read

        try:
            text = _read(path, 16 * 2**20)
        except Exception:  # noqa: BLE001 - the finding says what went wrong first
            text = ""
        t = Target(path, kind, text, usage)
        t.extra[FAILED] = exc
        return t


def _make(path: str, kind: str, usage: Usage) -> Target:
    if kind == "python":
        from .script import make_target as script_target

        return script_target(path, usage)
    if kind == "ds_config":
        from ..hjsondoc import parse, read
        from .embedded import load

        e = load(path) if "#L" in path else None
        doc = parse(e.text, path) if e is not None else read(path)
        return Target(path, kind, doc.text, usage, doc)
    from .discover import _read

    return Target(path, kind, _read(path, 16 * 2**20), usage)


def lint_target(t: Target) -> List[Hit]:
    """Every rule of the file's kind, then its inline ``dsdoctor: ignore`` comments (and unused-suppression). A
    rule that raises (or the file's time budget running out) is a ``lint-analysis-failed`` finding; the rules
    before it keep their findings, the other rules still run (not after a time-out)."""
    from .all_rules import rules_for
    from .suppress import suppress

    hits: List[Hit] = []
    problem = t.extra.get(FAILED)
    if problem is None:
        try:
            with time_budget(FILE_SECONDS), gc_paused():
                for rule in rules_for(t.kind):  # type: ignore[arg-type]
                    try:
                        hits.extend(rule.check(t))
                    except AnalysisTimeout:
                        raise
                    except Exception as exc:  # noqa: BLE001 - never a crash on an input
                        problem = problem or exc
        except AnalysisTimeout as exc:
            problem = exc
    if problem is not None:
        hits.append(failed(t.path, problem))
    try:
        return suppress(t.path, t.kind, t.text, hits, t.doc)
    except Exception as exc:  # noqa: BLE001 - the findings stand, without their inline suppressions
        return hits if problem is not None else [*hits, failed(t.path, exc)]


def lint_yaml(path: str, text: str, usage: Usage, config_targets: Dict[str, Target]) -> List[Finding]:
    """Findings for one accelerate YAML (positions in the YAML)."""
    from ..hjsondoc import parse as parse_json
    from .accelerate import build, mixed_precision_conflict, parse
    from .all_rules import rules_for

    y = parse(text)
    if y is None:
        return []
    yaml_target = Target(path, "accelerate", text, usage)
    out: List[Finding] = [h.finding for rule in rules_for("accelerate") for h in rule.check(yaml_target)]
    cfg_file = y.ds.get("deepspeed_config_file")
    if cfg_file is not None and cfg_file[0] not in (None, "none"):
        for cpath, t in config_targets.items():
            if cpath.endswith(str(cfg_file[0]).lstrip("./")):
                other = mixed_precision_conflict(y, t)
                if other:
                    from .config.fp16_bf16_both_enabled import RULE

                    line, col = y.top["mixed_precision"][1]
                    out.append(Finding(RULE.name, Severity.ERROR,
                                       f"mixed_precision {y.top['mixed_precision'][0]} with {other} enabled in {cpath}: "
                                       f"accelerate raises `--mixed_precision` arg cannot be set to `{y.top['mixed_precision'][0]}` "
                                       f"when `{other}` is set in the DeepSpeed config file",
                                       RULE.why, (), (), RULE.section, path, line, col))
        return out
    js, where = build(y)
    doc = parse_json(js, path)
    t = Target(path, "ds_config", js, dataclasses.replace(usage, loaded_by="accelerate"), doc)
    for h in lint_target(t):
        f = h.finding
        line, col = where.get(f.line or 0, y.ds_pos)
        out.append(dataclasses.replace(f, path=path, line=line, col=col,
                                       title=f"{f.title} (in the DeepSpeed config accelerate builds from deepspeed_config)"))
    return out
