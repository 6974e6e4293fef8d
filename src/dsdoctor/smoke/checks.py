"""Turning a smoke run into a Report: what DeepSpeed did (optimizer, partitioning, loss, save, step time,
peak memory per rank) and, on failure, the root cause from ``explain``."""

from __future__ import annotations

import json
import re
from typing import Any, Dict, List, Optional, Tuple

from .. import names as N
from ..model import Evidence, Finding, Passed, Report, Severity
from ..spec import Docs, FindingSpec, RuleExample
from .runner import MARK, SmokeRun

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
        rep.findings.append(SMOKE_TIMEOUT.finding(Severity.ERROR, f"the smoke run {what}; every process was stopped",
                                    "A first cpu_adam build takes about a minute; a silent hang usually is a stale "
                                    "lock in TORCH_EXTENSIONS_DIR (`dsdoctor check`).",
                                    tuple(Evidence(ln, "last output") for ln in run.log.splitlines()[-3:]), (), SECTION))
    if not ok_run:
        cause = diagnose(run.log)
        primary = [f for f in cause.findings if f.severity is Severity.ERROR and f.name not in (N.NO_FAILURE, N.UNKNOWN)]
        if primary:
            f0 = primary[0]
            rep.findings.append(Finding(f0.name, Severity.ERROR, f"smoke run failed: {f0.title}", f0.explanation,
                                        f0.evidence, f0.fixes, SECTION, f0.path, f0.line, f0.col))
        elif not run.timed_out and not run.interrupted:
            exc = last_exception(run.log)
            rep.findings.append(SMOKE_FAILED.finding(Severity.ERROR,
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
        rep.findings.append(SMOKE_UNEXPECTED_OPTIMIZER.finding(Severity.ERROR,
                                    f"DeepSpeed used {', '.join(got)}, expected {want} with offload_optimizer",
                                    None, (Evidence(f"optimizer={got}", "engine.optimizer.optimizer"),), (), SECTION))
    else:
        rep.passed.append(Passed(SECTION, f"optimizer: {', '.join(got)}" + (" (as expected with offload)" if want else "")))
    stage = (run.config.get("zero_optimization") or {}).get("stage")
    if stage == 3:
        if all(e.get("partitioned") for e in init):
            e0 = init[0]
            rep.passed.append(Passed(SECTION, f"parameters partitioned: rank 0 holds {e0['local_numel']:,} of "
                                              f"{e0['full_numel']:,} elements"))
        else:
            rep.findings.append(SMOKE_PARAMS_NOT_PARTITIONED.finding(Severity.ERROR,
                                        "ZeRO-3 left some parameters unpartitioned", None, (), (), SECTION))
    for d in done[:1]:
        losses = d.get("losses") or []
        if len(losses) >= 4 and sum(losses[-3:]) / 3 < 0.9 * losses[0]:
            rep.passed.append(Passed(SECTION, f"loss fell: {losses[0]:.3f} -> {losses[-1]:.3f} over {len(losses)} steps"))
        else:
            rep.findings.append(SMOKE_LOSS_NOT_DECREASING.finding(Severity.ERROR,
                                        f"the loss did not fall on a learnable task: {losses[:1]} -> {losses[-1:]}",
                                        "Check the optimizer/lr and scheduler blocks of the config.",
                                        (Evidence(str([round(x, 4) for x in losses]), "rank 0 losses"),), (), SECTION))
        saved = d.get("saved")
        if saved is not None:
            if saved.get("returned") and saved.get("files"):
                rep.passed.append(Passed(SECTION, f"16-bit save: {', '.join(saved['files'])}"))
            else:
                rep.findings.append(SMOKE_SAVE_FAILED.finding(Severity.ERROR, "save_16bit_model wrote nothing",
                                            None, (Evidence(str(saved), "engine.save_16bit_model"),), (), SECTION))
    for d in done:
        rep.passed.append(Passed(SECTION, f"rank {d['rank']}: {d['step_seconds']:.3f}s/step, peak "
                                          f"{d['peak_bytes'] / 2**20:,.0f} MiB ({d['peak_kind']})"))


# ---------------------------------------------------------------------------------------------------- specs
# Docs examples are the marker lines a smoke run's ranks print (``DSDOCTOR-SMOKE {json}``, ``smoke/train.py``) plus
# the run's exit status and config; tests/test_ruledocs.py parses them with smoke's own reader and judges them with
# :func:`report` (no DeepSpeed run: the real runs are in ``tests/oracle/test_smoke_oracle.py``).

E = Severity.ERROR
_CFG: Dict[str, Any] = {"train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 1,
                        "optimizer": {"type": "AdamW", "params": {"lr": 0.01}},
                        "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"},
                                              "offload_param": {"device": "cpu"},
                                              "stage3_gather_16bit_weights_on_model_save": True}}
_LOSSES = [10.42, 9.87, 9.01, 8.12, 7.35, 6.61, 5.93, 5.32, 4.77, 4.29, 3.86, 3.48]


def _init(optimizer: str = "DeepSpeedCPUAdam", partitioned: bool = True) -> Dict[str, Any]:
    return {"event": "initialized", "rank": 0, "seconds": 1.9, "optimizer": optimizer, "wrapper": "DeepSpeedZeroOptimizer_Stage3",
            "partitioned": partitioned, "local_numel": 1050624 if partitioned else 0, "full_numel": 1050624,
            "world_size": 1, "device": "cpu"}


def _done(losses: List[float] = _LOSSES, saved: Any = None) -> Dict[str, Any]:
    return {"event": "done", "rank": 0, "losses": losses, "step_seconds": 0.0412, "peak_bytes": 734003200, "peak_kind": "rss",
            "saved": saved if saved is not None else {"returned": True, "files": ["pytorch_model.bin"]},
            "baseline_rss_bytes": 512000000, "hwm_bytes": 734003200}


def _example(situation: str, events: Tuple[Dict[str, Any], ...], rc: int = 0, cfg: Dict[str, Any] = _CFG,
          extra_log: str = "", timed_out: bool = False) -> RuleExample:
    text = "".join(MARK + json.dumps(e) + "\n" for e in events) + extra_log
    data = json.dumps({"rc": rc, "timed_out": timed_out, "nproc": 1, "config": cfg}, sort_keys=True)
    return RuleExample("smoke", situation, text, data=data)


SMOKE_FAILED = FindingSpec(
    N.SMOKE_FAILED,
    E,
    "dsdoctor smoke: the ZeRO-3 offload rehearsal did not finish",
    Docs(
        what="`dsdoctor smoke`: the ZeRO-3 offload rehearsal (a tiny model through the real deepspeed launcher) "
         "exited non-zero and `explain` recognises no cause in its log (a recognised cause is reported under "
         "its own name instead, e.g. ninja-missing). The title carries the last exception line.",
        why="The same setup will fail in training; dsdoctor does not know why.",
        fix="Read the log tail (`dsdoctor smoke -v`, or `facts.log_tail` in the JSON), run `dsdoctor check -v`, and "
        "include both when asking for help.",
        examples=(
        _example("`dsdoctor smoke` whose ranks fail in an all-reduce with an NCCL error dsdoctor does not recognise "
              "(exit 1):", (), rc=1,
              extra_log="[rank3]: Traceback (most recent call last):\n"
                        "[rank3]:   File \"/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py\", "
                        "line 3404, in all_reduce\n"
                        "[rank3]:     work = group.allreduce([tensor], opts)\n"
                        "[rank3]: torch.distributed.DistBackendError: NCCL error in: "
                        "/pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:77, unhandled system error\n"),
    ),
        reads="run"),
    ("smoke",))


SMOKE_TIMEOUT = FindingSpec(
    N.SMOKE_TIMEOUT,
    E,
    "dsdoctor smoke: the run exceeded its overall timeout",
    Docs(
        what="`dsdoctor smoke`: the run did not finish within `--timeout` (default 900 s) or was interrupted "
         "(Ctrl-C); every process was stopped (SIGINT to the launcher, then SIGKILL to the process tree).",
        why="A first cpu_adam build takes about a minute; a silent hang usually is a stale lock in "
        "TORCH_EXTENSIONS_DIR (torch <= 2.13 waits on it forever).",
        fix="Run `dsdoctor check` (it reports torch-extensions-lock-stale with the `rm -f` of the lock), or raise "
        "`--timeout` for a slow first build.",
        examples=(
        _example("`dsdoctor smoke --timeout 6` stopped while cpu_adam was still being built:", (), rc=-2,
              timed_out=True,
              extra_log="Using /root/.cache/dsdoctor/torch_extensions as PyTorch extensions root...\n"
                        "Building extension module cpu_adam...\n"),
    ),
        reads="run"),
    ("smoke",))


SMOKE_LOSS_NOT_DECREASING = FindingSpec(
    N.SMOKE_LOSS_NOT_DECREASING,
    E,
    "dsdoctor smoke: the loss did not fall on a learnable task",
    Docs(
        what="`dsdoctor smoke`: on its learnable task (a repeated token pattern) the mean of rank 0's last three "
         "losses is not below 90 % of the first loss, or fewer than four steps ran.",
        why="The optimizer does not update the weights as configured: a zero or tiny learning rate, a scheduler "
        "that keeps it at 0, frozen parameters.",
        fix="Check the `optimizer` (lr) and `scheduler` blocks of the config (warmup_min_lr / warmup_num_steps).",
        examples=(
        _example("`dsdoctor smoke --ds-config ds.json` with `\"lr\": 0` in the optimizer block:",
              (_init(), _done([10.42] * 12))),
    ),
        reads="run"),
    ("smoke",))


SMOKE_UNEXPECTED_OPTIMIZER = FindingSpec(
    N.SMOKE_UNEXPECTED_OPTIMIZER,
    E,
    "dsdoctor smoke: DeepSpeed picked another optimizer than expected",
    Docs(
        what="`dsdoctor smoke`: the config offloads the optimizer (offload_optimizer device cpu/nvme) with an "
         "Adam/AdamW optimizer block, but DeepSpeed did not use DeepSpeedCPUAdam.",
        why="With optimizer offload and an Adam/AdamW block DeepSpeed builds DeepSpeedCPUAdam (the cpu_adam op) "
        "unless the optimizer params ask for torch's (`\"torch_adam\": true`); any other optimizer on offloaded "
        "fp32 states is much slower. FusedAdam means DeepSpeed did not apply the optimizer offload at all.",
        fix="Keep the optimizer in the ds_config (`\"optimizer\": {\"type\": \"AdamW\", ...}`) without "
        "`\"torch_adam\": true` in its params.",
        examples=(
        _example("A smoke run whose engine reports FusedAdam although offload_optimizer is cpu:",
              (_init(optimizer="FusedAdam"), _done())),
    ),
        reads="run"),
    ("smoke",))


SMOKE_PARAMS_NOT_PARTITIONED = FindingSpec(
    N.SMOKE_PARAMS_NOT_PARTITIONED,
    E,
    "dsdoctor smoke: ZeRO-3 did not partition the parameters",
    Docs(
        what="`dsdoctor smoke` with ZeRO stage 3: some parameters still hold their full tensor on a rank after "
         "`deepspeed.initialize` (no `ds_id`, or a non-empty local tensor).",
        why="ZeRO-3 did not partition the model: it was not built under zero.Init or the stage is not applied, so "
        "every rank holds the full model and memory does not scale with ranks.",
        fix="Make sure the config's `zero_optimization.stage` is 3 and the model is created under ZeRO-3 "
        "(`deepspeed.zero.Init`, or TrainingArguments(deepspeed=...) before from_pretrained).",
        examples=(
        _example("A smoke run whose rank 0 reports `partitioned: false`:",
              (_init(partitioned=False), _done())),
    ),
        reads="run"),
    ("smoke",))


SMOKE_SAVE_FAILED = FindingSpec(
    N.SMOKE_SAVE_FAILED,
    E,
    "dsdoctor smoke: the 16-bit model save failed or was skipped",
    Docs(
        what="`dsdoctor smoke`: `engine.save_16bit_model()` returned False or wrote no file.",
        why="Under ZeRO-3 `save_16bit_model` gathers the partitions only when DeepSpeed's parsed config has "
        "`stage3_gather_16bit_weights_on_model_save` true; otherwise it logs `Did not save the model ...` and "
        "returns False. A training run saving the same way writes no usable weights.",
        fix="Make sure DeepSpeed sees `\"stage3_gather_16bit_weights_on_model_save\": true` in zero_optimization "
        "(`dsdoctor lint --fix --unsafe-fixes` adds it where a config needs it: zero3-16bit-save-disabled), or "
        "consolidate a checkpoint with `zero_to_fp32.py`.",
        examples=(
        _example("A smoke run whose 16-bit save returned False and wrote nothing:",
              (_init(), _done(saved={"returned": False, "files": []}))),
    ),
        reads="run"),
    ("smoke",))


SPECS: Tuple[FindingSpec, ...] = (SMOKE_FAILED, SMOKE_TIMEOUT, SMOKE_LOSS_NOT_DECREASING, SMOKE_UNEXPECTED_OPTIMIZER,
                                  SMOKE_PARAMS_NOT_PARTITIONED, SMOKE_SAVE_FAILED)
