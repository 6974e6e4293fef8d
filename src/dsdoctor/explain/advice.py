"""What explain says about each cause: a summary, why, and the fixes (built with ``dsdoctor.fixes``, the same
builders ``check`` uses, so one cause gets identical advice everywhere). Versions seen in the log adjust it."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

from packaging.version import Version

from .. import fixes as F
from ..knowledge import deepspeed as K
from ..knowledge import transformers as TK
from ..knowledge.versions import major_minor, parse, v
from ..model import Fix
from .match import Hit

COLLECT = (
    "dsdoctor verify --op cpu_adam   # rebuilds the op in a fresh dir and shows the compiler output",
    "dsdoctor check -v               # the environment the op is built in",
)


@dataclass
class LogFacts:
    """What the log says about the environment (versions printed, GPU visibility, paths)."""

    ds: Optional[Version] = None
    ds_floor: Optional[str] = None  # inferred from message forms when no version is printed
    torch: Optional[str] = None
    torch_cuda: Optional[Tuple[int, int]] = None
    transformers: Optional[str] = None
    no_gpu: bool = False
    python: Optional[Tuple[int, int]] = None
    ext_root: Optional[str] = None
    extra: Dict[str, str] = field(default_factory=dict)


@dataclass
class Advice:
    summary: str
    why: str
    fixes: List[Fix]


def _code_fix(title: str, *edits: str, reason: str = "", applicability: str = "safe") -> Fix:
    return F.command_fix(title, *edits, applicability=applicability, reason=reason)  # type: ignore[arg-type]


def advise(name: str, hit: Optional[Hit], facts: LogFacts) -> Advice:
    """Summary, explanation and ranked fixes for cause ``name`` (``hit``: its first evidence line)."""
    g = hit.groups if hit else {}
    text = hit.text if hit else ""
    ds = facts.ds
    if name == "cuda-version-mismatch":
        sys_v, torch_v = major_minor(g.get("sys")), major_minor(g.get("torch"))
        if torch_v is None:
            torch_v = facts.torch_cuda
        if sys_v and torch_v:
            fixes = F.cuda_mismatch_fixes(ds, sys_v, torch_v, sole_blocker="does not match" in text,
                                          gpu_visible=not facts.no_gpu)
        else:
            fixes = [F.env_fix(K.SKIP_CUDA_CHECK_VAR, "1", "Skip DeepSpeed's CUDA check (exactly the value 1)")]
        return Advice(f"The CUDA toolkit under CUDA_HOME ({g.get('sys', '?')}) does not match torch's CUDA "
                      f"({g.get('torch', '?')}): DeepSpeed refused to build the op",
                      "DeepSpeed runs $CUDA_HOME/bin/nvcc -V and compares it with torch.version.cuda using its own "
                      "minor-version table (no entry for CUDA 13 in any version). The `ds_opt_adam` AttributeError "
                      "(<= 0.19.7) or `failed to build/load` RuntimeError (0.19.8) that follows is a consequence. "
                      "DS_SKIP_CUDA_CHECK only works with exactly the value 1.", fixes)
    if name == "cuda-toolkit-missing":
        fixes = F.toolkit_fixes(facts.torch_cuda, ds) if facts.torch_cuda else [
            _code_fix("Point CUDA_HOME at the CUDA toolkit matching torch's CUDA",
                      "python -c 'import torch; print(torch.version.cuda)'   # then: export CUDA_HOME=/usr/local/cuda-<that>")]
        if ds is None or ds < v("0.19.8"):
            fixes.insert(len(fixes) - 1, F.pip_fix("deepspeed>=0.19.8", "Upgrade DeepSpeed to 0.19.8: its cpu_adam needs no "
                                                   "CUDA toolkit"))
        return Advice("No usable CUDA toolkit: DeepSpeed could not run <CUDA_HOME>/bin/nvcc",
                      "DeepSpeed reads the toolkit version by running <CUDA_HOME>/bin/nvcc -V (not the nvcc on PATH). "
                      "DS_SKIP_CUDA_CHECK does not help with a missing toolkit.", fixes)
    if name == "ninja-missing":
        module = facts.extra.get("ninja_check") == "module"
        return Advice(f"ninja is not installed where DeepSpeed looks, so the {g.get('op', 'op')} JIT build could not start",
                      "DeepSpeed <= 0.18.2 checks `import ninja` (the Python package; apt's ninja does not count); "
                      ">= 0.18.3 runs `ninja --version` on PATH.", list(F.ninja_fixes(None, module)))
    if name == "python-headers-missing":
        return Advice("Python.h is missing: the op's C++ sources cannot be compiled", "Every op build includes Python.h.",
                      [F.python_headers_fix(facts.python)])
    if name == "cuda-headers-missing":
        return Advice("CUDA headers are missing under CUDA_HOME: the op's sources cannot be compiled",
                      "CUDA_HOME points at a toolkit without its include/ directory (a runtime-only or nvcc-only install).",
                      [_code_fix("Install the CUDA development headers matching torch's CUDA",
                                 "conda install -c nvidia cuda-cudart-dev cuda-libraries-dev   # or apt install cuda-toolkit-X-Y",
                                 reason="then export CUDA_HOME to that toolkit")])
    if name == "host-compiler-unsupported":
        m = re.search(r"later than (\d+)", text)
        if m:
            fixes = list(F.gcc_limit_fixes(int(m.group(1))))
        elif "omp.h" in text:
            fixes = [F.openmp_fix()]
        else:
            fixes = [F.compiler_fix(), _code_fix("Or point CXX at an existing compiler", "unset CXX   # or export CXX=g++")]
        return Advice(f"The host C++ compiler cannot build the op: {text[:160]}", "torch builds JIT ops with $CXX or c++.", fixes)
    if name == "cuda-libs-missing":
        return Advice("A CUDA library the op links (libcurand/libcudart) is not where the linker looks",
                      "DeepSpeed's CUDA cpu_adam (<= 0.19.7) links -lcurand -L$CUDA_HOME/lib64.", [F.curand_fix(facts.torch_cuda)])
    if name == "libaio-missing":
        return Advice("libaio is missing: async_io (NVMe offload) cannot build", f"`{K.MSG_LIBAIO}`", [F.libaio_fix()])
    if name == "prebuilt-op-mismatch":
        return Advice("DeepSpeed's prebuilt ops were built for another torch/CUDA", text, [F.prebuilt_reinstall_fix(None)])
    if name == "ds-accelerator-invalid":
        return Advice("DS_ACCELERATOR names an accelerator this DeepSpeed cannot use", text, [F.unset_accelerator_fix()])
    if name == "nvcc-arch-unsupported":
        return Advice("nvcc cannot build for a GPU architecture in the arch list",
                      "CUDA 13's nvcc dropped compute_60/61/70; DeepSpeed's default list still names them "
                      "(and a forked child cannot probe the GPUs).",
                      [F.env_fix("TORCH_CUDA_ARCH_LIST", "8.0;9.0", "List only your GPUs' architectures",
                                 reason="nvidia-smi --query-gpu=compute_cap --format=csv gives them")])
    if name == "compiler-killed":
        return Advice("The compiler was killed while building the op (almost always out of host memory)",
                      "ninja runs one compiler per core; each cc1plus for DeepSpeed ops can take several GB.",
                      [F.env_fix("MAX_JOBS", "1", "Build with one compiler job at a time"),
                       _code_fix("Or add memory / swap", "free -g; dmesg | grep -i 'killed process'")])
    if name == "libstdcxx-mismatch":
        return Advice("The freshly built op needs a newer libstdc++ than the one the process loaded",
                      "The op was compiled with a newer gcc than the libstdc++ in the environment (often conda's).",
                      [_code_fix("Give the environment a newer libstdc++", "conda install -c conda-forge 'libstdcxx-ng>=13'"),
                       F.env_fix("LD_PRELOAD", "/usr/lib/x86_64-linux-gnu/libstdc++.so.6", "Or load the system libstdc++ first",
                                 "unsafe", "may clash with other libraries in the environment")])
    if name == "windows-op-build-unsupported":
        return Advice("DeepSpeed ops cannot be JIT-built on native Windows", text,
                      [_code_fix("Run training under WSL2 or Linux", "wsl --install")])
    if name in ("zero3-low-cpu-mem-usage-conflict", "zero3-device-map-conflict"):
        return _zero3_load(name, text, facts)
    if name == "zero3-quantized-model-conflict":
        return Advice("A quantized model's mixed dtypes break ZeRO-3 partitioning", text,
                      [_code_fix("Store 4-bit weights in the training dtype",
                                 "BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_storage=torch.bfloat16), torch_dtype=torch.bfloat16",
                                 reason="needs bitsandbytes>=0.43.3, accelerate>=1.0.1, transformers>4.44.2, peft>0.13.0")])
    if name == "zero3-partitioned-param-access":
        return Advice("A ZeRO-3 partitioned parameter (size 0 on this rank) was used outside a gather", text,
                      [_code_fix("Gather the parameters around the code that reads them",
                                 "with deepspeed.zero.GatheredParameters(list(module.parameters()), modifier_rank=None): ...")])
    if name == "zero3-saved-partitioned-weights":
        return Advice("Weights were saved from ZeRO-3 without gathering them (size-0 tensors or no weights)", text,
                      [_code_fix("Gather 16-bit weights on save",
                                 'ds_config: "zero_optimization": {"stage3_gather_16bit_weights_on_model_save": true}'),
                       _code_fix("Or save through the Trainer / consolidate the checkpoint", "trainer.save_model(out)",
                                 "python <checkpoint>/zero_to_fp32.py <checkpoint> <out_dir>")])
    if name == "offload-client-optimizer":
        return Advice("A torch (client) optimizer was passed with ZeRO-Offload; DeepSpeed refuses it by default", text[:300],
                      [_code_fix("Let DeepSpeed build the optimizer (DeepSpeedCPUAdam)",
                                 'ds_config: "optimizer": {"type": "AdamW", "params": {"lr": 2e-5}}   # and do not pass optimizer='),
                       _code_fix("Or construct deepspeed.ops.adam.DeepSpeedCPUAdam yourself", "from deepspeed.ops.adam import DeepSpeedCPUAdam"),
                       _code_fix("Or force the client optimizer", f"ds_config: {K.MSG_FORCE_DS_CPU_OPTIMIZER}", applicability="unsafe",
                                 reason="a torch optimizer on offloaded fp32 states is much slower")])
    if name == "ds-config-trainer-mismatch":
        return Advice("DeepSpeed config values contradict the TrainingArguments", text,
                      [_code_fix('Set the listed DeepSpeed keys to "auto" so the Trainer fills them', 'ds_config: "<key>": "auto"')])
    if name == "ds-config-auto-without-trainer":
        return Advice('"auto" values reached DeepSpeed without the HF Trainer to fill them', text,
                      [_code_fix('Replace every "auto" with a number', 'ds_config: "train_micro_batch_size_per_gpu": 4, '
                                 '"gradient_accumulation_steps": 1 (and remove/compute "train_batch_size")'),
                       _code_fix("Or pass the config through TrainingArguments(deepspeed=...) and the Trainer", "TrainingArguments(deepspeed=cfg)")])
    if name == "batch-size-mismatch":
        ws = g.get("ws", "?")
        fixes = [_code_fix("Let DeepSpeed derive train_batch_size", 'ds_config: remove "train_batch_size" (or "auto" under the Trainer)')]
        why = "DeepSpeed asserts train_batch_size == micro_batch_per_gpu * gradient_accumulation_steps * world_size."
        if ws == "1":
            why += (" It saw world size 1: the config was read before torch.distributed was initialised (zero.Init / "
                    "from_pretrained before deepspeed.init_distributed()), or the script was not started by a launcher.")
            fixes.insert(0, _code_fix("Initialise distributed before the model is built",
                                      "deepspeed.init_distributed()   # before from_pretrained / zero.Init; launch with deepspeed or torchrun"))
        return Advice(f"Batch sizes do not add up: {g.get('tb', '?')} != {g.get('mb', '?')} * {g.get('ga', '?')} * {ws}", why, fixes)
    if name == "bucket-size-float":
        key = facts.extra.get("float_key", "the bucket size")
        fixes = [_code_fix(f"Write {key} as an integer", f'ds_config: "{key}": 15099494')]
        tf = parse(facts.transformers)
        if tf is None or tf < v("4.45.0"):
            fixes.append(F.pip_fix("transformers>=4.45.0", "Upgrade Transformers (<= 4.44 filled \"auto\" bucket sizes as floats)"))
        return Advice(f"DeepSpeed's config model rejected a float for {key}",
                      "DeepSpeed >= 0.15 validates with pydantic v2, which refuses 15099494.4 for an int field.", fixes)
    if name == "deepspeed-no-sync-incompat":
        return Advice("no_sync() was used with ZeRO stage 2/3", text,
                      [_code_fix("Let DeepSpeed accumulate gradients", 'ds_config: "gradient_accumulation_steps": N',
                                 reason="call engine.backward/step on every micro-batch, without no_sync()")])
    if name == "launcher-mpi-discovery":
        return Advice("The script was not started by a launcher: DeepSpeed found no RANK/WORLD_SIZE and tried MPI discovery",
                      "deepspeed.init_distributed() falls back to mpi4py when the launcher variables are missing.",
                      [_code_fix("Start it with a launcher", "deepspeed --num_gpus N train.py   # or torchrun --nproc-per-node N train.py"),
                       _code_fix("Or set the variables for one process",
                                 "RANK=0 LOCAL_RANK=0 WORLD_SIZE=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=29500 python train.py")])
    if name == "hostfile-invalid":
        return Advice("The DeepSpeed hostfile cannot be used", text,
                      [_code_fix("One host per line: `<hostname> slots=<gpus>`, no duplicates",
                                 "printf 'worker-1 slots=8\\nworker-2 slots=8\\n' > hostfile")])
    if name == "port-in-use":
        port = facts.extra.get("port", "<port>")
        return Advice(f"The rendezvous port {port} is already in use (another run, or a leftover process)", text,
                      [_code_fix("Use a free port", "deepspeed --master_port 29600 train.py   # torchrun: --master-port; env: MASTER_PORT"),
                       _code_fix("Or find what holds it", f"ss -ltnp | grep ':{port}'")])
    if name == "ssh-unreachable":
        host = g.get("host", "<host>")
        return Advice(f"The launcher cannot reach {host} over ssh: {text[:200]}", text,
                      [_code_fix("Check passwordless ssh exactly as the launcher runs it", f"ssh -o BatchMode=yes {shlex.quote(host)} true"),
                       _code_fix("Install your key on the host", f"ssh-copy-id {shlex.quote(host)}"),
                       _code_fix("Single node? Do not pass a hostfile", "mv hostfile hostfile.off   # /job/hostfile is read by default")])
    if name == "host-oom-killed":
        return Advice("A rank was killed with SIGKILL (exit -9) and left no traceback: almost always the host OOM killer",
                      "Each rank loading the full model into host RAM (no zero.Init: the model built before "
                      "TrainingArguments/HfDeepSpeedConfig) or CPU offload buffers exceed RAM.",
                      [_code_fix("Confirm it", "dmesg -T | grep -i -E 'killed process|out of memory'"),
                       _code_fix("Load under zero.Init: create TrainingArguments(deepspeed=...) before from_pretrained",
                                 "args = TrainingArguments(..., deepspeed=cfg); model = AutoModel.from_pretrained(..., torch_dtype=torch.bfloat16)"),
                       _code_fix("Size it first", "dsdoctor estimate")])
    if name == "shm-too-small":
        return Advice("A process died of SIGBUS: /dev/shm is too small", text,
                      [F.shm_fix(), _code_fix("Or load data in the main process", "DataLoader(..., num_workers=0)")])
    if name == "gpu-oom":
        return Advice("CUDA out of memory", text[:300],
                      [_code_fix("Offload or shrink", 'ds_config: "offload_param": {"device": "cpu"}, smaller train_micro_batch_size_per_gpu, '
                                 "gradient_checkpointing=True"), _code_fix("Size it first", "dsdoctor estimate")])
    if name == "disk-write-failed":
        return Advice("Writing a file failed (disk full or write error)", text,
                      [_code_fix("Free space or write elsewhere", "df -h <output_dir>", reason="save_total_limit bounds checkpoints")])
    raise KeyError(name)


def _zero3_load(name: str, text: str, facts: LogFacts) -> Advice:
    guard = TK.zero3_load_guard(facts.transformers)
    drop_map = _code_fix("Do not pass device_map under ZeRO-3 (zero.Init places the weights)",
                         "from_pretrained(..., device_map=None)   # or: device_map=None if is_deepspeed_zero3_enabled() else dm")
    drop_low = _code_fix("Remove low_cpu_mem_usage=True (ZeRO-3's zero.Init already loads with low memory)",
                         "from_pretrained(..., low_cpu_mem_usage=not is_deepspeed_zero3_enabled())")
    after = ""
    if guard is not None and guard[0] == "device_map":
        after = f" (Transformers {facts.transformers} ignores low_cpu_mem_usage; only device_map raises.)"
    if name == "zero3-device-map-conflict":
        return Advice("from_pretrained was given a device_map while ZeRO-3 is enabled" + after, text, [drop_map])
    return Advice("from_pretrained was given low_cpu_mem_usage=True while ZeRO-3 is enabled", text, [drop_low])


def zero3_both(text: str) -> Advice:
    """The 4.20-4.50 combined message when the call line does not show which argument triggered it."""
    return Advice("from_pretrained was given low_cpu_mem_usage=True or a device_map while ZeRO-3 is enabled "
                  "(the log does not show which: Transformers 4.20-4.50 print one message for both)", text,
                  [_zero3_load("zero3-low-cpu-mem-usage-conflict", text, LogFacts()).fixes[0],
                   _zero3_load("zero3-device-map-conflict", text, LogFacts()).fixes[0]])
