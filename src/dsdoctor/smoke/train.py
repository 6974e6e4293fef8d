"""The training script ``dsdoctor smoke`` launches with the real ``deepspeed`` launcher, in the *target*
interpreter. Standard library + the user's torch / deepspeed / transformers only (dsdoctor need not be
installed there). It prints one ``DSDOCTOR-SMOKE {json}`` line per event; everything else is DeepSpeed's.

Usage (through the launcher): train.py --ds-config FILE --out DIR [--model-config FILE] [--steps N] [--seq N]
[--no-scale] (``--no-scale`` builds the model config as given instead of scaling it down: the estimate
accuracy benchmark runs real sizes through it)
"""

import argparse
import json
import os
import resource
import sys
import time
from typing import Any, Dict, Iterator, List, Optional

MARK = "DSDOCTOR-SMOKE"


def emit(event: str, **data: Any) -> None:
    data["event"] = event
    data["rank"] = int(os.environ.get("RANK", "0"))
    # one write per event (print() writes the newline separately, so two ranks' lines could interleave)
    os.write(1, (MARK + " " + json.dumps(data) + "\n").encode())


def tiny_config(user: Optional[Dict[str, Any]], scale: bool = True) -> Any:
    """A tiny causal-LM config: the user's architecture scaled down, or a Llama (as given: ``scale=False``)."""
    from transformers import AutoConfig  # type: ignore[import-not-found]  # subprocess-only

    base = dict(user or {"model_type": "llama"})
    mt = base.pop("model_type", "llama")
    for drop in ("architectures", "quantization_config", "auto_map", "torch_dtype", "dtype", "rope_scaling",
                 "_name_or_path", "transformers_version", "text_config", "layer_types", "sliding_window"):
        base.pop(drop, None)
    if not scale:
        return AutoConfig.for_model(mt, **base)
    small = {"hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 2, "num_attention_heads": 4,
             "num_key_value_heads": 2, "vocab_size": 64, "max_position_embeddings": 128}
    if mt == "gpt2":
        small = {"n_embd": 64, "n_layer": 2, "n_head": 4, "n_positions": 128, "vocab_size": 64}
    for k in ("head_dim", "n_inner"):
        if base.get(k) is not None:
            base[k] = 16 if k == "head_dim" else 128
    base.update(small)
    if mt == "mixtral" or "num_local_experts" in base:
        base["num_local_experts"] = 2
        base["num_experts_per_tok"] = 1
    base.pop("pad_token_id", None)
    return AutoConfig.for_model(mt, **base)


def batches(vocab: int, micro: int, seq: int, steps: int, rank: int, seed: int = 1234) -> Iterator[Any]:
    """A learnable task: each sequence counts up by one modulo the vocabulary."""
    import torch

    g = torch.Generator().manual_seed(seed + rank)
    for _ in range(steps):
        start = torch.randint(0, vocab, (micro, 1), generator=g)
        yield (start + torch.arange(seq).unsqueeze(0)) % vocab


def peak_rss_bytes() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux reports KiB


def rss_status() -> Dict[str, int]:
    """Current (VmRSS) and high-water (VmHWM) resident set of this process, bytes (Linux; {} elsewhere)."""
    out: Dict[str, int] = {}
    try:
        with open("/proc/self/status") as fh:
            for ln in fh:
                if ln.startswith(("VmRSS:", "VmHWM:")):
                    out[ln.split(":")[0]] = int(ln.split()[1]) * 1024
    except OSError:
        pass
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ds-config", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--model-config")
    ap.add_argument("--steps", type=int, default=12)
    ap.add_argument("--seq", type=int, default=16)
    ap.add_argument("--no-scale", action="store_true")
    ap.add_argument("--local_rank", type=int, default=-1)  # the launcher may pass it
    a = ap.parse_args()
    t0 = time.time()
    import deepspeed
    import torch
    from transformers import AutoModelForCausalLM  # subprocess-only

    emit("imported", seconds=round(time.time() - t0, 2), torch=torch.__version__, deepspeed=deepspeed.__version__)
    with open(a.ds_config) as fh:
        cfg = json.load(fh)
    user = None
    if a.model_config:
        with open(a.model_config) as fh:
            user = json.load(fh)
    mcfg = tiny_config(user, scale=not a.no_scale)
    deepspeed.init_distributed()
    zero = cfg.get("zero_optimization", {})
    # Import the model's module *before* zero.Init: Init patches torch.Tensor.__new__, and a lazy import of
    # transformers' modeling code inside it imports torch._dynamo, which then fails (torch 2.14, tf 5.x:
    # "TypeError: Signature mismatch between ...new_tensor... and ...tensor_pynew...").
    import torch._dynamo  # noqa: F401

    cls = AutoModelForCausalLM._model_mapping[type(mcfg)]
    baseline = rss_status()  # imports, process group, model class: before any model state exists
    with deepspeed.zero.Init(config_dict_or_path=cfg, enabled=zero.get("stage") == 3):
        model = cls(mcfg)
    emit("model", model_type=mcfg.model_type, params=sum(getattr(p, "ds_numel", p.numel()) for p in model.parameters()),
         rss=rss_status())
    t1 = time.time()
    engine, optimizer, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config=cfg)
    inner = getattr(optimizer, "optimizer", optimizer)
    params = list(engine.module.parameters())
    local = sum(p.ds_tensor.numel() for p in params if hasattr(p, "ds_tensor"))
    full = sum(getattr(p, "ds_numel", p.numel()) for p in params)
    emit("initialized", seconds=round(time.time() - t1, 2), optimizer=type(inner).__name__,
         wrapper=type(optimizer).__name__, partitioned=all(hasattr(p, "ds_id") and p.numel() == 0 for p in params),
         local_numel=local, full_numel=full, world_size=engine.world_size,
         device=str(engine.device), rss=rss_status())
    micro = engine.train_micro_batch_size_per_gpu()
    losses: List[float] = []
    times: List[float] = []
    for step, ids in enumerate(batches(mcfg.vocab_size, micro, a.seq, a.steps, engine.global_rank)):
        s0 = time.time()
        ids = ids.to(engine.device)
        loss = engine(input_ids=ids, labels=ids).loss
        engine.backward(loss)
        engine.step()
        times.append(time.time() - s0)
        losses.append(float(loss.detach().float().cpu()))
        emit("step", step=step, loss=round(losses[-1], 4), seconds=round(times[-1], 3), rss=rss_status())
    saved = None
    if zero.get("stage3_gather_16bit_weights_on_model_save") or zero.get("stage", 0) < 3:
        out = os.path.join(a.out, "model16")
        ok = engine.save_16bit_model(out)
        files = sorted(os.listdir(out)) if os.path.isdir(out) else []
        saved = {"returned": ok, "files": files}
    mem = peak_rss_bytes()
    if torch.cuda.is_available():
        mem = torch.cuda.max_memory_allocated()
    steady = times[1:] or times
    end = rss_status()
    emit("done", losses=losses, step_seconds=round(sum(steady) / len(steady), 4), peak_bytes=mem,
         peak_kind="cuda" if torch.cuda.is_available() else "rss", saved=saved,
         baseline_rss_bytes=baseline.get("VmRSS"), hwm_bytes=end.get("VmHWM"))
    # Tear gloo/NCCL down together: a rank exiting while its peer still holds the connection (or with live
    # process-group threads at interpreter exit) aborts with "terminate called without an active exception".
    import torch.distributed as dist

    if dist.is_available() and dist.is_initialized():
        dist.barrier()
        dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    # Skip interpreter teardown: DeepSpeed's and gloo's native threads still alive there abort the rank with
    # "terminate called without an active exception" now and then (seen in CI after destroy_process_group).
    os._exit(code)
