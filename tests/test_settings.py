"""Configuration (``[tool.dsdoctor]`` / ``dsdoctor.toml`` / ``--config``), inline suppressions in every file kind
lint reads, per-file-ignores, and ``unused-suppression`` with its fix.

Fixture cases: ``tests/cases/lint/suppress/<case>/`` is a small project (copied to a temporary directory and linted
from there with DeepSpeed 0.19.8 and Transformers 4.46.3); ``expect`` lists every finding as ``path:line name``;
``_fixed/`` holds the files as ``dsdoctor fix`` must leave them. ``tests/cases/lint/settings-errors/*.toml`` are bad
configuration files, each with the message it must produce on its first line (``# expect: ...``).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest

from dsdoctor.lint import lint
from dsdoctor.lint.fix import plan, write
from dsdoctor.model import Finding, Report, Severity
from dsdoctor.settings import Settings, SettingsError, apply, find_config, for_command, load, resolve

CASES = Path(__file__).parent / "cases" / "lint" / "suppress"
DIRS = sorted(d for d in CASES.iterdir() if d.is_dir())
BAD = sorted((Path(__file__).parent / "cases" / "lint" / "settings-errors").glob("*.toml"))


@pytest.fixture(autouse=True)
def _no_memlock(monkeypatch: pytest.MonkeyPatch) -> None:
    """memlock-too-low depends on this machine's ulimit -l: keep it out of the fixture expectations."""
    monkeypatch.setattr("dsdoctor.lint.memlock_limit", lambda: None)


def _project(case: Path, tmp: Path) -> Path:
    root = tmp / case.name
    shutil.copytree(case, root, ignore=shutil.ignore_patterns("expect", "_fixed"))
    return root


def _lint(root: Path, monkeypatch: pytest.MonkeyPatch, **kw: object) -> "object":
    monkeypatch.chdir(root)
    return lint(["."], ds_version="0.19.8", targets=["transformers==4.46.3"], **kw)  # type: ignore[arg-type]


def _got(findings: List[Finding]) -> List[str]:
    return sorted(f"{f.path}:{f.line} {f.name}" for f in findings)


@pytest.mark.parametrize("case", DIRS, ids=[d.name for d in DIRS])
def test_case(case: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    res = _lint(_project(case, tmp_path), monkeypatch)
    want = sorted(ln.strip() for ln in (case / "expect").read_text().splitlines() if ln.strip())
    assert _got(res.report.findings) == want  # type: ignore[attr-defined]


FIXED = [d for d in DIRS if (d / "_fixed").is_dir()]


def test_the_cases_are_there() -> None:
    """The parametrized tests run over these lists: a folder emptied or cases lost fails here (today's counts)."""
    assert len(DIRS) >= 11 and len(FIXED) >= 6 and len(BAD) >= 17


@pytest.mark.parametrize("case", FIXED, ids=[d.name for d in FIXED])
def test_fix_removes_unused_suppressions(case: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """dsdoctor fix (safe fixes) deletes unused suppressions and nothing else of the line; a second pass has no
    unused-suppression left and nothing to change."""
    root = _project(case, tmp_path)
    res = _lint(root, monkeypatch)
    write(plan(res.edits))  # type: ignore[attr-defined]
    for fixed in (case / "_fixed").rglob("*"):
        if fixed.is_file():
            rel = fixed.relative_to(case / "_fixed")
            assert (root / rel).read_text() == fixed.read_text(), rel
    again = _lint(root, monkeypatch)
    assert [f for f in again.report.findings if f.name == "unused-suppression"] == []  # type: ignore[attr-defined]
    assert plan(again.edits) == {}  # type: ignore[attr-defined]


def test_unused_suppression_finding_shape(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    res = _lint(_project(CASES / "python-inline", tmp_path), monkeypatch)
    f = next(f for f in res.report.findings if f.name == "unused-suppression" and f.line == 9)  # type: ignore[attr-defined]
    assert f.code == "DS422" and f.severity is Severity.WARNING and f.col == 67
    assert "'zero3-device-map-conflit' is not a dsdoctor rule (did you mean 'zero3-device-map-conflict'?)" in f.title
    assert f.fixes and f.fixes[0].applicability == "safe" and f.fixes[0].title == "keep only DS307 in the suppression"
    assert res.fix_edits[f][0].new == "DS307"  # type: ignore[attr-defined]


def test_partial_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Linting part of a project (named files, as pre-commit does; a subdirectory): an unused inline suppression is
    still reported but its deletion is only an unsafe fix (what it suppresses may depend on files not linted, e.g.
    the launch script that gives the world size), and unused configuration entries are not reported at all."""
    root = _project(CASES / "shell-inline", tmp_path)
    monkeypatch.chdir(root)
    res = lint(["run.sh"], ds_version="0.19.8")
    unused = [f for f in res.report.findings if f.name == "unused-suppression"]
    assert len(unused) == 1 and unused[0].fixes[0].applicability == "unsafe" and "part of the project" in unused[0].fixes[0].reason
    assert plan(res.edits) == {} and set(plan(res.edits, unsafe=True)) == {"run.sh"}
    root = _project(CASES / "per-file-ignores", tmp_path)
    monkeypatch.chdir(root)
    for paths in (["run.sh"], ["configs/new.json"]):
        got = _got(lint(paths, ds_version="0.19.8").report.findings)
        assert "pyproject.toml:10 unused-suppression" not in got and "configs/new.json:5 ds-config-unknown-key" in got


def test_comment_scanners() -> None:
    """What counts as a comment per file kind (a suppression can only be in one)."""
    from dsdoctor.lint.suppress import comments

    def got(kind: str, text: str) -> List[str]:
        return [text[a:b] for a, b in comments(kind, text)]

    sh = ('echo "a # b" # c\necho ${#x} # d\nx=\'it\'"\'"\'s\' # e\ncat > ds.json <<EOF\n# body\nEOF\n# after\n'
          "cat <<-'X' # on the operator line\n\t# body2\n\tX\nls # end\n")
    assert got("shell", sh) == ["# c", "# d", "# e", "# after", "# on the operator line", "# end"]
    yaml = "a: it's fine # c1\nb: \"x # y\" # c2\nc: 'q' #c3\n#top\nd: x#not\n"
    assert got("accelerate", yaml) == ["# c1", "# c2", "#c3", "#top"]
    assert got("hostfile", "w-0 slots=8#x\nw-1 slots=8 # y\n# z\n") == ["# y", "# z"]
    assert got("python", 's = "# no"  # yes\nt = """\n# no\n"""\n') == ["# yes"]
    assert got("python", "def f(:\n    x = '# quoted'\n    y = 1  # yes\n") == ["# yes"]  # cannot tokenize: per line
    assert got("deepspeed_env", "# A=1\n") == []


# ---------------------------------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------------------------------

def test_no_config_is_empty_settings(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n')  # no [tool.dsdoctor]: not a config
    assert load(None, [str(tmp_path)]) == Settings()
    assert find_config([str(tmp_path)]) is None


def test_discovery_nearest_with_section(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.dsdoctor]\nworld-size = 16\n')
    sub = tmp_path / "a" / "b"
    sub.mkdir(parents=True)
    (tmp_path / "a" / "pyproject.toml").write_text('[project]\nname = "inner"\n')  # skipped: no section
    (sub / "ds.json").write_text("{}")
    s = load(None, [str(sub / "ds.json")])
    assert s.world_size == 16 and s.source.endswith("pyproject.toml") and s.root == str(tmp_path)
    (tmp_path / "a" / "dsdoctor.toml").write_text("world-size = 2\n")  # nearer, and dsdoctor.toml needs no section
    assert load(None, [str(sub)]).world_size == 2
    (sub / "pyproject.toml").write_text("[tool.dsdoctor]\nworld-size = 4\n")
    assert load(None, [str(sub / "ds.json")]).world_size == 4


def test_discovery_skips_a_pyproject_that_only_mentions_dsdoctor(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.dsdoctor]\nworld-size = 16\n")
    sub = tmp_path / "pkg"
    sub.mkdir()
    (sub / "pyproject.toml").write_text('[project.scripts]\ndsdoctor = "dsdoctor.cli:main"\n')  # our own layout
    assert load(None, [str(sub)]).world_size == 16
    (sub / "pyproject.toml").write_text("[tool.dsdoctor]\nworld-size = = 1\n")  # mentions it, broken: an error
    with pytest.raises(SettingsError, match="pkg/pyproject.toml:2:14: invalid TOML"):
        load(None, [str(sub)])


def test_dsdoctor_toml_wins_in_the_same_directory(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.dsdoctor]\nworld-size = 16\n')
    (tmp_path / "dsdoctor.toml").write_text("world-size = 8\n")
    s = load(None, [str(tmp_path)])
    assert s.world_size == 8 and s.section == ""


def test_config_option_forms(tmp_path: Path) -> None:
    py = tmp_path / "pyproject.toml"
    py.write_text('[tool.dsdoctor]\nselect = ["DS403", "unused-suppression"]\nfail-on = "warning"\n')
    s = load(str(py))
    assert s.select == ["ds-config-unknown-key", "unused-suppression"] and s.fail_on == "warning" and s.source == str(py)
    other = tmp_path / "ci.toml"
    other.write_text('ignore = ["ds403"]\nzero_stage = 2\ntarget = ["transformers==4.46.3"]\n')  # snake_case, any case
    s = load(str(other))
    assert s.ignore == ["ds-config-unknown-key"] and s.zero_stage == 2 and s.target == ["transformers==4.46.3"]
    (tmp_path / "tool.toml").write_text("[tool.dsdoctor]\nworld-size = 3\n")  # any file with the table
    assert load(str(tmp_path / "tool.toml")).world_size == 3
    (tmp_path / "sub").mkdir()
    nosec = tmp_path / "sub" / "pyproject.toml"
    nosec.write_text('[project]\nname = "x"\n')
    with pytest.raises(SettingsError, match=r"pyproject.toml: no \[tool.dsdoctor\] table"):
        load(str(nosec))
    with pytest.raises(SettingsError, match="cannot read --config .*missing.toml"):
        load(str(tmp_path / "missing.toml"))
    with pytest.raises(SettingsError, match="a directory"):
        load(str(tmp_path))


def test_zero3_alias() -> None:
    from dsdoctor.settings import _settings

    on = _settings({"zero3": True}, "pyproject.toml", "[tool.dsdoctor]\nzero3 = true\n", "[tool.dsdoctor]")
    assert on.zero_stage == 3 and on.zero3 is True
    assert on.zero3_default() == (True, "zero3 = true in pyproject.toml [tool.dsdoctor]")
    off = _settings({"zero3": False}, "dsdoctor.toml", "zero3 = false\n", "")
    assert off.zero_stage is None and off.zero3_default() == (False, "zero3 = false in dsdoctor.toml")
    two = _settings({"zero-stage": 2}, "dsdoctor.toml", "zero-stage = 2\n", "")
    assert two.zero3_default() == (False, "zero-stage = 2 in dsdoctor.toml")


@pytest.mark.parametrize("bad", BAD, ids=[b.stem for b in BAD])
def test_bad_config_file(bad: Path, tmp_path: Path) -> None:
    want = bad.read_text().splitlines()[0].split("# expect: ", 1)[1]
    cfg = tmp_path / "dsdoctor.toml"
    shutil.copy(bad, cfg)
    with pytest.raises(SettingsError) as exc:
        load(None, [str(tmp_path)])
    assert want in str(exc.value).replace(str(tmp_path) + "/", "")


@pytest.mark.parametrize("bad", [b for b in BAD if b.stem in ("malformed", "unknown-key", "select-string", "unknown-rule")],
                         ids=lambda b: b.stem)
def test_bad_config_file_cli_exit_2(bad: Path, tmp_path: Path) -> None:
    """`dsdoctor lint` in a project whose configuration is bad: exit 2, the message, no traceback."""
    want = bad.read_text().splitlines()[0].split("# expect: ", 1)[1]
    shutil.copy(bad, tmp_path / "dsdoctor.toml")
    (tmp_path / "ds.json").write_text('{"train_batch_size": 8}\n')
    p = subprocess.run([sys.executable, "-m", "dsdoctor", "lint", "ds.json"], cwd=tmp_path, capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 2, p.stdout + p.stderr
    assert want in p.stderr and "Traceback" not in p.stderr
    assert p.stdout == ""


def test_pyproject_error_names_the_table(tmp_path: Path) -> None:
    py = tmp_path / "pyproject.toml"
    py.write_text('[project]\nname = "x"\n\n[tool.dsdoctor]\nworld-size = 4\nignore = ["ds-config-unknown-key"]\n'
                  'per-file-ignore = {}\n')
    with pytest.raises(SettingsError) as exc:
        load(None, [str(tmp_path)])
    assert str(exc.value) == (f"{py}:7: unknown key 'per-file-ignore' in [tool.dsdoctor] in {py} "
                              "(did you mean 'per-file-ignores'?)")


def test_without_tomllib_or_tomli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Python 3.9/3.10 without tomli: no error while there is no configuration, a clear one when there is."""
    monkeypatch.setitem(sys.modules, "tomllib", None)
    monkeypatch.setitem(sys.modules, "tomli", None)
    assert load(None, [str(tmp_path)]) == Settings()
    (tmp_path / "dsdoctor.toml").write_text("world-size = 2\n")
    with pytest.raises(SettingsError, match=r"needs Python 3.11\+ or the 'tomli' package"):
        load(None, [str(tmp_path)])


def test_for_command_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "dsdoctor.toml").write_text("fail-on = \"info\"\n")
    monkeypatch.chdir(tmp_path)
    assert for_command(None, ["-"]).fail_on == "info"  # explain reading stdin: the cwd's configuration
    assert for_command(None, ["no/such.log"]).fail_on == "info"
    assert for_command(None, []).source == "dsdoctor.toml"


def test_names_and_codes() -> None:
    assert resolve("DS101") == resolve("ds101") == "cuda-version-mismatch"
    assert resolve("unused-suppression") == "unused-suppression" and resolve("DS422") == "unused-suppression"
    assert resolve("nope") is None


# ---------------------------------------------------------------------------------------------------
# Applying
# ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("glob,path,hit", [
    ("configs/*.json", "configs/a.json", True),
    ("configs/*.json", "configs/sub/a.json", False),
    ("configs/**/*.json", "configs/sub/deep/a.json", True),
    ("configs/**/*.json", "configs/a.json", True),
    ("configs", "configs/sub/a.json", True),  # a directory covers what is under it
    ("configs/", "configs/sub/a.json", True),
    ("*.json", "deep/er/a.json", True),  # no slash: any path component
    ("hostfile*", "cluster/hostfile-a100", True),
    (".deepspeed_env", ".deepspeed_env", True),
    ("ds_[0-9].json", "ds_7.json", True),
    ("ds_[!0-9].json", "ds_7.json", False),
    ("ds_?.json", "ds_10.json", False),
    ("!configs/**", "run.sh", True),
    ("!configs/**", "configs/a.json", False),
    ("configs/*.json", "../elsewhere/configs/a.json", False),  # outside the config's directory
])
def test_glob(glob: str, path: str, hit: bool, tmp_path: Path) -> None:
    s = Settings(source=str(tmp_path / "proj" / "pyproject.toml"))
    assert s.matches(glob, str(tmp_path / "proj" / path)) is hit


def _f(name: str, path: object = None) -> Finding:
    return Finding(name, Severity.WARNING, "t", path=path)  # type: ignore[arg-type]


def test_apply_select_ignore_per_file(tmp_path: Path) -> None:
    from dsdoctor.settings import _settings

    cfg = tmp_path / "pyproject.toml"
    text = ('[tool.dsdoctor]\nselect = ["DS101", "DS403", "shm-too-small"]\nignore = ["shm-too-small"]\n'
            '[tool.dsdoctor.per-file-ignores]\n"legacy/*" = ["ds-config-unknown-key"]\n')
    s = _settings({"select": ["DS101", "DS403", "shm-too-small"], "ignore": ["shm-too-small"],
                   "per-file-ignores": {"legacy/*": ["ds-config-unknown-key"]}}, str(cfg), text, "[tool.dsdoctor]")
    report = Report([_f("cuda-version-mismatch"), _f("shm-too-small"), _f("ninja-missing"),
                     _f("ds-config-unknown-key", str(tmp_path / "legacy" / "ds.json")),
                     _f("ds-config-unknown-key", str(tmp_path / "ds.json"))], facts={"k": 1})
    out = apply(report, s)
    assert [(f.name, f.path) for f in out.findings] == [("cuda-version-mismatch", None),
                                                       ("ds-config-unknown-key", str(tmp_path / "ds.json"))]
    assert out.facts == {"k": 1} and len(report.findings) == 5  # a new report; the input is unchanged
    assert [(e.key, e.name, e.line) for e in s.entries] == [
        ("select", "cuda-version-mismatch", 2), ("select", "ds-config-unknown-key", 2), ("select", "shm-too-small", 2),
        ("ignore", "shm-too-small", 3), ("per-file-ignores", "ds-config-unknown-key", 5)]
    assert apply(report, Settings()) is report


def test_per_file_ignores_relative_to_the_config_not_the_cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _project(CASES / "per-file-ignores", tmp_path)
    monkeypatch.chdir(tmp_path)
    res = lint([root.name], ds_version="0.19.8")
    assert _got(res.report.findings) == sorted([
        "per-file-ignores/configs/legacy/old.json:2 batch-size-mismatch",
        "per-file-ignores/configs/new.json:5 ds-config-unknown-key",
        "per-file-ignores/pyproject.toml:10 unused-suppression",
        "per-file-ignores/pyproject.toml:12 unused-suppression"])
    assert res.report.facts["config"] == "per-file-ignores/pyproject.toml"


def test_cli_flags_win_over_the_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _project(CASES / "config-ignore", tmp_path)
    res = _lint(root, monkeypatch)
    assert res.report.facts["world_size"] == 4  # type: ignore[attr-defined]
    assert res.report.facts["world_size_source"] == "world-size = 4 in pyproject.toml [tool.dsdoctor]"  # type: ignore[attr-defined]
    res = _lint(root, monkeypatch, world_size=8)
    assert res.report.facts["world_size"] == 8  # type: ignore[attr-defined]
    assert "batch-size-mismatch" not in {f.name for f in res.report.findings}  # type: ignore[attr-defined]


def test_settings_argument_replaces_discovery(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _project(CASES / "dsdoctor-toml", tmp_path)
    res = _lint(root, monkeypatch, settings=Settings())  # what the CLI passes when it loaded nothing
    assert {f.name for f in res.report.findings} == {"fp16-bf16-both-enabled", "ds-config-unknown-key"}  # type: ignore[attr-defined]
    assert "config" not in res.report.facts  # type: ignore[attr-defined]


def test_config_target_and_zero_stage_feed_script_lint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "t.py").write_text("from transformers import AutoModelForCausalLM, Trainer\n"
                                   'm = AutoModelForCausalLM.from_pretrained("m", device_map="auto")\n')
    (tmp_path / "dsdoctor.toml").write_text('target = ["transformers==4.46.3", "deepspeed==0.15.4"]\nzero-stage = 3\n')
    monkeypatch.chdir(tmp_path)
    res = lint(["."])
    assert [(f.name, f.severity) for f in res.report.findings] == [("zero3-device-map-conflict", Severity.ERROR)]
    facts = res.report.facts
    assert (facts["transformers"], facts["transformers_source"]) == ("4.46.3", "target in dsdoctor.toml")
    assert (facts["deepspeed"], facts["deepspeed_source"]) == ("0.15.4", "target in dsdoctor.toml")
    assert facts["zero3_source"] == "zero-stage = 3 in dsdoctor.toml"
    res = lint(["."], zero_stage=2, targets=["transformers==4.40.0"], ds_version="0.19.8")  # flags win
    assert res.report.findings == [] and res.report.facts["transformers"] == "4.40.0"
    assert res.report.facts["deepspeed"] == "0.19.8"


# ---------------------------------------------------------------------------------------------------
# CLI
# ---------------------------------------------------------------------------------------------------

def _cli(cwd: Path, *args: str) -> "subprocess.CompletedProcess[str]":
    return subprocess.run([sys.executable, "-m", "dsdoctor", *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def test_cli_fix_deletes_unused_suppressions(tmp_path: Path) -> None:
    root = _project(CASES / "shell-inline", tmp_path)
    p = _cli(root, "fix", ".")
    assert p.returncode == 1, p.stderr  # the two --export errors stay (they have no automatic fix)
    assert (root / "run.sh").read_text() == (CASES / "shell-inline" / "_fixed" / "run.sh").read_text()


def test_cli_config_option(tmp_path: Path) -> None:
    root = _project(CASES / "dsdoctor-toml", tmp_path)
    (root / "dsdoctor.toml").rename(root / "ci.toml")  # not found by discovery: pyproject.toml's table applies
    assert "ds-config-unknown-key" not in _cli(root, "lint", ".", "--format", "json").stdout
    p = _cli(root, "lint", ".", "--config", "ci.toml", "--format", "json")
    assert '"ds-config-unknown-key"' in p.stdout and '"fp16-bf16-both-enabled"' not in p.stdout
    shutil.copy(BAD[0], root / "bad.toml")
    for cmd in (["lint", "."], ["fix", "."], ["explain", "-"], ["check", "--no-lint"]):
        p = subprocess.run([sys.executable, "-m", "dsdoctor", *cmd, "--config", "bad.toml"], cwd=root, input="",
                           capture_output=True, text=True, timeout=120)
        assert p.returncode == 2 and "bad.toml" in p.stderr and "Traceback" not in p.stderr, (cmd, p.stderr)
        assert p.stdout == "", cmd


def test_cli_fail_on_from_the_config(tmp_path: Path) -> None:
    """fail-on in the file sets the exit code; --fail-on on the command line wins."""
    (tmp_path / "ds.json").write_text('{"train_batch_size": 8, "steps_per_prnt": 1}\n')  # a warning only
    assert _cli(tmp_path, "lint", "ds.json").returncode == 0
    (tmp_path / "dsdoctor.toml").write_text('fail-on = "warning"\n')
    assert _cli(tmp_path, "lint", "ds.json").returncode == 1
    assert _cli(tmp_path, "lint", "ds.json", "--fail-on", "error").returncode == 0
    (tmp_path / "dsdoctor.toml").write_text('fail-on = "warning"\nignore = ["DS403"]\n')
    p = _cli(tmp_path, "lint", "ds.json", "--format", "json")
    assert p.returncode == 0 and '"ds-config-unknown-key"' not in p.stdout
