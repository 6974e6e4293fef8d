"""A cache of subprocess probe results for ``dsdoctor.preflight()`` (``dsdoctor check`` never uses it).

Each entry is keyed by a hash of exactly what its result depends on: the tool's resolved path and the
identity of that file (real path, inode, size, mtime), the arguments, the environment variables the tool
reads, and for GPU probes the driver's identity (``/proc/driver/nvidia``, the ``/dev/nvidia*`` nodes). A
changed CUDA_HOME, PATH or CXX resolves another file and so another key; a reinstalled nvcc, compiler or
driver changes the file identity. Only successful results are stored: a failing probe runs again every time.

The file is ``$XDG_CACHE_HOME/dsdoctor/probes-v1.json`` (``~/.cache`` without XDG_CACHE_HOME), written
atomically (temporary file + ``os.replace``), bounded to :data:`MAX_ENTRIES`; an unreadable or unwritable
cache is ignored, never an error. ``DSDOCTOR_NO_CACHE=1`` disables it.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from typing import Any, Callable, Dict, Mapping, Optional, Sequence, Tuple, TypeVar

from .run import ToolResult, run_tool

T = TypeVar("T")

VERSION = 1
FILE_NAME = f"probes-v{VERSION}.json"
MAX_ENTRIES = 256
DISABLE_VAR = "DSDOCTOR_NO_CACHE"


def default_dir(env: Optional[Mapping[str, str]] = None) -> str:
    environ = os.environ if env is None else env
    base = environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "dsdoctor")


def file_id(path: Optional[str]) -> Optional[Tuple[str, int, int, int, int]]:
    """(real path, device, inode, size, mtime in ns) of the file ``path`` resolves to; None when absent."""
    if not path:
        return None
    try:
        real = os.path.realpath(path)
        st = os.stat(real)
    except OSError:
        return None
    return real, st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns


def driver_id() -> Tuple[str, Tuple[str, ...], Tuple[str, ...]]:
    """The NVIDIA kernel driver's version line, its GPU directories (PCI ids) and the ``/dev/nvidia*``
    nodes this process can see: what NVML / ``nvidia-smi -L`` report depends on."""
    try:
        with open("/proc/driver/nvidia/version", "rb") as fh:
            version = fh.read(4096).decode("utf-8", "replace")
    except OSError:
        version = ""
    try:
        gpus = tuple(sorted(os.listdir("/proc/driver/nvidia/gpus")))
    except OSError:
        gpus = ()
    try:
        nodes = tuple(sorted(n for n in os.listdir("/dev") if n.startswith("nvidia")))
    except OSError:
        nodes = ()
    return version, gpus, nodes


class ProbeCache:
    """Probe results by key, loaded once, saved once (:meth:`save`) when something changed."""

    def __init__(self, directory: Optional[str] = None) -> None:
        self.directory = directory or default_dir()
        self.path = os.path.join(self.directory, FILE_NAME)
        self._entries: Dict[str, Dict[str, Any]] = {}
        self._dirty = False
        self._lock = threading.Lock()  # probes run in threads
        self.hits = 0
        self.misses = 0
        try:
            with open(self.path, "rb") as fh:
                data = json.loads(fh.read().decode("utf-8"))
            if isinstance(data, dict) and data.get("version") == VERSION and isinstance(data.get("entries"), dict):
                self._entries = {k: e for k, e in data["entries"].items() if isinstance(e, dict) and "value" in e}
        except (OSError, ValueError, UnicodeDecodeError):
            self._entries = {}

    @staticmethod
    def key(kind: str, parts: Sequence[Any]) -> str:
        raw = json.dumps([kind, *parts], sort_keys=True, default=str)
        return kind + ":" + hashlib.sha256(raw.encode("utf-8")).hexdigest()[:32]

    def get(self, key: str) -> Optional[Any]:
        with self._lock:
            entry = self._entries.get(key)
            return None if entry is None else entry["value"]

    def put(self, key: str, value: Any) -> None:
        with self._lock:
            self._entries[key] = {"value": value, "stored": time.time()}
            self._dirty = True

    def memo(self, kind: str, parts: Sequence[Any], compute: Callable[[], T], dump: Callable[[T], Optional[Any]],
             load: Callable[[Any], Optional[T]]) -> T:
        """``load(cached)`` when this key is stored and ``load`` accepts it (returns not None); else
        ``compute()``, stored as ``dump(result)`` unless ``dump`` returns None (a result not worth keeping)."""
        key = self.key(kind, parts)
        cached = self.get(key)
        if cached is not None:
            try:
                got = load(cached)
            except (KeyError, TypeError, ValueError, IndexError):
                got = None
            if got is not None:
                self.hits += 1
                return got
        self.misses += 1
        result = compute()
        stored = dump(result)
        if stored is not None:
            self.put(key, stored)
        return result

    def tool(self, argv: Sequence[str], timeout: float, depends: Sequence[Any] = (),
             keep: Callable[[ToolResult], bool] = lambda r: r.ok,
             valid: Callable[[ToolResult], bool] = lambda r: True) -> ToolResult:
        """``run_tool(argv)`` unless a stored result for this executable (its file identity), these arguments
        and ``depends`` exists and is still ``valid``. Stores results that are ``keep`` (default: exit 0)."""
        fid = file_id(argv[0]) if argv else None
        if fid is None:
            return run_tool(argv, timeout=timeout)

        def load(d: Any) -> Optional[ToolResult]:
            res = ToolResult(tuple(argv), int(d["rc"]), str(d["out"]), str(d["err"]))
            return res if valid(res) else None

        return self.memo("tool", [list(argv), list(fid), list(depends)], lambda: run_tool(argv, timeout=timeout),
                         lambda r: {"rc": r.returncode, "out": r.stdout, "err": r.stderr} if keep(r) else None, load)

    def save(self) -> None:
        """Write the file atomically when something changed; errors are ignored (a cache is optional)."""
        with self._lock:
            if not self._dirty:
                return
            entries = dict(sorted(self._entries.items(), key=lambda kv: kv[1].get("stored", 0))[-MAX_ENTRIES:])
            payload = json.dumps({"version": VERSION, "entries": entries}, sort_keys=True)
            self._dirty = False
        from ..atomic import write_text

        try:
            os.makedirs(self.directory, mode=0o700, exist_ok=True)
            write_text(self.path, payload, mode=0o600)
        except OSError:
            pass


def enabled(env: Optional[Mapping[str, str]] = None) -> bool:
    environ = os.environ if env is None else env
    return environ.get(DISABLE_VAR, "") in ("", "0")
