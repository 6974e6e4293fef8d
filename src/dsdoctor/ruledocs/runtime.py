"""``dsdoctor estimate`` (DS601) and ``dsdoctor smoke`` (DS61x). Smoke examples are the marker lines a smoke run's
ranks print (``DSDOCTOR-SMOKE {json}``, ``smoke/train.py``) plus the run's exit status and config; the test parses
them with smoke's own reader and judges them with ``smoke.checks.report`` (no DeepSpeed run: the real runs are in
``tests/oracle/test_smoke_oracle.py``)."""

from __future__ import annotations

import json
from typing import Any, Dict, List, Tuple

from ..model import Severity
from .spec import Entry, RuleExample

E = Severity.ERROR
MARK = "DSDOCTOR-SMOKE "
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


def smoke(situation: str, events: Tuple[Dict[str, Any], ...], rc: int = 0, cfg: Dict[str, Any] = _CFG,
          extra_log: str = "", timed_out: bool = False) -> RuleExample:
    text = "".join(MARK + json.dumps(e) + "\n" for e in events) + extra_log
    data = json.dumps({"rc": rc, "timed_out": timed_out, "nproc": 1, "config": cfg}, sort_keys=True)
    return RuleExample("smoke", situation, text, data=data)


ENTRIES: Tuple[Entry, ...] = (
    Entry(
        "estimate-nothing-fits", E, ("estimate",), "model",
        what="`dsdoctor estimate`: none of the six ZeRO-2/3 x offload options (none / cpu / nvme) fits the GPUs and "
             "host RAM with the requested margin (default 10 %). Reported with exit code 1, `\"recommended\": null` and this finding in "
             "the JSON's `findings`; `--write-config` then writes nothing.",
        why="Training with any of those setups runs out of GPU or host memory (model states by DeepSpeed's own "
            "estimate_zero{2,3}_model_states_mem_needs, plus activations, CUDA context and buffers).",
        fix="As estimate says: add GPUs/nodes (`--gpus-per-node`, `--nodes`), use LoRA/QLoRA (`--lora-r`, "
            "`--qlora`), shorten the sequence (`--seq-len`) or enable gradient checkpointing (on unless "
            "`--no-gradient-checkpointing`); each option's GPU and CPU numbers show which resource is short.",
        examples=(
            RuleExample("estimate", "A 67B-parameter Llama-shaped model on one 8 GB GPU with 16 GB of RAM (exit 1, "
                                    "`recommended` null):",
                        "dsdoctor estimate --gpus-per-node 1 --gpu-mem 8GB --cpu-mem 16GB --layers 80 --hidden 8192 "
                        "--vocab 128256 --format json",
                        source="tests/cases/estimate/nothing-fits.toml"),
        ),
    ),
    Entry(
        "smoke-failed", E, ("smoke",), "run",
        what="`dsdoctor smoke`: the ZeRO-3 offload rehearsal (a tiny model through the real deepspeed launcher) "
             "exited non-zero and `explain` recognises no cause in its log (a recognised cause is reported under "
             "its own name instead, e.g. ninja-missing). The title carries the last exception line.",
        why="The same setup will fail in training; dsdoctor does not know why.",
        fix="Read the log tail (`dsdoctor smoke -v`, or `facts.log_tail` in the JSON), run `dsdoctor check -v`, and "
            "include both when asking for help.",
        examples=(
            smoke("`dsdoctor smoke` whose ranks fail in an all-reduce with an NCCL error dsdoctor does not recognise "
                  "(exit 1):", (), rc=1,
                  extra_log="[rank3]: Traceback (most recent call last):\n"
                            "[rank3]:   File \"/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py\", "
                            "line 3404, in all_reduce\n"
                            "[rank3]:     work = group.allreduce([tensor], opts)\n"
                            "[rank3]: torch.distributed.DistBackendError: NCCL error in: "
                            "/pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:77, unhandled system error\n"),
        ),
    ),
    Entry(
        "smoke-timeout", E, ("smoke",), "run",
        what="`dsdoctor smoke`: the run did not finish within `--timeout` (default 900 s) or was interrupted "
             "(Ctrl-C); every process was stopped (SIGINT to the launcher, then SIGKILL to the process tree).",
        why="A first cpu_adam build takes about a minute; a silent hang usually is a stale lock in "
            "TORCH_EXTENSIONS_DIR (torch <= 2.13 waits on it forever).",
        fix="Run `dsdoctor check` (it reports torch-extensions-lock-stale with the `rm -f` of the lock), or raise "
            "`--timeout` for a slow first build.",
        examples=(
            smoke("`dsdoctor smoke --timeout 6` stopped while cpu_adam was still being built:", (), rc=-2,
                  timed_out=True,
                  extra_log="Using /root/.cache/dsdoctor/torch_extensions as PyTorch extensions root...\n"
                            "Building extension module cpu_adam...\n"),
        ),
    ),
    Entry(
        "smoke-loss-not-decreasing", E, ("smoke",), "run",
        what="`dsdoctor smoke`: on its learnable task (a repeated token pattern) the mean of rank 0's last three "
             "losses is not below 90 % of the first loss, or fewer than four steps ran.",
        why="The optimizer does not update the weights as configured: a zero or tiny learning rate, a scheduler "
            "that keeps it at 0, frozen parameters.",
        fix="Check the `optimizer` (lr) and `scheduler` blocks of the config (warmup_min_lr / warmup_num_steps).",
        examples=(
            smoke("`dsdoctor smoke --ds-config ds.json` with `\"lr\": 0` in the optimizer block:",
                  (_init(), _done([10.42] * 12))),
        ),
    ),
    Entry(
        "smoke-unexpected-optimizer", E, ("smoke",), "run",
        what="`dsdoctor smoke`: the config offloads the optimizer (offload_optimizer device cpu/nvme) with an "
             "Adam/AdamW optimizer block, but DeepSpeed did not use DeepSpeedCPUAdam.",
        why="With optimizer offload and an Adam/AdamW block DeepSpeed builds DeepSpeedCPUAdam (the cpu_adam op) "
            "unless the optimizer params ask for torch's (`\"torch_adam\": true`); any other optimizer on offloaded "
            "fp32 states is much slower. FusedAdam means DeepSpeed did not apply the optimizer offload at all.",
        fix="Keep the optimizer in the ds_config (`\"optimizer\": {\"type\": \"AdamW\", ...}`) without "
            "`\"torch_adam\": true` in its params.",
        examples=(
            smoke("A smoke run whose engine reports FusedAdam although offload_optimizer is cpu:",
                  (_init(optimizer="FusedAdam"), _done())),
        ),
    ),
    Entry(
        "smoke-params-not-partitioned", E, ("smoke",), "run",
        what="`dsdoctor smoke` with ZeRO stage 3: some parameters still hold their full tensor on a rank after "
             "`deepspeed.initialize` (no `ds_id`, or a non-empty local tensor).",
        why="ZeRO-3 did not partition the model: it was not built under zero.Init or the stage is not applied, so "
            "every rank holds the full model and memory does not scale with ranks.",
        fix="Make sure the config's `zero_optimization.stage` is 3 and the model is created under ZeRO-3 "
            "(`deepspeed.zero.Init`, or TrainingArguments(deepspeed=...) before from_pretrained).",
        examples=(
            smoke("A smoke run whose rank 0 reports `partitioned: false`:",
                  (_init(partitioned=False), _done())),
        ),
    ),
    Entry(
        "smoke-save-failed", E, ("smoke",), "run",
        what="`dsdoctor smoke`: `engine.save_16bit_model()` returned False or wrote no file.",
        why="Under ZeRO-3 `save_16bit_model` gathers the partitions only when DeepSpeed's parsed config has "
            "`stage3_gather_16bit_weights_on_model_save` true; otherwise it logs `Did not save the model ...` and "
            "returns False. A training run saving the same way writes no usable weights.",
        fix="Make sure DeepSpeed sees `\"stage3_gather_16bit_weights_on_model_save\": true` in zero_optimization "
            "(`dsdoctor lint --fix --unsafe-fixes` adds it where a config needs it: zero3-16bit-save-disabled), or "
            "consolidate a checkpoint with `zero_to_fp32.py`.",
        examples=(
            smoke("A smoke run whose 16-bit save returned False and wrote nothing:",
                  (_init(), _done(saved={"returned": False, "files": []}))),
        ),
    ),
)
