"""Oracle for lint's accelerate YAML support: the real accelerate 1.15.0 ``DeepSpeedPlugin`` (with the
real DeepSpeed 0.19.8 ``DeepSpeedConfig``) builds the config from the same ``deepspeed_config`` values;
whenever that raises, dsdoctor reports an error at the YAML, and where dsdoctor reports a config-time
error, it raises."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any, Dict, List, Optional

import pytest

from dsdoctor.lint import lint

pytestmark = pytest.mark.oracle

REPO = Path(__file__).resolve().parents[2]
ORACLE = Path(os.environ.get("DSDOCTOR_ORACLE_DIR") or REPO / ".cache" / "oracle")
VPY = ORACLE / "venv" / "bin" / "python"
HERE = Path(__file__).parent

# (deepspeed_config keys, mixed_precision, ds_config file text or None)
CASES: List[Any] = [
    ({"zero_stage": 3, "offload_optimizer_device": "cpu", "offload_param_device": "cpu",
      "zero3_save_16bit_model": True, "gradient_accumulation_steps": 4}, "bf16", None),
    ({"zero_stage": 2, "offload_optimizer_device": "cpu", "offload_param_device": "none"}, "fp16", None),
    ({"zero_stage": 2, "offload_param_device": "cpu"}, "bf16", None),  # warning only (offload_param ignored)
    ({"zero_stage": 3, "offload_optimizer_device": "gpu"}, "no", None),
    ({"zero_stage": 3, "offload_param_device": "disk"}, "bf16", None),
    ({"zero_stage": 4}, "bf16", None),
    ({"deepspeed_config_file": "ds.json"}, "fp16", '{"bf16": {"enabled": true}, "zero_optimization": {"stage": 3}}'),
    ({"deepspeed_config_file": "ds.json"}, "bf16", '{"bf16": {"enabled": true}, "zero_optimization": {"stage": 3}}'),
    ({"deepspeed_config_file": "ds.json"}, "bf16", '{"fp16": {"enabled": true}, "zero_optimization": {"stage": 2}}'),
]
CONFIG_TIME = {"ds-config-invalid", "fp16-bf16-both-enabled", "partial-offload-requires-stage3"}



def _yaml(ds: Dict[str, Any], mp: Optional[str]) -> str:
    lines = ["compute_environment: LOCAL_MACHINE", "deepspeed_config:"]
    lines += [f"  {k}: {json.dumps(v) if isinstance(v, bool) else v}" for k, v in ds.items()]
    lines += ["distributed_type: DEEPSPEED", f"mixed_precision: {mp}", "num_processes: 1"]
    return "\n".join(lines) + "\n"


def test_accelerate_plugin_agrees(tmp_path: Path) -> None:
    items = []
    errors: List[List[str]] = []
    for i, (ds, mp, cfg) in enumerate(CASES):
        d = tmp_path / f"c{i}"
        d.mkdir()
        (d / "acc.yaml").write_text(_yaml(ds, mp))
        if cfg is not None:
            (d / "ds.json").write_text(cfg)
            ds = dict(ds, deepspeed_config_file=str(d / "ds.json"))
        items.append({"ds": ds, "mixed_precision": mp, "world_size": 1})
        res = lint([str(d / "acc.yaml")], ds_version="0.19.8")
        errors.append([f.name for f in res.report.findings if f.severity.value == "error" and f.path == str(d / "acc.yaml")])
    env = dict(os.environ, PYTHONPATH=f"{ORACLE / 'hf' / 'tf5.24.0'}:{ORACLE / 'ds' / '0.19.8'}", OMP_NUM_THREADS="1")
    env.pop("DS_ACCELERATOR", None)
    p = subprocess.run([str(VPY), str(HERE / "accel_plugin.py")], input="".join(json.dumps(i) + "\n" for i in items),
                       capture_output=True, text=True, env=env, timeout=300)
    verdicts = [json.loads(x) for x in p.stdout.splitlines() if x.startswith("{")]
    assert len(verdicts) == len(items), p.stderr[-3000:]
    for case, v, errs in zip(CASES, verdicts, errors):
        if not v["ok"]:
            assert errs, f"accelerate/DeepSpeed rejects {case}: {v['error']}; dsdoctor reports no error"
        elif set(errs) & CONFIG_TIME:
            pytest.fail(f"dsdoctor reports {errs} for {case}; accelerate/DeepSpeed accept it")
    assert sum(not v["ok"] for v in verdicts) >= 4, verdicts  # the cases above exercise real rejections


@pytest.mark.parametrize("stack", ["tf4.46.3", "tf5.24.0"])
def test_integration_top_keys_are_written_by_accelerate(stack: str) -> None:
    """knowledge INTEGRATION_TOP_KEYS: each key is one the provisioned accelerate's DeepSpeed plugin writes into the
    DeepSpeed config (``ds_config["msamp"] = {...}``), not a key DeepSpeed itself reads."""
    import re

    from dsdoctor.knowledge import deepspeed as K

    src = ORACLE / "hf" / stack / "accelerate" / "utils" / "dataclasses.py"
    if not src.is_file():
        pytest.fail(f"{src} missing: scripts/provision-oracle.sh makes it")
    text = src.read_text()
    for key in K.INTEGRATION_TOP_KEYS:
        assert re.search(r"(?:ds_config|deepspeed_config)\[\"" + re.escape(key) + r"\"\]\s*=", text), (stack, key)
        assert key not in K.TOP_LEVEL_KEYS
