"""Benchmark: `dsdoctor estimate`'s prediction vs the measured peak memory of real ZeRO-3 runs with
offload_optimizer=cpu and offload_param=cpu on the CPU accelerator (gloo), at three Llama-like sizes,
1 and 2 ranks. The runs are smoke's standalone train.py at the model's real size (``run(scale=False)``).

Prediction per rank (option ZeRO-3, cpu/cpu): ``dsdoctor.estimate.cpu_accel.zero3_offload_rank_parts`` —
the "GPU" part without the CUDA context (the CPU accelerator's "device" tensors live in host RAM too), as it
lands in a CPU rank's resident set, plus the per-node CPU part (with each rank's runtime) divided by the ranks.
Measured per rank: VmHWM at the end of the run minus VmRSS just before the model is built
(after imports and the process group), i.e. what model states, activations and DeepSpeed's buffers add.

    .venv/bin/python bench/estimate_accuracy.py --python .cache/oracle/venv/bin/python \
        --pythonpath .cache/oracle/hf/tf5.24.0:.cache/oracle/ds/0.19.8 [--sizes small,medium,large] [--nproc 1,2]

Results are recorded in docs/estimate.md ("## Accuracy on real runs").
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from typing import Any, Dict, List, Optional, Tuple

from dsdoctor.estimate.cpu_accel import zero3_offload_rank_parts
from dsdoctor.estimate.inputs import ModelArgs, workload
from dsdoctor.knowledge.versions import parse
from dsdoctor.smoke.runner import run

MiB = 1 << 20
SIZES: Dict[str, Dict[str, Any]] = {  # Llama-like, untied embeddings
    "small": {"hidden_size": 256, "intermediate_size": 688, "num_hidden_layers": 4, "num_attention_heads": 4,
              "num_key_value_heads": 4, "vocab_size": 8192},
    "medium": {"hidden_size": 512, "intermediate_size": 1376, "num_hidden_layers": 8, "num_attention_heads": 8,
               "num_key_value_heads": 8, "vocab_size": 32000},
    "large": {"hidden_size": 1024, "intermediate_size": 2752, "num_hidden_layers": 12, "num_attention_heads": 16,
              "num_key_value_heads": 16, "vocab_size": 32000},
}
SEQ, MICRO, STEPS = 256, 2, 3


def model_config(size: str) -> Dict[str, Any]:
    return dict(SIZES[size], model_type="llama", max_position_embeddings=SEQ, tie_word_embeddings=False)


def ds_config() -> Dict[str, Any]:
    """bf16 (what the estimator's activations assume; DeepSpeed's model-state bytes are 16-bit params),
    both offloads to the CPU, no 16-bit save (it would gather the whole model on top)."""
    return {"train_micro_batch_size_per_gpu": MICRO, "gradient_accumulation_steps": 1, "gradient_clipping": 1.0,
            "bf16": {"enabled": True},
            "optimizer": {"type": "AdamW", "params": {"lr": 1e-3, "weight_decay": 0.0}},
            "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"},
                                  "offload_param": {"device": "cpu"}}}


def predict(cfg: Dict[str, Any], nproc: int) -> Tuple[int, Dict[str, int], int]:
    """(bytes per rank, parts, parameters) for ZeRO-3 cpu/cpu on one node of ``nproc`` CPU ranks
    (``dsdoctor.estimate.cpu_accel``: the option's parts as they land in a CPU rank's resident set)."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "config.json")
        with open(path, "w") as fh:
            json.dump(cfg, fh)
        w = workload(ModelArgs(model=path, seq_len=SEQ, micro_batch=MICRO, grad_ckpt=False), os.environ)
    ds = parse("0.19.8")
    assert ds is not None
    parts = zero3_offload_rank_parts(w, nproc, ds)
    return sum(parts.values()), parts, w.total_params


def measure(python: str, cfg: Dict[str, Any], nproc: int, env: Dict[str, str]) -> Optional[Dict[str, Any]]:
    res = run(python, ds_config(), nproc, 900, STEPS, cfg, env=env, scale=False, seq=SEQ)
    done = [e for e in res.events if e.get("event") == "done"]
    if res.rc != 0 or len(done) != nproc:
        sys.stderr.write(res.log[-4000:] + "\n")
        return None
    added = [int(e["hwm_bytes"]) - int(e["baseline_rss_bytes"]) for e in done]
    base0 = int(next(e for e in done if e.get("rank") == 0)["baseline_rss_bytes"])
    stages = [(e["event"] + (str(e["step"]) if e["event"] == "step" else ""),
               (e["rss"]["VmRSS"] - base0) // MiB, (e["rss"]["VmHWM"] - base0) // MiB)
              for e in res.events if e.get("rank") == 0 and isinstance(e.get("rss"), dict) and e["rss"]]
    return {"added": max(added), "per_rank": added, "seconds": res.seconds,
            "baseline": max(int(e["baseline_rss_bytes"]) for e in done), "rank0_rss_hwm_mib_over_baseline": stages}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", required=True)
    ap.add_argument("--pythonpath", default="")
    ap.add_argument("--sizes", default="small,medium,large")
    ap.add_argument("--nproc", default="1,2")
    ap.add_argument("--ext", default=os.path.abspath(".cache/oracle/ext-smoke"), help="TORCH_EXTENSIONS_DIR")
    a = ap.parse_args()
    pp = ":".join(os.path.abspath(p) for p in a.pythonpath.split(":") if p)
    env = dict(os.environ, PYTHONPATH=pp, TORCH_EXTENSIONS_DIR=a.ext, HF_HUB_OFFLINE="1")
    rows: List[Dict[str, Any]] = []
    print(f"seq {SEQ}, micro batch {MICRO}, {STEPS} steps, bf16, ZeRO-3 offload_optimizer=cpu offload_param=cpu")
    print("| size | params | ranks | predicted/rank MiB | measured/rank MiB | error | run s |")
    print("|---|---|---|---|---|---|---|")
    ok = True
    for size in a.sizes.split(","):
        cfg = model_config(size)
        for n in (int(x) for x in a.nproc.split(",")):
            pred, parts, params = predict(cfg, n)
            t0 = time.monotonic()
            m = measure(os.path.abspath(a.python), cfg, n, env)
            if m is None:
                print(f"| {size} | {params / 1e6:.1f}M | {n} | {pred / MiB:,.0f} | run failed | | "
                      f"{time.monotonic() - t0:.0f} |")
                ok = False
                continue
            err = (pred - m["added"]) / m["added"]
            print(f"| {size} | {params / 1e6:.1f}M | {n} | {pred / MiB:,.0f} | {m['added'] / MiB:,.0f} | "
                  f"{err:+.1%} | {m['seconds']:.0f} |", flush=True)
            rows.append({"size": size, "params": params, "nproc": n, "predicted": pred, "parts": parts, **m})
    print(json.dumps(rows, indent=1), file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
