"""Run by the oracle venv (real torch + DeepSpeed on PYTHONPATH): for each {"config", "attrs"} on stdin (one JSON
list), build ``DeepSpeedConfig(config)`` (world size 1, as ds_validate.py) and print the list of the values it
resolves, as one JSON line: per item, the first of its dotted ``attrs`` the release has (``fp16_enabled`` up to
0.17.0, ``float16_config.enabled`` after)."""

import contextlib
import io
import json
import logging
import sys
import warnings
from unittest import mock

warnings.filterwarnings("ignore")
logging.disable(logging.CRITICAL)
with contextlib.redirect_stdout(io.StringIO()):
    import deepspeed  # noqa: F401
    from deepspeed.runtime import config as C

out = []
for item in json.load(sys.stdin):
    with mock.patch.object(C.dist, "get_rank", return_value=0), \
            mock.patch.object(C.dist, "get_world_size", return_value=1):
        cfg = C.DeepSpeedConfig(item["config"])
    for dotted in item["attrs"]:
        obj = cfg
        try:
            for part in dotted.split("."):
                obj = getattr(obj, part)
        except AttributeError:
            continue
        out.append(obj)
        break
    else:
        raise SystemExit(f"none of {item['attrs']} in this DeepSpeedConfig")
print(json.dumps(out))
sys.stdout.flush()
