"""Fixture-file tests: one TOML file per case under tests/cases/check/. Each lays out an environment
(see envfixture.py), runs the real `dsdoctor check --format json` against it in a subprocess, and
compares the findings and the cpu_adam prediction with the case's [expect] table."""

from __future__ import annotations

import json
import os
import resource
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List

import pytest
from envfixture import Unavailable, make_bin, make_libs, make_site, make_toolkit, require_oracle

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11
    import tomli as tomllib  # type: ignore[no-redef]

CASES = sorted((Path(__file__).parent / "cases" / "check").glob("*.toml"))
CHECK_BOUND_S = 10  # the whole check must finish within this, hung probes included
MIN_CASES = 142  # today's number: a folder emptied or cases lost fails test_the_cases_are_there
# the [expect] keys test_case checks: any other key would be read by nothing (a typo passes silently)
EXPECT_KEYS = {"loads", "cause", "blockers", "accelerator", "errors", "warnings", "infos", "absent", "rc", "first_fix",
               "fixes_absent", "fixes_contain", "explanation_contains", "fix_applicability", "probe_failed",
               "message_contains", "notes_contain", "title_contains", "severity", "prediction", "facts_contain", "facts"}


def run_case(case: Dict[str, Any], tmp: Path, bare_python: str) -> Dict[str, Any]:
    for path in case.get("skip_if_exists", []):  # cases whose premise this machine contradicts
        if os.path.lexists(path):
            pytest.skip(f"{path} exists on this machine")
    hide = [p for p in case.get("machine", {}).get("hide_paths", []) if os.path.lexists(p)]
    machine = case.get("machine", {})
    site = tmp / "site"
    make_site(case.get("site", {}), site)
    home = make_toolkit(case.get("toolkit", "none"), tmp)
    path_entries = make_bin(machine, tmp / "bin")
    env = {
        "PATH": os.pathsep.join(path_entries),
        "HOME": str(tmp / "home"),
        "PYTHONPATH": str(site),
        "TORCH_EXTENSIONS_DIR": str(tmp / "ext"),
        "LANG": "C.UTF-8",
    }
    if home is not None:
        env["CUDA_HOME"] = str(home)
    # Other toolkits on disk: "conda" = a $CONDA_PREFIX env; "site/<rel>" = under site-packages (pip wheels).
    for where, spec in case.get("other_toolkits", {}).items():
        if where == "conda":
            make_toolkit(spec, tmp, tmp / "conda")
            env["CONDA_PREFIX"] = str(tmp / "conda")
        else:
            assert where.startswith("site/"), where
            make_toolkit(spec, tmp, site / where[len("site/"):])
    if machine.get("libs"):  # linkable CUDA libraries on LIBRARY_PATH (e.g. ["curand"])
        env["LIBRARY_PATH"] = str(make_libs(machine["libs"], tmp / "libs"))
    if machine.get("libaio"):  # a linkable libaio + header, where dsdoctor's probe looks
        make_libs(["aio"], tmp / "libs")
        env["LIBRARY_PATH"] = str(tmp / "libs")
        (tmp / "inc").mkdir()
        (tmp / "inc" / "libaio.h").write_text("")
        env["CPATH"] = str(tmp / "inc")
    for k, v in case.get("env", {}).items():
        env[k] = str(v).replace("{tmp}", str(tmp)).replace("{site}", str(site))
    for k in case.get("unset_env", []):  # e.g. TORCH_EXTENSIONS_DIR: torch's default root under $HOME/.cache
        env.pop(k, None)
    for rel in case.get("site_files", []):  # empty files under site-packages (e.g. a wheel's versioned library)
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_text("")
    for key in ("stale_lock", "busy_lock"):
        lock = machine.get(key)
        if lock:
            (tmp / "ext" / lock).mkdir(parents=True)
            (tmp / "ext" / lock / "lock").write_text("")
    for rel in machine.get("home_locks", []):  # <root>/<op> under $HOME/.cache/torch_extensions; {py}: pyXY<abi>
        build = tmp / "home" / ".cache" / "torch_extensions" / rel.replace("{py}", _py_tag(bare_python))
        build.mkdir(parents=True)
        (build / "lock").write_text("")
    cli_args = list(case.get("cli_args", []))
    if "ds_config" in case:  # a DeepSpeed config passed with --ds-config
        (tmp / "ds_config.json").write_text(json.dumps(case["ds_config"]))
        cli_args += ["--ds-config", str(tmp / "ds_config.json")]
    python = bare_python
    if machine.get("python_without_headers"):
        env["PYTHONPATH"] = os.pathsep.join([str(_headerless(tmp)), env["PYTHONPATH"]])
    memlock = machine.get("memlock_kib")

    def limits() -> None:
        if memlock is not None:  # lowering a soft limit needs no privilege
            _soft, hard = resource.getrlimit(resource.RLIMIT_MEMLOCK)
            resource.setrlimit(resource.RLIMIT_MEMLOCK, (int(memlock) * 1024, hard))

    builder = None
    if machine.get("busy_lock"):  # a process "building" in that directory: the lock is live
        builder = subprocess.Popen(["sleep", "60"], cwd=tmp / "ext" / machine["busy_lock"])
    if "package-api-incompatible" not in json.dumps(case) and not (tmp / "dsdoctor.toml").exists():
        # most cases pair an old DeepSpeed with torch 2.4.0, a real incompatibility (DeepSpeed < 0.14.1 imports what
        # torch 2.4 removed): the package-api cases test it; the others are about something else
        (tmp / "dsdoctor.toml").write_text('ignore = ["package-api-incompatible"]\n')
    try:
        argv = [sys.executable, "-m", "dsdoctor", "check", "--python", python, "--format", "json", *cli_args]
        if hide:
            argv = _hidden(hide, argv)
        proc = subprocess.run(
            argv,
            capture_output=True, text=True, env=env, timeout=CHECK_BOUND_S,
            cwd=tmp, preexec_fn=limits if memlock is not None else None,
        )
    finally:
        if builder is not None:
            builder.kill()
            builder.wait()
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode in (0, 1), (proc.returncode, proc.stderr)
    out: Dict[str, Any] = json.loads(proc.stdout)  # nothing but JSON on stdout
    out["_rc"] = proc.returncode
    return out


def _py_tag(python: str) -> str:
    """``py<major><minor><abiflags>`` of ``python``, as torch names its default extensions root."""
    out = subprocess.run([python, "-c", "import sys; print('py%d%d%s' % (sys.version_info[0], sys.version_info[1], "
                          "getattr(sys, 'abiflags', '')))"], capture_output=True, text=True, check=True)
    return out.stdout.strip()


def _headerless(tmp: Path) -> Path:
    """Fault injection: a sitecustomize that points the interpreter's include dir at an empty directory,
    as on a Python installed without its -dev package."""
    inc, sc = tmp / "include-empty", tmp / "sitecustom"
    inc.mkdir()
    sc.mkdir()
    (sc / "sitecustomize.py").write_text(
        "import sysconfig\n_g = sysconfig.get_paths\n"
        f"sysconfig.get_paths = lambda *a, **k: dict(_g(*a, **k), include={str(inc)!r})\n"
    )
    return sc


def _hidden(paths: List[str], argv: List[str]) -> List[str]:
    """Run ``argv`` in a private mount namespace where ``paths`` are empty tmpfs mounts (e.g. a machine
    with no /usr/local/cuda). Needs root and unshare; otherwise the case cannot be made here."""
    unshare, mount = shutil.which("unshare"), shutil.which("mount")
    if os.geteuid() != 0 or not unshare or not mount:
        raise Unavailable("hiding paths needs root, unshare and mount")
    for p in paths:
        if sys.executable.startswith(p + "/") or os.path.realpath(sys.executable).startswith(p + "/"):
            raise Unavailable(f"cannot hide {p}: the test interpreter lives there")
    mounts = " && ".join(f"{mount} -t tmpfs none {shlex.quote(p)}" for p in paths)
    return [unshare, "-m", "--propagation", "private", "/bin/sh", "-c", f'{mounts} && exec "$@"', "sh", *argv]


def test_the_cases_are_there() -> None:
    """Every file of the folder is a case test_case runs, there are at least MIN_CASES, and each one expects
    something test_case checks (every [expect] key is one it reads)."""
    import inspect

    folder = Path(__file__).parent / "cases" / "check"
    assert len(CASES) >= MIN_CASES, f"{len(CASES)} cases in {folder}"
    assert sorted(folder.iterdir()) == CASES, "files there that are not *.toml cases"
    checked = inspect.getsource(test_case)
    for key in EXPECT_KEYS:
        assert f'"{key}" in exp' in checked or f'exp.get("{key}"' in checked, f"test_case does not check {key}"
    for path in CASES:
        exp = tomllib.loads(path.read_text()).get("expect", {})
        assert exp and set(exp) <= EXPECT_KEYS, f"{path.name}: expects nothing, or keys nothing checks: {sorted(set(exp) - EXPECT_KEYS)}"


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path: Path, tmp_path: Path, bare_python: str) -> None:
    case = tomllib.loads(path.read_text())
    assert case.get("description"), "every case says what it proves"
    try:
        out = run_case(case, tmp_path, bare_python)
    except Unavailable as exc:
        if require_oracle():
            raise
        pytest.skip(str(exc))
    exp = case["expect"]
    assert exp and set(exp) <= EXPECT_KEYS, f"expects nothing, or keys nothing checks: {sorted(set(exp) - EXPECT_KEYS)}"
    pred = out["predictions"]["cpu_adam"]
    by_sev: Dict[str, set] = {"error": set(), "warning": set(), "info": set()}
    for f in out["findings"]:
        by_sev[f["severity"]].add(f["name"])
    names = {f["name"] for f in out["findings"]}
    ctx = f"\nfindings: {[(f['name'], f['severity'], f['title']) for f in out['findings']]}\nprediction: {pred}"
    if "loads" in exp:
        assert pred["loads"] is exp["loads"], ctx
    if "cause" in exp:
        assert pred["cause"] == exp["cause"], ctx
    if "blockers" in exp:
        assert pred["blockers"] == exp["blockers"], ctx
    if "accelerator" in exp:
        assert pred["accelerator"] == exp["accelerator"], ctx
    if "errors" in exp:
        assert by_sev["error"] == set(exp["errors"]), ctx
    for name in exp.get("warnings", []):
        assert name in by_sev["warning"], f"{name} not a warning" + ctx
    for name in exp.get("infos", []):
        assert name in by_sev["info"], f"{name} not info" + ctx
    for name in exp.get("absent", []):
        assert name not in names, f"{name} present" + ctx
    if "rc" in exp:
        assert out["_rc"] == exp["rc"], ctx
    for name, want in exp.get("first_fix", {}).items():
        f = next(f for f in out["findings"] if f["name"] == name)
        first = f["fixes"][0]
        assert want in json.dumps(first), f"first fix of {name}: {first}" + ctx
    for name, absent in exp.get("fixes_absent", {}).items():
        f = next(f for f in out["findings"] if f["name"] == name)
        for text in absent:
            assert text not in json.dumps(f["fixes"]), f"{text} offered for {name}: {f['fixes']}" + ctx
    for name, texts in exp.get("fixes_contain", {}).items():  # {site}: the fixture site-packages
        f = next(f for f in out["findings"] if f["name"] == name)
        for text in texts:
            text = text.replace("{site}", str(tmp_path / "site"))
            assert text in json.dumps(f["fixes"]), f"{text} not offered for {name}: {f['fixes']}" + ctx
    for name, want in exp.get("explanation_contains", {}).items():
        assert any(f["name"] == name and want in f["explanation"] for f in out["findings"]), f"{name}: {want!r}" + ctx
    for name, want in exp.get("fix_applicability", {}).items():
        f = next(f for f in out["findings"] if f["name"] == name)
        got = {fx["title"].split(" (")[0]: fx["applicability"] for fx in f["fixes"]}
        for title, app in want.items():
            assert any(title in t and a == app for t, a in got.items()), f"{title}={app} not in {got}" + ctx
    for probe in exp.get("probe_failed", []):
        assert any(f["name"] == "probe-failed" and probe in f["title"] for f in out["findings"]), ctx
    if "message_contains" in exp:
        assert exp["message_contains"] in pred["message"], ctx
    for note in exp.get("notes_contain", []):
        assert any(note in n for n in pred["notes"]), f"no note containing {note!r}" + ctx
    for name, want in exp.get("title_contains", {}).items():
        assert any(f["name"] == name and want in f["title"] for f in out["findings"]), f"{name}: {want!r}" + ctx
    for name, want in exp.get("severity", {}).items():  # every finding of that name has this severity
        got = {f["severity"] for f in out["findings"] if f["name"] == name}
        assert got == {want}, f"{name}: {got} != {want}" + ctx
    for key, want in exp.get("prediction", {}).items():  # other fields of the cpu_adam prediction
        assert pred.get(key) == want, f"prediction[{key}] = {pred.get(key)!r}" + ctx
    for key, want in exp.get("facts_contain", {}).items():
        assert want in json.dumps(out["facts"].get(key)), f"facts[{key}] = {out['facts'].get(key)!r}" + ctx
    for key, want in exp.get("facts", {}).items():
        assert out["facts"].get(key) == want, f"facts[{key}] = {out['facts'].get(key)!r}" + ctx
