"""Derive which C++ function of torch raises a few common messages that carry no source location
(``src/dsdoctor/knowledge/data/torch_cpp.json.gz``), by running real torch releases.

Each probe below is a few lines that make torch raise the message; each interpreter given (a venv with a released
torch wheel installed) runs them all with ``TORCH_SHOW_CPP_STACKTRACES=1``, which makes c10 append ``Exception raised
from <function> at <file>:<line>`` to the message. The row keeps the template, the exception class, the C++ function
and file (relative to the source tree: ``aten/src/...``, ``torch/csrc/...``, ``c10/...``) and the torch releases that
raised it there (a structured kernel's ``meta`` names no function: such messages are not probed); a probe whose
message does not match its template, or that two releases raise from different
functions, is an error (the data would not hold). dsdoctor never imports torch: only this script runs it.

    python scripts/upstream/derive_torch_cpp.py [--devices cpu,cuda] PYTHON [PYTHON ...]   # e.g. .cache/oracle/venv*/bin/python

The tensors are made on the CPU unless ``--devices`` names others (``cpu,cuda`` on a machine with a GPU: each row
then holds on every device named; the provenance says which were run). The checks probed are the device-independent
ones (shapes, copies, autograd), in files both the CPU and the CUDA kernels use; a CPU-only message (``expected m1 and
m2 to have the same dtype``, CUDA says ``mat1 and mat2``) is not probed.
"""

from __future__ import annotations

import datetime
import gzip
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Tuple

OUT = Path(__file__).resolve().parents[2] / "src" / "dsdoctor" / "knowledge" / "data" / "torch_cpp.json.gz"
# (template with {} for each value: the whole message, the code that raises it); the code runs after ``import torch``
# with the device being run as the default device
PROBES = [
    ("The size of tensor a ({}) must match the size of tensor b ({}) at non-singleton dimension {}",
     "torch.ones(1, 70) + torch.ones(1, 69)"),
    ("Cannot copy out of meta tensor; no data!", "torch.empty(3, device='meta').to('cpu')"),
    ("shape '[{}]' is invalid for input of size {}", "torch.ones(6).view(4)"),
    ("The expanded size of the tensor ({}) must match the existing size ({}) at non-singleton dimension {}.  "
     "Target sizes: [{}].  Tensor sizes: [{}]",
     "torch.ones(2, 3).expand(2, 4)"),
    ("element 0 of tensors does not require grad and does not have a grad_fn", "torch.ones(2).sum().backward()"),
    ("a leaf Variable that requires grad is being used in an in-place operation.",
     "torch.ones(2, requires_grad=True).add_(1)"),
    ("Sizes of tensors must match except in dimension {}. Expected size {} but got size {} for tensor number {} in the "
     "list.", "torch.cat([torch.ones(2, 2), torch.ones(3, 3)], dim=1)"),
    ("Given normalized_shape=[{}], expected input with shape [*, {}], but got input of size[{}]",
     "torch.nn.functional.layer_norm(torch.ones(2, 3), (4,))"),
]
RUNNER = r"""
import json, sys, torch
torch.set_default_device(sys.argv[2])
out = {"version": torch.__version__, "git": getattr(torch.version, "git_version", ""), "results": []}
for code in json.loads(sys.argv[1]):
    try:
        exec(code, {"torch": torch})
        out["results"].append(None)
    except Exception as e:
        out["results"].append([type(e).__name__, str(e)])
print(json.dumps(out))
"""
_FROM = re.compile(r"Exception raised from (\S+) at \S*?((?:aten/src|torch/csrc|c10)/[\w/.]+\.(?:cpp|cu|h)):\d+")


def _regex(template: str) -> "re.Pattern[str]":
    return re.compile(r".{1,200}?".join(re.escape(p) for p in template.split("{}")) + r"\Z")


def run(python: str, device: str = "cpu") -> Dict[str, Any]:
    """The probes' results in one interpreter, tensors made on ``device``: torch's version and, per probe,
    [exception class, message]."""
    env = dict(os.environ, TORCH_SHOW_CPP_STACKTRACES="1", TORCH_DISABLE_ADDR2LINE="1")
    if device == "cpu":
        env["CUDA_VISIBLE_DEVICES"] = ""
    r = subprocess.run([python, "-c", RUNNER, json.dumps([code for _, code in PROBES]), device], capture_output=True,
                       text=True, timeout=600, env=env, check=True)
    return json.loads(r.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def derive(pythons: List[str], devices: Tuple[str, ...] = ("cpu",)) -> Dict[str, Any]:
    """The data document: a row per probe with the function, file and the releases that raised it there (on every
    device given: a function that differs by device stops it)."""
    rows: Dict[str, Dict[str, Any]] = {}
    versions = []
    for python, device in ((p, d) for p in pythons for d in devices):
        res = run(python, device)
        version = res["version"].split("+")[0]
        versions.append({"version": res["version"], "git": res["git"], "python": python, "device": device})
        for (template, code), got in zip(PROBES, res["results"]):
            if got is None or not _regex(template).match(got[1].split("\nException raised from")[0]):
                raise SystemExit(f"torch {version}: {code!r} did not raise {template!r}: {got}")
            m = _FROM.search(got[1])
            if m is None:
                raise SystemExit(f"torch {version}: no C++ location in {got[1][:300]!r}")
            row = rows.setdefault(template, {"template": template, "kind": got[0], "function": m.group(1),
                                             "file": m.group(2), "releases": [], "probe": code})
            if (row["kind"], row["function"], row["file"]) != (got[0], m.group(1), m.group(2)):
                raise SystemExit(f"{template!r}: torch {version} raises it elsewhere ({got[0]}, {m.group(1)})")
            if version not in row["releases"]:
                row["releases"].append(version)
    return {"rows": sorted(rows.values(), key=lambda r: r["template"]),
            "provenance": {"script": "scripts/upstream/derive_torch_cpp.py", "made": str(datetime.date.today()),
                           "how": "each probe run with TORCH_SHOW_CPP_STACKTRACES=1: c10's 'Exception raised from "
                                  "<function> at <file>' of the released wheel", "torch": versions}}


def main(argv: List[str]) -> int:
    devices: Tuple[str, ...] = ("cpu",)
    if argv[:1] == ["--devices"] and len(argv) > 1:
        devices, argv = tuple(argv[1].split(",")), argv[2:]
    if not argv:
        print(__doc__)
        return 2
    doc = derive(argv, devices)
    OUT.write_bytes(gzip.compress(json.dumps(doc, sort_keys=True, separators=(",", ":")).encode(), mtime=0))
    print(f"{OUT}: {len(doc['rows'])} rows, torch {', '.join(v['version'] for v in doc['provenance']['torch'])}, "
          f"{OUT.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
