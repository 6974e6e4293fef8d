"""Every finding name dsdoctor can emit, with its short code and one-line summary.

Names are a public contract: never rename or reuse one. Codes are stable too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict


@dataclass(frozen=True)
class RuleInfo:
    code: str
    summary: str


RULES: Dict[str, RuleInfo] = {
    # environment checks (dsdoctor check / verify)
    "cuda-version-mismatch": RuleInfo("DS101", "The CUDA toolkit under CUDA_HOME does not match torch's CUDA"),
    "ds-skip-cuda-check-ineffective": RuleInfo("DS102", "DS_SKIP_CUDA_CHECK is set in a way that cannot help"),
    "cuda-toolkit-missing": RuleInfo("DS103", "No CUDA toolkit (CUDA_HOME / nvcc) where DeepSpeed needs one"),
    "ninja-missing": RuleInfo("DS104", "ninja, needed for JIT op builds, is not found the way DeepSpeed looks"),
    "host-compiler-unsupported": RuleInfo("DS105", "No usable C++ compiler / OpenMP for JIT op builds"),
    "python-headers-missing": RuleInfo("DS106", "Python.h is missing, so no op can be compiled"),
    "cuda-libs-missing": RuleInfo("DS107", "libcurand / libcudart missing where the CUDA cpu_adam build links"),
    "torch-extensions-lock-stale": RuleInfo("DS108", "A leftover torch-extensions lock file: the next build hangs"),
    "prebuilt-op-mismatch": RuleInfo("DS109", "Prebuilt DeepSpeed ops were built for another torch/CUDA"),
    "ds-accelerator-invalid": RuleInfo("DS110", "DS_ACCELERATOR is not a value this DeepSpeed accepts"),
    "libaio-missing": RuleInfo("DS111", "libaio (async_io, NVMe offload) is missing"),
    "shm-too-small": RuleInfo("DS112", "/dev/shm is small for multi-process data loading / NCCL"),
    "memlock-too-low": RuleInfo("DS113", "ulimit -l is too low for pinned offload buffers"),
    "probe-failed": RuleInfo("DS114", "A probe of the environment failed (hung, crashed or printed garbage)"),
    "package-missing": RuleInfo("DS115", "torch or deepspeed is not installed in the checked environment"),
    "op-build-failed": RuleInfo("DS116", "dsdoctor verify: the op failed to build or load"),
    # log explanations (dsdoctor explain); explain also reuses the environment names above and the lint
    # names below (offload-client-optimizer, ds-config-auto-without-trainer, batch-size-mismatch,
    # bucket-size-float, hostfile-invalid): one name, one code, whichever command finds it.
    "cuda-headers-missing": RuleInfo("DS300", "CUDA headers (cuda_runtime.h, ...) missing where an op is compiled"),
    "compiler-killed": RuleInfo("DS301", "The compiler was killed (usually out of memory) while building an op"),
    "op-build-failed-cause-not-in-log": RuleInfo("DS302", "An op failed to build/load but the log does not show why"),
    "windows-op-build-unsupported": RuleInfo("DS303", "DeepSpeed ops cannot be JIT-built on native Windows"),
    "nvcc-arch-unsupported": RuleInfo("DS304", "nvcc does not know a GPU architecture in the arch list"),
    "libstdcxx-mismatch": RuleInfo("DS305", "A freshly built op fails to import: GLIBCXX version not found"),
    "zero3-low-cpu-mem-usage-conflict": RuleInfo("DS306", "low_cpu_mem_usage=True in from_pretrained under ZeRO-3"),
    "zero3-device-map-conflict": RuleInfo("DS307", "A device_map passed to from_pretrained under ZeRO-3"),
    "zero3-quantized-model-conflict": RuleInfo("DS308", "A quantized model loaded in a way ZeRO-3 cannot partition"),
    "zero3-partitioned-param-access": RuleInfo("DS309", "A ZeRO-3 partitioned parameter used outside a gather (size-0 weights)"),
    "zero3-saved-partitioned-weights": RuleInfo("DS310", "Weights saved from ZeRO-3 without gathering (size-0 tensors / no weights)"),
    "ds-config-trainer-mismatch": RuleInfo("DS312", "DeepSpeed config values contradict TrainingArguments"),
    "deepspeed-no-sync-incompat": RuleInfo("DS316", "no_sync() (gradient accumulation) used with ZeRO stage 2/3"),
    "launcher-mpi-discovery": RuleInfo("DS317", "No launcher environment (RANK, ...): DeepSpeed fell back to MPI discovery"),
    "port-in-use": RuleInfo("DS319", "The rendezvous port (MASTER_PORT) is already in use"),
    "ssh-unreachable": RuleInfo("DS320", "The multi-node launcher cannot reach a host over ssh"),
    "host-oom-killed": RuleInfo("DS321", "A rank was killed with SIGKILL (exit -9), usually the host OOM killer"),
    "gpu-oom": RuleInfo("DS322", "CUDA out of memory"),
    "disk-write-failed": RuleInfo("DS323", "Writing a checkpoint/file failed (disk full or write error)"),
    "no-failure": RuleInfo("DS324", "The log shows no failure"),
    "user-code-error": RuleInfo("DS325", "The failure is an exception in the user's own code"),
    "unknown": RuleInfo("DS326", "A failure dsdoctor does not recognise"),
    # dsdoctor estimate / smoke
    "estimate-nothing-fits": RuleInfo("DS601", "No ZeRO-2/3 offload option fits the GPUs and host RAM"),
    "smoke-failed": RuleInfo("DS610", "dsdoctor smoke: the ZeRO-3 offload rehearsal did not finish"),
    "smoke-timeout": RuleInfo("DS611", "dsdoctor smoke: the run exceeded its overall timeout"),
    "smoke-loss-not-decreasing": RuleInfo("DS612", "dsdoctor smoke: the loss did not fall on a learnable task"),
    "smoke-unexpected-optimizer": RuleInfo("DS613", "dsdoctor smoke: DeepSpeed picked another optimizer than expected"),
    "smoke-params-not-partitioned": RuleInfo("DS614", "dsdoctor smoke: ZeRO-3 did not partition the parameters"),
    "smoke-save-failed": RuleInfo("DS615", "dsdoctor smoke: the 16-bit model save failed or was skipped"),
    # dsdoctor lint (DS400-DS499; memlock-too-low is DS113)
    "ds-config-invalid": RuleInfo("DS401", "The DeepSpeed config cannot be loaded or has a value DeepSpeed rejects"),
    "ds-config-duplicate-key": RuleInfo("DS402", "A key appears twice in the same object of a DeepSpeed config"),
    "ds-config-unknown-key": RuleInfo("DS403", "A config key the installed DeepSpeed does not know"),
    "ds-config-deprecated-key": RuleInfo("DS404", "A deprecated DeepSpeed config key"),
    "ds-config-removed-feature": RuleInfo("DS405", "A config section for a feature the installed DeepSpeed removed"),
    "batch-size-mismatch": RuleInfo("DS406", "train_batch_size != micro batch x gradient accumulation x world size"),
    "ds-config-auto-without-trainer": RuleInfo("DS407", '"auto" config values where no HF Trainer fills them'),
    "fp16-bf16-both-enabled": RuleInfo("DS408", "fp16 and bf16 are both enabled"),
    "fp16-on-cpu": RuleInfo("DS409", "fp16 enabled for a CPU-accelerator run"),
    "offload-param-ignored-below-stage3": RuleInfo("DS410", "offload_param is ignored below ZeRO stage 3"),
    "nvme-path-missing": RuleInfo("DS411", "NVMe offload without nvme_path"),
    "partial-offload-requires-stage3": RuleInfo("DS412", "offload_optimizer.ratio < 1 outside ZeRO stage 3"),
    "offload-client-optimizer": RuleInfo("DS413", "Optimizer offload with a client optimizer and no optimizer block"),
    "zero3-16bit-save-disabled": RuleInfo("DS414", "ZeRO-3 16-bit model save expected but not enabled"),
    "bucket-size-float": RuleInfo("DS415", "A fractional float for an integer ZeRO size (DeepSpeed >= 0.15)"),
    "deepspeed-export-flag": RuleInfo("DS416", "deepspeed --export does not exist"),
    "env-not-forwarded": RuleInfo("DS417", "A variable a multi-node run needs is not forwarded to the other nodes"),
    "deepspeed-env-file-invalid": RuleInfo("DS418", ".deepspeed_env has lines the launcher cannot parse"),
    "hostfile-invalid": RuleInfo("DS419", "The hostfile has a bad line, a duplicate host or no hosts"),
    "launcher-args-conflict": RuleInfo("DS420", "deepspeed launcher flags that exclude each other"),
    "omp-threads-oversubscribed": RuleInfo("DS421", "CPU training ranks without OMP_NUM_THREADS"),
    "unused-suppression": RuleInfo("DS422", "A dsdoctor: ignore comment or config entry that suppresses nothing"),
    "gradient-clipping-unset-under-trainer": RuleInfo("DS423", "No gradient_clipping under the HF Trainer: max_grad_norm is ignored"),
    "fp16-min-loss-scale-fractional": RuleInfo("DS424", "fp16.min_loss_scale is a fraction (an integer field)"),
    "communication-data-type-renamed": RuleInfo("DS425", "communication_data_type this DeepSpeed does not accept"),
    "accelerate-yaml-unknown-deepspeed-key": RuleInfo("DS426", "accelerate YAML deepspeed_config key accelerate ignores"),
    # dsdoctor lint / fix of Python training scripts (DS500-DS599; also zero3-device-map-conflict DS307,
    # zero3-low-cpu-mem-usage-conflict DS306)
    "script-unparseable": RuleInfo("DS500", "A Python file dsdoctor cannot read or parse as Python 3"),
    "device-map-requires-low-cpu-mem-usage": RuleInfo("DS501", "device_map with low_cpu_mem_usage=False (4.20-4.50)"),
    "model-loaded-before-ds-config": RuleInfo("DS502", "The model is built before ZeRO-3 is registered (no zero.Init)"),
    "hf-deepspeed-config-not-kept": RuleInfo("DS503", "An HfDeepSpeedConfig not kept alive until the model loads"),
    "model-moved-before-initialize": RuleInfo("DS504", "The model is moved to a device before DeepSpeed takes it"),
    "removed-transformers-deepspeed-import": RuleInfo("DS505", "An import of transformers.deepspeed (removed in 4.46)"),
    "qlora-quant-storage-missing": RuleInfo("DS506", "QLoRA under ZeRO-3 without a matching bnb_4bit_quant_storage"),
    "zero3-unsupported-quantization": RuleInfo("DS507", "An 8-bit / GPTQ / AWQ model trained under ZeRO-3"),
    "prepare-kbit-under-zero3": RuleInfo("DS508", "prepare_model_for_kbit_training under ZeRO-3"),
    "peft-checkpointing-reentrant": RuleInfo("DS509", "PEFT + non-reentrant checkpointing under ZeRO-3 (DeepSpeed <= 0.19.2)"),
    "zero3-unsafe-save": RuleInfo("DS510", "A ZeRO-3 partitioned model saved without gathering"),
    "zero3-save-on-rank0-only": RuleInfo("DS511", "A gathering ZeRO-3 save called on rank 0 only"),
    # multi-node check and launch (DS700-DS799)
    "node-env-drift": RuleInfo("DS700", "Nodes differ in something every rank must share (torch, CUDA, DeepSpeed, ...)"),
    "node-unreachable": RuleInfo("DS701", "A node of the hostfile could not be probed (ssh/pdsh/srun failed or hung)"),
    "node-env-differs": RuleInfo("DS702", "Nodes differ in something not fatal by itself (paths, limits, variables)"),
    "launch-failed": RuleInfo("DS703", "dsdoctor launch: the launcher exited non-zero (the log is explained)"),
}


def code_for(name: str) -> str:
    """The short code of a finding name (``DS000`` for names not in the catalog)."""
    info = RULES.get(name)
    return info.code if info else "DS000"
