"""The Python interpreter whose environment is checked (``--python``; default: the running one)."""

from __future__ import annotations

import glob
import json
import os
import shutil
import sys
import sysconfig
from dataclasses import dataclass, replace
from typing import Any, Dict, List, Mapping, Optional, Set, Tuple, Union

from .run import ProbeFailure, run_tool

# Runs in the target interpreter: standard library only, imports nothing heavy.
_QUERY = (
    "import json,sys,sysconfig;"
    "print(json.dumps({'executable':sys.executable,'version':list(sys.version_info[:3]),"
    "'path':sys.path,'include':sysconfig.get_paths().get('include',''),'prefix':sys.prefix,"
    "'base_prefix':getattr(sys,'base_prefix',sys.prefix),'abiflags':getattr(sys,'abiflags',''),"
    "'platform':sys.platform,'scripts':sysconfig.get_paths().get('scripts','')}))"
)


@dataclass(frozen=True)
class Interpreter:
    executable: str
    version: Tuple[int, int, int]
    path: Tuple[str, ...]
    include: str
    prefix: str
    base_prefix: str
    abiflags: str
    platform: str
    scripts: str
    # Why this interpreter was checked when ``--python`` was not given and it is not dsdoctor's own.
    chosen: str = ""

    @property
    def is_env(self) -> bool:
        """A venv or conda env, whose ``bin`` is on PATH once activated."""
        return self.prefix != self.base_prefix or os.path.isdir(os.path.join(self.prefix, "conda-meta"))

    @property
    def short(self) -> str:
        return f"{self.version[0]}.{self.version[1]}.{self.version[2]}"


def _from_dict(d: Dict[str, Any]) -> Interpreter:
    ver = d["version"]
    return Interpreter(
        executable=str(d["executable"]),
        version=(int(ver[0]), int(ver[1]), int(ver[2])),
        path=tuple(str(p) for p in d["path"]),
        include=str(d["include"]),
        prefix=str(d["prefix"]),
        base_prefix=str(d["base_prefix"]),
        abiflags=str(d["abiflags"]),
        platform=str(d["platform"]),
        scripts=str(d.get("scripts", "")),
    )


def current() -> Interpreter:
    """The interpreter running dsdoctor (no subprocess needed)."""
    paths = sysconfig.get_paths()
    return Interpreter(
        executable=sys.executable,
        version=(sys.version_info[0], sys.version_info[1], sys.version_info[2]),
        path=tuple(sys.path),
        include=paths.get("include", ""),
        prefix=sys.prefix,
        base_prefix=getattr(sys, "base_prefix", sys.prefix),
        abiflags=getattr(sys, "abiflags", ""),
        platform=sys.platform,
        scripts=paths.get("scripts", ""),
    )


def locate(python: str) -> str:
    """``--python`` as a shell finds it: a bare name (``python3``) is looked up on PATH; a path is kept."""
    if os.sep in python or (os.altsep and os.altsep in python):
        return python
    return shutil.which(python) or python


def query(python: str, timeout: float = 10.0, env: Optional[Mapping[str, str]] = None) -> Union[Interpreter, ProbeFailure]:
    """Ask another interpreter (a conda env, a project venv) for its paths, in a subprocess."""
    probe = f"{python} (interpreter query)"
    python = locate(python)
    if not os.path.exists(python):
        return ProbeFailure(probe, "no such file", python)
    res = run_tool([python, "-c", _QUERY], timeout=timeout, env=env)
    if not res.ok:
        return ProbeFailure(probe, res.describe_failure(), python)
    try:
        line: Optional[str] = next(
            (ln for ln in reversed(res.stdout.splitlines()) if ln.startswith("{")), None
        )
        if line is None:
            raise ValueError("no JSON in output")
        return _from_dict(json.loads(line))
    except (ValueError, KeyError, TypeError, IndexError) as exc:
        return ProbeFailure(probe, f"unexpected output ({exc}): {res.stdout[:200]!r}", python)


def resolve(python: Optional[str], env: Optional[Mapping[str, str]] = None) -> Union[Interpreter, ProbeFailure]:
    """``--python`` when given, else :func:`default`."""
    if python is None:
        return default(os.environ if env is None else env)
    return query(python, env=env)


def has_torch(interp: Interpreter) -> bool:
    """torch is importable from the interpreter's ``sys.path`` (a file check, nothing imported)."""
    return any(os.path.isfile(os.path.join(d, "torch", "__init__.py")) for d in site_dirs(interp))


def _candidates(env: Mapping[str, str]) -> List[Tuple[str, str]]:
    out: List[Tuple[str, str]] = []
    for var, why in (("VIRTUAL_ENV", "the active virtualenv"), ("CONDA_PREFIX", "the active conda env")):
        if env.get(var):
            out.append((os.path.join(env[var], "bin", "python"), f"{why}, ${var}"))
    for name in ("python3", "python"):
        found = shutil.which(name, path=env.get("PATH", os.defpath))
        if found:
            out.append((found, f"`{name}` on PATH"))
    return out


def _may_have_torch(exe: str, env: Mapping[str, str]) -> bool:
    """A torch package under the interpreter's prefix (venv / conda layout, Debian's dist-packages) or the user
    site: checked on disk first, so that the usual case (no torch anywhere) starts no subprocess."""
    prefix = os.path.dirname(os.path.dirname(os.path.abspath(exe)))
    home = env.get("HOME") or os.path.expanduser("~")
    patterns = (os.path.join(prefix, "lib", "python3*", "site-packages", "torch", "__init__.py"),
                os.path.join(prefix, "lib", "python3*", "dist-packages", "torch", "__init__.py"),
                os.path.join(prefix, "local", "lib", "python3*", "dist-packages", "torch", "__init__.py"),
                os.path.join(home, ".local", "lib", "python3*", "site-packages", "torch", "__init__.py"))
    return any(glob.glob(p) for p in patterns)


def default(env: Mapping[str, str]) -> Interpreter:
    """The interpreter running dsdoctor, unless it has no torch (dsdoctor installed with pipx or in a venv of its
    own) and the active virtualenv / conda env, or the first ``python3`` / ``python`` on PATH, is another
    interpreter that has torch: that is the training environment, and ``chosen`` says why it was taken."""
    own = current()
    if has_torch(own):
        return own
    key = tuple(env.get(v, "") for v in _DEFAULT_KEY)
    if key not in _chosen:  # check asks twice (its probes, then its project lint): one answer per environment
        _chosen[key] = _choose(own, env)
    return _chosen[key]


_DEFAULT_KEY = ("VIRTUAL_ENV", "CONDA_PREFIX", "PATH", "HOME", "PYTHONPATH")  # what the choice reads
_chosen: Dict[Tuple[str, ...], Interpreter] = {}


def _choose(own: Interpreter, env: Mapping[str, str]) -> Interpreter:
    # A venv's python is a link to its base interpreter: environments differ by prefix, not by real path.
    seen = {own.prefix}
    asked: Set[str] = set()
    for exe, why in _candidates(env):
        if exe in asked or not os.path.isfile(exe) or not _may_have_torch(exe, env):
            continue
        asked.add(exe)
        got = query(exe, env=env)
        if not isinstance(got, Interpreter) or got.prefix in seen:
            continue
        seen.add(got.prefix)
        if has_torch(got):
            return replace(got, chosen=f"{why}; dsdoctor's own {own.executable} has no torch")
    return own


def default_executable() -> str:
    """The interpreter ``verify`` / ``smoke`` / ``launch`` run without ``--python``: :func:`default`'s."""
    return default(os.environ).executable


def site_dirs(interp: Interpreter) -> List[str]:
    """Existing directories on the interpreter's ``sys.path`` (zip files and cwd placeholder dropped)."""
    return [p for p in interp.path if p and os.path.isdir(p)]
