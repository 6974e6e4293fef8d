"""Runs fixture scripts' ``main()`` with the real Transformers / DeepSpeed (one process, many scripts) and
prints one JSON line per script: the error it raised, or whether the loaded parameters are ZeRO-3 partitioned.

Usage (oracle venv, PYTHONPATH=<hf>:<ds>): script_load_runner.py MODEL_DIR OUT_DIR SCRIPT...
"""

import gc
import json
import os
import runpy
import sys
import traceback


def build(model_dir):
    from transformers import LlamaConfig, LlamaForCausalLM

    if not os.path.isfile(os.path.join(model_dir, "config.json")):
        cfg = LlamaConfig(hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4,
                          num_key_value_heads=4, vocab_size=1000)
        LlamaForCausalLM(cfg).save_pretrained(model_dir)


def run(path):
    from transformers.integrations.deepspeed import is_deepspeed_zero3_enabled

    gc.collect()
    out = {"script": path, "zero3_before": is_deepspeed_zero3_enabled()}
    try:
        g = runpy.run_path(path, run_name="oracle")
        model, _args = g["main"]()
        params = list(model.parameters())
        out["partitioned"] = all(hasattr(p, "ds_numel") and tuple(p.shape) == (0,) for p in params)
        out["ds_numel"] = sum(int(getattr(p, "ds_numel", 0)) for p in params)
        del model, _args, g
    except Exception as exc:  # noqa: BLE001 - the error is the result
        out["error"] = f"{type(exc).__name__}: {exc}"
        out["trace"] = traceback.format_exc()[-800:]
    gc.collect()
    return out


def main():
    model_dir, out_dir, scripts = sys.argv[1], sys.argv[2], sys.argv[3:]
    import transformers

    build(model_dir)
    os.environ.update(ORACLE_MODEL=model_dir, ORACLE_OUT=out_dir)
    for s in scripts:
        r = run(s)
        r["transformers"] = transformers.__version__
        print("RESULT " + json.dumps(r), flush=True)


if __name__ == "__main__":
    main()
