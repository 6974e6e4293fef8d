"""Runs in the oracle venv (real torch / DeepSpeed / Transformers on PYTHONPATH, dsdoctor from src) and prints
one ``RESULT <json>`` line. Two modes:

  api_runner.py hf MODEL_DIR
      Under a real ZeRO-3 HfDeepSpeedConfig (kept alive), for each case: from_pretrained(**kwargs) as given and
      from_pretrained(**zero3_safe_kwargs(kwargs)): the error, or whether the weights are ZeRO-3 partitioned;
      the warnings zero3_safe_kwargs emitted; then the same helper once the config is released.

  api_runner.py preflight JSON
      dsdoctor.preflight(config, **kwargs) first (which modules it imported), then what DeepSpeed really does
      with the same environment and config: ``"then": "cpu_adam"`` (CPUAdamBuilder().load(), what
      DeepSpeedCPUAdam runs) or ``"initialize"`` (deepspeed.initialize on a tiny model).
"""

import gc
import json
import os
import sys
import traceback
import warnings

HEAVY = ("torch", "deepspeed", "transformers")
CASES = [
    {"device_map": "auto"},
    {"device_map": {"": "cpu"}},
    {"low_cpu_mem_usage": True},
    {"device_map": "cpu", "low_cpu_mem_usage": True},
    {"device_map": "cpu", "low_cpu_mem_usage": False},
    {"device_map": None, "low_cpu_mem_usage": False},
]
ZERO3 = {"train_micro_batch_size_per_gpu": 1, "gradient_accumulation_steps": 1, "zero_optimization": {"stage": 3}}


def _err(exc):
    return f"{type(exc).__name__}: {exc}"


def hf(model_dir):
    import transformers
    from transformers import AutoModelForCausalLM, LlamaConfig, LlamaForCausalLM
    from transformers.integrations import HfDeepSpeedConfig
    from transformers.integrations.deepspeed import is_deepspeed_zero3_enabled

    from dsdoctor.hf import zero3_enabled, zero3_safe_kwargs

    if not os.path.isfile(os.path.join(model_dir, "config.json")):
        cfg = LlamaConfig(hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4,
                          num_key_value_heads=4, vocab_size=1000)
        LlamaForCausalLM(cfg).save_pretrained(model_dir)

    def load(kwargs):
        gc.collect()
        try:
            model = AutoModelForCausalLM.from_pretrained(model_dir, **kwargs)
        except Exception as exc:  # noqa: BLE001 - the error is the result
            return {"error": _err(exc)}
        params = list(model.parameters())
        out = {"partitioned": all(hasattr(p, "ds_numel") and tuple(p.shape) == (0,) for p in params),
               "ds_numel": sum(int(getattr(p, "ds_numel", 0)) for p in params)}
        del model, params
        return out

    def safe(kwargs):
        with warnings.catch_warnings(record=True) as got:
            warnings.simplefilter("always")
            out = zero3_safe_kwargs(kwargs)
        return out, [f"{w.category.__name__}: {w.message}" for w in got]

    res = {"transformers": transformers.__version__, "before": zero3_enabled(), "cases": []}
    dschf = HfDeepSpeedConfig(dict(ZERO3))  # noqa: F841 - kept alive: ZeRO-3 is registered while it lives
    res["zero3_transformers"] = is_deepspeed_zero3_enabled()
    res["zero3_dsdoctor"] = zero3_enabled()
    for kwargs in CASES:
        fixed, warned = safe(kwargs)
        res["cases"].append({"kwargs": kwargs, "raw": load(kwargs), "safe_kwargs": fixed, "warnings": warned,
                             "safe": load(fixed)})
    del dschf
    gc.collect()
    res["released_transformers"] = is_deepspeed_zero3_enabled()
    res["released_dsdoctor"] = zero3_enabled()
    res["released_safe"] = safe({"device_map": "auto", "low_cpu_mem_usage": True})
    return res


def preflight(spec):
    import dsdoctor

    res = {}
    try:
        rep = dsdoctor.preflight(spec.get("config"), **spec.get("kwargs", {}))
        res["ok"] = True
    except dsdoctor.DsDoctorError as exc:
        rep = exc.report
        res.update(ok=False, raised=[f.name for f in exc.findings], message=str(exc))
    res["findings"] = [[f.name, f.severity.value] for f in rep.findings]
    res["prediction"] = rep.predictions.get("cpu_adam")
    res["heavy_after_preflight"] = sorted(m for m in sys.modules if m.split(".")[0] in HEAVY)
    then = spec.get("then")
    try:
        if then == "cpu_adam":
            from deepspeed.ops.op_builder import CPUAdamBuilder

            CPUAdamBuilder().load()
            res["real"] = "loaded"
        elif then == "initialize":
            import deepspeed
            import torch

            model = torch.nn.Linear(8, 8)
            engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config=spec["config"])
            res["real"] = f"initialized: ZeRO stage {engine.zero_optimization_stage()}"
    except Exception as exc:  # noqa: BLE001 - DeepSpeed's failure is the oracle's answer
        res["real"] = _err(exc)
        res["real_trace"] = traceback.format_exc()[-1500:]
    return res


def main():
    mode = sys.argv[1]
    out = hf(sys.argv[2]) if mode == "hf" else preflight(json.loads(sys.argv[2]))
    print("RESULT " + json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
