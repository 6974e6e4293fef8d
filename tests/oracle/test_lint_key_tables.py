"""Lint's ZeRO / offload / fp16 / bf16 key tables (knowledge §6) equal the keys the real DeepSpeed
pydantic models accept (field names and aliases) in 0.15.4, 0.19.7 and 0.19.8."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from packaging.version import Version

from dsdoctor.knowledge import deepspeed as K

pytestmark = pytest.mark.oracle

REPO = Path(__file__).resolve().parents[2]
ORACLE = Path(os.environ.get("DSDOCTOR_ORACLE_DIR") or REPO / ".cache" / "oracle")
VPY = ORACLE / "venv" / "bin" / "python"
HERE = Path(__file__).parent



@pytest.mark.parametrize("ds", ["0.15.4", "0.19.7", "0.19.8"])
def test_key_tables_match_pydantic_models(ds: str) -> None:
    env = dict(os.environ, PYTHONPATH=str(ORACLE / "ds" / ds))
    env.pop("DS_ACCELERATOR", None)
    p = subprocess.run([str(VPY), str(HERE / "ds_model_keys.py")], capture_output=True, text=True, env=env, timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    real = json.loads(p.stdout.strip().splitlines()[-1])
    ver = Version(ds)
    checked = 0
    for path, (keys, _since) in K.VALIDATED_BLOCKS.items():
        name = ".".join(path)
        if not K.block_validated(path, ver):
            assert name not in real, f"{name} is a pydantic model in {ds} but the table says it is not validated"
            continue
        ours = set(K.config_keys_for(keys, ver))
        assert ours == set(real[name]), (f"{name} in {ds}: only in dsdoctor {sorted(ours - set(real[name]))}, "
                                         f"only in DeepSpeed {sorted(set(real[name]) - ours)}")
        checked += 1
    assert checked >= 3


# the DeepSpeedConfig attribute each BLOCK_KEY_DEFAULTS entry sets
_ATTRS = {("fp16", "enabled"): ["fp16_enabled", "float16_config.enabled"],
          ("bf16", "enabled"): ["bfloat16_enabled", "bfloat16_config.enabled"]}


@pytest.mark.parametrize("ds", ["0.15.4", "0.19.8"])
def test_block_key_defaults_are_deepspeeds(ds: str) -> None:
    """A block written without the key (its misspelling left out: 0.15.4 ignores it, 0.19.8 rejects it) resolves
    to the default knowledge's BLOCK_KEY_DEFAULTS gives, in the real DeepSpeedConfig."""
    assert set(K.BLOCK_KEY_DEFAULTS) == set(_ATTRS)
    items = [{"config": {"train_batch_size": 1, block: {}}, "attrs": _ATTRS[(block, key)]}
             for block, key in K.BLOCK_KEY_DEFAULTS]
    env = dict(os.environ, PYTHONPATH=str(ORACLE / "ds" / ds))
    env.pop("DS_ACCELERATOR", None)
    p = subprocess.run([str(VPY), str(HERE / "ds_block_defaults.py")], input=json.dumps(items), capture_output=True,
                       text=True, env=env, timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    assert json.loads(p.stdout.strip().splitlines()[-1]) == list(K.BLOCK_KEY_DEFAULTS.values())


@pytest.mark.parametrize("ds", ["0.15.4", "0.19.8"])
def test_zero_defaults_are_deepspeeds(ds: str) -> None:
    """A zero_optimization block without a field resolves, in the real DeepSpeedConfig, to the default
    knowledge/zero_defaults derived for that release from the sdists (every field it knows a literal default of)."""
    import gzip

    from dsdoctor.knowledge import zero_defaults as Z

    fields = sorted(json.loads(gzip.decompress(Path(Z.DATA).read_bytes()))["defaults"])
    known = [(f, Z.default(f, ds)) for f in fields]
    known = [(f, v) for f, (ok, v) in known if ok and f != "stage"]  # the block needs its stage
    assert len(known) >= 20 and ("reduce_bucket_size", 500000000) in known
    items = [{"config": {"train_batch_size": 1, "zero_optimization": {"stage": 2}}, "attrs": [f"zero_config.{f}"]}
             for f, _ in known]
    env = dict(os.environ, PYTHONPATH=str(ORACLE / "ds" / ds))
    env.pop("DS_ACCELERATOR", None)
    p = subprocess.run([str(VPY), str(HERE / "ds_block_defaults.py")], input=json.dumps(items), capture_output=True,
                       text=True, env=env, timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    real = json.loads(p.stdout.strip().splitlines()[-1])
    assert dict(zip([f for f, _ in known], real)) == dict(known)
