"""Installed package versions from metadata, ``torch/version.py`` and DeepSpeed's install-time record,
read as files (``ast`` literals), never imported."""

from __future__ import annotations

import ast
import os
import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .run import ProbeFailure

# Distributions whose presence or version matters to a check.
WATCHED = (
    "torch",
    "deepspeed",
    "transformers",
    "accelerate",
    "peft",
    "vllm",
    "ninja",
    "triton",
    "intel_extension_for_pytorch",
    "intel_extension_for_deepspeed",
    "torch_npu",
    "oneccl_bind_pt",
)

_NORM = re.compile(r"[-_.]+")


def normalize(name: str) -> str:
    return _NORM.sub("_", name).lower()


@dataclass
class Dist:
    name: str
    version: str
    location: str  # the sys.path entry holding it


@dataclass
class TorchInfo:
    version: str
    cuda: Optional[str]
    hip: Optional[str]
    git_version: Optional[str]
    package_dir: str


@dataclass
class DeepSpeedInstall:
    """What DeepSpeed's setup.py recorded in ``git_version_info_installed.py``."""

    version: Optional[str]
    installed_ops: Dict[str, bool]
    accelerator_name: str
    torch_info: Dict[str, str]
    package_dir: str


@dataclass
class Packages:
    dists: Dict[str, Dist] = field(default_factory=dict)  # by normalized name; first on sys.path wins
    torch: Optional[TorchInfo] = None
    deepspeed: Optional[DeepSpeedInstall] = None
    module_dirs: Dict[str, str] = field(default_factory=dict)  # importable top-level packages found
    failures: List[ProbeFailure] = field(default_factory=list)

    def version(self, name: str) -> Optional[str]:
        d = self.dists.get(normalize(name))
        return d.version if d else None


def _metadata_version(path: str) -> Tuple[Optional[str], Optional[str]]:
    """(name, version) from a METADATA/PKG-INFO file's headers."""
    name = version = None
    with open(path, "rb") as fh:
        for raw in fh:
            line = raw.decode("utf-8", errors="replace").rstrip("\r\n")
            if not line:
                break  # headers end at the first blank line
            if line.startswith("Name:"):
                name = line[5:].strip()
            elif line.startswith("Version:"):
                version = line[8:].strip()
            if name and version:
                break
    return name, version


_DIST_DIR = re.compile(r"^(?P<name>[^-]+)-(?P<ver>[^-]+?)(?:-py\d.*)?\.(?:dist-info|egg-info)$")


def scan(paths: Sequence[str], names: Sequence[str] = WATCHED) -> Packages:
    """Find ``names`` on ``paths`` (in order, like the import system); never raises."""
    wanted = {normalize(n) for n in names}
    out = Packages()
    for entry in paths:
        try:
            listing = os.listdir(entry)
        except OSError:
            continue
        for item in listing:
            m = _DIST_DIR.match(item)
            if m:
                key = normalize(m.group("name"))
                if key in wanted and key not in out.dists:
                    _read_dist(out, entry, item, key, m.group("ver"))
            elif item in ("torch", "deepspeed", "ninja") and item not in out.module_dirs:
                full = os.path.join(entry, item)
                if os.path.isfile(os.path.join(full, "__init__.py")):
                    out.module_dirs[item] = full
    if "torch" in out.module_dirs:
        _read_torch(out, out.module_dirs["torch"])
    if "deepspeed" in out.module_dirs:
        _read_deepspeed(out, out.module_dirs["deepspeed"])
    return out


def _read_dist(out: Packages, entry: str, item: str, key: str, dir_version: str) -> None:
    meta_dir = os.path.join(entry, item)
    meta = os.path.join(meta_dir, "METADATA" if item.endswith("dist-info") else "PKG-INFO")
    try:
        name, version = _metadata_version(meta)
    except OSError as exc:
        out.failures.append(ProbeFailure("package metadata", f"cannot read {meta}: {exc.strerror or exc}", meta))
        name, version = None, dir_version
    if version is None:
        out.failures.append(ProbeFailure("package metadata", f"no Version header in {meta}", meta))
        version = dir_version
    out.dists[key] = Dist(name or key, version, entry)


def _literals(path: str) -> Dict[str, Any]:
    """Top-level ``NAME = <literal>`` assignments of a Python file, without running it."""
    with open(path, "rb") as fh:
        tree = ast.parse(fh.read(), filename=path)
    values: Dict[str, Any] = {}
    for node in tree.body:
        target: Optional[ast.expr] = None
        value: Optional[ast.expr] = None
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        if isinstance(target, ast.Name) and value is not None:
            try:
                values[target.id] = ast.literal_eval(value)
            except ValueError:
                continue
    return values


def _read_torch(out: Packages, pkg: str) -> None:
    path = os.path.join(pkg, "version.py")
    try:
        vals = _literals(path)
    except (OSError, SyntaxError, ValueError) as exc:
        out.failures.append(ProbeFailure("torch/version.py", f"unreadable: {exc}", path))
        return
    ver = vals.get("__version__")
    if not isinstance(ver, str):
        out.failures.append(ProbeFailure("torch/version.py", "no __version__ string", path))
        return
    cuda, hip, git = vals.get("cuda"), vals.get("hip"), vals.get("git_version")
    out.torch = TorchInfo(
        version=ver,
        cuda=cuda if isinstance(cuda, str) else None,
        hip=hip if isinstance(hip, str) else None,
        git_version=git if isinstance(git, str) else None,
        package_dir=pkg,
    )


def _read_deepspeed(out: Packages, pkg: str) -> None:
    path = os.path.join(pkg, "git_version_info_installed.py")
    if not os.path.exists(path):
        return  # a source checkout: DeepSpeed then assumes no prebuilt ops
    try:
        vals = _literals(path)
    except (OSError, SyntaxError, ValueError) as exc:
        out.failures.append(ProbeFailure("deepspeed install record", f"unreadable: {exc}", path))
        return
    ops = vals.get("installed_ops", {})
    tinfo = vals.get("torch_info", {})
    ver = vals.get("version")
    out.deepspeed = DeepSpeedInstall(
        version=ver.strip() if isinstance(ver, str) else None,
        installed_ops={str(k): bool(v) for k, v in ops.items()} if isinstance(ops, dict) else {},
        accelerator_name=str(vals.get("accelerator_name", "")),
        torch_info={str(k): str(v) for k, v in tinfo.items()} if isinstance(tinfo, dict) else {},
        package_dir=pkg,
    )
