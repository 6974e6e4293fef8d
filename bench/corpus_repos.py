"""The corpus scripts' repositories, each exported at the commit its FETCH.tsv row names, outside the project.

``FETCH.tsv`` (``../shared/corpus/scripts``) rows are ``id  owner/name  commit  path  sha256``. A repository is
exported once per commit to ``REPOS_DIR/<owner>+<name>@<commit[:8]>`` from a local git directory of it (a clone, a
bare repository or a stored snapshot, looked up under ``--mirror`` as ``<owner>+<name>/repo``, ``<owner>+<name>``,
``<owner>/<name>`` or ``<owner>/<name>.git``): the tree is written blob by blob (snapshots may lack very large
blobs: those files are left out and counted), then committed once in its own ``.git`` (message ``snapshot
<commit>``) so that the export looks like a user's clone. Nothing of it is copied into the project.

    .venv/bin/python bench/corpus_repos.py --mirror DIR [--repos-dir DIR] [--corpus DIR]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Tuple

REPO = Path(__file__).resolve().parents[1]
GIT_ENV = {"GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0"}


@dataclass(frozen=True)
class Row:
    """One FETCH.tsv row: the script ``path`` of ``repo`` (owner/name) at ``commit``."""

    id: str
    repo: str
    commit: str
    path: str
    sha256: str

    @property
    def key(self) -> str:
        """The export's folder name: ``owner+name@commit[:8]``."""
        return f"{self.repo.replace('/', '+')}@{self.commit[:8]}"


def corpus_dir() -> Path:
    """``$DSDOCTOR_CORPUS``, else ``../shared/corpus`` next to the repository."""
    env = os.environ.get("DSDOCTOR_CORPUS")
    return Path(env) if env else REPO.parent / "shared" / "corpus"


def default_repos_dir() -> Path:
    """``$TMPDIR/dsd-corpus/repos`` (else the system temporary folder's)."""
    return Path(os.environ.get("TMPDIR") or tempfile.gettempdir()) / "dsd-corpus" / "repos"


def read_fetch(labels_dir: Path) -> List[Row]:
    """The rows of ``labels_dir/FETCH.tsv`` (none when it is absent)."""
    p = labels_dir / "FETCH.tsv"
    if not p.is_file():
        return []
    rows = []
    for line in p.read_text().splitlines():
        parts = line.split("\t")
        if len(parts) == 5:
            rows.append(Row(*parts))
    return rows


def _git(args: List[str], git_dir: Optional[Path] = None, cwd: Optional[Path] = None,
         data: Optional[bytes] = None) -> subprocess.CompletedProcess:  # type: ignore[type-arg]
    cmd = ["git"] + ([f"--git-dir={git_dir}"] if git_dir else []) + args
    return subprocess.run(cmd, cwd=cwd, input=data, capture_output=True, timeout=600,
                          env=dict(os.environ, **GIT_ENV))


def find_git_dir(mirror: Path, repo: str) -> Optional[Path]:
    """The git directory of ``repo`` (owner/name) under ``mirror``, or None."""
    owner, name = repo.split("/", 1)
    for cand in (mirror / f"{owner}+{name}" / "repo", mirror / f"{owner}+{name}", mirror / owner / name / ".git",
                 mirror / owner / f"{name}.git", mirror / owner / name):
        if cand.is_dir() and _git(["rev-parse", "--git-dir"], git_dir=cand).returncode == 0:
            return cand
    return None


def _write_blobs(git_dir: Path, entries: List[Tuple[bytes, bytes, str]], part: Path) -> Tuple[int, int]:
    """Stream the blobs out of one ``git cat-file --batch`` into ``part``; (written, absent)."""
    proc = subprocess.Popen(["git", f"--git-dir={git_dir}", "cat-file", "--batch"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, env=dict(os.environ, **GIT_ENV))
    assert proc.stdin is not None and proc.stdout is not None
    stdin = proc.stdin

    def feed_all() -> None:
        stdin.write(b"".join(b + b"\n" for _, b, _ in entries))
        stdin.close()

    feed = threading.Thread(target=feed_all)
    feed.start()
    written = absent = 0
    for mode, _blob, path in entries:
        head = proc.stdout.readline().split()
        if len(head) < 3 or head[1] == b"missing":
            absent += 1
            continue
        body = proc.stdout.read(int(head[2]))
        proc.stdout.read(1)
        if mode == b"120000":
            continue  # a symlink: left out (an export never points outside itself)
        target = part / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(body)
        if mode == b"100755":
            target.chmod(0o755)
        written += 1
    feed.join()
    proc.wait()
    return written, absent


def export(git_dir: Path, commit: str, dest: Path) -> Tuple[int, int]:
    """Write the tree of ``commit`` to ``dest`` (a new folder) and commit it there once; (files, absent blobs)."""
    tree = _git(["ls-tree", "-r", "-z", commit], git_dir=git_dir)
    if tree.returncode != 0:
        raise RuntimeError(f"{git_dir}: no commit {commit}: {tree.stderr.decode(errors='replace').strip()}")
    entries = []  # (mode, blob, path)
    for item in tree.stdout.split(b"\0"):
        if not item:
            continue
        meta, path = item.split(b"\t", 1)
        mode, kind, blob = meta.split()
        if kind == b"blob":
            entries.append((mode, blob, path.decode(errors="surrogateescape")))
    part = dest.with_name(dest.name + ".part")
    shutil.rmtree(part, ignore_errors=True)
    part.mkdir(parents=True)
    written, absent = _write_blobs(git_dir, entries, part)
    _git(["init", "-q"], cwd=part)
    _git(["add", "-A"], cwd=part)
    _git(["-c", "user.email=export@localhost", "-c", "user.name=export", "commit", "-qm", f"snapshot {commit}"],
         cwd=part)
    part.rename(dest)
    return written, absent


def sha_ok(root: Path, row: Row) -> bool:
    """Whether the exported script is the corpus' file (its sha256)."""
    p = root / row.path
    return p.is_file() and hashlib.sha256(p.read_bytes()).hexdigest() == row.sha256


def materialize(rows: List[Row], repos_dir: Path, mirror: Optional[Path]) -> Dict[str, str]:
    """Export every row's repository that is not yet under ``repos_dir``; returns export key -> what is wrong (a
    repository that could not be had, or a script whose sha256 differs), empty when all are there."""
    problems: Dict[str, str] = {}
    for row in rows:
        root = repos_dir / row.key
        if row.key in problems:
            continue
        if not root.is_dir():
            git_dir = find_git_dir(mirror, row.repo) if mirror else None
            if git_dir is None:
                problems[row.key] = f"no git directory of {row.repo}" + (f" under {mirror}" if mirror else
                                                                          " (pass --mirror DIR)")
                continue
            try:
                n, absent = export(git_dir, row.commit, root)
            except (RuntimeError, OSError, subprocess.SubprocessError) as exc:
                problems[row.key] = str(exc)
                continue
            print(f"exported {row.repo}@{row.commit[:8]}: {n} files ({absent} large blobs absent) -> {root}",
                  file=sys.stderr)
        if not sha_ok(root, row):
            problems[f"{row.key}:{row.path}"] = f"{row.id}: {row.path} differs from the corpus' sha256"
    return problems


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mirror", type=Path, help="folder holding a git directory per repository")
    ap.add_argument("--repos-dir", type=Path, default=default_repos_dir())
    ap.add_argument("--corpus", type=Path, default=corpus_dir())
    a = ap.parse_args(argv)
    rows = read_fetch(a.corpus / "scripts")
    if not rows:
        print(f"no {a.corpus / 'scripts' / 'FETCH.tsv'}: nothing to export")
        return 0
    problems = materialize(rows, a.repos_dir, a.mirror)
    for key, why in problems.items():
        print(f"{key}: {why}")
    print(f"{len({r.key for r in rows}) - len(problems)} of {len({r.key for r in rows})} exports in {a.repos_dir}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
