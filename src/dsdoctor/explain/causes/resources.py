"""Causes that are a resource running out: GPU memory, host memory (the OOM killer), /dev/shm, disk, locked
memory. The messages live in ``knowledge/cuda.py`` and ``knowledge/deepspeed.py``."""

from __future__ import annotations

from typing import Tuple

from ... import fixes as F
from ...knowledge import cuda as CK
from ...knowledge import deepspeed as K
from .spec import Advice, Cause, Docs, LogFacts, Seen, code_fix, lit, log, msg, rx

LAUNCH = "deepspeed/launcher/launch.py sigkill_handler (0.9-0.19.8)"
ELASTIC = "torch/distributed/elastic/multiprocessing/api.py (torchrun, torch 2.x-2.14)"


def _gpu_oom(s: Seen, f: LogFacts) -> Advice:
    return Advice("CUDA out of memory", s.text[:300],
                  [code_fix("Offload or shrink", 'ds_config: "offload_param": {"device": "cpu"}, smaller train_micro_batch_size_per_gpu, '
                            "gradient_checkpointing=True"), code_fix("Size it first", "dsdoctor estimate")])


def _shm(s: Seen, f: LogFacts) -> Advice:
    return Advice("A process died of SIGBUS: /dev/shm is too small", s.text,
                  [F.shm_fix(), code_fix("Or load data in the main process", "DataLoader(..., num_workers=0)")])


def _disk(s: Seen, f: LogFacts) -> Advice:
    return Advice("Writing a file failed (disk full or write error)", s.text,
                  [code_fix("Free space or write elsewhere", "df -h <output_dir>", reason="save_total_limit bounds checkpoints")])


def _host_oom(s: Seen, f: LogFacts) -> Advice:
    return Advice("A rank was killed with SIGKILL (exit -9) and left no traceback: almost always the host OOM killer",
                  "Each rank loading the full model into host RAM (no zero.Init: the model built before "
                  "TrainingArguments/HfDeepSpeedConfig) or CPU offload buffers exceed RAM.",
                  [code_fix("Confirm it", "dmesg -T | grep -i -E 'killed process|out of memory'"),
                   code_fix("Load under zero.Init: create TrainingArguments(deepspeed=...) before from_pretrained",
                            "args = TrainingArguments(..., deepspeed=cfg); model = AutoModel.from_pretrained(..., torch_dtype=torch.bfloat16)"),
                   code_fix("Size it first", "dsdoctor estimate")])


def _memlock(s: Seen, f: LogFacts) -> Advice:
    return Advice("ulimit -l is too low for pinned offload buffers", s.text, [F.memlock_fix()])


def _exit(rc: str) -> str:
    """The launcher's exit line for one return code."""
    return lit(K.MSG_LAUNCH_EXIT).replace(r"(?P<rc>\S{1,200}?)", r"(?P<rc>%s)\b" % rc)


_LAUNCH_LINE = ("[2026-11-29 16:36:04,989] [ERROR] [launch.py:259:sigkill_handler] ['/opt/envs/venv/bin/python', '-u', "
                "'train.py', '--local_rank=1'] exits with return code = ")

SPECS: Tuple[Cause, ...] = (
    Cause("gpu-oom", "DS322", "CUDA out of memory", _gpu_oom, predicted_by="estimate", signatures=(
        msg(CK.MSG_CUDA_OOM, "torch/csrc/cuda/CUDACachingAllocator.cpp (torch 1.x-2.14)",
           "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.19 "
           "GiB of which 1.06 GiB is free."),
        rx(r"\bOutOfMemoryError\b", "OutOfMemoryError", "torch.OutOfMemoryError / torch.cuda.OutOfMemoryError (torch 1.13-2.14)",
           "torch.cuda.OutOfMemoryError: CUDA error: out of memory")),
        docs=Docs(
            "CUDA out of memory (`torch.OutOfMemoryError: CUDA out of memory`).",
            "The model states, activations and buffers on one GPU exceed its memory for this ZeRO stage, offload "
            "setting and micro batch.",
            "Offload or shrink: ds_config `\"offload_param\": {\"device\": \"cpu\"}`, a smaller "
            "train_micro_batch_size_per_gpu, `gradient_checkpointing=True`; size it first with `dsdoctor estimate`.",
            (log("gpu-oom", "An OOM in a Trainer forward:",
                 "[rank0]:   File \"/opt/conda/lib/python3.11/site-packages/torch/nn/modules/linear.py\", line 125, in "
                 "forward\n"
                 "[rank0]:     return F.linear(input, self.weight, self.bias)\n"
                 "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total "
                 "capacity of 79.19 GiB of which 1.06 GiB is free. Including non-PyTorch memory, this process has "
                 "78.12 GiB memory in use. Of the allocated memory 75.02 GiB is allocated by PyTorch, and 1.54 GiB is "
                 "reserved by PyTorch but unallocated.\n"),))),
    Cause("shm-too-small", "DS112", "/dev/shm is small for multi-process data loading / NCCL", _shm,
          predicted_by="check:shm-too-small", signatures=(
              msg(CK.MSG_SHM, "torch/utils/data/_utils/signal_handling / worker.py (torch 1.x-2.14)",
                 "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm)."),
              rx(r"DataLoader worker \(pid \d{1,10}\) is killed by signal: Bus error", "is killed by signal: Bus error",
                 "torch/utils/data/dataloader.py _try_get_data (torch 1.x-2.14)",
                 "RuntimeError: DataLoader worker (pid 13733) is killed by signal: Bus error. It is possible that "
                 "dataloader's workers are out of shared memory. Please try to raise your shared memory limit."),
              rx(_exit("-7"), "exits with return code = -7", LAUNCH, _LAUNCH_LINE + "-7"),
              rx(r"Signal 7 \(SIGBUS\) received by PID", "SIGBUS", ELASTIC, "traceback : Signal 7 (SIGBUS) received by PID 13517"),
              rx(r"exitcode\s{0,4}:\s{0,4}-7\b", "exitcode", ELASTIC,
                 "E1129 16:36:13.669000 13476 torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: -7) "
                 "local_rank: 1 (pid: 13517) of binary: /opt/envs/venv/bin/python"))),
    Cause("disk-write-failed", "DS323", "Writing a checkpoint/file failed (disk full or write error)", _disk,
          predicted_by="none", signatures=(
              msg(CK.MSG_ENOSPC, "the OS (ENOSPC, errno 28) through Python / torch / safetensors",
                 "OSError: [Errno 28] No space left on device"),
              msg(CK.MSG_STREAM_WRITER, "caffe2/serialize/inline_container.cc (torch 1.x-2.13)",
                 "RuntimeError: [enforce fail at inline_container.cc:595] . PytorchStreamWriter failed writing file "
                 "data/0: file write failed"),
              msg(CK.MSG_ZIP_WRITE, "caffe2/serialize/inline_container.cc (torch 2.14)",
                 "RuntimeError: [enforce fail at inline_container.cc:672] . unexpected pos 704 vs 598")),
          docs=Docs(
              "Writing a checkpoint or file failed: `No space left on device`, or torch's zip writer failing "
              "(`unexpected pos`, `iostream error`).",
              "The disk (or quota) is full, or the target cannot be written; checkpoints of large models are big and "
              "accumulate.",
              "Free space or write elsewhere (`df -h <output_dir>`); `save_total_limit` bounds the number of "
              "checkpoints the Trainer keeps.",
              (log("disk-full-save", "torch.save to a full device:",
                   "RuntimeError: basic_ios::clear: iostream error\n"
                   "RuntimeError: [enforce fail at inline_container.cc:672] . unexpected pos 704 vs 598\n"),))),
    Cause("host-oom-killed", "DS321", "A rank was killed with SIGKILL (exit -9), usually the host OOM killer", _host_oom,
          predicted_by="estimate", signatures=(
              rx(_exit("-9"), "exits with return code = -9", LAUNCH, _LAUNCH_LINE + "-9"),
              rx(r"exitcode\s{0,4}:\s{0,4}-9\b", "exitcode", ELASTIC,
                 "E1129 16:36:13.669000 13476 torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: -9) "
                 "local_rank: 1 (pid: 13517) of binary: /opt/envs/venv/bin/python"),
              rx(r"Signal 9 \(SIGKILL\) received by PID", "SIGKILL", ELASTIC, "traceback : Signal 9 (SIGKILL) received by PID 13517"),
              rx(r"is killed by signal: Killed", "killed by signal: Killed", "torch/utils/data/dataloader.py (torch 1.x-2.14)",
                 "RuntimeError: DataLoader worker (pid 2717) is killed by signal: Killed.")),
          docs=Docs(
              "A rank was killed with SIGKILL (`exits with return code = -9`, `exitcode: -9`, `Signal 9 (SIGKILL)`) "
              "and left no traceback.",
              "Almost always the host OOM killer: each rank loading the full model into host RAM (no zero.Init "
              "because the model was built before TrainingArguments/HfDeepSpeedConfig), or CPU offload buffers "
              "exceeding RAM.",
              "Confirm it (`dmesg -T | grep -i -E 'killed process|out of memory'`); load under zero.Init by creating "
              "`TrainingArguments(deepspeed=...)` before `from_pretrained` (`dsdoctor lint` finds that: "
              "model-loaded-before-ds-config); size it first (`dsdoctor estimate`).",
              (log("sigkill-rank-launcher", "The deepspeed launcher's report of a rank killed by SIGKILL:",
                   "[2026-11-29 16:36:04,986] [INFO] [launch.py:253:sigkill_handler] Killing subprocess 13229\n"
                   "[2026-11-29 16:36:04,989] [INFO] [launch.py:253:sigkill_handler] Killing subprocess 13230\n"
                   "[2026-11-29 16:36:04,989] [ERROR] [launch.py:259:sigkill_handler] ['/opt/envs/venv/bin/python', "
                   "'-u', 'victim.py', '--local_rank=1'] exits with return code = -9\n"),))),
    # no log line shows it: `explain --env` adds check's finding (the limit) when the log shows no cause
    Cause("memlock-too-low", "DS113", "ulimit -l is too low for pinned offload buffers", _memlock,
          predicted_by="check:memlock-too-low"),
)
