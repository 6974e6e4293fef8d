"""Where ``estimate`` gets its model and hardware: a local model dir / ``config.json``, a model in the
local Hugging Face cache (never the network), explicit sizes; NVML / nvidia-smi and /proc/meminfo."""

from __future__ import annotations

import glob
import json
import os
from dataclasses import dataclass
from typing import Any, Dict, Mapping, Optional, Tuple

from ..errors import UsageError
from ..probes.system import probe_gpu_memory, probe_gpus, probe_limits
from .core import Hardware
from .memory import Workload
from .params import ConfigProblem, count_params, lora_params


class InputError(UsageError, ValueError):
    """Bad or missing input: shown to the user, exit 2."""


def hf_cache_dirs(env: Mapping[str, str]) -> Tuple[str, ...]:
    """``$HF_HUB_CACHE``, ``$HF_HOME/hub``, ``~/.cache/huggingface/hub`` (huggingface_hub's order)."""
    if env.get("HF_HUB_CACHE"):
        return (env["HF_HUB_CACHE"],)
    home = env.get("HF_HOME") or os.path.join(env.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"),
                                              "huggingface")
    return (os.path.join(home, "hub"),)


def find_config(model: str, env: Mapping[str, str]) -> str:
    """The config.json for ``model``: a file, a directory holding one, or ``org/name`` in the HF cache."""
    if os.path.isfile(model):
        return model
    if os.path.isdir(model):
        cand = os.path.join(model, "config.json")
        if os.path.isfile(cand):
            return cand
        raise InputError(f"{model} has no config.json")
    if "/" in model and not model.startswith((".", "/")):
        for hub in hf_cache_dirs(env):
            repo = os.path.join(hub, "models--" + model.replace("/", "--"))
            ref = os.path.join(repo, "refs", "main")
            snaps = []
            if os.path.isfile(ref):
                with open(ref) as fh:
                    snaps.append(os.path.join(repo, "snapshots", fh.read().strip(), "config.json"))
            snaps += sorted(glob.glob(os.path.join(repo, "snapshots", "*", "config.json")))
            for s in snaps:
                if os.path.isfile(s):
                    return s
        raise InputError(f"{model!r} is neither a local path nor in the Hugging Face cache "
                         f"({', '.join(hf_cache_dirs(env))}); dsdoctor never downloads")
    raise InputError(f"{model}: no such file or directory")


def load_config(path: str) -> Dict[str, Any]:
    try:
        with open(path, "rb") as fh:
            data = json.loads(fh.read().decode("utf-8", errors="replace"))
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from exc
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}") from exc
    if not isinstance(data, dict):
        raise InputError(f"{path}: the top level must be an object")
    text = data.get("text_config")
    if "model_type" not in data and isinstance(text, dict):
        data = text
    return data


@dataclass(frozen=True)
class ModelArgs:
    model: Optional[str] = None
    params: Optional[int] = None
    largest_layer: Optional[int] = None
    layers: Optional[int] = None
    hidden: Optional[int] = None
    vocab: Optional[int] = None
    intermediate: Optional[int] = None
    heads: Optional[int] = None
    lora_r: Optional[int] = None
    lora_targets: Tuple[str, ...] = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")
    qlora: bool = False
    seq_len: int = 2048
    micro_batch: int = 1
    grad_ckpt: bool = True
    fused_experts: bool = True


def synthetic_config(a: ModelArgs) -> Dict[str, Any]:
    """A Llama config from explicit --layers/--hidden/--vocab (intermediate ~8h/3 rounded to 256)."""
    if not (a.layers and a.hidden and a.vocab):
        raise InputError("give --model, or --params, or all of --layers --hidden --vocab")
    inter = a.intermediate or -(-(8 * a.hidden // 3) // 256) * 256
    heads = a.heads or max(1, a.hidden // 128)
    return {"model_type": "llama", "num_hidden_layers": a.layers, "hidden_size": a.hidden, "vocab_size": a.vocab,
            "intermediate_size": inter, "num_attention_heads": heads}


def workload(a: ModelArgs, env: Mapping[str, str]) -> Workload:
    """Parameter counts and activation shape for the model described by ``a``."""
    cfg: Optional[Dict[str, Any]] = None
    source = "explicit sizes"
    if a.model:
        path = find_config(a.model, env)
        cfg = load_config(path)
        source = path
    elif a.params is None:
        cfg = synthetic_config(a)
        source = "synthetic Llama config from --layers/--hidden/--vocab"
    if cfg is not None:
        try:
            pc = count_params(cfg, fused_experts=a.fused_experts)
            total, largest = pc.total, pc.largest_layer
            layers = int(cfg.get("num_hidden_layers") or cfg.get("n_layer") or 0)
            hidden = int(cfg.get("hidden_size") or cfg.get("n_embd") or 0)
            vocab = int(cfg.get("vocab_size") or 0)
            heads = int(cfg.get("num_attention_heads") or cfg.get("n_head") or 0)
            trainable = lora_params(cfg, a.lora_r, a.lora_targets) if a.lora_r else total
        except ConfigProblem as exc:
            raise InputError(f"{source}: {exc}") from exc
        if a.params is not None:  # explicit numbers win over the config
            total = a.params
        if a.largest_layer is not None:
            largest = a.largest_layer
    else:
        assert a.params is not None
        total = a.params
        hidden, vocab, layers, heads = a.hidden or 0, a.vocab or 0, a.layers or 0, a.heads or 0
        largest = a.largest_layer or (vocab * hidden if vocab and hidden else 0)
        if not largest:
            raise InputError("with --params, give --largest-layer (or --hidden and --vocab)")
        if a.lora_r:
            raise InputError("LoRA sizes need the architecture: give --model (or --layers/--hidden/--vocab)")
        trainable = total
    if total <= 0:
        raise InputError("the model has no parameters")
    if a.qlora and not a.lora_r:
        raise InputError("--qlora needs --lora-r (QLoRA trains LoRA adapters on a 4-bit base)")
    return Workload(total, largest, trainable, layers, hidden, vocab, heads, a.seq_len, a.micro_batch, a.grad_ckpt,
                    4 if a.qlora else 16, source)


def hardware(gpus_per_node: Optional[int], nodes: int, gpu_mem: Optional[int], cpu_mem: Optional[int],
             env: Mapping[str, str]) -> Hardware:
    """Given values win; the rest is detected on this machine (never importing torch)."""
    detected = []
    if gpus_per_node is None or gpu_mem is None:
        path = env.get("PATH")
        mems = probe_gpu_memory(path)
        if gpus_per_node is None:
            gpus = probe_gpus(env, path)
            gpus_per_node = gpus.visible or 1
            detected.append(f"{gpus.visible} GPU(s) via {gpus.source}")
        if gpu_mem is None and mems:
            gpu_mem = min(mems)
            detected.append("GPU memory via NVML/nvidia-smi")
    if cpu_mem is None:
        cpu_mem = probe_limits().mem_total
        if cpu_mem is not None:
            detected.append("host RAM via /proc/meminfo")
    if gpus_per_node < 1 or nodes < 1:
        raise InputError("--gpus-per-node and --nodes must be at least 1")
    return Hardware(gpus_per_node, nodes, gpu_mem, cpu_mem, "; ".join(detected) or "given")
