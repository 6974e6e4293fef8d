"""Turn what the scanner saw into ordered diagnoses: the primary root cause first, with its evidence lines,
the symptoms it explains as consequences, and ranked fixes. Never invents a cause: a failure without one
says what to collect; a bug in the user's code points at the user's frame; nothing failed says so."""

from __future__ import annotations

import re
from typing import Dict, Iterable, List, Optional, Tuple

from ..knowledge import transformers as TK
from ..knowledge.versions import major_minor, parse
from ..model import Evidence, Finding, Report, Severity
from .causes import BY_NAME, FRAME_SIGNATURES, Advice, LogFacts, Seen
from .causes import generic as G
from .causes.loading import zero3_both
from .match import Frame, Hit, Scanner, Traceback
from .reader import Source, bytes_stream, iter_chunks, open_binary

SECTION = "explain"
LIB_PATH = re.compile(r"(?:site-packages|dist-packages|/lib/python\d|<frozen|/(?:deepspeed|torch|transformers|accelerate|"
                      r"peft|trl|pydantic|pydantic_core|huggingface_hub|safetensors|numpy|bitsandbytes)/|"
                      r"/bin/(?:deepspeed|torchrun|accelerate|ds_report|python[\d.]*)$)")
CONSEQUENCE = "consequence"


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
    for chunk in iter_chunks(bytes_stream(text.encode("utf-8", "surrogateescape"))):
        sc.feed_chunk(chunk)
    sc.end_source()
    return diagnose_scan(sc)


# ------------------------------------------------------------------------------------------- facts


def log_facts(sc: Scanner) -> LogFacts:
    f = LogFacts()
    vers = {k: val[0] for k, val in sc.versions.items()}
    f.ds = parse(vers.get("deepspeed"))
    f.torch = vers.get("torch")
    f.transformers = vers.get("transformers")
    tc = vers.get("torch_cuda") or (re.search(r"\+cu(\d{2,3})", f.torch or "") or [None, None])[1]
    if tc and "." not in tc:
        tc = f"{tc[:-1]}.{tc[-1]}"
    f.torch_cuda = major_minor(tc)
    f.ext_root = sc.ext_root
    for h in sc.warnings + sc.notes:
        if "No CUDA runtime is found" in h.text:
            f.no_gpu = True
    for tb in sc.tracebacks:
        for fr in tb.frames:
            m = re.search(r"python(\d)\.(\d{1,2})/", fr.path)
            if m:
                f.python = (int(m.group(1)), int(m.group(2)))
                break
    if sc.hits.get("ninja-missing"):
        f.extra["ninja_check"] = "executable" if any("Ninja is required" in h.text for h in sc.hits["ninja-missing"]) else "module"
    if f.ds is None:
        names = {h.text for h in sc.symptoms}
        if any("requires the cpu_adam op" in t for t in names):
            f.ds_floor = "0.19.8"
    for tb in sc.tracebacks:
        if "int_from_float" in " ".join(tb.message) or "fractional part" in " ".join(tb.message):
            keys = [m for m in tb.message if re.fullmatch(r"[\w.]{3,100}", m)]
            if keys:
                f.extra["float_key"] = keys[-1]
    for h in sc.hits.get("port-in-use", []):
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


def _tb_for(hit: Hit, sc: Scanner) -> Optional[Traceback]:
    for tb in sc.tracebacks:
        if tb.source == hit.source and tb.exc_line == hit.line:
            return tb
        cur = tb
        while cur.chained_from is not None:
            cur = cur.chained_from
            if cur.source == hit.source and cur.exc_line == hit.line:
                return tb
    return None


# ------------------------------------------------------------------------------------------- build


def _ev(h: Hit, where: str = "") -> Evidence:
    loc = f"{h.source}:{h.line}" + (f" [{h.stream}]" if h.stream else "")
    return Evidence(h.text, where or loc, path=h.source, line=h.line)


def _finding(name: str, adv: Advice, evidence: List[Evidence], consequences: List[Hit],
             severity: Severity = Severity.ERROR) -> Finding:
    ev = tuple(evidence) + tuple(_ev(h, CONSEQUENCE) for h in consequences[:8])
    first = evidence[0] if evidence else None
    return Finding(name, severity, adv.summary, adv.why, ev, tuple(adv.fixes), SECTION,
                   path=first.path if first else None, line=first.line if first else None)


def _frame_hits(sc: Scanner) -> Dict[str, List[Hit]]:
    """Causes shown by the raising frame (``causes.spec.frame``): one hit per traceback (chained ones too)."""
    out: Dict[str, List[Hit]] = {}
    for top in sc.tracebacks:
        cur: Optional[Traceback] = top
        while cur is not None:
            for sig in FRAME_SIGNATURES:
                frames = cur.frames if sig.anywhere else cur.frames[-1:]
                fr = next((f for f in reversed(frames) if f.func == sig.frame[1]
                           and f.path.replace("\\", "/").endswith(sig.frame[0])), None)
                if fr is None or not sig.pattern.search(cur.exc_text):
                    continue
                line = cur.exc_line or cur.line
                text = cur.exc_text or f'File "{fr.path}", line {fr.line}, in {fr.func}'
                out.setdefault(sig.name, []).append(Hit(sig.name, cur.source, line, cur.stream, text,
                                                        order=cur.order + line - cur.line))
            cur = cur.chained_from
    return out


def _cause_hits(sc: Scanner) -> List[Tuple[str, List[Hit]]]:
    merged: Dict[str, List[Hit]] = {name: list(hits) for name, hits in sc.hits.items() if hits}
    for name, hits in _frame_hits(sc).items():
        merged[name] = sorted(merged.get(name, []) + hits, key=lambda h: h.order)
    causes = list(merged.items())
    causes.sort(key=lambda item: item[1][0].order)
    return causes


def _decide_combined(hits: List[Hit], sc: Scanner) -> Tuple[str, Optional[Advice]]:
    """Transformers 4.20-4.50's combined ZeRO-3 message: which argument did the call pass?"""
    h = hits[0]
    if TK.MSG_ZERO3_COMBINED not in h.text:
        return "zero3-low-cpu-mem-usage-conflict", None
    tb = _tb_for(h, sc)
    fr = user_frame(tb) if tb else None
    code = fr.code if fr else ""
    dm, low = "device_map" in code, "low_cpu_mem_usage" in code
    if dm and not low:
        return "zero3-device-map-conflict", None
    if low and not dm:
        return "zero3-low-cpu-mem-usage-conflict", None
    return "zero3-low-cpu-mem-usage-conflict", zero3_both(h.text)


def diagnose_scan(sc: Scanner) -> Report:
    facts = log_facts(sc)
    report = Report()
    report.facts = {"lines": sc.lines, "bytes": sc.bytes, "versions": {k: v[0] for k, v in sc.versions.items()},
                    "tracebacks": sum(t.count for t in sc.tracebacks)}
    findings: List[Finding] = []
    used: Dict[str, bool] = {}
    symptoms = sorted(sc.symptoms, key=lambda h: h.order)
    for i, (name, hits) in enumerate(_cause_hits(sc)):
        adv: Optional[Advice] = None
        if name == "zero3-low-cpu-mem-usage-conflict":
            name, adv = _decide_combined(hits, sc)
        if used.get(name):
            continue
        used[name] = True
        if adv is None:
            first = hits[0]
            groups: Dict[str, str] = {}
            for h in reversed(hits):  # e.g. the op name from DeepSpeed's ninja line, torch's has none
                groups.update(h.groups)
            groups.update(first.groups)
            adv = BY_NAME[name].advise(Seen(first.text, groups), facts)
        evidence = [_ev(h) for h in hits[:3]]
        tb = _tb_for(hits[0], sc)
        fr = user_frame(tb) if tb else None
        if fr is not None:
            evidence.append(Evidence(f'File "{fr.path}", line {fr.line}, in {fr.func}' + (f": {fr.code}" if fr.code else ""),
                                     "your code (the call that failed)", path=fr.path, line=fr.line))
        cons = symptoms if i == 0 else []  # torch prints the build output (with the cause) after its symptom
        findings.append(_finding(name, adv, evidence, cons, Severity.ERROR if i == 0 else Severity.WARNING))
    if not findings:
        findings.append(_no_cause(sc, facts, symptoms))
    report.findings = findings
    report.facts["primary"] = findings[0].name
    return report


def _frame_groups(fr: Optional[Frame]) -> Dict[str, str]:
    return {"path": fr.path, "line": str(fr.line), "func": fr.func} if fr is not None else {}


def _no_cause(sc: Scanner, facts: LogFacts, symptoms: List[Hit]) -> Finding:
    op_syms = [s for s in symptoms if s.name == G.OP_BUILD_SYMPTOM]
    tbs = sorted(sc.tracebacks, key=lambda t: t.order)
    if op_syms:
        name = "op-build-failed-cause-not-in-log"
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
        name = "user-code-error" if fr is not None and innermost is fr else "unknown"
        return _finding(name, BY_NAME[name].advise(Seen(exc, _frame_groups(fr)), facts), ev, symptoms)
    if symptoms:
        return _finding("unknown", G.unknown(Seen(), facts), [_ev(symptoms[0])], symptoms[1:])
    if sc.build_started is not None and not sc.build_done:
        return _finding("torch-extensions-lock-stale", G.lock_stale(Seen(), facts), [_ev(sc.build_started)], [], Severity.WARNING)
    notes = sc.notes + sc.warnings
    return _finding("no-failure", G.no_failure(Seen(groups={"notes": str(len(notes))}), facts),
                    [_ev(h, f"warning, {h.source}:{h.line}") for h in notes[:10]], [], Severity.INFO)
