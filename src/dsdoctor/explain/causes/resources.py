"""Causes that are a resource running out: GPU memory, host memory (the OOM killer), /dev/shm, disk, locked
memory. The messages live in ``knowledge/cuda.py`` and ``knowledge/deepspeed.py``."""

from __future__ import annotations

import re
from typing import Tuple

from ... import fixes as F
from ... import names as N
from ...knowledge import cuda as CK
from ...knowledge import deepspeed as K
from ...knowledge import transformers as TK
from ...model import Severity
from .cause import Advice, Cause, Docs, LogFacts, Seen, cause, code_fix, form, lit, log, msg, rx

LAUNCH = "deepspeed/launcher/launch.py sigkill_handler (0.9-0.19.8)"
ELASTIC = "torch/distributed/elastic/multiprocessing/api.py (torchrun, torch 2.x-2.14)"


def _gpu_oom(s: Seen, f: LogFacts) -> Advice:
    return Advice("CUDA out of memory", "",
                  [code_fix("Offload or shrink", 'ds_config: "offload_param": {"device": "cpu"}, smaller train_micro_batch_size_per_gpu, '
                            "gradient_checkpointing=True"), code_fix("Size it first", "dsdoctor estimate")])


def _shm(s: Seen, f: LogFacts) -> Advice:
    nccl = "shared memory segment" in s.text  # NCCL's own shm transport, at communicator init
    return Advice("NCCL could not create its shared-memory segment: /dev/shm is too small" if nccl else
                  "A process died of SIGBUS: /dev/shm is too small", s.text,
                  [F.shm_fix(), code_fix("Or load data in the main process", "DataLoader(..., num_workers=0)")])


def _disk(s: Seen, f: LogFacts) -> Advice:
    return Advice("Writing a file failed (disk full or write error)", "",
                  [code_fix("Free space or write elsewhere", "df -h <output_dir>", reason="save_total_limit bounds checkpoints")])


_KILLER = re.compile(r"ut of memory: Kill|oom[_-]kill event|OOMKilled|killed due to ")  # a killer's report (signatures below)


def _host_oom(s: Seen, f: LogFacts) -> Advice:
    pct, used = s.groups.get("pct"), s.groups.get("used")
    facts = (f"DeepSpeed's last host-memory report before the kill: {used} GB used, {pct}% of RAM." if pct else
             f"The last line before the kill is a checkpoint load (every rank reads its shards, optimizer states "
             f"included, into host RAM): {s.groups['load']}" if s.groups.get("load") else "")
    summary = ("The launcher killed the ranks after one died without an exception: most likely the host OOM killer "
               "(SIGKILL)" if s.groups.get("silent") else
               "A process was killed because host memory ran out (the killer's own report: the kernel, the job's or "
               "container's memory limit, Ray's memory monitor)" if _KILLER.search(s.text) else
               "A rank was killed with SIGKILL (exit -9) and left no traceback: almost always the host OOM killer")
    return Advice(summary, "",
                  [code_fix("Confirm it", "dmesg -T | grep -i -E 'killed process|out of memory'"),
                   code_fix("Load under zero.Init: create TrainingArguments(deepspeed=...) before from_pretrained",
                            "args = TrainingArguments(..., deepspeed=cfg); model = AutoModel.from_pretrained(..., torch_dtype=torch.bfloat16)"),
                   code_fix("Size it first", "dsdoctor estimate"),
                   *([code_fix("Resuming: fewer ranks reading shards at once per node, or more host RAM / swap",
                               "free -g   # while it loads; the optimizer states of every local rank are in RAM at once")]
                     if s.groups.get("load") else [])], facts)


def _memlock(s: Seen, f: LogFacts) -> Advice:
    return Advice("ulimit -l is too low for pinned offload buffers", s.text, [F.memlock_fix()])


def _driver_cuda(found: str) -> str:
    """The CUDA version a driver supports, from torch's "found version 11080" (11.8)."""
    return f"{int(found) // 1000}.{int(found) % 1000 // 10}" if found.isdigit() else found


def _driver_too_old(s: Seen, f: LogFacts) -> Advice:
    found = _driver_cuda(s.groups.get("ver", "").rstrip(").,"))
    torch_cuda = f"{f.torch_cuda[0]}.{f.torch_cuda[1]}" if f.torch_cuda else "torch's CUDA"
    drv = f"supports CUDA {found} only, older than {torch_cuda}" if found else f"is older than {torch_cuda} needs"
    return Advice(f"The NVIDIA driver {drv}: torch cannot use the GPU",
                  "",
                  [code_fix("Upgrade the NVIDIA driver to one that supports torch's CUDA",
                            "nvidia-smi   # 'CUDA Version' is the newest CUDA this driver supports"),
                   code_fix("Or install a torch build for the CUDA the driver supports",
                            "pip install torch --index-url https://download.pytorch.org/whl/cu118   # pick the cuXYZ <= the driver's",
                            reason="then rebuild DeepSpeed's ops against it")])


def _no_kernel_image(s: Seen, f: LogFacts) -> Advice:
    return Advice("The CUDA code that ran has no kernels for this GPU's architecture", "",
                  [code_fix("Install a torch build whose arch list covers this GPU",
                            "python -c 'import torch; print(torch.cuda.get_arch_list(), torch.cuda.get_device_capability())'",
                            reason="e.g. an Ampere sm_86 GPU needs a CUDA 11.1+ build; install from "
                                   "https://download.pytorch.org/whl/<cuXYZ>"),
                   F.env_fix("TORCH_CUDA_ARCH_LIST", "7.0;8.0;8.6", "If the failing kernel is a DeepSpeed / extension op: "
                             "rebuild it for every GPU in the machine",
                             reason="then `pip install --force-reinstall --no-cache-dir deepspeed` (DS_BUILD_OPS=1) or "
                                    "clear ~/.cache/torch_extensions; a build on one card compiles only its arch")])


def _bf16_gpu(s: Seen, f: LogFacts) -> Advice:
    return Advice("bf16 was requested on a GPU without bf16 support (compute capability < 8.0: V100, T4, P100, TITAN X, "
                  "RTX 20xx)", "",
                  [code_fix("Train in fp16 instead: turn bf16 off in BOTH the DeepSpeed config and the script",
                            'ds_config: "bf16": {"enabled": false}, "fp16": {"enabled": true}   # and TrainingArguments(bf16=False, fp16=True)',
                            reason="the Trainer raises from TrainingArguments before DeepSpeed reads its config"),
                   code_fix("Check the GPU", "nvidia-smi --query-gpu=name,compute_cap --format=csv")])


def _fp16_gpu(s: Seen, f: LogFacts) -> Advice:
    return Advice("DeepSpeed's accelerator reports no fp16 support: a GPU before compute capability 7.0 (Pascal and "
                  "older), or the CPU accelerator (no GPU visible)", "",
                  [code_fix("Train in fp32: remove the fp16 (and bf16) blocks from the DeepSpeed config",
                            'ds_config: "fp16": {"enabled": false}, "bf16": {"enabled": false}'),
                   code_fix("Check which accelerator and GPU DeepSpeed saw",
                            "nvidia-smi --query-gpu=name,compute_cap --format=csv; ds_report | head -20")])


def _exit(rc: str) -> str:
    """The launcher's exit line for one return code."""
    return lit(K.MSG_LAUNCH_EXIT).replace(r"(?P<rc>\S{1,200}?)", r"(?P<rc>%s)\b" % rc)


_LAUNCH_LINE = ("[2026-11-29 16:36:04,989] [ERROR] [launch.py:259:sigkill_handler] ['/opt/envs/venv/bin/python', '-u', "
                "'train.py', '--local_rank=1'] exits with return code = ")

SPECS: Tuple[Cause, ...] = (
    cause(
    N.GPU_OOM,
    Severity.ERROR,
    "CUDA out of memory",
    _gpu_oom,
    Docs(
        what="CUDA out of memory (`torch.OutOfMemoryError: CUDA out of memory`).",
        why="The model states, activations and buffers on one GPU exceed its memory for this ZeRO stage, offload "
            "setting and micro batch.",
        fix="Offload or shrink: ds_config `\"offload_param\": {\"device\": \"cpu\"}`, a smaller "
            "train_micro_batch_size_per_gpu, `gradient_checkpointing=True`; size it first with `dsdoctor estimate`.",
        examples=(log(N.GPU_OOM, "An OOM in a Trainer forward:",
                 "[rank0]:   File \"/opt/conda/lib/python3.11/site-packages/torch/nn/modules/linear.py\", line 125, in "
                 "forward\n"
                 "[rank0]:     return F.linear(input, self.weight, self.bias)\n"
                 "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total "
                 "capacity of 79.19 GiB of which 1.06 GiB is free. Including non-PyTorch memory, this process has "
                 "78.12 GiB memory in use. Of the allocated memory 75.02 GiB is allocated by PyTorch, and 1.54 GiB is "
                 "reserved by PyTorch but unallocated.\n"),),
        reads="log"),
    signatures=(
        msg(CK.MSG_CUDA_OOM, "torch/csrc/cuda/CUDACachingAllocator.cpp (torch 1.x-2.14)",
           "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.19 "
           "GiB of which 1.06 GiB is free."),
        rx(r"(?<!exceptions\.)\bOutOfMemoryError\b", "OutOfMemoryError",  # not Ray's (ray.exceptions: host RAM)
           "torch.OutOfMemoryError / torch.cuda.OutOfMemoryError (torch 1.13-2.14)",
           "torch.cuda.OutOfMemoryError: CUDA error: out of memory")),
    predicted="estimate"),
    form(N.SHM_TOO_SMALL, _shm, signatures=(
              msg(CK.MSG_NCCL_SHM_SEGMENT, "NCCL include/shm.h / transport/shm.cc shmOpen (NCCL 2.7-2.2x, NCCL_DEBUG=WARN)",
                  "host:97:183 [0] include/shm.h:48 NCCL WARN Error while creating shared memory segment "
                  "/dev/shm/nccl-shm-recv-1a2b3c-1-1-0 (size 9637888)"),
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
    cause(
    N.DISK_WRITE_FAILED,
    Severity.ERROR,
    "Writing a checkpoint/file failed (disk full or write error)",
    _disk,
    Docs(
        what="Writing a checkpoint or file failed: `No space left on device`, or torch's zip writer failing "
              "(`unexpected pos`, `iostream error`).",
        why="The disk (or quota) is full, or the target cannot be written; checkpoints of large models are big and "
              "accumulate.",
        fix="Free space or write elsewhere (`df -h <output_dir>`); `save_total_limit` bounds the number of "
              "checkpoints the Trainer keeps.",
        examples=(log("disk-full-save", "torch.save to a full device:",
                   "RuntimeError: basic_ios::clear: iostream error\n"
                   "RuntimeError: [enforce fail at inline_container.cc:672] . unexpected pos 704 vs 598\n"),),
        reads="log"),
    signatures=(
              msg(CK.MSG_ENOSPC, "the OS (ENOSPC, errno 28) through Python / torch / safetensors",
                 "OSError: [Errno 28] No space left on device"),
              msg(CK.MSG_STREAM_WRITER, "caffe2/serialize/inline_container.cc (torch 1.x-2.13)",
                 "RuntimeError: [enforce fail at inline_container.cc:595] . PytorchStreamWriter failed writing file "
                 "data/0: file write failed"),
              msg(CK.MSG_ZIP_WRITE, "caffe2/serialize/inline_container.cc (torch 2.14)",
                 "RuntimeError: [enforce fail at inline_container.cc:672] . unexpected pos 704 vs 598"))),
    cause(
    N.HOST_OOM_KILLED,
    Severity.ERROR,
    "A rank was killed with SIGKILL (exit -9), usually the host OOM killer",
    _host_oom,
    Docs(
        what="A rank was killed with SIGKILL (`exits with return code = -9`, `exitcode: -9`, `Signal 9 (SIGKILL)`) "
              "and left no traceback; or, in a log with no exception at all, the launcher killed its ranks "
              "(`Killing subprocess`) with no other exit code shown; or the killer says so itself (the kernel's `Out "
              "of memory: Killed process`, Slurm's `oom_kill event`, a container's `OOMKilled`, Ray's `killed due to "
              "memory pressure (OOM)`). DeepSpeed's last `see_memory_usage` host-RAM line before the kill (`CPU "
              "Virtual Memory: used = ... GB, percent = ...%`) is quoted as evidence.",
        why="Almost always the host OOM killer: each rank loading the full model into host RAM (no zero.Init "
              "because the model was built before TrainingArguments/HfDeepSpeedConfig), or CPU offload buffers "
              "exceeding RAM.",
        fix="Confirm it (`dmesg -T | grep -i -E 'killed process|out of memory'`); load under zero.Init by creating "
              "`TrainingArguments(deepspeed=...)` before `from_pretrained` (`dsdoctor lint` finds that: "
              "model-loaded-before-ds-config); size it first (`dsdoctor estimate`).",
        examples=(log("sigkill-rank-launcher", "The deepspeed launcher's report of a rank killed by SIGKILL:",
                   "[2026-11-29 16:36:04,986] [INFO] [launch.py:253:sigkill_handler] Killing subprocess 13229\n"
                   "[2026-11-29 16:36:04,989] [INFO] [launch.py:253:sigkill_handler] Killing subprocess 13230\n"
                   "[2026-11-29 16:36:04,989] [ERROR] [launch.py:259:sigkill_handler] ['/opt/envs/venv/bin/python', "
                   "'-u', 'victim.py', '--local_rank=1'] exits with return code = -9\n"),
                  log("host-oom-silent-kill", "Host RAM climbing in DeepSpeed's memory reports, then the launcher kills "
                      "the ranks; no exception and no exit line in the excerpt:",
                      "[2026-11-29 16:36:01,948] [INFO] [utils.py:789:see_memory_usage] CPU Virtual Memory:  used = 60.9 GB, "
                      "percent = 97.2%\n"
                      "[2026-11-29 16:36:04,986] [INFO] [launch.py:253:sigkill_handler] Killing subprocess 13229\n"
                      "[2026-11-29 16:36:04,989] [INFO] [launch.py:253:sigkill_handler] Killing subprocess 13230\n")),
        reads="log"),
    signatures=(
              rx(_exit("-9"), "exits with return code = -9", LAUNCH, _LAUNCH_LINE + "-9"),
              rx(r"exitcode\s{0,4}:\s{0,4}-9\b", "exitcode", ELASTIC,
                 "E1129 16:36:13.669000 13476 torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: -9) "
                 "local_rank: 1 (pid: 13517) of binary: /opt/envs/venv/bin/python"),
              rx(r"Signal 9 \(SIGKILL\) received by PID", "SIGKILL", ELASTIC, "traceback : Signal 9 (SIGKILL) received by PID 13517"),
              rx(r"is killed by signal: Killed", "killed by signal: Killed", "torch/utils/data/dataloader.py (torch 1.x-2.14)",
                 "RuntimeError: DataLoader worker (pid 2717) is killed by signal: Killed."),
              # what killed it, said by the killer: the kernel, a job scheduler, a container runtime, Ray's monitor
              rx(r"(?:Out of memory|[Mm]emory cgroup out of memory): Kill(?:ed)? process \d{1,10} \((?P<proc>[^)]{1,64})\)",
                 "ut of memory: Kill", "the Linux kernel's OOM killer (mm/oom_kill.c: 'Out of memory: Killed process' "
                 "5.x-6.x, 'Kill process' 3.x-4.x; memcontrol for a cgroup's limit), as dmesg / journalctl show it",
                 "[Sun Nov 30 14:22:05 2026] Out of memory: Killed process 48211 (python) total-vm:91350212kB, "
                 "anon-rss:61220176kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:121404kB oom_score_adj:0",
                 "Memory cgroup out of memory: Killed process 48211 (pt_main_thread) total-vm:61350212kB"),
              rx(r"Detected \d{1,6} oom[_-]kill events?", "kill event", "Slurm's task/cgroup plugin (slurmstepd, "
                 "17.x-24.x: 'oom-kill event(s) in step', later 'oom_kill event in StepId=')",
                 "slurmstepd: error: Detected 1 oom_kill event in StepId=7731.0. Some of the step tasks have been OOM "
                 "Killed."),
              rx(r"\bOOMKilled\b", "OOMKilled", "Kubernetes / Docker container state (the container's memory limit)",
                 "      Reason:       OOMKilled"),
              rx(r"killed due to memory pressure \(OOM\)|killed due to the node running low on memory", "killed due to ",
                 "Ray's memory monitor (Ray 2.2-2.x raylet summary and ray.exceptions.OutOfMemoryError)",
                 "(raylet) [2026-11-30 14:22:05,118 E 3310 3310] (raylet) node_manager.cc:3084: 1 Workers (tasks / "
                 "actors) killed due to memory pressure (OOM), 0 Workers crashed due to other reasons at node",
                 "ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.")),
    predicted="estimate"),
    # no log line shows it: `explain --env` adds check's finding (the limit) when the log shows no cause
    form(N.MEMLOCK_TOO_LOW, _memlock, predicted="check:" + N.MEMLOCK_TOO_LOW),
    cause(
    N.CUDA_DRIVER_TOO_OLD,
    Severity.ERROR,
    "The NVIDIA driver is older than torch's CUDA",
    _driver_too_old,
    Docs(
        what="torch cannot use the GPU because the NVIDIA driver is older than the CUDA torch was built for: `The "
              "NVIDIA driver on your system is too old (found version 11080)` (11080 = CUDA 11.8).",
        why="Each torch build needs a driver that supports its CUDA version. With an older driver torch warns at "
              "CUDA initialisation and sees no GPU (older torch raises on the first `.cuda()`); a CUDA toolkit or "
              "`DS_SKIP_CUDA_CHECK` does not change the driver.",
        fix="Upgrade the NVIDIA driver (`nvidia-smi` shows the newest CUDA it supports), or install a torch build "
              "for that CUDA (`pip install torch --index-url https://download.pytorch.org/whl/cu118`).",
        examples=(log(N.CUDA_DRIVER_TOO_OLD, "A torch 2.14 (CUDA 13.0) wheel on a node whose driver supports CUDA 12.2:",
                   "/venv/lib/python3.11/site-packages/torch/cuda/__init__.py:182: UserWarning: CUDA initialization: The "
                   "NVIDIA driver on your system is too old (found version 12020). Please update your GPU driver by "
                   "downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx "
                   "Alternatively, go to: https://pytorch.org to install a PyTorch version that has been compiled with "
                   "your version of the CUDA driver. (Triggered internally at /pytorch/c10/cuda/CUDAFunctions.cpp:119.)\n"),),
        reads="log"),
    signatures=(
              msg(CK.MSG_DRIVER_TOO_OLD, "c10/cuda/CUDAFunctions.cpp (torch 1.5-2.14, a UserWarning at CUDA init); "
                  "torch/cuda/__init__.py _check_driver (torch < 1.5, an AssertionError)",
                  "/venv/lib/python3.11/site-packages/torch/cuda/__init__.py:182: UserWarning: CUDA initialization: The "
                  "NVIDIA driver on your system is too old (found version 12020). Please update your GPU driver by "
                  "downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx "
                  "Alternatively, go to: https://pytorch.org to install a PyTorch version that has been compiled with "
                  "your version of the CUDA driver."),
              msg(CK.MSG_DRIVER_INSUFFICIENT, "CUDA error 35 (cudaErrorInsufficientDriver) through torch "
                  "(c10/cuda/CUDAException.cpp, torch 1.x-2.14)",
                  "RuntimeError: CUDA error: CUDA driver version is insufficient for CUDA runtime version"))),
    cause(
    N.NO_KERNEL_IMAGE,
    Severity.ERROR,
    "No kernels for this GPU's architecture in torch or a prebuilt op",
    _no_kernel_image,
    Docs(
        what="A CUDA kernel could not run on this GPU: `CUDA error: no kernel image is available for execution on "
              "the device` (often after torch's warning `... with CUDA capability sm_XX is not compatible with the "
              "current PyTorch installation`).",
        why="The torch build (or a prebuilt DeepSpeed / extension op) contains kernels only for other GPU "
              "architectures: an old CUDA build on a new GPU, or ops compiled on a machine with another card (a "
              "build compiles only for the GPU it sees unless TORCH_CUDA_ARCH_LIST says more). The traceback points at "
              "an innocent line; CUDA_LAUNCH_BLOCKING only moves the error.",
        fix="Install a torch build whose arch list covers the GPU (`torch.cuda.get_arch_list()` vs "
              "`torch.cuda.get_device_capability()`); for a DeepSpeed / extension op, rebuild it with "
              "`TORCH_CUDA_ARCH_LIST` listing every GPU of the machine.",
        examples=(log(N.NO_KERNEL_IMAGE, "A torch build for sm_50-sm_80 on an sm_89 GPU:",
                   "NVIDIA GeForce RTX 4090 with CUDA capability sm_89 is not compatible with the current PyTorch "
                   "installation.\n"),),
        reads="log"),
    signatures=(
              msg(CK.MSG_NO_KERNEL_IMAGE, "CUDA error 209 (cudaErrorNoKernelImageForDevice) through torch "
                  "(c10/cuda/CUDAException.cpp, torch 1.x-2.14; THC 'cuda runtime error (209)' in torch < 1.8)",
                  "RuntimeError: CUDA error: no kernel image is available for execution on the device",
                  "RuntimeError: cuda runtime error (209) : no kernel image is available for execution on the device at "
                  "/pytorch/aten/src/THC/THCGeneral.cpp:51"),
              msg(CK.MSG_ARCH_NOT_COMPATIBLE, "torch/cuda/__init__.py _check_capability warning (torch 1.x-2.14)",
                  "NVIDIA GeForce RTX 4090 with CUDA capability sm_89 is not compatible with the current PyTorch "
                  "installation."))),
    cause(
    N.BF16_UNSUPPORTED_GPU,
    Severity.ERROR,
    "bf16 requested on a GPU without bf16 (compute capability < 8.0)",
    _bf16_gpu,
    Docs(
        what="bf16 was requested on a GPU that has none: the Trainer's `Your setup doesn't support bf16/gpu`, "
              "DeepSpeed's `Type bf16 is not supported`, or cuBLAS's `CUBLAS_STATUS_NOT_SUPPORTED` on a `CUDA_R_16BF` "
              "GEMM.",
        why="Native bf16 needs compute capability 8.0 (Ampere) or newer; V100, T4, P100, TITAN X and RTX 20xx have "
              "none.",
        fix="Train in fp16: turn bf16 off in both the DeepSpeed config and the script (`TrainingArguments(bf16=False, "
              "fp16=True)`: the Trainer checks before DeepSpeed reads its config).",
        examples=(log(N.BF16_UNSUPPORTED_GPU, "TrainingArguments(bf16=True) on a V100:",
                   "ValueError: Your setup doesn't support bf16/gpu. You need torch>=1.10, using Ampere GPU with "
                   "cuda>=11.0\n"),),
        reads="log"),
    signatures=(
              msg(TK.MSG_BF16_UNSUPPORTED, "transformers/training_args.py __post_init__ (4.2x-5.24)",
                  "ValueError: Your setup doesn't support bf16/gpu. You need torch>=1.10, using Ampere GPU with "
                  "cuda>=11.0"),
              rx(K.MSG_DTYPE_UNSUPPORTED.format(dtype="bf16"), K.MSG_DTYPE_UNSUPPORTED.format(dtype="bf16"),
                 "deepspeed/runtime/engine.py _do_sanity_check (0.14-0.19.8)",
                 "ValueError: Type bf16 is not supported on your device."),
              rx(CK.MSG_CUBLAS_NOT_SUPPORTED + r".{0,400}?CUDA_R_16BF", CK.MSG_CUBLAS_NOT_SUPPORTED,
                 "cuBLAS through aten/src/ATen/cuda/CUDABlas.cpp (torch 1.10-2.14): a bf16 GEMM on a pre-Ampere GPU",
                 "RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling `cublasGemmEx( handle, opa, opb, m, "
                 "n, k, &falpha, a, CUDA_R_16BF, lda, b, CUDA_R_16BF, ldb, &fbeta, c, CUDA_R_16BF, ldc, "
                 "compute_type, CUBLAS_GEMM_DEFAULT_TENSOR_OP)`"))),
    cause(
    N.FP16_UNSUPPORTED_GPU,
    Severity.ERROR,
    "fp16 requested where DeepSpeed's accelerator has none (GPU < sm_70, or CPU)",
    _fp16_gpu,
    Docs(
        what="DeepSpeed refused the config's fp16: `ValueError: Type fp16 is not supported` (`... on your device`).",
        why="The DeepSpeed accelerator reports the dtypes the device supports: CUDA GPUs below compute capability "
              "7.0 (Pascal and older) and the CPU accelerator (chosen when no GPU is visible) have no fp16.",
        fix="Train in fp32 (remove the fp16/bf16 blocks), or run on a GPU with compute capability 7.0+; check which "
              "accelerator DeepSpeed chose (`ds_report`). `dsdoctor lint` finds fp16 in a CPU run's config "
              "(fp16-on-cpu, DS409).",
        examples=(log(N.FP16_UNSUPPORTED_GPU, "An fp16 config on a TITAN X (sm_61):",
                   "[rank0]: ValueError: Type fp16 is not supported.\n"),),
        reads="log"),
    signatures=(
              rx(K.MSG_DTYPE_UNSUPPORTED.format(dtype="fp16"), K.MSG_DTYPE_UNSUPPORTED.format(dtype="fp16"),
                 "deepspeed/runtime/engine.py _do_sanity_check (<= 0.14: 'Type fp16 is not supported.', 0.15-0.19.8: "
                 "'... on your device.')",
                 "ValueError: Type fp16 is not supported.", "ValueError: Type fp16 is not supported on your device."),),
    predicted=N.FP16_ON_CPU),
)
