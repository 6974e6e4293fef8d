"""Oracle for the fix ``accelerate-yaml-unknown-deepspeed-key`` gives a key spelled near ``gradient_clipping``: in
the real Accelerate and Transformers provisioned for the other oracles (1.1.1 with ``hf/tf4.46.3``, 1.15.0 with
``hf/tf5.24.0``), the DeepSpeedPlugin an accelerate YAML without ``gradient_clipping`` builds has ``"auto"`` there,
the HF Trainer fills that from max_grad_norm, and refuses another number: the reason the fix names both ways out.
Nothing is downloaded here."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from envfixture import need_oracle

from dsdoctor.lint import lint

pytestmark = pytest.mark.oracle

REPO = Path(__file__).resolve().parents[2]
ORACLE = Path(os.environ.get("DSDOCTOR_ORACLE_DIR") or REPO / ".cache" / "oracle")
PROBE = """
import os
from accelerate.utils import DeepSpeedPlugin
from transformers import TrainingArguments
from transformers.integrations.deepspeed import HfTrainerDeepSpeedConfig

print("DEFAULT", DeepSpeedPlugin(zero_stage=2).deepspeed_config["gradient_clipping"])
args = TrainingArguments(output_dir="out", max_grad_norm=0.2, report_to=[])
for value in ("auto", 0.2, 1.0):
    hf = HfTrainerDeepSpeedConfig(DeepSpeedPlugin(zero_stage=2, gradient_clipping=value).deepspeed_config)
    try:
        hf.trainer_config_process(args)
        hf.trainer_config_finalize(args, None, 10)  # where the Trainer raises the mismatches process collected
        print("FILLED", value, hf.config["gradient_clipping"])
    except ValueError as e:
        print("REFUSED", value, "gradient_clipping" in str(e))
"""


@pytest.mark.parametrize("hf", ["tf4.46.3", "tf5.24.0"])
def test_gradient_clipping_rename_as_the_fix_says(tmp_path: Path, hf: str) -> None:
    (tmp_path / "acc.yaml").write_text("distributed_type: DEEPSPEED\ndeepspeed_config:\n  zero_stage: 2\n"
                                       "  gradient_clip: 1.0\n")
    fixes = [x.title for f in lint([str(tmp_path / "acc.yaml")]).report.findings
             if f.name == "accelerate-yaml-unknown-deepspeed-key" for x in f.fixes]
    assert len(fixes) == 1 and "max_grad_norm" in fixes[0] and '"auto"' in fixes[0], fixes

    py = need_oracle(ORACLE / "venv" / "bin" / "python")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "ACCELERATE_"))}
    env.update(PYTHONPATH=f"{need_oracle(ORACLE / 'hf' / hf)}{os.pathsep}{need_oracle(ORACLE / 'ds' / '0.19.8')}",
               HF_HUB_OFFLINE="1")
    p = subprocess.run([str(py), "-c", PROBE], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    got = p.stdout.split("\n")
    assert "DEFAULT auto" in got and "FILLED auto 0.2" in got and "FILLED 0.2 0.2" in got, p.stdout
    assert "REFUSED 1.0 True" in got, p.stdout
