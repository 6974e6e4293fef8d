"""The package a project is: a checkout of DeepSpeed (or Transformers, Accelerate, PEFT, TRL) runs its own code,
whatever release another file names, so its configs and scripts are judged for its own version. DeepSpeed writes it
in ``version.txt`` beside ``deepspeed/`` (read by its setup.py); the others in their ``__init__.py``'s
``__version__``. DeepSpeed's repository at 0.19.6 keeps a test config with ``eigenvalue``, a block 0.19.8 rejects:
it is not a config the checkout rejects. :func:`.pins.resolve` lets these pins win over every other one.
"""

from __future__ import annotations

import os
import re
from typing import List

from packaging.version import InvalidVersion, Version

from .pin_files import PACKAGES, Pin, read_text

_VERSION = re.compile(r"""^__version__\s*(?::\s*str\s*)?=\s*["']([^"'\n]+)["']""", re.M)
OWN_FILES = ("version.txt", "__init__.py")  # the only files these readers read: :func:`.pins.resolve` knows them so


def _pin(package: str, version: str, shown: str, line: int) -> List[Pin]:
    try:
        Version(version)
    except InvalidVersion:
        return []
    return [Pin(package, "==" + version, shown, line)]


def version_txt(path: str, shown: str) -> List[Pin]:
    """DeepSpeed's ``version.txt``, where ``deepspeed/__init__.py`` is beside it (a checkout of DeepSpeed)."""
    if not os.path.isfile(os.path.join(os.path.dirname(path), "deepspeed", "__init__.py")):
        return []
    first = read_text(path).strip().splitlines()
    return _pin("deepspeed", first[0].strip(), shown, 1) if first else []


def package_init(path: str, shown: str) -> List[Pin]:
    """``<pkg>/__init__.py`` or ``src/<pkg>/__init__.py`` of a package lint judges, with a literal ``__version__``."""
    package = os.path.basename(os.path.dirname(os.path.abspath(path)))
    if package not in PACKAGES:
        return []
    text = read_text(path)
    m = _VERSION.search(text)
    return _pin(package, m.group(1).strip(), shown, text.count("\n", 0, m.start()) + 1) if m else []
