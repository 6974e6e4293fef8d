"""Benchmark: what a rank's resident set gains from ``deepspeed.initialize`` and the first steps of a
ZeRO-3 run with offload_optimizer=cpu and offload_param=cpu on the CPU accelerator (gloo) when the model
is near-empty, i.e. the per-process runtime cost that does not scale with the model size.

Same measurement points as smoke's train.py (``bench/estimate_accuracy.py``): the baseline is VmRSS after
``import deepspeed, torch, transformers``, ``deepspeed.init_distributed()`` and ``import torch._dynamo``;
then after ``zero.Init`` + the model, after ``deepspeed.initialize``, after each step. At each point the
RSS of every mapping in /proc/self/smaps is summed per group (each loaded ``.so`` by name, ``[heap]``,
anonymous, ``/dev/shm``), so the growth can be attributed.

    .venv/bin/python bench/ds_runtime_rss.py --python .cache/oracle/venv/bin/python \
        --pythonpath .cache/oracle/hf/tf5.24.0:.cache/oracle/ds/0.19.8 [--nproc 1,2] [--model linear|llama]

``--collectives`` measures instead the temporaries gloo's ``reduce_scatter_tensor`` / ``all_gather_into_tensor``
allocate (VmHWM over VmRSS around one call on 50 M elements whose input and output are already touched).

Results are recorded in docs/estimate.md ("Per-process runtime on the CPU accelerator").
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
from typing import Any, Dict, List

MiB = 1 << 20
MARK = "DSRSS "


def smaps_groups() -> Dict[str, int]:
    """RSS bytes per mapping group of this process."""
    out: Dict[str, int] = {}
    name = "anon"
    with open("/proc/self/smaps") as fh:
        for ln in fh:
            parts = ln.split()
            if not parts:
                continue
            if "-" in parts[0] and len(parts) >= 5 and not parts[0].endswith(":"):
                path = parts[5] if len(parts) >= 6 else ""
                if not path:
                    name = "anon"
                elif path.startswith("/dev/shm"):
                    name = "/dev/shm"
                elif path.startswith("["):
                    name = path
                else:
                    name = os.path.basename(path)
            elif parts[0] == "Rss:":
                out[name] = out.get(name, 0) + int(parts[1]) * 1024
    return out


def status() -> Dict[str, int]:
    res: Dict[str, int] = {}
    with open("/proc/self/status") as fh:
        for ln in fh:
            if ln.startswith(("VmRSS:", "VmHWM:", "RssAnon:", "RssFile:", "RssShmem:")):
                res[ln.split(":")[0]] = int(ln.split()[1]) * 1024
    return res


def worker(a: argparse.Namespace) -> None:
    import deepspeed
    import torch
    import transformers  # type: ignore[import-not-found]  # noqa: F401  # same imports as smoke's train.py before the baseline

    deepspeed.init_distributed()
    import torch._dynamo  # noqa: F401

    cfg = {"train_micro_batch_size_per_gpu": 2, "gradient_accumulation_steps": 1, "gradient_clipping": 1.0,
           "bf16": {"enabled": True}, "optimizer": {"type": "AdamW", "params": {"lr": 1e-3, "weight_decay": 0.0}},
           "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"},
                                 "offload_param": {"device": "cpu"}}}
    rank = int(os.environ["RANK"])
    points: List[Dict[str, Any]] = []

    def mark(name: str) -> None:
        points.append({"point": name, "status": status(), "groups": smaps_groups()})

    if a.model == "llama":
        from transformers import AutoConfig, AutoModelForCausalLM

        mcfg = AutoConfig.for_model("llama", hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                                    num_attention_heads=4, num_key_value_heads=2, vocab_size=64,
                                    max_position_embeddings=256, tie_word_embeddings=False)
        cls = AutoModelForCausalLM._model_mapping[type(mcfg)]
    mark("baseline")
    with deepspeed.zero.Init(config_dict_or_path=cfg):
        model = cls(mcfg) if a.model == "llama" else torch.nn.Sequential(torch.nn.Linear(16, 16))
    mark("model")
    engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config=cfg)
    mark("initialized")
    g = torch.Generator().manual_seed(rank)
    for step in range(3):
        if a.model == "llama":
            ids = (torch.randint(0, 64, (2, 1), generator=g) + torch.arange(256).unsqueeze(0)) % 64
            loss = engine(input_ids=ids, labels=ids).loss
        else:
            x = torch.randn(2, 16, generator=g).to(torch.bfloat16)
            loss = engine(x).float().pow(2).mean()
        engine.backward(loss)
        engine.step()
        mark(f"step{step}")
    os.write(1, (MARK + json.dumps({"rank": rank, "points": points}) + "\n").encode())


def collectives_worker() -> None:
    """gloo's own temporaries: VmHWM (reset through /proc/self/clear_refs) over VmRSS before one
    ``reduce_scatter_tensor`` (input N, output N/world, both touched) and one ``all_gather_into_tensor``."""
    import torch
    import torch.distributed as dist

    dist.init_process_group("gloo")
    r, n, big = dist.get_rank(), dist.get_world_size(), 50_000_000
    rows = []
    for dt in (torch.bfloat16, torch.float32):
        inp, out = torch.ones(big, dtype=dt), torch.zeros(big // n, dtype=dt)
        for name in ("reduce_scatter_tensor", "all_gather_into_tensor"):
            dist.barrier()
            with open("/proc/self/clear_refs", "w") as fh:
                fh.write("5")
            before = status()["VmRSS"]
            if name == "reduce_scatter_tensor":
                dist.reduce_scatter_tensor(out, inp)
            else:
                dist.all_gather_into_tensor(inp, out)
            rows.append({"op": name, "dtype": str(dt), "big_mib": big * inp.element_size() / MiB,
                         "temporary_mib": (status()["VmHWM"] - before) / MiB})
    print(MARK + json.dumps({"rank": r, "world": n, "rows": rows}), flush=True)
    dist.destroy_process_group()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def launch(a: argparse.Namespace, n: int) -> List[Dict[str, Any]]:
    port = str(free_port())
    procs = []
    for r in range(n):
        env = dict(os.environ, RANK=str(r), LOCAL_RANK=str(r), WORLD_SIZE=str(n), LOCAL_WORLD_SIZE=str(n),
                   MASTER_ADDR="127.0.0.1", MASTER_PORT=port, OMP_NUM_THREADS="1", PYTHONPATH=a.pythonpath,
                   TORCH_EXTENSIONS_DIR=a.ext, HF_HUB_OFFLINE="1")
        mode = ["--collectives"] if a.collectives else []
        procs.append(subprocess.Popen([a.python, os.path.abspath(__file__), "--worker", "--model", a.model, *mode],
                                      env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
    res = []
    for p in procs:
        out, _ = p.communicate(timeout=600)
        lines = [ln for ln in out.splitlines() if ln.startswith(MARK)]
        if p.returncode != 0 or not lines:
            sys.stderr.write(out[-4000:])
            raise SystemExit(f"rank failed rc={p.returncode}")
        res.append(json.loads(lines[-1][len(MARK):]))
    return res


def report(n: int, ranks: List[Dict[str, Any]]) -> None:
    for r in ranks:
        pts = r["points"]
        base = pts[0]
        b_rss = base["status"]["VmRSS"]
        print(f"\n## {n} rank(s), rank {r['rank']}: baseline VmRSS {b_rss / MiB:.0f} MiB")
        print("| point | VmRSS +MiB | VmHWM +MiB | RssAnon + | RssFile + | RssShmem + |")
        print("|---|---|---|---|---|---|")
        for p in pts:
            s = p["status"]
            d = {k: (s[k] - base["status"][k]) / MiB for k in s}
            print(f"| {p['point']} | {d['VmRSS']:.1f} | {s['VmHWM'] / MiB - b_rss / MiB:.1f} | {d['RssAnon']:.1f} | "
                  f"{d['RssFile']:.1f} | {d['RssShmem']:.1f} |")
        last = pts[-1]["groups"]
        grow = {k: last.get(k, 0) - base["groups"].get(k, 0) for k in set(last) | set(base["groups"])}
        top = sorted(grow.items(), key=lambda kv: -abs(kv[1]))[:14]
        print("growth baseline -> step2 by mapping: " + ", ".join(f"{k} {v / MiB:+.1f}" for k, v in top))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--worker", action="store_true")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--pythonpath", default="")
    ap.add_argument("--nproc", default="1,2")
    ap.add_argument("--model", default="linear", choices=["linear", "llama"])
    ap.add_argument("--ext", default=os.path.abspath(".cache/oracle/ext-smoke"), help="TORCH_EXTENSIONS_DIR")
    ap.add_argument("--json", help="write the raw points here")
    ap.add_argument("--collectives", action="store_true", help="measure gloo's collective temporaries instead")
    a = ap.parse_args()
    if a.worker:
        collectives_worker() if a.collectives else worker(a)
        return 0
    a.pythonpath = ":".join(os.path.abspath(p) for p in a.pythonpath.split(":") if p)
    a.python = os.path.abspath(a.python) if os.sep in a.python else a.python
    out_json = os.path.abspath(a.json) if a.json else None
    raw = {}
    with tempfile.TemporaryDirectory() as d:
        os.chdir(d)  # DeepSpeed may write files to the cwd
        for n in (int(x) for x in a.nproc.split(",")):
            raw[n] = launch(a, n)
            if a.collectives:
                for r in raw[n]:
                    for row in r["rows"]:
                        print(f"{n} rank(s), rank {r['rank']}: {row['op']} {row['dtype']} of {row['big_mib']:.0f} MiB:"
                              f" temporary {row['temporary_mib']:.0f} MiB")
            else:
                report(n, raw[n])
    if out_json:
        with open(out_json, "w") as fh:
            json.dump(raw, fh)
    return 0


if __name__ == "__main__":
    sys.exit(main())
