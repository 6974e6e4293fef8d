from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator, List

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


_TIMELINE = os.environ.get("DSDOCTOR_TEST_TIMELINE")  # a file: one line per test (worker, node id, start, stop)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: object) -> Iterator[None]:
    """With DSDOCTOR_TEST_TIMELINE set, each test's wall-clock span on its xdist worker is appended to that file
    (how CI's two workers spend the run: which group is the critical path)."""
    start = time.time()
    yield
    if _TIMELINE:
        with open(_TIMELINE, "a", encoding="utf-8") as fh:
            fh.write(f"{os.environ.get('PYTEST_XDIST_WORKER', 'main')}\t{item.nodeid}\t{start:.2f}\t{time.time():.2f}\n")
