"""Read the dependency pins a repository writes down, one reader per file kind: requirements files (and their
``-r`` / ``-c`` includes), ``setup.py`` (:mod:`dsdoctor.lint.pin_setup`), ``setup.cfg``,
``pyproject.toml`` (``[project]`` and Poetry), conda's ``environment.yml`` and ``pip install`` lines of a shell
script (a launch script that installs the release it runs with); a README's and a Markdown guide's in
:mod:`dsdoctor.lint.pin_readme`.

Every reader returns :class:`Pin` entries for the packages in ``PACKAGES`` only, with the file and line they
were read from; :mod:`dsdoctor.lint.pins` decides what version they let lint assume."""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass
from typing import Any, Dict, Iterable, Iterator, List, Optional, Set, Tuple

from packaging.requirements import InvalidRequirement, Requirement

from . import reading

PACKAGES = ("deepspeed", "torch", "transformers", "accelerate", "peft", "trl")
CONDA_NAMES = {"pytorch": "torch"}  # conda package name -> the pip name
READ_LIMIT = 1 << 20  # bytes read of one file
MAX_INCLUDES = 16  # -r / -c files followed from one requirements file (nested)


@dataclass(frozen=True)
class Pin:
    """``package`` as one file asks for it: ``spec`` is a PEP 440 specifier set (``"==0.17.1"``,
    ``">=0.12,<0.15"``; ``""`` unpinned; ``"@ URL"`` installed from a URL)."""

    package: str
    spec: str
    path: str
    line: int

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


def read_text(path: str) -> str:
    """A pin file's text as lint reads every file (lint/reading.py), at most :data:`READ_LIMIT` bytes."""
    return reading.read_text(path, READ_LIMIT)


# read too, never judged: what they pin limits the releases of the packages above that install (lint/pin_implied.py)
CONSTRAINING = ("huggingface-hub", "tokenizers")


def _name(raw: str) -> Optional[str]:
    n = re.sub(r"[-_.]+", "-", raw.strip().lower())
    n = CONDA_NAMES.get(n, n)
    return n if n in PACKAGES or n in CONSTRAINING else None


def requirement(text: str, path: str, line: int) -> Optional[Pin]:
    """A PEP 508 requirement (``deepspeed==0.14.0; python_version>'3.8'``) of a package we read, else None."""
    try:
        req = Requirement(text.strip())
    except InvalidRequirement:
        return _vcs(text.strip(), path, line)
    name = _name(req.name)
    if name is None or (req.marker is not None and not _on_linux(req.marker)):
        return None
    spec = f"@ {req.url}" if req.url else str(req.specifier)
    return Pin(name, spec, path, line)


# the Pythons a project's Linux training host may run, for markers (dsdoctor's own Python is no guide to it)
_LINUX_PYTHONS = ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13", "3.14")


def _on_linux(marker: Any) -> bool:
    """Does a requirement's environment marker hold on some Linux x86-64 / aarch64 host, for some Python
    (``torch==2.7.1+cu126; platform_system == 'Linux' or platform_system == 'Windows'``: yes; ``...; sys_platform ==
    'darwin'``: never, a macOS pin)? An undecidable marker (an extra, a name packaging does not know) holds."""
    for machine in ("x86_64", "aarch64"):
        for py in _LINUX_PYTHONS:
            env = {"os_name": "posix", "sys_platform": "linux", "platform_system": "Linux", "platform_machine": machine,
                   "platform_release": "", "platform_version": "", "python_version": py,
                   "python_full_version": py + ".0", "implementation_name": "cpython",
                   "platform_python_implementation": "CPython", "implementation_version": py + ".0", "extra": ""}
            try:
                if marker.evaluate(env):
                    return True
            except Exception:  # noqa: BLE001 -- packaging raises its own errors for markers it cannot evaluate
                return True
    return False


_VCS = re.compile(r"^(?:git|hg|svn|bzr)\+\S+?/([\w.-]+?)(?:\.git)?(?:@[^\s#]+)?(?:#egg=([\w.-]+))?$")


def _vcs(text: str, path: str, line: int) -> Optional[Pin]:
    """A bare VCS URL line (``git+https://github.com/someone/transformers.git@branch``, pip's form without a name):
    the package its ``#egg=`` names, else the repository's name; installed from that URL."""
    m = _VCS.match(text)
    name = _name(m.group(2) or m.group(1)) if m else None
    return Pin(name, f"@ {text}", path, line) if name else None


# ---------------------------------------------------------------------------------------------------
# requirements*.txt
# ---------------------------------------------------------------------------------------------------

def _logical_lines(text: str) -> Iterator[Tuple[int, str]]:
    """(first line number, line) with ``\\`` continuations joined and ``#`` comments removed."""
    buf, start = "", 0
    for n, raw in enumerate(text.splitlines(), 1):
        line = re.sub(r"(^|\s)#.*", "", raw)
        if not buf:
            start = n
        if line.rstrip().endswith("\\"):
            buf += line.rstrip()[:-1] + " "
            continue
        yield start, buf + line
        buf = ""
    if buf:
        yield start, buf


def requirements(path: str, shown: str, seen: Optional[Set[str]] = None) -> List[Pin]:
    """Pins of a requirements file, following ``-r`` / ``-c`` includes (relative to the file; each file once)."""
    seen = set() if seen is None else seen
    real = os.path.realpath(path)
    if real in seen or len(seen) > MAX_INCLUDES:
        return []
    seen.add(real)
    out: List[Pin] = []
    for n, line in _logical_lines(read_text(path)):
        s = line.strip()
        m = re.match(r"(?:-r|-c|--requirement|--constraint)(?:\s+|=)(\S+)", s)
        if m:
            inc = os.path.join(os.path.dirname(path), m.group(1))
            if os.path.isfile(inc):
                out += requirements(inc, os.path.join(os.path.dirname(shown), m.group(1)), seen)
            continue
        if not s or s.startswith("-"):
            continue  # options, -e editable installs
        pin = requirement(re.split(r"\s+--?\w", s)[0], shown, n)
        if pin:
            out.append(pin)
    return out


_LOCKED = re.compile(r'^\[\[package\]\]\s*\nname\s*=\s*"([^"]+)"\s*\nversion\s*=\s*"([^"]+)"', re.M)


def lock_toml(path: str, shown: str) -> List[Pin]:
    """The exact versions of a TOML lock file (poetry.lock, uv.lock, pdm.lock: ``[[package]]`` tables opening
    with their ``name`` and ``version``)."""
    text = read_text(path)
    out: List[Pin] = []
    for m in _LOCKED.finditer(text):
        name = _name(m.group(1))
        if name is not None:
            out.append(Pin(name, f"=={m.group(2)}", shown, text.count("\n", 0, m.start(2)) + 1))
    return out


# ---------------------------------------------------------------------------------------------------
# setup.cfg (setup.py: lint/pin_setup.py)
# ---------------------------------------------------------------------------------------------------

def setup_cfg(path: str, shown: str) -> List[Pin]:
    """``[options] install_requires`` and ``[options.extras_require]`` (dangling lists, one requirement a line)."""
    out: List[Pin] = []
    section, key = "", ""
    for n, raw in enumerate(read_text(path).splitlines(), 1):
        line = re.sub(r"(^|\s)[#;].*", "", raw).rstrip()
        if not line.strip():
            continue
        m = re.match(r"\[([^\]]+)\]", line)
        if m:
            section, key = m.group(1).strip(), ""
            continue
        value = line
        if not raw[:1].isspace():
            k, _, value = line.partition("=")
            key = k.strip()
        wanted = (section == "options" and key == "install_requires") or section == "options.extras_require"
        if wanted and value.strip():
            pin = requirement(value, shown, n)
            if pin:
                out.append(pin)
    return out


# ---------------------------------------------------------------------------------------------------
# pyproject.toml
# ---------------------------------------------------------------------------------------------------

def _line_of(text: str, needle: str, pattern: Optional[str] = None) -> int:
    i = text.find(needle) if needle else -1
    if i < 0 and pattern:
        m = re.search(pattern, text, re.M)
        i = m.start() if m else -1
    return text.count("\n", 0, i) + 1 if i >= 0 else 1


def poetry_spec(value: Any) -> Optional[str]:
    """A Poetry constraint as a PEP 440 specifier set: ``"0.14.0"`` -> ``==0.14.0``; ``^`` / ``~`` / wildcards
    -> a range marker (``"^0.14"``: not a PEP 440 set, kept as written); None when not a version constraint."""
    if isinstance(value, dict):
        value = value.get("version")
    if not isinstance(value, str):
        return None
    v = value.strip()
    if re.fullmatch(r"\d+(\.\d+)*", v):
        return f"=={v}"
    return v


def pyproject(path: str, shown: str) -> List[Pin]:
    """``[project] dependencies`` / ``optional-dependencies``, PEP 735 ``[dependency-groups]`` and Poetry's
    dependency tables (groups too)."""
    from ..settings import toml_module

    toml = toml_module()
    text = read_text(path)
    if toml is None:
        return []
    try:
        data: Dict[str, Any] = toml.loads(text)
    except (toml.TOMLDecodeError, ValueError):
        return []
    out: List[Pin] = []
    project = data.get("project") or {}
    reqs: List[Any] = list(project.get("dependencies") or [])
    for extra in (project.get("optional-dependencies") or {}).values():
        reqs += list(extra or [])
    for group in (data.get("dependency-groups") or {}).values():  # PEP 735 (uv): strings and {include-group = ...}
        reqs += list(group or []) if isinstance(group, list) else []
    for r in reqs:
        if isinstance(r, str):
            pin = requirement(r, shown, _line_of(text, r))
            if pin:
                out.append(pin)
    poetry = (data.get("tool") or {}).get("poetry") or {}
    tables = [poetry.get("dependencies") or {}]
    tables += [(g or {}).get("dependencies") or {} for g in (poetry.get("group") or {}).values()]
    for table in tables:
        for raw, value in table.items():
            name, spec = _name(raw), poetry_spec(value)
            if name and spec is not None:
                line = _line_of(text, "", rf"^\s*[\"']?{re.escape(raw)}[\"']?\s*=")
                out.append(Pin(name, "" if spec == "*" else spec, shown, line))
    return out


# ---------------------------------------------------------------------------------------------------
# README install lines
# ---------------------------------------------------------------------------------------------------

_INSTALL = re.compile(r"\b(?:pip3?|python3?\s+-m\s+pip|uv\s+pip)\s+install\s+(.*)")
_TAKES_VALUE = {"-r", "-c", "-e", "-i", "-f", "--index-url", "--extra-index-url", "--find-links", "--requirement",
                "--constraint", "--editable", "-t", "--target", "--prefix", "--root", "--trusted-host"}


def install_args(text: str) -> Iterable[str]:
    """The requirement arguments of one ``pip install ...`` command line (options and their values left out)."""
    rest = re.split(r"\s(?:&&|\|\||;|\|)\s|`", text)[0]
    try:
        words = shlex.split(rest, comments=True)
    except ValueError:
        words = rest.split()
    skip = False
    for w in words:
        if skip:
            skip = False
        elif w.startswith("-"):
            skip = w in _TAKES_VALUE
        else:
            yield w


# ---------------------------------------------------------------------------------------------------
# shell scripts
# ---------------------------------------------------------------------------------------------------

_COMMAND_START = re.compile(r"(?:^|&&|\|\||;)\s*(?:sudo\s+)?$")  # what may stand before a command on its line


def shell_script(path: str, shown: str) -> List[Pin]:
    """Packages a shell script installs with a version: a ``pip install deepspeed==0.9.1`` command of its own
    (at the start of a line or after ``&&`` / ``;``; comments, ``echo "pip install ..."`` left out)."""
    text = read_text(path)
    if "install" not in text:
        return []
    return _command_pins(_logical_lines(text), shown)


def _command_pins(lines: Iterable[Tuple[int, str]], shown: str) -> List[Pin]:
    """The pins of the ``pip install`` commands among shell command lines (line number, line)."""
    out: List[Pin] = []
    for n, line in lines:
        m = _INSTALL.search(line)
        if m and _COMMAND_START.search(line[:m.start()]):
            out += [p for arg in install_args(m.group(1)) if (p := requirement(arg, shown, n)) and p.spec]
    return out


_RUN = re.compile(r"^\s*RUN\s+", re.IGNORECASE)


def dockerfile(path: str, shown: str) -> List[Pin]:
    """Packages a Dockerfile's ``RUN pip install ...`` install with a version (its image's), read as a script's."""
    text = read_text(path)
    if "install" not in text:
        return []
    return _command_pins(((n, _RUN.sub("", line, count=1)) for n, line in _logical_lines(text) if _RUN.match(line)),
                         shown)
