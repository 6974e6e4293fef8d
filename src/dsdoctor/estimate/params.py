"""Parameter counts from a Hugging Face ``config.json``, computed from the architecture (never guessed
from the name), as DeepSpeed's ``model_to_params`` would see the instantiated model:

- ``total``: unique parameters (a tied ``lm_head`` shares the embedding and counts once);
- ``largest_layer``: the most parameters any single module owns itself (``parameters(recurse=False)``),
  which is what ZeRO-3 must gather at once. A tied ``lm_head`` still owns the embedding matrix.

Transformers 5 stores MoE experts as one module with 3-D weights (``fused_experts=True``); 4.x has one
``nn.Linear`` per expert projection. ``tests/oracle/test_estimate_oracle.py`` compares every architecture
with the real model instantiated on the meta device.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple

from ..errors import UsageError

Modules = List[Tuple[str, int, int]]  # (module kind, own params, how many such modules)


class ConfigProblem(UsageError, ValueError):
    """The config cannot be counted (unknown architecture, missing or invalid key)."""


@dataclass(frozen=True)
class ParamCount:
    total: int
    largest_layer: int
    largest_module: str
    model_type: str
    modules: Tuple[Tuple[str, int, int], ...] = field(default=(), repr=False)

    def to_json(self) -> Dict[str, Any]:
        return {"total": self.total, "largest_layer": self.largest_layer, "largest_module": self.largest_module,
                "model_type": self.model_type}


# Defaults of the config classes for keys config.json may omit (same in Transformers 4.46 and 5.x).
DEFAULTS: Dict[str, Dict[str, Any]] = {
    "llama": {"tie_word_embeddings": False, "attention_bias": False, "mlp_bias": False},
    "mistral": {"tie_word_embeddings": False},
    "qwen2": {"tie_word_embeddings": False},
    "qwen3": {"tie_word_embeddings": False, "attention_bias": False, "head_dim": 128},
    "mixtral": {"tie_word_embeddings": False, "num_local_experts": 8},
    "gemma": {"tie_word_embeddings": True, "head_dim": 256},
    "gemma2": {"tie_word_embeddings": True, "head_dim": 256},
    "phi": {"tie_word_embeddings": False, "qk_layernorm": False},
    "phi3": {"tie_word_embeddings": False},
    "gpt2": {"tie_word_embeddings": True, "n_inner": None, "n_positions": 1024},
    "gpt_neox": {"tie_word_embeddings": False, "attention_bias": True},
    "starcoder2": {"tie_word_embeddings": True, "use_bias": True},
}


class _Cfg:
    """Typed access to a config dict with the architecture's defaults."""

    def __init__(self, raw: Mapping[str, Any], model_type: str) -> None:
        self.raw = dict(DEFAULTS.get(model_type, {}))
        self.raw.update({k: v for k, v in raw.items() if v is not None or k not in self.raw})
        self.shared = 0

    def num(self, *keys: str) -> int:
        for k in keys:
            val = self.raw.get(k)
            if val is not None:
                if isinstance(val, bool) or not isinstance(val, int) or val < 0:
                    raise ConfigProblem(f"config key {k!r} must be a non-negative integer, not {val!r}")
                return val
        raise ConfigProblem(f"config has no {keys[0]!r}")

    def opt_int(self, key: str) -> Optional[int]:
        return self.num(key) if self.raw.get(key) is not None else None

    def flag(self, key: str, default: bool = False) -> bool:
        val = self.raw.get(key, default)
        return bool(val) if val is not None else default


def _attn(c: _Cfg, q_bias: bool, o_bias: bool, fused_qkv: bool = False) -> Modules:
    h = c.num("hidden_size")
    nh = c.num("num_attention_heads")
    nkv = c.opt_int("num_key_value_heads") or nh
    hd = c.opt_int("head_dim") or h // nh
    q, kv = nh * hd, nkv * hd
    if fused_qkv:
        return [("self_attn.qkv_proj", h * (q + 2 * kv) + (q + 2 * kv if q_bias else 0), 1),
                ("self_attn.o_proj", q * h + (h if o_bias else 0), 1)]
    return [("self_attn.q_proj", h * q + (q if q_bias else 0), 1),
            ("self_attn.k_proj", h * kv + (kv if q_bias else 0), 1),
            ("self_attn.v_proj", h * kv + (kv if q_bias else 0), 1),
            ("self_attn.o_proj", q * h + (h if o_bias else 0), 1)]


def _head(c: _Cfg, embed_dim: int, bias: bool = False) -> Modules:
    v = c.num("vocab_size")
    c.shared = v * embed_dim  # what a tied lm_head shares with the input embedding (never its bias)
    # a tied lm_head owns the embedding Parameter too (largest layer), but it is counted once in total
    return [("lm_head", v * embed_dim + (v if bias else 0), 1)]


def _tied(c: _Cfg) -> bool:
    return c.flag("tie_word_embeddings")


def _decoder(c: _Cfg, layer: Modules, norm: int) -> Modules:
    h, v, n = c.num("hidden_size"), c.num("vocab_size"), c.num("num_hidden_layers")
    return [("embed_tokens", v * h, 1)] + [(k, p, m * n) for k, p, m in layer] + [("norm", norm, 1)] + _head(c, h)


def _llama_like(c: _Cfg, mt: str, fused_experts: bool) -> Modules:
    h = c.num("hidden_size")
    i = c.num("intermediate_size")
    if mt == "llama":
        attn = _attn(c, c.flag("attention_bias"), c.flag("attention_bias"))
    elif mt == "qwen2":
        attn = _attn(c, True, False)
    elif mt == "qwen3":
        attn = _attn(c, c.flag("attention_bias"), c.flag("attention_bias"))
        hd = c.opt_int("head_dim") or h // c.num("num_attention_heads")
        attn += [("self_attn.q_norm", hd, 1), ("self_attn.k_norm", hd, 1)]
    else:
        attn = _attn(c, False, False)
    if mt == "mixtral":
        e = c.num("num_local_experts")
        mlp: Modules = [("block_sparse_moe.gate", e * h, 1)]
        if fused_experts:
            mlp.append(("block_sparse_moe.experts", e * 3 * h * i, 1))
        else:
            mlp += [("experts.w1", h * i, e), ("experts.w2", i * h, e), ("experts.w3", h * i, e)]
    else:
        b = i if mt == "llama" and c.flag("mlp_bias") else 0
        mlp = [("mlp.gate_proj", h * i + b, 1), ("mlp.up_proj", h * i + b, 1),
               ("mlp.down_proj", i * h + (h if b else 0), 1)]
    norms = 4 if mt == "gemma2" else 2
    return _decoder(c, attn + mlp + [("layernorm", h, norms)], h)


def _phi3(c: _Cfg, mt: str, fused_experts: bool) -> Modules:
    h, i = c.num("hidden_size"), c.num("intermediate_size")
    layer = _attn(c, False, False, fused_qkv=True) + [
        ("mlp.gate_up_proj", h * 2 * i, 1), ("mlp.down_proj", i * h, 1), ("layernorm", h, 2)]
    return _decoder(c, layer, h)


def _phi(c: _Cfg, mt: str, fused_experts: bool) -> Modules:
    h, i, v, n = c.num("hidden_size"), c.num("intermediate_size"), c.num("vocab_size"), c.num("num_hidden_layers")
    layer = _attn(c, True, False)
    layer[-1] = ("self_attn.dense", h * h + h, 1)
    if c.flag("qk_layernorm"):
        hd = h // c.num("num_attention_heads")
        layer += [("self_attn.q_layernorm", 2 * hd, 1), ("self_attn.k_layernorm", 2 * hd, 1)]
    layer += [("mlp.fc1", h * i + i, 1), ("mlp.fc2", i * h + h, 1), ("input_layernorm", 2 * h, 1)]
    return ([("embed_tokens", v * h, 1)] + [(k, p, m * n) for k, p, m in layer]
            + [("final_layernorm", 2 * h, 1)] + _head(c, h, bias=True))


def _gpt2(c: _Cfg, mt: str, fused_experts: bool) -> Modules:
    h, v, n = c.num("n_embd", "hidden_size"), c.num("vocab_size"), c.num("n_layer", "num_hidden_layers")
    inner = c.opt_int("n_inner") or 4 * h
    layer: Modules = [("ln_1", 2 * h, 1), ("attn.c_attn", h * 3 * h + 3 * h, 1), ("attn.c_proj", h * h + h, 1),
                      ("ln_2", 2 * h, 1), ("mlp.c_fc", h * inner + inner, 1), ("mlp.c_proj", inner * h + h, 1)]
    return ([("wte", v * h, 1), ("wpe", c.num("n_positions", "max_position_embeddings") * h, 1)]
            + [(k, p, m * n) for k, p, m in layer] + [("ln_f", 2 * h, 1)] + _head(c, h))


def _gpt_neox(c: _Cfg, mt: str, fused_experts: bool) -> Modules:
    h, i, v, n = c.num("hidden_size"), c.num("intermediate_size"), c.num("vocab_size"), c.num("num_hidden_layers")
    b = c.flag("attention_bias", True)
    layer: Modules = [("input_layernorm", 2 * h, 1), ("post_attention_layernorm", 2 * h, 1),
                      ("attention.query_key_value", h * 3 * h + (3 * h if b else 0), 1),
                      ("attention.dense", h * h + (h if b else 0), 1),
                      ("mlp.dense_h_to_4h", h * i + i, 1), ("mlp.dense_4h_to_h", i * h + h, 1)]
    return ([("embed_in", v * h, 1)] + [(k, p, m * n) for k, p, m in layer]
            + [("final_layer_norm", 2 * h, 1)] + _head(c, h))


def _starcoder2(c: _Cfg, mt: str, fused_experts: bool) -> Modules:
    h, i = c.num("hidden_size"), c.num("intermediate_size")
    b = c.flag("use_bias", True)
    layer = _attn(c, b, b) + [("mlp.c_fc", h * i + (i if b else 0), 1), ("mlp.c_proj", i * h + (h if b else 0), 1),
                              ("layernorm", 2 * h, 2)]
    return _decoder(c, layer, 2 * h)


ARCHITECTURES: Dict[str, Callable[[_Cfg, str, bool], Modules]] = {
    "llama": _llama_like, "mistral": _llama_like, "qwen2": _llama_like, "qwen3": _llama_like,
    "mixtral": _llama_like, "gemma": _llama_like, "gemma2": _llama_like,
    "phi": _phi, "phi3": _phi3, "gpt2": _gpt2, "gpt_neox": _gpt_neox, "starcoder2": _starcoder2,
}


def count_params(config: Mapping[str, Any], fused_experts: bool = True) -> ParamCount:
    """Total and largest-layer parameter counts of ``AutoModelForCausalLM`` for this config."""
    mt = str(config.get("model_type") or "")
    if mt not in ARCHITECTURES:
        raise ConfigProblem(f"model_type {mt or '(missing)'!r} is not one dsdoctor can count "
                            f"({', '.join(sorted(ARCHITECTURES))}); give --params and --largest-layer instead")
    c = _Cfg(config, mt)
    mods = ARCHITECTURES[mt](c, mt, fused_experts)
    total = sum(p * m for _k, p, m in mods) - (c.shared if _tied(c) else 0)
    kind, largest, _m = max(mods, key=lambda t: t[1])
    return ParamCount(total, largest, kind, mt, tuple(mods))


def lora_params(config: Mapping[str, Any], r: int, targets: Tuple[str, ...]) -> int:
    """Trainable parameters of a LoRA adapter of rank ``r`` on the named projections (PEFT names:
    q_proj, k_proj, v_proj, o_proj, gate_proj, up_proj, down_proj) of a Llama-like decoder."""
    mt = str(config.get("model_type") or "")
    c = _Cfg(config, mt)
    h, n = c.num("hidden_size"), c.num("num_hidden_layers")
    nh = c.num("num_attention_heads")
    nkv = c.opt_int("num_key_value_heads") or nh
    hd = c.opt_int("head_dim") or h // nh
    i = c.opt_int("intermediate_size") or 4 * h
    shapes = {"q_proj": (h, nh * hd), "k_proj": (h, nkv * hd), "v_proj": (h, nkv * hd), "o_proj": (nh * hd, h),
              "gate_proj": (h, i), "up_proj": (h, i), "down_proj": (i, h)}
    unknown = [t for t in targets if t not in shapes]
    if unknown:
        raise ConfigProblem(f"unknown LoRA target {unknown[0]!r}; choose from {', '.join(shapes)}")
    return n * sum(r * (shapes[t][0] + shapes[t][1]) for t in targets)
