"""The failure model (explain/failure.py): a line that shows a failure makes the answer something other than
``no-failure``; a log of warnings only stays ``no-failure``; ``unknown`` gives next steps for the kind of failure
(the op-build ``verify --op`` advice only when an op build failed)."""

from __future__ import annotations

import json

import pytest

from dsdoctor import names as N
from dsdoctor.explain import diagnose_log
from dsdoctor.explain import failure as F
from dsdoctor.explain.match import passes_prefilter


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
    ("[E ProcessGroupNCCL.cpp:455] Some NCCL operations have failed or timed out. Due to the asynchronous nature of "
     "CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.", F.EXCEPTION),
    ("[rank3]:[E1203 10:00:00.000000000 ProcessGroupNCCL.cpp:1771] To avoid data inconsistency, we are taking the "
     "entire process down.", F.EXCEPTION),
    ("[rank3]:[E1203 10:00:00.000000000 ProcessGroupNCCL.cpp:1402] [PG ID 0 PG GUID 0 Rank 3] ProcessGroupNCCL's "
     "watchdog got stuck for 480 seconds without making progress in monitoring enqueued collectives.", F.HANG),
    ("SystemExit: 2", F.EXIT),  # argparse's exit as a notebook shows it
    ("SystemExit: the dataset path does not exist", F.EXIT),  # sys.exit("..."): exit status 1
    ("trainer-1 exited with code 137", F.EXIT),  # docker compose's report of a container (137: 128 + SIGKILL)
    ("WARNING:torch.distributed.elastic.agent.server.api:Received 15 death signal, shutting down workers", F.SIGNAL),
    ("WARNING:torch.distributed.elastic.agent.server.api:Received Signals.SIGTERM death signal, shutting down workers",
     F.SIGNAL),
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
    ("{'loss': nan, 'grad_norm': nan, 'learning_rate': 2e-05, 'epoch': 1.2}", F.DIVERGED),
    ("step 340 | lm_loss=inf | lr 3e-4", F.DIVERGED),
    ("epoch 2 train_loss: NaN", F.DIVERGED),
    ("multinode.sh: line 5: pdsh: command not found", F.MISSING),
    ("/bin/sh: 1: mpirun: not found", F.MISSING),
    ("zsh: command not found: hostname2", F.MISSING),
    ("INFO:torch.distributed.elastic.agent.server.api:[default] Worker group FAILED. 3/3 attempts left; will restart "
     "worker group", F.LAUNCHER),  # torchelastic restarting a group a worker failed in
])
def test_failure_lines(line: str, kind: str) -> None:
    assert F.kind(line) == kind
    assert passes_prefilter(line.encode()), line  # the scanner never sees a line the prefilter drops


@pytest.mark.parametrize("line", [
    "/venv/lib/python3.11/site-packages/torch/utils/checkpoint.py:91: UserWarning: None of the inputs have "
    "requires_grad=True. Gradients will be None",
    "[2026-11-29 16:36:04,988] [WARNING] [stage3.py:2100:step] a ValueError: was caught and the step retried",
    "  --ignore_mismatched_sizes --on_error skip --error_score raise",
    "    except ValueError:",
    "Mean Squared Error: 0.0123",
    "exit code: 0",
    "SystemExit: 0",
    "SystemExit: None",
    "    raise SystemExit(main())",
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
    "{'loss': 0.9876, 'grad_norm': 1.5, 'learning_rate': 2e-05, 'epoch': 1.2}",
    "the loss is nan after a while, how do I debug it?",  # prose about a loss, not a logged one
    "  --nan_to_num --loss_type sigmoid",
    "Checking whether the command is found: yes",
    "INFO:torch.distributed.elastic.agent.server.api:[default] Worker group SUCCEEDED. 3/3 attempts left",  # not a failure
    "INFO:torch.distributed.elastic.agent.server.api:[default] Rendezvous complete for workers. Result:",
    "Training:   0%|          | 0/1536 [00:00<?, ?it/s]",  # a bar is a stall only where the log ends (F.stalled)
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


@pytest.mark.parametrize("last, at", [
    (["[INFO] engine ready", "Training:   0%|          | 0/1536 [00:00<?, ?it/s]"], 1),
    (["Epoch 1:   0%|     | 0/1", "Steps:   0%|     | 0/300 [00:07<?, ?it/s]", "a foreign logger's line"], 1),
    (["Steps:   0%|     | 0/300 [00:00<?, ?it/s]", "Steps:   0%|     | 1/300 [00:09<45:02,  9.04s/it]"], -1),  # it moved
    (["Steps:   0%|     | 0/300 [00:00<?, ?it/s]", "a", "b", "c"], -1),  # more output after it than a stall leaves
    (["  7%|7         | 64/900 [02:36<34:06,  2.45s/it]"], -1),
    ([], -1),
])
def test_stalled_reads_the_logs_last_lines(last: list, at: int) -> None:
    assert F.stalled(last) == at


def test_a_run_stuck_before_its_first_step_is_a_hang() -> None:
    log = "[INFO] [engine.py:105:__init__] ZeRO-3 ready\nTraining:   0%|          | 0/1536 [00:00<?, ?it/s]\n"
    first = diagnose_log(log).findings[0]
    assert first.name == N.UNKNOWN and "hang" in first.title.lower()
    moved = log + "Training:   0%|          | 1/1536 [00:09<3:50:00,  9.00s/it]\n"
    assert diagnose_log(moved).findings[0].name == N.NO_FAILURE
