"""Turning a smoke run into a Report: what DeepSpeed did (optimizer, partitioning, loss, save, step time,
peak memory per rank) and, on failure, the root cause from ``explain``."""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional

from ..model import Evidence, Finding, Passed, Report, Severity
from . import SmokeRun

SECTION = "smoke"
_EXC = re.compile(r"^(?:\[rank\d+\]:\s*)?(\w+(?:\.\w+)*(?:Error|Exception|Interrupt)\b.*)$")


def diagnose(log: str) -> Report:
    """The root cause of a failed run, by ``explain`` (the one diagnoser)."""
    from ..explain import diagnose_log

    return diagnose_log(log, source="smoke run")


def last_exception(log: str) -> Optional[str]:
    for ln in reversed(log.splitlines()):
        m = _EXC.match(ln.strip())
        if m:
            return m.group(1)[:400]
    return None


def _events(run: SmokeRun, kind: str) -> List[Dict[str, Any]]:
    return sorted((e for e in run.events if e.get("event") == kind), key=lambda e: int(e.get("rank", 0)))


def expected_optimizer(cfg: Dict[str, Any]) -> Optional[str]:
    zero = cfg.get("zero_optimization") or {}
    off = (zero.get("offload_optimizer") or {}).get("device", "none") if isinstance(zero, dict) else "none"
    opt = (cfg.get("optimizer") or {}).get("type", "") if isinstance(cfg.get("optimizer"), dict) else ""
    if off in ("cpu", "nvme") and str(opt).lower() in ("adam", "adamw"):
        return "DeepSpeedCPUAdam"
    return None


def report(run: SmokeRun) -> Report:
    rep = Report()
    done = _events(run, "done")
    init = _events(run, "initialized")
    facts: Dict[str, Any] = {"nproc": run.nproc, "seconds": round(run.seconds, 1), "returncode": run.rc,
                             "ranks": []}
    rep.facts = facts
    for ev in init:
        r = int(ev["rank"])
        d = next((x for x in done if int(x["rank"]) == r), {})
        facts["ranks"].append({"rank": r, "optimizer": ev.get("optimizer"), "partitioned": ev.get("partitioned"),
                               "local_numel": ev.get("local_numel"), "full_numel": ev.get("full_numel"),
                               "step_seconds": d.get("step_seconds"), "peak_bytes": d.get("peak_bytes"),
                               "peak_kind": d.get("peak_kind"), "baseline_rss_bytes": d.get("baseline_rss_bytes"),
                               "hwm_bytes": d.get("hwm_bytes"), "loss_first": (d.get("losses") or [None])[0],
                               "loss_last": (d.get("losses") or [None])[-1]})
    ok_run = run.rc == 0 and len(done) == run.nproc and not run.timed_out and not run.interrupted
    if run.timed_out or run.interrupted:
        what = "interrupted" if run.interrupted else f"did not finish within {run.seconds:.0f}s"
        rep.findings.append(Finding("smoke-timeout", Severity.ERROR, f"the smoke run {what}; every process was stopped",
                                    "A first cpu_adam build takes about a minute; a silent hang usually is a stale "
                                    "lock in TORCH_EXTENSIONS_DIR (`dsdoctor check`).",
                                    tuple(Evidence(ln, "last output") for ln in run.log.splitlines()[-3:]), (), SECTION))
    if not ok_run:
        cause = diagnose(run.log)
        primary = [f for f in cause.findings if f.severity is Severity.ERROR and f.name not in ("no-failure", "unknown")]
        if primary:
            f0 = primary[0]
            rep.findings.append(Finding(f0.name, Severity.ERROR, f"smoke run failed: {f0.title}", f0.explanation,
                                        f0.evidence, f0.fixes, SECTION, f0.path, f0.line, f0.col))
        elif not run.timed_out and not run.interrupted:
            exc = last_exception(run.log)
            rep.findings.append(Finding("smoke-failed", Severity.ERROR,
                                        f"smoke run failed (exit {run.rc}): {exc or 'no exception in the log'}",
                                        "dsdoctor does not recognise the cause; the log tail is in the facts (-v).",
                                        (Evidence(exc or "", "smoke run log"),), (), SECTION))
        facts["log_tail"] = "\n".join(run.log.splitlines()[-40:])
        return rep
    _checks(run, rep, init, done)
    return rep


def _checks(run: SmokeRun, rep: Report, init: List[Dict[str, Any]], done: List[Dict[str, Any]]) -> None:
    want = expected_optimizer(run.config)
    got = sorted({str(e.get("optimizer")) for e in init})
    if want and got != [want]:
        rep.findings.append(Finding("smoke-unexpected-optimizer", Severity.ERROR,
                                    f"DeepSpeed used {', '.join(got)}, expected {want} with offload_optimizer",
                                    "", (Evidence(f"optimizer={got}", "engine.optimizer.optimizer"),), (), SECTION))
    else:
        rep.passed.append(Passed(SECTION, f"optimizer: {', '.join(got)}" + (" (as expected with offload)" if want else "")))
    stage = (run.config.get("zero_optimization") or {}).get("stage")
    if stage == 3:
        if all(e.get("partitioned") for e in init):
            e0 = init[0]
            rep.passed.append(Passed(SECTION, f"parameters partitioned: rank 0 holds {e0['local_numel']:,} of "
                                              f"{e0['full_numel']:,} elements"))
        else:
            rep.findings.append(Finding("smoke-params-not-partitioned", Severity.ERROR,
                                        "ZeRO-3 left some parameters unpartitioned", "", (), (), SECTION))
    for d in done[:1]:
        losses = d.get("losses") or []
        if len(losses) >= 4 and sum(losses[-3:]) / 3 < 0.9 * losses[0]:
            rep.passed.append(Passed(SECTION, f"loss fell: {losses[0]:.3f} -> {losses[-1]:.3f} over {len(losses)} steps"))
        else:
            rep.findings.append(Finding("smoke-loss-not-decreasing", Severity.ERROR,
                                        f"the loss did not fall on a learnable task: {losses[:1]} -> {losses[-1:]}",
                                        "Check the optimizer/lr and scheduler blocks of the config.",
                                        (Evidence(str([round(x, 4) for x in losses]), "rank 0 losses"),), (), SECTION))
        saved = d.get("saved")
        if saved is not None:
            if saved.get("returned") and saved.get("files"):
                rep.passed.append(Passed(SECTION, f"16-bit save: {', '.join(saved['files'])}"))
            else:
                rep.findings.append(Finding("smoke-save-failed", Severity.ERROR, "save_16bit_model wrote nothing",
                                            "", (Evidence(str(saved), "engine.save_16bit_model"),), (), SECTION))
    for d in done:
        rep.passed.append(Passed(SECTION, f"rank {d['rank']}: {d['step_seconds']:.3f}s/step, peak "
                                          f"{d['peak_bytes'] / 2**20:,.0f} MiB ({d['peak_kind']})"))
