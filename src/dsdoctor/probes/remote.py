"""The probe another node runs: ``collect()`` there, EnvFacts back as one JSON line.

``bundle()`` makes a self-contained Python script (stdlib only) out of this package's own source (the
probes and the CUDA knowledge they read): the remote node needs no dsdoctor. The script is sent over the
transport's stdin (ssh) or as ``python3 -c`` (pdsh, srun: they do not forward stdin).
"""

from __future__ import annotations

import base64
import io
import json
import os
import sys
import zipfile
import zlib
from typing import Any, Dict, Mapping, Optional

MARK = "DSDOCTOR-NODE"
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # src/dsdoctor
_FILES = ("__init__.py", "knowledge/__init__.py", "knowledge/cuda.py")

_BOOT = """\
import base64, os, sys, tempfile, zlib
fd, p = tempfile.mkstemp(prefix="dsdoctor-probe-", suffix=".zip")
os.write(fd, zlib.decompress(base64.b64decode(%r))); os.close(fd)
sys.path.insert(0, p)
try:
    from dsdoctor.probes.remote import main
    main(%r)
finally:
    os.unlink(p)
"""


def _zip() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        names = list(_FILES) + ["probes/" + n for n in sorted(os.listdir(os.path.join(_PACKAGE, "probes")))
                                if n.endswith(".py")]
        for rel in names:
            zf.write(os.path.join(_PACKAGE, rel), "dsdoctor/" + rel)
    return buf.getvalue()


def bundle(python: Optional[str], exports: Mapping[str, str]) -> str:
    """The self-contained probe script: checks ``python`` (None: the remote ``python3``) with ``exports``
    applied to the node's environment (what the launcher forwards)."""
    blob = base64.b64encode(zlib.compress(_zip(), 9)).decode()
    cfg = json.dumps({"python": python, "exports": dict(exports)})
    return _BOOT % (blob, cfg)


def one_liner(script: str) -> str:
    """``python3 -c '...'`` for transports without stdin; only base64 characters inside the quotes."""
    b = base64.b64encode(zlib.compress(script.encode(), 9)).decode()
    return "python3 -c 'import base64,zlib;exec(zlib.decompress(base64.b64decode(\"%s\")))'" % b


def main(cfg_json: str) -> None:
    """Remote side: collect and print ``MARK {json}``."""
    from .environment import collect
    from .wire import encode

    cfg: Dict[str, Any] = json.loads(cfg_json)
    env = dict(os.environ)
    env.update(cfg.get("exports") or {})
    facts = collect(cfg.get("python"), env)
    out = {"hostname": os.uname().nodename, "facts": encode(facts)}
    sys.stdout.write(MARK + " " + json.dumps(out) + "\n")
    sys.stdout.flush()
