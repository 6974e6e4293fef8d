"""Run by the oracle venv (real torch + DeepSpeed on PYTHONPATH): for each {"path", "world_size"} on stdin,
build ``DeepSpeedConfig(path)`` with the world size patched (reference §6.4) and print one JSON verdict per line.
Also parses hostfile / .deepspeed_env texts with the launcher's own code (``{"hostfile": text}`` / ``{"env": text}``)."""

import contextlib
import io
import json
import logging
import os
import sys
import tempfile
import warnings
from unittest import mock

warnings.filterwarnings("ignore")
logging.disable(logging.CRITICAL)
with contextlib.redirect_stdout(io.StringIO()):
    import deepspeed  # noqa: F401
    from deepspeed.launcher import runner
    from deepspeed.runtime import config as C


def config(item):
    ws = item.get("world_size") or 1
    with mock.patch.object(C.dist, "get_rank", return_value=0), \
            mock.patch.object(C.dist, "get_world_size", return_value=ws):
        C.DeepSpeedConfig(item["path"])


def hostfile(item):
    with tempfile.NamedTemporaryFile("w", suffix="hostfile", delete=False) as fh:
        fh.write(item["hostfile"])
    try:
        got = runner.fetch_hostfile(fh.name)
        if not got:
            raise ValueError("empty resource pool")
    finally:
        os.unlink(fh.name)


def env(item):
    d = tempfile.mkdtemp()
    with open(os.path.join(d, ".deepspeed_env"), "w") as fh:
        fh.write(item["env"])
    import inspect

    assert "key, val = var.split('=', maxsplit=1)" in inspect.getsource(runner.main), "runner.main changed"
    for var in open(os.path.join(d, ".deepspeed_env")).readlines():  # runner.main's own loop (no function exists)
        key, val = var.split('=', maxsplit=1)


for line in sys.stdin:
    item = json.loads(line)
    fn = hostfile if "hostfile" in item else env if "env" in item else config
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            fn(item)
        out = {"ok": True}
    except BaseException as exc:  # noqa: BLE001 - every failure is a verdict
        out = {"ok": False, "error": f"{type(exc).__name__}: {exc}"[:400]}
    print(json.dumps(out), flush=True)
