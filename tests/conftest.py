from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(scope="session")
def bare_python(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A venv with nothing installed: fixture site-packages reach it through PYTHONPATH only."""
    d = tmp_path_factory.mktemp("barevenv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(d)], check=True)
    return str(d / "bin" / "python")
