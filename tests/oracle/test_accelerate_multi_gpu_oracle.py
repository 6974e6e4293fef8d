"""Oracle for ``accelerate-multi-gpu-skips-deepspeed``: the real ``accelerate launch`` of the Accelerate releases
provisioned for the other oracles (1.1.1 with ``hf/tf4.46.3``, 1.15.0 with ``hf/tf5.24.0``; DeepSpeed 0.19.8 on the
shared venv's CPU torch) starts two processes of a probe with a ZeRO-3 accelerate YAML, with and without
``--multi_gpu``; each rank of the probe writes the ``ACCELERATE_USE_DEEPSPEED`` its Accelerator would read. ``dsdoctor lint`` of
the same two launch lines must flag exactly the launch that gets no DeepSpeed. Nothing is downloaded here."""

from __future__ import annotations

import os
import socket
import subprocess
from pathlib import Path

import pytest
from envfixture import need_oracle

from dsdoctor.lint import lint

pytestmark = pytest.mark.oracle

REPO = Path(__file__).resolve().parents[2]
ORACLE = Path(os.environ.get("DSDOCTOR_ORACLE_DIR") or REPO / ".cache" / "oracle")
YAML = ("compute_environment: LOCAL_MACHINE\ndeepspeed_config:\n  gradient_accumulation_steps: 1\n"
        "  zero3_init_flag: false\n  zero_stage: 3\ndistributed_type: DEEPSPEED\nmixed_precision: 'no'\n"
        "num_machines: 1\nnum_processes: 2\n")
# Each rank writes its own file: two ranks printing to one unbuffered pipe interleave their characters.
PROBE = ("import os\nwith open(f\"rank{os.environ.get('RANK')}.out\", 'w') as f:\n"
         "    f.write(f\"USE_DEEPSPEED {os.environ.get('ACCELERATE_USE_DEEPSPEED')}\\n\")\n")
LAUNCHES = {"plain": "accelerate launch --config_file zero3.yaml probe.py",
            "multi": "accelerate launch --config_file zero3.yaml --multi_gpu probe.py"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _launch(hf: str, line: str, tmp: Path) -> str:
    py = need_oracle(ORACLE / "venv" / "bin" / "python")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "ACCELERATE_"))}
    env.update(PYTHONPATH=f"{need_oracle(ORACLE / 'hf' / hf)}{os.pathsep}{need_oracle(ORACLE / 'ds' / '0.19.8')}",
               OMP_NUM_THREADS="1", HF_HUB_OFFLINE="1")
    argv = [str(py), "-m", "accelerate.commands.launch", "--main_process_port", str(_free_port()), *line.split()[2:]]
    for old in tmp.glob("rank*.out"):
        old.unlink()
    p = subprocess.run(argv, cwd=tmp, env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, (p.stdout + p.stderr)[-3000:]
    return "".join(f.read_text() for f in sorted(tmp.glob("rank*.out")))


@pytest.mark.parametrize("hf", ["tf4.46.3", "tf5.24.0"])
def test_multi_gpu_launch_gets_no_deepspeed_as_predicted(tmp_path: Path, hf: str) -> None:
    (tmp_path / "zero3.yaml").write_text(YAML)
    (tmp_path / "probe.py").write_text(PROBE)
    for name, line in LAUNCHES.items():
        (tmp_path / f"{name}.sh").write_text(f"#!/bin/bash\n{line}\n")
    found = {f.path.rsplit("/", 1)[-1] for f in lint([str(tmp_path)]).report.findings
             if f.name == "accelerate-multi-gpu-skips-deepspeed"}
    assert found == {"multi.sh"}, found
    for name, line in LAUNCHES.items():
        out = _launch(hf, line, tmp_path)
        want = "None" if name == "multi" else "true"
        assert out.count(f"USE_DEEPSPEED {want}") == 2, (name, out[-2000:])
