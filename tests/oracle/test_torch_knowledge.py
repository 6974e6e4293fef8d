"""Oracle: dsdoctor's facts about torch.utils.cpp_extension, read from the real installed torch builds
(the CUDA 2.14.1 build in venv/, the CPU 2.13.0 build in venv-cpu213/)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import List

import pytest

from dsdoctor.knowledge import cuda as CK

pytestmark = pytest.mark.oracle

REPO = Path(__file__).resolve().parents[2]
ORACLE = Path(os.environ.get("DSDOCTOR_ORACLE_DIR") or REPO / ".cache" / "oracle")
VENVS = ("venv", "venv-cpu213")


def _torch_dirs() -> List[Path]:
    found = sorted(ORACLE.glob("venv*/lib/python3*/site-packages/torch"))
    names = {p.parents[3].name for p in found}
    missing = [v for v in VENVS if v not in names]
    if missing:
        msg = f"torch not provisioned in {missing}: run scripts/provision-oracle.sh"
        if os.environ.get("DSDOCTOR_REQUIRE_ORACLE") == "1":
            pytest.fail(msg)
        pytest.skip(msg)
    return [p for p in found if p.parents[3].name in VENVS]


def _version(torch_dir: Path) -> str:
    m = re.search(r"__version__ = '([^']+)'", (torch_dir / "version.py").read_text())
    assert m
    return m.group(1)


def test_extension_lock_kind_matches_torch() -> None:
    for d in _torch_dirs():
        src = (d / "utils" / "cpp_extension.py").read_text()
        baton = "FileBaton(os.path.join(build_directory, 'lock'))" in src
        assert baton or "FileLock(os.path.join(build_directory, 'lock'))" in src, d
        assert CK.extension_lock_blocks(_version(d)) is baton, (_version(d), baton)


def test_cuda_home_resolution_and_ninja_message() -> None:
    for d in _torch_dirs():
        src = (d / "utils" / "cpp_extension.py").read_text()
        # the order dsdoctor's resolve_cuda_home copies
        assert "os.environ.get('CUDA_HOME') or os.environ.get('CUDA_PATH')" in src
        assert 'shutil.which("nvcc")' in src and "cuda_home = '/usr/local/cuda'" in src
        assert "CUDA_HOME = _find_cuda_home() if (torch.cuda._is_compiled() and torch.version.cuda) else None" in src
        assert CK.MSG_TORCH_NINJA.split(": ", 1)[1] in src
        assert "accelerator_str = f'cu{torch.version.cuda.replace(\".\", \"\")}'" in src
