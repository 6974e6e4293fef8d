"""Turn what the scanner saw into ordered diagnoses: the primary root cause first, with its evidence lines,
the symptoms it explains as consequences, and ranked fixes. Never invents a cause: a failure without one
says what to collect; a bug in the user's code points at the user's frame; nothing failed says so."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Dict, Iterable, List, Optional, Set, Tuple

from .. import fixes as F
from .. import names as N
from ..knowledge import deepspeed as K
from ..knowledge.versions import major_minor, parse
from ..model import CONSEQUENCE, Evidence, Finding, Report, Severity
from . import context as CX
from . import failure as FM
from . import ranking as R
from . import tb_walk as TW
from .attribute import unknown_groups
from .causes import BY_NAME, FRAME_SIGNATURES, Advice, LogFacts, Seen
from .causes import generic as G
from .causes import launch as LA
from .causes import model_types as MT
from .causes import regressions as RG
from .causes import versions_pydantic as PY
from .indexed_failures import numbered, recheck
from .launches import split_rendezvous
from .match import Frame, Hit, Scanner, Traceback
from .progress import collapsed
from .raiser import complete
from .reader import Source, bytes_stream, iter_chunks, open_binary

SECTION = "explain"
# Libraries whose frames are never "the user's code" (a package of the user's own project installed in
# site-packages is: its bug is a user-code-error). Also Python's own library, and DeepSpeed's source tree.
LIBS = ("deepspeed", "op_builder", "torch", "transformers", "accelerate", "peft", "trl", "pydantic", "pydantic_core",
        "huggingface_hub", "safetensors", "numpy", "bitsandbytes", "datasets", "tokenizers", "triton", "apex", "flash_attn",
        "xformers", "lightning", "pytorch_lightning", "mpi4py", "setuptools", "pip", "_distutils", "pkg_resources",
        "importlib", "multiprocessing", "concurrent", "runpy", "argparse", "json", "subprocess", "vllm", "ray")
LIB_PATH = re.compile(r"(?:<frozen |<string>|<pip-|%s|[/\\](?:%s)(?:[/\\]|\.py$)|[/\\]lib[/\\]python\d[\d.]*[/\\](?!site-packages|dist-packages)|"
                      r"[/\\]bin[/\\](?:deepspeed|torchrun|accelerate|ds_report|python[\d.]*)$)"
                      % (FM.PIP_BUILD.pattern, "|".join(LIBS)))
# An exception that carries a library's name (its class's module, or the message) is not a bug in the user's code
# even when the user's frame is the innermost one (a C++ op raising, a traceback cut above the library's frames).
LIB_EXCEPTION = re.compile(r"^(?:%s)\.|\b(?:CUDA|NCCL|cuDNN|CUDNN|cuBLAS|CUBLAS|cuda|nccl|DeepSpeed|deepspeed|ZeRO|torch|"
                           r"transformers|accelerate|peft|bitsandbytes|triton)\b" % "|".join(LIBS[:12]))
# a row of ds_report's op table ("async_io ....... [NO] ....... [OKAY]") or setup.py's summary of the ops it will
# build ("Install Ops={'async_io': False, ...}"): what could be built, not what failed
DS_REPORT_ROW = re.compile(r"^\w{2,60} ?\.{2,} ?\[(?:NO|YES|OKAY)\]|^\s{0,8}Install Ops=\{")
WARNING = re.compile(r"\[WARNING\]|Warning\b|\bWARN\b|^W\d{4} ")  # a warning line is not a failure


def scan_sources(sources: Iterable[Source], scanner: Optional[Scanner] = None) -> Scanner:
    sc = scanner or Scanner()
    for i, src in enumerate(sources):
        sc.start_source(src.name, i)
        with open_binary(src) as f:
            for chunk in iter_chunks(f):
                sc.feed_chunk(chunk)
        sc.end_source()
    return sc


def diagnose_log(text: str, *, source: str = "log") -> Report:
    """Explain one log given as text (the public API: ``dsdoctor smoke`` and tests call this)."""
    sc = Scanner()
    sc.start_source(source, 0)
    data = text.encode("utf-8", "surrogateescape")
    for chunk in iter_chunks(bytes_stream(data)):
        sc.feed_chunk(chunk)
    sc.end_source()
    return recheck(diagnose_scan(sc), sc, diagnose_scan, [(source, numbered(data))])


# ------------------------------------------------------------------------------------------- facts


def log_facts(sc: Scanner) -> LogFacts:
    f = LogFacts()
    vers = {k: val[0] for k, val in sc.versions.items()}
    f.ds = parse(vers.get("deepspeed"))
    f.torch = vers.get("torch")
    f.transformers = vers.get("transformers")
    f.versions = dict(vers)
    f.installed = dict(sc.installed)
    tc = vers.get("torch_cuda") or (re.search(r"\+cu(\d{2,3})", f.torch or "") or [None, None])[1]
    if tc and "." not in tc:
        tc = f"{tc[:-1]}.{tc[-1]}"
    f.torch_cuda = major_minor(tc)
    f.ext_root = sc.ext_root
    f.platform = R.platform(sc)
    for h in sc.warnings + sc.notes:
        if "No CUDA runtime is found" in h.text:
            f.no_gpu = True
    for tb in sc.tracebacks:
        for fr in tb.frames:
            m = re.search(r"python(\d)\.(\d{1,2})/", fr.path)
            if m:
                f.python = (int(m.group(1)), int(m.group(2)))
                break
    if sc.hits.get(N.NINJA_MISSING):
        f.extra["ninja_check"] = "executable" if any("Ninja is required" in h.text for h in sc.hits[N.NINJA_MISSING]) else "module"
    if f.ds is None:
        names = {h.text for h in sc.symptoms}
        if any("requires the cpu_adam op" in t for t in names):
            f.ds_floor = K.CPU_ADAM_WRAPPED_SINCE  # the message form only that release and later print
    for tb in sc.tracebacks:
        if "int_from_float" in " ".join(tb.message) or "fractional part" in " ".join(tb.message):
            keys = [m for m in tb.message if re.fullmatch(r"[\w.]{3,100}", m)]
            if keys:
                f.extra["float_key"] = keys[-1]
    for h in sc.hits.get(N.PORT_IN_USE, []):
        m = re.search(r"port: (\d{2,5})|:(\d{2,5})\b", h.text)
        if m:
            f.extra["port"] = m.group(1) or m.group(2)
    return f


# ------------------------------------------------------------------------------------- tracebacks


def _root(tb: Traceback) -> Traceback:
    while tb.chained_from is not None:
        tb = tb.chained_from
    return tb


def user_frame(tb: Traceback) -> Optional[Frame]:
    """The innermost frame in the user's own code (not a library), across the chain."""
    cur: Optional[Traceback] = tb
    while cur is not None:
        for fr in reversed(cur.frames):
            if not LIB_PATH.search(fr.path):
                return fr
        cur = cur.chained_from
    return None


# ------------------------------------------------------------------------------------------- build


def _ev(h: Hit, where: str = "") -> Evidence:
    loc = f"{h.source}:{h.line}" + (f" [{h.stream}]" if h.stream else "")
    return Evidence(h.text, where or loc, path=h.source, line=h.line)


def _finding(name: str, adv: Advice, evidence: List[Evidence], consequences: List[Hit],
             severity: Severity = Severity.ERROR) -> Finding:
    seen = {(e.path, e.line) for e in evidence}
    ev = tuple(evidence) + tuple(_ev(h, CONSEQUENCE) for h in [h for h in consequences if (h.source, h.line) not in seen][:8])
    first = evidence[0] if evidence else None
    return Finding(name, severity, adv.summary, BY_NAME[name].why(adv), ev, tuple(adv.fixes), SECTION,
                   path=first.path if first else None, line=first.line if first else None, attribution=adv.attribution)


def _is_frame(f: Frame, where: Tuple[str, ...]) -> bool:
    """``f`` is in a file ending with ``where[0]`` and function ``where[1]`` (``"*"``: any)."""
    return where[1] in ("*", f.func) and f.path.replace("\\", "/").endswith(where[0])


def _frame_hits(sc: Scanner) -> List[Hit]:
    """Causes and symptoms shown by the raising frame (``causes.spec.frame``): one hit per traceback (chained
    ones too) and signature."""
    out: List[Hit] = []
    for top in sc.tracebacks:
        cur: Optional[Traceback] = top
        while cur is not None:
            for sig in FRAME_SIGNATURES:
                frames = cur.frames if sig.anywhere else cur.frames[-1:]
                fr = next((f for i, f in enumerate(reversed(frames)) if _is_frame(f, sig.frame)
                           and (sig.code is None or sig.code.search(f.code)) and (not sig.lines or f.line in sig.lines)
                           and (not sig.below or any(_is_frame(d, sig.below) for d in frames[len(frames) - i:]))), None)
                if fr is None or not sig.pattern.search(cur.exc_text):
                    continue
                line = cur.exc_line or cur.line
                text = cur.exc_text or f'File "{fr.path}", line {fr.line}, in {fr.func}'
                out.append(Hit(sig.name, cur.source, line, cur.stream, text, sig.symptom, order=cur.order + line - cur.line))
            cur = cur.chained_from
    return out


def _promoted(sc: Scanner, symptoms: List[Hit]) -> List[Hit]:
    """Notes that are the cause because a failure they explain is in the log (``Signature.cause_with``, searched in
    the symptom lines, the exception lines and the log's last lines)."""
    out: List[Hit] = []
    failures = ([s.text for s in symptoms] + [t.exc_text for t in sc.tracebacks if t.exc_text]
                + [t for _, _, t in sc.tail if not WARNING.search(t)])
    for h in sc.notes:
        for sig in BY_NAME[h.name].signatures:
            # a ds_report row is context, not a failure: only a note about the table itself reads it
            shown = failures if sig.rows else [t for t in failures if not DS_REPORT_ROW.match(t)]
            if (sig.note and sig.cause_with and sig.pattern.search(h.text)
                    and any(re.search(sig.cause_with, t) and not sig.pattern.search(t) for t in shown)):
                out.append(Hit(h.name, h.source, h.line, h.stream, h.text, groups=h.groups, order=h.order))
                break
    return out


def _cause_hits(sc: Scanner, extra: List[Hit]) -> List[Tuple[str, List[Hit]]]:
    merged: Dict[str, List[Hit]] = {name: list(hits) for name, hits in sc.hits.items() if hits}
    for h in extra:  # a frame signature's hit on a line a message signature already gave this cause: once
        bucket = merged.setdefault(h.name, [])
        if all((o.source, o.line) != (h.source, h.line) for o in bucket):
            bucket.append(h)
    causes = [(name, sorted(hits, key=lambda h: h.order)) for name, hits in merged.items()]
    # the root first: in log order, except that a cause which is often another failure's consequence yields
    # and that an error the library handled (it logged it and went on) yields to a later one that ended the run
    causes.sort(key=lambda item: (BY_NAME[item[0]].yields, R.handled(item[1][0], sc), item[1][0].order))
    return causes


def diagnose_scan(sc: Scanner) -> Report:
    facts = log_facts(sc)
    report = Report()
    report.facts = {"lines": sc.lines, "bytes": sc.bytes, "versions": {k: v[0] for k, v in sc.versions.items()},
                    "tracebacks": sum(t.count for t in sc.tracebacks)}
    findings: List[Finding] = []
    used: Dict[str, bool] = {}
    framed = _frame_hits(sc)
    symptoms = sorted(sc.symptoms + [h for h in framed if h.symptom], key=lambda h: h.order)
    extra = [h for h in framed if not h.symptom] + _promoted(sc, symptoms) + split_rendezvous(sc) + collapsed(sc)
    for name, hits in _cause_hits(sc, extra):
        adv: Optional[Advice] = None
        tb0 = TW.tb_for(hits[0], sc)
        shown = RG.released(hits[0].text, facts, *TW.funcs_codes(tb0))
        row = shown[1] if shown is not None else ""  # the regression row that names it
        if shown is not None:  # a message other failures print too, from a release the log shows has the bug
            name = shown[0]
        else:  # a line whose cause depends on what else the log shows
            name, adv = CX.decide(name, hits, sc, user_frame(tb0) if tb0 else None)
        if not name:  # it names no cause without a context this log does not show
            continue
        if facts.platform == "windows" and name in R.OP_BUILD_CAUSES:  # no op builds on native Windows at all
            name, adv = N.WINDOWS_OP_BUILD_UNSUPPORTED, None
        if used.get(name):
            continue
        used[name] = True
        if adv is None:
            first = hits[0]
            groups: Dict[str, str] = {}
            for h in reversed(hits):  # e.g. the op name from DeepSpeed's ninja line, torch's has none
                groups.update(h.groups)
            groups.update(first.groups, **({"row": row} if row else {}))
            if name == N.HOST_OOM_KILLED:  # the host-memory trend before the kill
                groups.update(R.memory_groups([m for m in sc.marks["memory"] if m.order < first.order][-1:]))
            adv = BY_NAME[name].advise(Seen(first.text, groups), facts)
        evidence = [_ev(h) for h in hits[:3]]
        tb = TW.tb_for(hits[0], sc)
        fr = user_frame(tb) if tb else None
        if fr is not None:
            evidence.append(Evidence(f'File "{fr.path}", line {fr.line}, in {fr.func}' + (f": {fr.code}" if fr.code else ""),
                                     "your code (the call that failed)", path=fr.path, line=fr.line))
        cons = [] if findings else symptoms  # torch prints the build output (with the cause) after its symptom
        findings.append(_finding(name, adv, evidence, cons, Severity.WARNING if findings else Severity.ERROR))
    if not findings:
        findings.append(_silent_kill(sc, facts, symptoms) or _no_cause(sc, facts, symptoms))
    report.findings = [_on_platform(f, facts.platform) for f in findings]
    report.facts["primary"] = findings[0].name
    return report


def _on_platform(f: Finding, platform: str) -> Finding:
    """``f`` less the fixes (commands) the log's platform cannot run: the one place explain applies the veto."""
    fixes = tuple(fx for fx in (F.for_platform(x, platform) for x in f.fixes) if fx is not None)
    return f if fixes == f.fixes else replace(f, fixes=fixes)


def _silent_kill(sc: Scanner, facts: LogFacts, symptoms: List[Hit]) -> Optional[Finding]:
    """No exception and no symptom, but the launcher killed the ranks (no exit code but SIGKILL's shown): a rank
    was killed from outside, the host-memory report before it is the evidence (``ranking.silent_kill``)."""
    hits = None if sc.tracebacks or symptoms else R.silent_kill(sc)
    if not hits:
        return None
    groups = dict(R.memory_groups(hits), silent="1" if any(h in sc.marks["kill"] for h in hits) else "")
    if any(h in sc.marks["load"] for h in hits):
        groups["load"] = hits[0].text.strip()[:200]
    adv = BY_NAME[N.HOST_OOM_KILLED].advise(Seen(hits[-1].text, groups), facts)
    return _finding(N.HOST_OOM_KILLED, adv, [_ev(h) for h in hits], [])


def _frame_groups(fr: Optional[Frame]) -> Dict[str, str]:
    return {"path": fr.path, "line": str(fr.line), "func": fr.func} if fr is not None else {}


def _distinct(hits: List[Hit]) -> List[Hit]:
    """``hits`` less those on a line already listed, or repeating a listed line's text (a notable warning is also a
    warning; ranks print the same warning)."""
    lines: Set[Tuple[str, int]] = set()
    texts: Set[str] = set()
    out: List[Hit] = []
    for h in hits:
        if (h.source, h.line) in lines or h.text in texts:
            continue
        lines.add((h.source, h.line))
        texts.add(h.text)
        out.append(h)
    return out


def _telling(sc: Scanner) -> Optional[Hit]:
    """The most telling failure line of the log (``failure.RANK``), or None."""
    at = FM.most_telling([h.name for h in sc.failures])
    return sc.failures[at] if at >= 0 else None


def _unknown(sc: Scanner, facts: LogFacts, text: str, kind: str, ev: List[Evidence], cons: List[Hit],
             groups: Dict[str, str], frames: List[Tuple[str, int, str]]) -> Finding:
    """``unknown``: the failing line, who raised it, next steps for its kind."""
    if kind == FM.STARTUP:  # a log of the launcher's start-up only (startup.py): no failure line to quote
        return _finding(N.UNKNOWN, LA.startup_only(text, groups), ev, cons)
    if kind == FM.ENGINE_INIT:  # a log that stops inside deepspeed.initialize (engine_init.py)
        return _finding(N.UNKNOWN, LA.engine_init_cut(groups.get("start", ""), text), ev, cons)
    g = dict(groups, kind=kind, who=FM.raised_by(frames, text), libs="|".join(FM.packages(frames)))
    g.update(unknown_groups(text, kind, frames, {k: v[0] for k, v in sc.versions.items()}, g.get("whole") != "0"))
    if any(FM.PIP_BUILD.search(p) for p, _, _ in frames):
        g["kind"] = FM.COMPILER  # an exception in a package's setup.py: that package's build failed
    if sc.build_started is not None or sc.build_ran is not None:
        g["op_build"] = "1"
    return _finding(N.UNKNOWN, BY_NAME[N.UNKNOWN].advise(Seen(text, g), facts), ev, cons)


def _no_cause(sc: Scanner, facts: LogFacts, symptoms: List[Hit]) -> Finding:
    """No cause matched: an op that failed (its cause not in the log), the user's own bug, a failure nobody
    recognises (``unknown``, when any line shows one: ``failure``), a build the log ends in, or no failure."""
    op_syms = [s for s in symptoms if s.name == G.OP_BUILD_SYMPTOM]
    tbs = sorted(sc.tracebacks, key=lambda t: t.order)
    gone = RG.withdrawn([f.path for t in tbs for f in t.frames], facts.ds) if tbs else None
    if gone is not None:  # a build of a release its index withdrew: that release, not an op, is what failed
        tb = tbs[0]
        ev = ([_ev(op_syms[0])] if op_syms else
              [Evidence(tb.exc_text or tb.frames[-1].code, f"{tb.source}:{tb.exc_line or tb.line}", path=tb.source,
                        line=tb.exc_line or tb.line)])
        advice = RG.withdrawn_advice(gone[0], str(facts.ds), gone[1], gone[2])
        return _finding(N.DEEPSPEED_RELEASE_REGRESSION, advice, ev, op_syms[1:])
    if op_syms:
        name = N.OP_BUILD_FAILED_CAUSE_NOT_IN_LOG
        return _finding(name, BY_NAME[name].advise(Seen(op_syms[0].text), facts), [_ev(op_syms[0])], op_syms[1:])
    if tbs:
        tb = tbs[0]
        root = _root(tb)
        fr = user_frame(tb)
        exc = tb.exc_text or root.exc_text or "(the exception line is missing: the log is cut)"
        ev = [Evidence(exc, f"{tb.source}:{tb.exc_line or tb.line}" + (f" [{tb.stream}]" if tb.stream else ""),
                       path=tb.source, line=tb.exc_line or tb.line)]
        innermost = (tb.frames[-1] if tb.frames else None)
        if fr is not None:
            ev.append(Evidence(f'File "{fr.path}", line {fr.line}, in {fr.func}' + (f": {fr.code}" if fr.code else ""),
                               "your code", path=fr.path, line=fr.line))
        shown = RG.released(exc, facts, *TW.funcs_codes(tb))
        if shown is not None:
            return _finding(shown[0], BY_NAME[shown[0]].advise(Seen(exc, {"row": shown[1]}), facts), ev, symptoms)
        asked = MT.versions_answer(tb.exc_text, [(f.path, f.code) for f in tb.frames], facts)
        if asked is None:
            pyd = PY.pydantic2_v1_models(tb.exc_text, [(f.path, f.code) for f in tb.frames],
                                        [h.text for h in sc.warnings], str(facts.ds) if facts.ds else None)
            asked = (N.PACKAGE_VERSIONS_INCOMPATIBLE, pyd) if pyd is not None else None
        if asked is not None and asked[1].get("caller"):  # the raising function, which a regression row may name
            asked[1]["func"] = next((f.func for f in reversed(tb.frames) if FM.site_package(f.path) == asked[1]["caller"]), "")
        if asked is not None:  # a model type the installed Transformers predates; an API another package lacks
            return _finding(asked[0], BY_NAME[asked[0]].advise(Seen(exc, asked[1]), facts), ev, symptoms)
        mine = (fr is not None and innermost is fr and bool(tb.exc_text) and not LIB_EXCEPTION.search(tb.exc_text)
                and not FM.interrupted(tb.exc_text))  # Ctrl-C in the user's frame is no bug of theirs
        if mine:
            return _finding(N.USER_CODE_ERROR, BY_NAME[N.USER_CODE_ERROR].advise(Seen(exc, _frame_groups(fr)), facts), ev, symptoms)
        kind = (FM.INTERRUPTED if FM.interrupted(tb.exc_text or root.exc_text) else
                FM.EXCEPTION if tb.exc_text or root.exc_text else FM.CUT)
        frames, whole = complete(TW.frames(tb), [f.code for f in tb.frames])  # the last frame's name, when the log cuts it
        return _unknown(sc, facts, exc, kind, ev, symptoms, dict(_frame_groups(fr), whole="1" if whole else "0"), frames)
    fail = _telling(sc)
    if symptoms:  # the launcher's report: quote the rank's own failure line when the log has one
        if fail is not None and fail.name not in (FM.LAUNCHER, FM.EXIT):
            return _unknown(sc, facts, fail.text, fail.name, [_ev(fail)], symptoms, {}, [])
        return _finding(N.UNKNOWN, G.unknown(Seen(groups={"kind": FM.LAUNCHER}), facts), [_ev(symptoms[0])], symptoms[1:])
    if sc.build_ran is not None and not sc.build_done:  # the log ends while ninja compiled: cut, not a lock wait
        name = N.OP_BUILD_FAILED_CAUSE_NOT_IN_LOG
        return _finding(name, BY_NAME[name].advise(Seen(), facts), [_ev(sc.build_ran)], [])
    shown = RG.released(fail.text, facts) if fail is not None else None
    if fail is not None and shown is not None:
        return _finding(shown[0], BY_NAME[shown[0]].advise(Seen(fail.text, {"row": shown[1]}), facts), [_ev(fail)], [])
    if fail is not None:
        others = [h for h in sc.failures if h is not fail]
        told = dict(fail.groups) if fail.name in (FM.ENGINE_INIT, FM.STARTUP) else {}  # the set-up line it stopped after, the launcher
        return _unknown(sc, facts, fail.text, fail.name, [_ev(fail)], others, told, [])
    if sc.build_started is not None and not sc.build_done:
        return _finding(N.TORCH_EXTENSIONS_LOCK_STALE, G.lock_stale(Seen(), facts), [_ev(sc.build_started)], [], Severity.WARNING)
    notes = _distinct(sc.notes + sc.warnings)
    last = sc.tail[-1][2] if sc.tail else ""  # what the log ends on: a run that stopped after it shows no failure
    return _finding(N.NO_FAILURE, G.no_failure(Seen(groups={"notes": str(len(notes)), "last": last}), facts),
                    [_ev(h, f"warning, {h.source}:{h.line}") for h in notes[:10]], [], Severity.INFO)
