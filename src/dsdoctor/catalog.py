"""Every finding name dsdoctor can emit, with its short code and one-line summary.

Names are a public contract: never rename or reuse one. Codes are stable too. The names explain diagnoses
are written in their cause specs (``dsdoctor.explain.causes``) and merged in here.
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
    "ds-skip-cuda-check-ineffective": RuleInfo("DS102", "DS_SKIP_CUDA_CHECK is set in a way that cannot help"),
    "probe-failed": RuleInfo("DS114", "A probe of the environment failed (hung, crashed or printed garbage)"),
    "package-missing": RuleInfo("DS115", "torch or deepspeed is not installed in the checked environment"),
    # Every name explain can diagnose (DS3xx, and the environment / lint / launch names it shares: one name, one
    # code, whichever command finds it) comes from its cause spec in explain/causes (added below).
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
    "fp16-bf16-both-enabled": RuleInfo("DS408", "fp16 and bf16 are both enabled"),
    "fp16-on-cpu": RuleInfo("DS409", "fp16 enabled for a CPU-accelerator run"),
    "offload-param-ignored-below-stage3": RuleInfo("DS410", "offload_param is ignored below ZeRO stage 3"),
    "nvme-path-missing": RuleInfo("DS411", "NVMe offload without nvme_path"),
    "partial-offload-requires-stage3": RuleInfo("DS412", "offload_optimizer.ratio < 1 outside ZeRO stage 3"),
    "zero3-16bit-save-disabled": RuleInfo("DS414", "ZeRO-3 16-bit model save expected but not enabled"),
    "deepspeed-export-flag": RuleInfo("DS416", "deepspeed --export does not exist"),
    "env-not-forwarded": RuleInfo("DS417", "A variable a multi-node run needs is not forwarded to the other nodes"),
    "deepspeed-env-file-invalid": RuleInfo("DS418", ".deepspeed_env has lines the launcher cannot parse"),
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
}


def _from_causes() -> Dict[str, RuleInfo]:
    from .explain.causes.registry import CAUSES

    return {c.name: RuleInfo(c.code, c.summary) for c in CAUSES}


RULES.update(_from_causes())


def code_for(name: str) -> str:
    """The short code of a finding name (``DS000`` for names not in the catalog)."""
    info = RULES.get(name)
    return info.code if info else "DS000"
