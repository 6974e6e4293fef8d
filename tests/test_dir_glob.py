"""dir_glob.matches against the stdlib's glob: the same paths for every pattern read_pins globs, in directories full of
what glob treats specially (hidden names, links, magic characters in the directory's own name, a file where a
directory is expected)."""

from __future__ import annotations

import glob
import os
import random
from pathlib import Path
from typing import List

import pytest

from dsdoctor.lint.dir_glob import Listing, matches
from dsdoctor.lint.pin_readers import READERS

PATTERNS = [p for p, _ in READERS] + ["*", ".*", "*/*", "[!.]*.txt", "docs/*", "x/y/z"]
NAMES = ["README.md", "README_files", "readme.md", ".README.md", "requirements.txt", "requirements-dev.txt",
         ".requirements.txt", "requirements", "setup.py", "pyproject.toml", "env", "envs", "docs", "src", "scripts",
         "pkg", ".hidden", "Dockerfile", "Dockerfile.gpu", "a.Dockerfile", "x.yml", "y.yaml", "[x].sh", "run*.sh",
         "version.txt", "INSTALL.md", "Install.md", "__init__.py", "train_requirements.txt", "uv.lock"]


def _make(root: Path, rng: random.Random, depth: int = 0) -> None:
    for name in rng.sample(NAMES, rng.randint(3, 12)):
        p = root / name
        kind = rng.random()
        if depth < 2 and kind < 0.35:
            p.mkdir(exist_ok=True)
            _make(p, rng, depth + 1)
        elif kind < 0.45 and depth < 3:
            target = rng.choice(["..", "missing", "README.md", "."])
            if not p.exists() and not p.is_symlink():
                p.symlink_to(target)
        elif not p.exists():
            p.write_text("x\n")


def _roots(base: Path) -> List[str]:
    return [str(d) for d, _, _ in os.walk(base)]


@pytest.mark.parametrize("seed", range(12))
def test_matches_what_glob_gives(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    base = tmp_path / ("odd[1]*?" if seed % 2 else "plain")
    base.mkdir()
    _make(base, rng)
    for root in [*_roots(base), str(base / "missing"), str(base / "README.md")]:
        listed: Listing = {}
        for pat in PATTERNS:
            want = sorted(glob.glob(os.path.join(glob.escape(root), pat)))
            assert matches(root, pat, listed) == want, (root, pat)

