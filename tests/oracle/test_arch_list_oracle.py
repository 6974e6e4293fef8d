"""Oracle: DeepSpeed's JIT builder and a TORCH_CUDA_ARCH_LIST entry with an arch suffix (9.0a).

The real ``CUDAOpBuilder.compute_capability_args`` of each provisioned DeepSpeed runs in JIT mode on the arch list
jit_load captures (no GPU is needed once the list is given), and its outcome is compared with
``knowledge.deepspeed.arch_list_unparsed``: the entry and part that raise ``ValueError: invalid literal for int()``,
or None where the list builds. The GPU device check (scripts/device-check.sh) saw the same failure end to end on an
H200 whose image sets such a list."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Dict

import pytest
from packaging.version import Version

from dsdoctor.knowledge import deepspeed as K

pytestmark = pytest.mark.oracle

REPO = Path(__file__).resolve().parents[2]
ORACLE = Path(os.environ.get("DSDOCTOR_ORACLE_DIR") or REPO / ".cache" / "oracle")
LISTS = ("9.0", "9.0a", "8.0;9.0a", "8.6+PTX 9.0", "10.0f", "9.0a+PTX", "Hopper", "8.0; 9.0")

_PROBE = """
import json, sys
from deepspeed.ops.op_builder import FusedAdamBuilder  # a CUDAOpBuilder (DS_ACCELERATOR=cuda)
out = {}
for arch in sys.argv[1:]:
    b = FusedAdamBuilder()
    b.jit_mode, b._jit_arch_list = True, arch
    try:
        b.compute_capability_args()
        out[arch] = None
    except ValueError as e:
        out[arch] = str(e)
print(json.dumps(out))
"""


def _real(ds: str) -> Dict[str, object]:
    env = dict(os.environ, PYTHONPATH=str(ORACLE / "ds" / ds), DS_ACCELERATOR="cuda",
               CUDA_HOME=str(ORACLE / "nvcc" / "13.0" / "nvidia" / "cu13"))
    p = subprocess.run([str(ORACLE / "venv" / "bin" / "python"), "-c", _PROBE, *LISTS], capture_output=True, text=True,
                       env=env, timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    return json.loads(p.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


@pytest.mark.parametrize("ds", ["0.19.7", "0.19.8"])
def test_arch_list_unparsed_matches_deepspeed(ds: str) -> None:
    real = _real(ds)
    for arch in LISTS:
        ours = K.arch_list_unparsed(Version(ds), arch)
        got = real[arch]
        if ours is None:
            assert got is None, (arch, got)
        else:
            assert got == f"invalid literal for int() with base 10: '{ours[1]}'", (arch, got, ours)
    assert real["9.0a"] and real["9.0"] is None  # the case itself, so the test cannot pass on an empty run
