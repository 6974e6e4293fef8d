"""The pins of a conda environment file: ``environment.yml`` and any other YAML of a directory that is one
(``conda env create -f py3.7pytorch1.8.yaml``): conda match specs and the ``- pip:`` list under them; and of a
``conda list --export`` file kept as requirements.txt (``deepspeed=0.11.1=pypi_0``)."""

from __future__ import annotations

import os
import re
from typing import List, Optional, Tuple

from .pin_files import Pin, _name, read_text, requirement, requirements


def conda_spec(text: str) -> Optional[Tuple[str, str]]:
    """A conda match spec (``pytorch=2.1.0=py3.10_cuda11.8_0``, ``deepspeed>=0.12``, ``torch 2.1.0``) as (pip
    name, PEP 440 specifier set): ``==X`` and a single ``=`` (or a space) with a full X.Y.Z are that release; a
    shorter one (``=0.14``) is the prefix ``==0.14.*``; a build string is left out."""
    m = re.fullmatch(r"(?:[\w.-]+::)?([A-Za-z0-9_.\-]+)\s*(.*)", text.strip())
    name = _name(m.group(1)) if m else None
    if m is None or name is None:
        return None
    rest = (m.group(2).split() or [""])[0]
    if not rest:
        return name, ""
    one = re.fullmatch(r"(==|=)?(\d+(?:\.\d+)*)(\.\*)?(?:=\S*)?", rest)
    if one is None:
        return name, rest
    ver, star = one.group(2), one.group(3)
    exact = not star and (one.group(1) == "==" or ver.count(".") >= 2)
    return name, f"=={ver}" if exact else f"=={ver}.*"


def environment_yml(path: str, shown: str) -> List[Pin]:
    """``dependencies:`` of a conda environment file: conda specs and the ``- pip:`` list under it."""
    out: List[Pin] = []
    in_deps, pip_indent = False, -1
    for n, raw in enumerate(read_text(path).splitlines(), 1):
        line = re.sub(r"\s+#.*", "", raw).rstrip()
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        indent = len(line) - len(line.lstrip())
        if indent == 0:
            in_deps, pip_indent = line.startswith("dependencies:"), -1
            continue
        m = re.match(r"\s*-\s+(.*)", line)
        if not in_deps or not m:
            continue
        item = m.group(1).strip().strip("'\"")
        if item.rstrip(":") == "pip" and item.endswith(":"):
            pip_indent = indent
            continue
        if pip_indent >= 0 and indent > pip_indent:
            pin = requirement(item, shown, n)
        else:
            pip_indent = -1
            spec = conda_spec(item)
            pin = Pin(spec[0], spec[1], shown, n) if spec else None
        if pin:
            out.append(pin)
    return out


_CONDA_TOP = re.compile(r"^(?:name|channels|prefix):", re.M)


def conda_env_file(path: str, shown: str) -> List[Pin]:
    """Any other YAML of the directory that is a conda environment file (``conda env create -f
    py3.7pytorch1.8.yaml``): a top-level ``dependencies:`` with ``name:`` / ``channels:`` / ``prefix:`` beside it."""
    text = read_text(path)
    if not re.search(r"^dependencies:", text, re.M) or not _CONDA_TOP.search(text):
        return []
    return environment_yml(path, shown)


_EXPORTED = re.compile(r"[A-Za-z0-9_.\-]+=[^=\s]+=\S+")  # name=version=build: conda's export, never pip's


def requirements_or_export(path: str, shown: str) -> List[Pin]:
    """A requirements file, or a ``conda list --export`` kept under that name (every line ``name=version=build``,
    which pip refuses): its conda specs."""
    lines = [(n, s.strip()) for n, s in enumerate(read_text(path).splitlines(), 1)
             if s.strip() and not s.lstrip().startswith("#")]
    if not lines or not all(_EXPORTED.fullmatch(s) for _, s in lines):
        return requirements(path, shown)
    out: List[Pin] = []
    for n, s in lines:
        spec = conda_spec(s)
        if spec is not None:
            out.append(Pin(spec[0], spec[1], shown, n))
    return out


_TXT_NAMED = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*[\w.-]+\.txt)\b")


def named_txt_pins(readme: str, shown: str) -> List[Pin]:
    """The pins of the ``.txt`` files a README names by path (InstructBioMol: "configure the environment according
    to the package details in `environment/train-infer.txt`"), each line a pip requirement or a conda spec
    (``pytorch=2.1.0``, ``deepspeed==0.9.3``): only a file that pins a package we read exactly or by a range, read
    for the README's directory (requirements files by their own name are read there anyway)."""
    base, shown_dir = os.path.dirname(readme) or ".", os.path.dirname(shown)
    out: List[Pin] = []
    for rel in dict.fromkeys(m.group(1) for m in _TXT_NAMED.finditer(read_text(readme))):
        f = os.path.normpath(os.path.join(base, rel))
        if os.path.basename(f).lower().startswith("requirement") or not os.path.isfile(f) or \
                os.path.getsize(f) > 64 * 1024:
            continue
        got = [Pin(spec[0], spec[1], os.path.normpath(os.path.join(shown_dir, rel)), n)
               for n, line in enumerate(read_text(f).splitlines(), 1)
               if line.strip() and not line.lstrip().startswith("#") and (spec := conda_spec(line)) is not None]
        if any(p.spec for p in got):
            out += got
    return out
