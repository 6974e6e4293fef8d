"""Oracle for ``launch-config-missing`` on an accelerate config file: the real ``accelerate launch`` of the Accelerate
releases provisioned for the other oracles (1.1.1 with ``hf/tf4.46.3``, 1.15.0 with ``hf/tf5.24.0``) is handed a
``--config_file`` YAML named for DeepSpeed that does not exist; it must stop with the message ``dsdoctor lint``
quotes for the same launch line, before any process starts. Nothing is downloaded here."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from envfixture import need_oracle

from dsdoctor.knowledge import deepspeed as K
from dsdoctor.lint import lint

pytestmark = pytest.mark.oracle

REPO = Path(__file__).resolve().parents[2]
ORACLE = Path(os.environ.get("DSDOCTOR_ORACLE_DIR") or REPO / ".cache" / "oracle")
LINE = "accelerate launch --config_file configs/deepspeed_zero3.yaml probe.py"


@pytest.mark.parametrize("hf", ["tf4.46.3", "tf5.24.0"])
def test_missing_accelerate_yaml_stops_the_launch_as_predicted(tmp_path: Path, hf: str) -> None:
    (tmp_path / "probe.py").write_text("print('STARTED', flush=True)\n")
    (tmp_path / "train.sh").write_text(f"#!/bin/bash\n{LINE}\n")
    said = [f.title for f in lint([str(tmp_path)]).report.findings if f.name == "launch-config-missing"]
    assert len(said) == 1, said
    predicted = K.MSG_ACCELERATE_CONFIG_NOT_FOUND.format(path="configs/deepspeed_zero3.yaml")
    assert predicted in said[0]

    py = need_oracle(ORACLE / "venv" / "bin" / "python")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "ACCELERATE_"))}
    env.update(PYTHONPATH=f"{need_oracle(ORACLE / 'hf' / hf)}{os.pathsep}{need_oracle(ORACLE / 'ds' / '0.19.8')}",
               HF_HUB_OFFLINE="1")
    p = subprocess.run([str(py), "-m", "accelerate.commands.launch", *LINE.split()[2:]], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode != 0 and "STARTED" not in p.stdout
    assert predicted in p.stderr, p.stderr[-3000:]
