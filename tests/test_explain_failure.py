"""The failure model (explain/failure.py): a line that shows a failure makes the answer something other than
``no-failure``; a log of warnings only stays ``no-failure``; ``unknown`` gives next steps for the kind of failure
(the op-build ``verify --op`` advice only when an op build failed)."""

from __future__ import annotations

import json

import pytest

from dsdoctor import names as N
from dsdoctor.explain import diagnose_log
from dsdoctor.explain import failure as F


@pytest.mark.parametrize("line, kind", [
    ("I get `RuntimeError: CUDA error: an illegal memory access was encountered` at step 3", F.EXCEPTION),
    ("**torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970**", F.EXCEPTION),
    ('"ValueError: ..."', F.EXCEPTION),
    ("Exception: Current loss scale already at minimum - cannot decrease scale anymore.", F.EXCEPTION),
    ("Error: ...", F.EXCEPTION),
    ("csrc/x.cu(12): error: identifier \"__hadd\" is undefined", F.COMPILER),
    ("#error -- unsupported compiler", F.COMPILER),
    ("collect2: error: ld returned 1 exit status", F.COMPILER),
    ("[2026-11-29 16:36:04,989] [ERROR] [launch.py:325:sigkill_handler] ['python', '-u', 'train.py'", F.LAUNCHER),
    ("[2026-11-29 16:36:04,988] [INFO] [launch.py:319:sigkill_handler] Killing subprocess 4711", F.LAUNCHER),
    ("torch.distributed.elastic.multiprocessing.api: failed (exitcode: -9) local_rank: 0", F.EXIT),
    ("Process exited with exit code 137", F.EXIT),
    ("died with <Signals.SIGSEGV: 11>.", F.SIGNAL),
    ("Segmentation fault (core dumped)", F.SIGNAL),
    ("Killed", F.SIGNAL),
    ("[Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=7, OpType=ALLREDUCE) ran for 600050 "
     "milliseconds before timing out.", F.TIMEOUT),
    ('Thread 27001 (active): "MainThread"', F.HANG),
    ('Thread 27040 (idle): "Thread-3 (_pin_memory_loop)"', F.HANG),
    ("$ py-spy dump --pid 27001", F.HANG),
    ("Timeout (0:20:00)!", F.HANG),
    ("TypeError; the trainer got an unexpected keyword argument", F.EXCEPTION),  # retyped: a semicolon, a typo
    ("RuntimeError\uff1aCUDA out of memory", F.EXCEPTION),  # an input method's full-width colon
    ("after loading the shards the job returns -9 and stops", F.EXIT),
    ("rank 3 exited with -11.", F.EXIT),
    ("Bus error (core dumped)", F.SIGNAL),
    ("Aborted", F.SIGNAL),
    ("./run_sft.sh: line 14: 30519 Killed                  deepspeed sft.py --deepspeed ds.json", F.SIGNAL),
    ("CUDA error: an illegal memory access was encountered", F.EXCEPTION),  # torch's message head, no class
    ("it stops with NCCL error in: ProcessGroupNCCL.cpp:1191, unhandled system error", F.EXCEPTION),
    ("torch.distributed.elastic.multiprocessing.errors.ChildFailedError:", F.EXCEPTION),  # the message follows
    ("terminate called after throwing an instance of 'c10::Error'", F.EXCEPTION),
    ("Loss.cu:242: nll_loss_forward: block: [0,0,0], thread: [3,0,0] Assertion `t >= 0 && t < n_classes` failed.",
     F.EXCEPTION),
    ("ERROR: Failed building wheel for flash-attn", F.COMPILER),
    ("ERROR: No matching distribution found for deepspeed==9.9.9", F.EXCEPTION),
    ("srun: error: gpu-node-3: task 5: Exited with exit code 1", F.EXIT),
    ("srun: error: gpu-node-3: task 5: Bus error", F.LAUNCHER),
    ("Thread 0x00007f3a1c9fe740 (most recent call first):", F.HANG),  # faulthandler's dump
    ("Current thread 0x00007f3a1c9fe740 (most recent call first):", F.HANG),
    ("slurmstepd: error: *** JOB 88121 ON gpu-node-3 CANCELLED AT 2026-11-30T12:00:01 DUE TO TIME LIMIT ***", F.LAUNCHER),
])
def test_failure_lines(line: str, kind: str) -> None:
    assert F.kind(line) == kind


@pytest.mark.parametrize("line", [
    "/venv/lib/python3.11/site-packages/torch/utils/checkpoint.py:91: UserWarning: None of the inputs have "
    "requires_grad=True. Gradients will be None",
    "[2026-11-29 16:36:04,988] [WARNING] [stage3.py:2100:step] a ValueError: was caught and the step retried",
    "  --ignore_mismatched_sizes --on_error skip --error_score raise",
    "    except ValueError:",
    "Mean Squared Error: 0.0123",
    "exit code: 0",
    "The process was Killed by the user at step 3",
    "Thread 27001 (active) finished the epoch",
    "Timeout (s) for the rendezvous: 900",
    "    return -1;",
    "        return -9",
    "we then saw a ValueError; it went away after a restart",
    "the scheduler returned -0.5 as the lr",
    "the job was Terminated by the scheduler after the last checkpoint",
    "UserWarning: CUDA initialization: CUDA unknown error - this may be due to an incorrectly set up environment",
    "ERROR: pip's dependency resolver does not currently take into account all the packages that are installed.",
    "Type Error:",
    "see the CUDA error codes table",
])
def test_not_failure_lines(line: str) -> None:
    assert F.kind(line) is None


def test_warnings_only_is_no_failure() -> None:
    log = ("/venv/lib/python3.11/site-packages/torch/utils/checkpoint.py:91: UserWarning: None of the inputs have "
           "requires_grad=True. Gradients will be None\n"
           "  warnings.warn(\n"
           "[2026-11-29 16:36:04,988] [WARNING] [stage3.py:2117:step] 2 pytorch allocator cache flushes since last step.\n"
           "{'loss': 1.2034, 'grad_norm': 0.41, 'learning_rate': 2e-05, 'epoch': 0.5}\n"
           "{'train_runtime': 120.4, 'train_loss': 1.1}\n")
    assert diagnose_log(log).findings[0].name == N.NO_FAILURE


@pytest.mark.parametrize("log", [
    "Killed\n",
    "[2026-11-29 16:36:04,988] [INFO] [launch.py:319:sigkill_handler] Killing subprocess 4711\n",
    "I hit `torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, remote process exited`\n",
    "Segmentation fault (core dumped)\n",
])
def test_unknown_outside_a_build_gives_no_op_build_advice(log: str) -> None:
    first = diagnose_log(log).findings[0]
    assert first.name == N.UNKNOWN
    fixes = json.dumps([f.to_json() for f in first.fixes])
    assert "verify --op" not in fixes and fixes != "[]"


def test_unknown_names_who_raised_it() -> None:
    log = ("Traceback (most recent call last):\n"
           '  File "/home/user/proj/train.py", line 9, in <module>\n'
           "    engine.step()\n"
           '  File "/venv/lib/python3.11/site-packages/deepspeed/runtime/engine.py", line 2213, in step\n'
           "    self._take_model_step(lr_kwargs)\n"
           "RuntimeError: an unheard-of failure\n")
    first = diagnose_log(log).findings[0]
    assert first.name == N.UNKNOWN
    assert "DeepSpeed's deepspeed.runtime.engine step (" in first.explanation
    assert "pip list" in json.dumps([f.to_json() for f in first.fixes])
    assert dict(first.attribution)["caller_path"] == "/home/user/proj/train.py"  # the user's frame that called into it
