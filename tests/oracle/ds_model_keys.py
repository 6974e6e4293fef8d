"""Run by the oracle venv (real DeepSpeed on PYTHONPATH): print the keys each ZeRO / offload / fp16 / bf16
pydantic model accepts (field names and aliases) as one JSON object."""

import contextlib
import io
import json

with contextlib.redirect_stdout(io.StringIO()):
    from deepspeed.runtime.zero import config as Z
    from deepspeed.runtime.zero import offload_config as O

    try:
        from deepspeed.runtime import precision_config as P
    except ImportError:  # before 0.17.1 fp16/bf16 were plain dicts
        P = None


def keys(model):
    out = set()
    for name, f in model.model_fields.items():
        out.add(name)
        if f.alias:
            out.add(f.alias)
    return sorted(out)


res = {"zero_optimization": keys(Z.DeepSpeedZeroConfig),
       "zero_optimization.offload_param": keys(O.DeepSpeedZeroOffloadParamConfig),
       "zero_optimization.offload_optimizer": keys(O.DeepSpeedZeroOffloadOptimizerConfig)}
if P is not None:
    res["fp16"] = keys(P.DeepSpeedFP16Config)
    res["bf16"] = keys(P.DeepSpeedBF16Config)
print(json.dumps(res))
