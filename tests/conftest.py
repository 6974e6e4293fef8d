from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import List

import pytest

sys.path.insert(0, str(Path(__file__).parent))
# tests/cases holds fixture projects, some with their own tests/ and conftest.py (a repository's unit tests are
# lint input): they are read by the tests, never collected as tests.
collect_ignore_glob = ["cases/*"]


@pytest.fixture(scope="session")
def bare_python(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A venv with nothing installed: fixture site-packages reach it through PYTHONPATH only."""
    d = tmp_path_factory.mktemp("barevenv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(d)], check=True)
    return str(d / "bin" / "python")


# Test files that start real torch.distributed processes (the deepspeed launcher, deepspeed.initialize, zero.Init:
# default rendezvous port 29500) or the network-namespace cluster: they must not run at the same time, so under
# pytest-xdist (`-n 2 --dist loadgroup`, as scripts/test.sh runs) they share one group, i.e. one worker. Every
# other file is its own group (its module-scoped fixtures are built once), so files spread over the workers.
SERIAL_FILES = {
    "tests/oracle/test_api_oracle.py", "tests/oracle/test_estimate_memory_oracle.py", "tests/oracle/test_explain_oracle.py",
    "tests/oracle/test_lint_engine_oracle.py", "tests/oracle/test_lint_launcher_oracle.py", "tests/oracle/test_lint_oracle.py",
    "tests/oracle/test_multinode_oracle.py", "tests/oracle/test_script_lint_oracle.py", "tests/oracle/test_smoke_oracle.py",
    "tests/oracle/test_zero_init_oracle.py", "tests/test_multinode.py", "tests/test_multinode_netns.py",
}


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook, which reads the group into the node id
def pytest_collection_modifyitems(config: pytest.Config, items: List[pytest.Item]) -> None:
    root = Path(__file__).resolve().parent.parent
    for item in items:
        rel = Path(str(item.fspath)).resolve().relative_to(root).as_posix()
        item.add_marker(pytest.mark.xdist_group("distributed" if rel in SERIAL_FILES else rel))
