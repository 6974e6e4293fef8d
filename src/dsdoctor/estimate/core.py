"""``dsdoctor estimate``: every ZeRO-2/3 × offload option with per-GPU and per-node CPU memory, whether
it fits, and the fastest one that fits with a margin.

Model states are DeepSpeed's own estimator formulas (``knowledge.ds_memory``, oracle-tested); on top
dsdoctor adds activations, the CUDA context, each rank's host runtime and pinned/NVMe swap buffers (``memory.py``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from packaging.version import Version

from .. import names as N
from ..knowledge import deepspeed as K
from ..model import Finding, Severity
from ..spec import Docs, FindingSpec, RuleExample
from .memory import Workload, activation_bytes, frozen_bytes, stage3_buffers

# (stage, offload_optimizer, offload_param), fastest first
OPTIONS: Tuple[Tuple[int, str, str], ...] = (
    (2, "none", "none"),
    (3, "none", "none"),
    (2, "cpu", "none"),
    (3, "cpu", "none"),
    (3, "cpu", "cpu"),
    (3, "nvme", "nvme"),
)

TRADEOFF = {
    (2, "none", "none"): "fastest: no parameter gathering, no offload traffic; every GPU holds the full 16-bit "
                         "weights, so it needs the most GPU memory (and, unlike ZeRO-3, lets you load the model "
                         "normally, e.g. with device_map/low_cpu_mem_usage)",
    (3, "none", "none"): "parameters are sharded and gathered layer by layer: less GPU memory than ZeRO-2, "
                         "some all-gather traffic; from_pretrained must not use device_map/low_cpu_mem_usage",
    (2, "cpu", "none"): "optimizer states and the Adam step on the CPU (DeepSpeedCPUAdam): saves most GPU memory "
                        "of ZeRO-2 but each step waits for the CPU and PCIe; needs the cpu_adam op",
    (3, "cpu", "none"): "ZeRO-3 with the optimizer on the CPU: GPU holds only a parameter shard and a layer; "
                        "the step runs on the CPU (needs cpu_adam and host RAM)",
    (3, "cpu", "cpu"): "parameters and optimizer on the CPU: the GPU holds about one layer at a time; slowest of "
                       "the CPU options (parameters cross PCIe every forward and backward), needs the most host RAM",
    (3, "nvme", "nvme"): "parameters and optimizer swapped to NVMe: the least RAM and GPU memory but the slowest; "
                         "needs libaio (async_io) and a fast local SSD",
}


NOTHING_FITS_ADVICE = ("add GPUs/nodes, use LoRA/QLoRA, shorten the sequence or enable gradient checkpointing; each "
                       "option's GPU and CPU numbers show which resource is short")

@dataclass(frozen=True)
class Hardware:
    gpus_per_node: int
    nodes: int
    gpu_mem: Optional[int]  # bytes per GPU; None = unknown
    cpu_mem: Optional[int]  # bytes per node; None = unknown
    source: str = "given"


@dataclass
class Option:
    stage: int
    offload_optimizer: str
    offload_param: str
    model_states_gpu_bytes: int
    model_states_cpu_bytes: int
    gpu_bytes: int
    cpu_bytes: int
    fits: Optional[bool]
    gpu_parts: Dict[str, int] = field(default_factory=dict)
    cpu_parts: Dict[str, int] = field(default_factory=dict)

    @property
    def key(self) -> Tuple[int, str, str]:
        return (self.stage, self.offload_optimizer, self.offload_param)

    def to_json(self) -> Dict[str, Any]:
        return {"stage": self.stage, "offload_optimizer": self.offload_optimizer, "offload_param": self.offload_param,
                "gpu_bytes": self.gpu_bytes, "cpu_bytes": self.cpu_bytes,
                "model_states_gpu_bytes": self.model_states_gpu_bytes,
                "model_states_cpu_bytes": self.model_states_cpu_bytes, "fits": self.fits,
                "gpu_parts": self.gpu_parts, "cpu_parts": self.cpu_parts, "tradeoff": TRADEOFF[self.key]}


@dataclass
class Estimate:
    options: List[Option]
    recommended: Optional[Option]
    workload: Workload
    hardware: Hardware
    margin: float
    deepspeed: str
    notes: List[str] = field(default_factory=list)

    def findings(self) -> List[Finding]:
        """``estimate-nothing-fits`` when the GPU memory is known and no option fits (else nothing)."""
        if self.recommended is not None or self.hardware.gpu_mem is None:
            return []
        return [ESTIMATE_NOTHING_FITS.finding(Severity.ERROR, "no ZeRO-2/3 x offload option fits with a "
                                              f"{self.margin:.0%} margin", NOTHING_FITS_ADVICE, section="Estimate")]

    def to_json(self) -> Dict[str, Any]:
        rec = self.recommended
        return {
            "options": [o.to_json() for o in self.options],
            "recommended": ({"stage": rec.stage, "offload_optimizer": rec.offload_optimizer,
                             "offload_param": rec.offload_param, "why": TRADEOFF[rec.key]} if rec else None),
            "model": self.workload.to_json(),
            "hardware": {"gpus_per_node": self.hardware.gpus_per_node, "nodes": self.hardware.nodes,
                         "gpu_mem": self.hardware.gpu_mem, "cpu_mem": self.hardware.cpu_mem,
                         "source": self.hardware.source},
            "margin": self.margin,
            "deepspeed_formulas": self.deepspeed,
            "notes": self.notes,
            "findings": [f.to_json() for f in self.findings()],
        }


def model_states(ds: Version, stage: int, off_opt: str, off_param: str, p: int, largest: int, g: int,
                 n: int) -> Tuple[int, int]:
    """(gpu bytes per GPU, cpu bytes per node) from DeepSpeed's estimators (zero_init=True, as HF does)."""
    if stage == 2:
        cpu, gpu = K.zero2_model_states_mem(ds, p, g, n, cpu_offload=off_opt != "none")
        return gpu, cpu
    cpu, gpu, _ = K.zero3_model_states_mem(p, largest, g, n, cpu_offload=off_opt != "none",
                                           cpu_offload_params=off_param != "none", zero_init=True)
    return gpu, cpu


def _option(ds: Version, key: Tuple[int, str, str], w: Workload, hw: Hardware, margin: float) -> Option:
    stage, off_opt, off_param = key
    g, n = hw.gpus_per_node, hw.nodes
    ms_gpu, ms_cpu = model_states(ds, stage, off_opt, off_param, w.trainable, w.largest_layer, g, n)
    gpu_parts = {"model_states": ms_gpu, "activations": activation_bytes(w),
                 "cuda_context": K.CUDA_CONTEXT_BYTES}
    if stage == 3:
        gpu_parts.update(stage3_buffers(w))
    # every rank's process: torch kernels, DeepSpeed's engine/optimizer objects (host RAM, measured; knowledge.ds_memory)
    cpu_parts = {"model_states": ms_cpu, "runtime": g * K.CPU_RUNTIME_BYTES_PER_RANK}
    fg, fc = frozen_bytes(w, stage, off_param, g, n)
    if fg or fc:
        gpu_parts["frozen_base_weights"] = fg
        cpu_parts["frozen_base_weights"] = fc
    if off_opt == "nvme":
        # NVMe swaps what ZeRO-3 cpu/cpu keeps in RAM: only pinned swap buffers stay (DeepSpeed defaults:
        # offload_param 5 buffers of 1e8 16-bit elements; offload_optimizer 4 fp32 buffers of one sub-group,
        # sub_group_size 1e9 or the rank's whole partition when smaller), per rank on the node
        sub_group = min(int(1e9), -(-w.trainable // (g * n)))
        cpu_parts["model_states"] = 0
        ms_cpu = 0  # DeepSpeed has no NVMe estimator; the cpu/cpu model states go to the NVMe instead
        cpu_parts["nvme_swap_buffers"] = g * (5 * int(1e8) * 2 + 4 * sub_group * 4)
    elif off_opt == "cpu" or off_param == "cpu":
        cpu_parts["pinned_staging"] = 0  # included in DeepSpeed's 1.5 buffer factor
    gpu = sum(gpu_parts.values())
    cpu = sum(cpu_parts.values())
    fits: Optional[bool] = None  # undecidable without the GPU memory
    if hw.gpu_mem is not None:
        fits = gpu <= hw.gpu_mem * (1 - margin) and (hw.cpu_mem is None or cpu <= hw.cpu_mem * (1 - margin))
    return Option(stage, off_opt, off_param, ms_gpu, ms_cpu, gpu, cpu, fits, gpu_parts,
                  {k: v for k, v in cpu_parts.items() if k != "pinned_staging"})


def estimate(w: Workload, hw: Hardware, ds: Version, margin: float = 0.1) -> Estimate:
    """Every option, fastest first, and the first that fits (``None`` when none does or hardware is unknown)."""
    opts = [_option(ds, key, w, hw, margin) for key in OPTIONS]
    rec = next((o for o in opts if o.fits), None)
    notes = ["model states are DeepSpeed's estimate_zero{2,3}_model_states_mem_needs (zero_init=True, buffer "
             "factor 1.5); activations, CUDA context, ZeRO-3's gradient bucket and live parameters (DeepSpeed "
             "defaults), each rank's host runtime and swap buffers are dsdoctor's additions",
             "activations assume bf16, " + ("gradient checkpointing" if w.grad_ckpt else "no gradient checkpointing")
             + f", micro batch {w.micro_batch}, sequence {w.seq_len}"]
    if hw.gpu_mem is None:
        notes.append("GPU memory unknown (no NVIDIA driver seen): give --gpu-mem to decide what fits")
    span = next(s for s in K.ZERO2_GPU_NO_OFFLOAD if s.contains(ds))  # which of DeepSpeed's formulas applies
    return Estimate(opts, rec, w, hw, margin, f"{span.lo}+" if span.lo else f"<={span.hi}", notes)


E = Severity.ERROR
ESTIMATE_NOTHING_FITS = FindingSpec(
    N.ESTIMATE_NOTHING_FITS,
    E,
    "No ZeRO-2/3 offload option fits the GPUs and host RAM",
    Docs(
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
        reads="model"),
    ("estimate",))

SPECS: Tuple[FindingSpec, ...] = (ESTIMATE_NOTHING_FITS,)
