"""The versions a project pins (lint/pins.py): one fixture project per kind of pin file in tests/cases/pins, and
the CLI judging a version-dependent rule (gradient-clipping-unset-under-trainer) for the pinned DeepSpeed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List

import pytest

from dsdoctor.knowledge.deepspeed import LATEST_KNOWN
from dsdoctor.lint import lint
from dsdoctor.lint.pin_conda import conda_spec
from dsdoctor.lint.pin_files import poetry_spec
from dsdoctor.lint.pins import Pin, project_dir, read_pins, resolve
from dsdoctor.lint.target import NO_SINGLE_DS
from dsdoctor.settings import Settings

CASES = Path(__file__).resolve().parent / "cases" / "pins"
CONFIG = '{\n  "zero_optimization": {"stage": 3},\n  "train_micro_batch_size_per_gpu": "auto"\n}\n'


@pytest.mark.parametrize("case", sorted(p.name for p in CASES.iterdir() if (p / "expected.json").is_file()))
def test_pin_files(case: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each kind of pin file is read where it pins (FILE:LINE); ranges, unpinned names and conflicts are reported
    and assume nothing exactly: the rules that take one release judge the newest one the range allows or the
    conflicting pins name (``deepspeed_assumed``), the newest release read where that is later."""
    monkeypatch.chdir(CASES / case)
    want = json.loads(Path("expected.json").read_text())
    facts = lint(["ds_config.json"], settings=Settings()).report.facts
    assert facts["assumed"] == want["assumed"], facts["pins"]
    assert facts["not_assumed"] == want["not_assumed"], facts["pins"]
    if want["deepspeed"]:
        assert facts["deepspeed"] == want["deepspeed"] and facts["deepspeed_source"].startswith("pinned in ")
    else:
        assert not facts["deepspeed_source"].startswith("pinned")
    listed = [n for n in want["not_assumed"] if n.startswith("deepspeed")]
    if listed and not want["deepspeed"] and not facts["deepspeed_source"].startswith("installed"):
        # listed without one release, and no DeepSpeed installed beside dsdoctor to fall back on: said so
        assumed = want.get("deepspeed_assumed", LATEST_KNOWN)
        assert facts["deepspeed_source"] == f"{NO_SINGLE_DS} ({listed[0]}): assuming {assumed}"


def test_overrides(monkeypatch: pytest.MonkeyPatch) -> None:
    """--ds-version and --target win over the pins (and the overridden package is not reported as assumed)."""
    monkeypatch.chdir(CASES / "readme")
    facts = lint(["ds_config.json"], ds_version="0.19.3", settings=Settings()).report.facts
    assert facts["deepspeed"] == "0.19.3" and facts["assumed"] == ["transformers 4.46.3 (README.md:6)"]
    facts = lint(["ds_config.json"], targets=["deepspeed==0.15.0"], settings=Settings()).report.facts
    assert facts["deepspeed"] == "0.15.0" and facts["deepspeed_source"] == "--target"


def test_project_dir(tmp_path: Path) -> None:
    """From a file up to the git root, the nearest directory with a pin file; outside git, not above the cwd."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "requirements.txt").write_text("deepspeed==0.14.0\n")
    (tmp_path / "configs").mkdir()
    cfg = tmp_path / "configs" / "ds.json"
    cfg.write_text(CONFIG)
    assert project_dir(str(cfg), cwd=str(tmp_path / "configs")) == str(tmp_path)
    os.rmdir(tmp_path / ".git")
    assert project_dir(str(cfg), cwd=str(tmp_path / "configs")) is None
    assert project_dir(str(cfg), cwd=str(tmp_path)) == str(tmp_path)


def test_spec_forms() -> None:
    assert conda_spec("pytorch=2.1.0=py3.10_0") == ("torch", "==2.1.0")
    assert conda_spec("deepspeed=0.14") == ("deepspeed", "==0.14.*")
    assert conda_spec("deepspeed 0.14.0") == ("deepspeed", "==0.14.0")
    assert conda_spec("deepspeed>=0.12,<0.15") == ("deepspeed", ">=0.12,<0.15")
    assert conda_spec("numpy=1.26") is None
    assert poetry_spec("0.14.0") == "==0.14.0" and poetry_spec({"version": "~0.14"}) == "~0.14"
    pins: List[Pin] = [Pin("deepspeed", "==0.14.*", "a", 1), Pin("torch", "==2.1.0+cu118", "a", 2),
                       Pin("torch", ">=2,<3", "b", 1)]
    got = resolve(pins)
    assert got["deepspeed"].version is None and got["deepspeed"].why == "range"  # a wildcard is a range
    assert got["torch"].version == "2.1.0" and got["torch"].source == "a:2"
    repeated = resolve([Pin("torch", ">=2.3", "README.md", n) for n in (5, 9, 12)] + [Pin("torch", "<3", "r.txt", 1)])
    assert repeated["torch"].describe() == "torch>=2.3 (range; README.md:5, +2 more), torch<3 (range; r.txt:1)"


def dsdoctor(cwd: Path, *args: str) -> Dict[str, Any]:
    p = subprocess.run([sys.executable, "-m", "dsdoctor", "lint", *args, "--format", "json"], cwd=cwd,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode in (0, 1), p.stderr
    return json.loads(p.stdout)  # type: ignore[no-any-return]


def _clipping(out: Dict[str, Any]) -> List[str]:
    """What the gradient-clipping finding says DeepSpeed does: "none" (its default 0) or "1.0" (its default 1)."""
    return ["none" if "no gradient clipping at all" in f["title"] else "1.0" if "clips at its default 1" in f["title"]
            else f["title"] for f in out["findings"] if f["name"] == "gradient-clipping-unset-under-trainer"]


def test_cli_rule_follows_the_pin(tmp_path: Path) -> None:
    """A Trainer config without gradient_clipping: no clipping at all on the pinned 0.16.9; 0.19.3 changed
    DeepSpeed's default to max_grad_norm's (1.0). The output names the pin; options override it. (No launch sets
    --max_grad_norm here: info either way, see gradient-clipping-unset-under-trainer.)"""
    (tmp_path / "ds_config.json").write_text(CONFIG)
    (tmp_path / "requirements.txt").write_text("torch==2.4.0\ndeepspeed==0.16.9\n")
    out = dsdoctor(tmp_path, "ds_config.json")
    assert _clipping(out) == ["none"] and out["facts"]["deepspeed"] == "0.16.9"
    assert "deepspeed 0.16.9 (requirements.txt:2)" in out["facts"]["assumed"]
    text = subprocess.run([sys.executable, "-m", "dsdoctor", "lint", "ds_config.json"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120).stdout
    assert "assumed deepspeed 0.16.9 (requirements.txt:2), torch 2.4.0 (requirements.txt:1)" in text, text
    assert _clipping(dsdoctor(tmp_path, "ds_config.json", "--ds-version", "0.19.8")) == ["1.0"]
    (tmp_path / "requirements.txt").write_text("deepspeed==0.19.3\n")
    assert _clipping(dsdoctor(tmp_path, "ds_config.json")) == ["1.0"]
    (tmp_path / "requirements.txt").write_text("deepspeed>=0.12\n")  # a range: the default, said as such
    out = dsdoctor(tmp_path, "ds_config.json")
    assert out["facts"]["deepspeed"] == LATEST_KNOWN and _clipping(out) == ["1.0"]
    assert out["facts"]["not_assumed"] == ["deepspeed>=0.12 (range; requirements.txt:1)"]


def test_project_dir_skips_files_that_pin_nothing(tmp_path: Path) -> None:
    """A README beside the config that pins nothing does not stop the walk up to the repository's pins."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "setup.cfg").write_text("[options]\ninstall_requires =\n    deepspeed==0.15.0\n")
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "README.md").write_text("Configs for `pip install -e .` users.\n")
    assert project_dir(str(tmp_path / "configs" / "ds.json"), cwd=str(tmp_path)) == str(tmp_path)


def test_readme_forms(tmp_path: Path) -> None:
    """The README / install-document forms of a pin: a pip line, a requirement line of a code block, a table row,
    a list item that is a requirement, a sentence naming the version (also "developed with transformers v4.39.2"); prose ranges
    ("4.32 and above", "0.14.0 or later", "2.1.0+"), a code block's Python and a short version in a table pin nothing."""
    from dsdoctor.lint.pin_readme import readme

    md = tmp_path / "README.md"
    md.write_text("Needs version 4.27.1 of `transformers`.\n"  # 1
                  "```\ntorch==2.0.1\nif deepspeed == 3: pass\n```\n"  # 3, 4
                  "| peft | 0.8.2 |\n| accelerate | 0.2 |\n"  # 6, 7
                  "Tested with transformers 4.32 and above.\n"
                  "pip install deepspeed==0.12.3 timm\n"  # 9
                  "## Dependencies\n- transformers==4.7.0\n* `accelerate>=0.20`\n- torch is needed\n"  # 11, 12
                  "The version of [peft](https://github.com/huggingface/peft) used here is v0.10.0. Newer ones\n"  # 14
                  "Our implementation is developed with transformers v4.39.2.\n"  # 15
                  "Tested with deepspeed 0.14.0 or later, run on torch 2.1.0+.\n")
    got = [(p.package, p.spec, p.line) for p in readme(str(md), "README.md")]
    assert got == [("transformers", "==4.27.1", 1), ("torch", "==2.0.1", 3), ("peft", "==0.8.2", 6),
                   ("deepspeed", "==0.12.3", 9), ("transformers", "==4.7.0", 11), ("accelerate", ">=0.20", 12),
                   ("peft", "==0.10.0", 14), ("transformers", "==4.39.2", 15)]


def test_readme_checkout_at_tag(tmp_path: Path) -> None:
    """A code block that clones a package, checks out a release tag (or clones at one) and installs that checkout
    pins the release, at the tag's line; a checkout never installed, an untagged clone, and another directory's
    install pin nothing; over a requirements file's range the exact pin is what lint assumes (the README installs
    it first, and the project's own install keeps it, as it is inside the range)."""
    from dsdoctor.lint.pin_checkout import readme

    md = tmp_path / "README.md"
    md.write_text("```sh\n"
                  "git clone https://example.org/huggingface/transformers.git\n"  # 2
                  "cd transformers\n"
                  "git checkout tags/v4.36.1\n"  # 4
                  "pip install -e .\n"
                  "cd ..\n"
                  "git clone --branch v0.7.1 https://example.org/org/peft\n"  # 7
                  "git clone https://example.org/org/accelerate.git\n"
                  "cd peft\n"
                  "pip install .\n"  # 10
                  "cd ../accelerate\n"
                  "pip install -e .\n"
                  "```\n"
                  "```sh\ngit clone https://example.org/org/deepspeed.git\ncd deepspeed\ngit checkout v0.14.4\n```\n")
    got = [(p.package, p.spec, p.line) for p in readme(str(md), "README.md")]
    assert got == [("transformers", "==4.36.1", 4), ("peft", "==0.7.1", 7)]
    (tmp_path / "requirements.txt").write_text("transformers>=4.31\n")
    pinned = resolve([Pin("transformers", ">=4.31", "requirements.txt", 1), Pin("transformers", "==4.36.1",
                                                                               "README.md", 4)])
    assert pinned["transformers"].version == "4.36.1"


def test_readme_installs_shipped_copy(tmp_path: Path) -> None:
    """A README that installs the copy of a package's repository the project ships (``cd transformers`` then
    ``pip install -e .``, or ``pip install -e ./peft``) pins the version that copy's setup.py declares, at the
    install line; a directory whose setup.py names another package, or declares no version, pins nothing."""
    from dsdoctor.lint.pin_checkout import readme

    for name, setup in (("transformers", 'setup(\n    name="transformers",\n    version="4.16.1",\n)\n'),
                        ("peft", 'setup(name="peft", version="0.3.0.dev0")\n'),
                        ("accelerate", 'setup(name="my-fork")\nversion = "1.0.0"\n'),
                        ("trl", 'setup(name="trl")\n')):
        (tmp_path / name).mkdir()
        (tmp_path / name / "setup.py").write_text(setup)
    md = tmp_path / "README.md"
    md.write_text("```sh\n"
                  "cd transformers\n"
                  "pip install -e .\n"  # 3
                  "cd ..\n"
                  "pip install -e ./peft\n"  # 5
                  "pip install accelerate/\n"
                  "cd trl && pip install -e .\n"
                  "cd trl\n"
                  "pip install -e .\n"
                  "```\n")
    got = [(p.package, p.spec, p.line) for p in readme(str(md), "README.md")]
    assert got == [("transformers", "==4.16.1", 3), ("peft", "==0.3.0.dev0", 5)]


def test_nearest_pin_named(tmp_path: Path) -> None:
    """A file is judged for the pin nearest to it (its sub-project's README over the root's open requirement),
    and the finding and the facts say which pin and where from."""
    (tmp_path / "requirements.txt").write_text("transformers\n")
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "README.md").write_text("```\ntransformers==4.47.1\n```\n")
    (sub / "train.py").write_text("from transformers.deepspeed import HfDeepSpeedConfig\n")
    out = dsdoctor(tmp_path, ".", "--exit-zero")
    f = next(f for f in out["findings"] if f["name"] == "removed-transformers-deepspeed-import")
    assert f["severity"] == "error" and "transformers 4.47.1, pinned in sub/README.md:2" in f["title"]
    assert "transformers 4.47.1 (sub/README.md:2) for sub/train.py" in out["facts"]["assumed"]


def _pinned_subproject(sub: Path) -> None:
    """A sub-project pinning DeepSpeed 0.16.9, with a ZeRO-3 config its launch hands a Trainer script."""
    sub.mkdir()
    (sub / "requirements.txt").write_text("deepspeed==0.16.9\n")
    (sub / "ds_config.json").write_text(CONFIG)
    (sub / "train.py").write_text("from transformers import Trainer, TrainingArguments\n")
    (sub / "run.sh").write_text("deepspeed train.py --deepspeed ds_config.json\n")


def _summary(root: Path) -> str:
    """The text output of `dsdoctor lint .` in ``root``."""
    return subprocess.run([sys.executable, "-m", "dsdoctor", "lint", "."], cwd=root,
                          capture_output=True, text=True, timeout=120).stdout


def test_subdirectory_deepspeed_pin_in_the_summary(tmp_path: Path) -> None:
    """Only finetune/ pins DeepSpeed (0.16.9): its config is judged for that release, the rest for the newest read,
    and the summary line and facts say both (RWKV-Runner, aside165: the summary named 0.19.8 alone)."""
    _pinned_subproject(tmp_path / "finetune")
    (tmp_path / "app.py").write_text("print('serve')\n")
    out = dsdoctor(tmp_path, ".", "--exit-zero")
    assert out["facts"]["deepspeed"] == LATEST_KNOWN
    assert out["facts"]["deepspeed_near"] == ["0.16.9 (finetune/requirements.txt:1)"]
    assert out["facts"]["deepspeed_source"].endswith("where nothing nearer pins one (0.16.9 (finetune/requirements.txt:1))")
    text = _summary(tmp_path)
    assert f"linted for DeepSpeed {LATEST_KNOWN} where nothing nearer pins one (0.16.9 " \
           "(finetune/requirements.txt:1) in its directory)" in text, text


def test_subdirectory_pin_of_every_file_is_the_summary(tmp_path: Path) -> None:
    """Everything linted sits in main/, which pins DeepSpeed 0.16.9 (the root has only a README): the summary and the
    facts name 0.16.9, not the newest release read "where nothing nearer pins one" (RWKV-LM-RLHF, aside212)."""
    (tmp_path / "README.md").write_text("# A project\n")
    _pinned_subproject(tmp_path / "main")
    out = dsdoctor(tmp_path, ".", "--exit-zero")
    assert out["facts"]["deepspeed"] == "0.16.9" and "deepspeed_near" not in out["facts"]
    assert out["facts"]["deepspeed_source"] == "pinned in main/requirements.txt:1"
    text = _summary(tmp_path)
    assert "file(s) linted for DeepSpeed 0.16.9:" in text, text


def test_subdirectory_deepspeed_conflict_is_listed(tmp_path: Path) -> None:
    """Only sub/ pins DeepSpeed, twice and differently (requirements.txt 0.14.4, pyproject's train extra 0.9.5):
    nothing is assumed, and the output names the conflict instead of "no DeepSpeed found" (MMSci, aside199)."""
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "requirements.txt").write_text("deepspeed==0.14.4\n")
    (sub / "pyproject.toml").write_text('[project]\nname = "x"\n[project.optional-dependencies]\n'
                                        'train = ["deepspeed==0.9.5"]\n')
    (sub / "ds_config.json").write_text(CONFIG)
    out = dsdoctor(tmp_path, ".", "--exit-zero")
    listed = "deepspeed: conflicting pins ==0.14.4 (sub/requirements.txt:1), ==0.9.5 (sub/pyproject.toml:4) for " \
        "sub/ds_config.json"
    assert out["facts"]["not_assumed"] == [listed], out["facts"]
    assert out["facts"]["deepspeed"] == LATEST_KNOWN and "deepspeed_near" not in out["facts"]
    assert out["facts"]["deepspeed_source"] == f"{NO_SINGLE_DS} ({listed}): assuming {LATEST_KNOWN}"


def test_conflicting_exact_pins() -> None:
    """Exact pins that disagree name their releases (a rule may hold for all of them); a range among them allows
    releases no pin names, so none are given."""
    exact = resolve([Pin("transformers", "==4.33.1", "docs/install.md", 4),
                     Pin("transformers", "==4.30.2", "docs/install_zh.md", 4)])["transformers"]
    assert exact.version is None and exact.why == "conflicting pins" and exact.exact == ("4.30.2", "4.33.1")
    ranged = resolve([Pin("transformers", ">=4.36.2", "requirements.txt", 1),
                      Pin("transformers", "==4.36.0", "pyproject.toml", 14)])["transformers"]
    assert ranged.why == "conflicting pins" and ranged.exact == ()


def test_unpinned_line_is_no_pin() -> None:
    """A requirement line without a version (``deepspeed``) pins nothing: it is never listed among the pins that
    conflict or agree, nor their source; alone it still says the package is not pinned."""
    conflicting = resolve([Pin("deepspeed", "", "requirements.txt", 7), Pin("deepspeed", "==0.12.2", "pyproject.toml", 13),
                           Pin("deepspeed", "==0.10", "README.md", 40)])["deepspeed"]
    assert conflicting.why == "conflicting pins" and all(p.spec for p in conflicting.pins)
    assert "requirements.txt" not in conflicting.describe()
    one = resolve([Pin("deepspeed", "", "requirements.txt", 7), Pin("deepspeed", "==0.12.2", "pyproject.toml", 13)])
    assert one["deepspeed"].version == "0.12.2" and [p.where for p in one["deepspeed"].pins] == ["pyproject.toml:13"]
    alone = resolve([Pin("deepspeed", "", "requirements.txt", 7)])["deepspeed"]
    assert alone.why == "not pinned" and alone.version is None


def test_requirements_bare_vcs_url(tmp_path: Path) -> None:
    """A bare VCS line (pip's form without a name) installs the package its #egg= names, else the repository's
    name, from that URL: no release is assumed; another repository's name pins nothing."""
    from dsdoctor.lint.pin_files import requirements

    req = tmp_path / "requirements.txt"
    req.write_text("git+https://github.com/someone/transformers.git@left_padding\n"
                   "git+https://example.org/fork/peft-fork.git#egg=peft\n"
                   "git+https://github.com/someone/unrelated.git\n"
                   "deepspeed==0.14.0\n")
    got = [(p.package, p.spec, p.line) for p in requirements(str(req), "requirements.txt")]
    assert got == [("transformers", "@ git+https://github.com/someone/transformers.git@left_padding", 1),
                   ("peft", "@ git+https://example.org/fork/peft-fork.git#egg=peft", 2),
                   ("deepspeed", "==0.14.0", 4)]
    assert resolve([Pin(*p[:2], "requirements.txt", p[2]) for p in got])["transformers"].version is None


def test_ranges_other_pins_imply() -> None:
    """lint/pin_implied.py: an exact huggingface-hub / tokenizers pin, or a pinned package's own requirement, narrows
    a package the project does not pin (knowledge/requires.py, derived from the releases' metadata); two different
    hub pins, or a package pinned exactly, say nothing more."""
    from dsdoctor.lint.pins import Pin, resolve

    def pin(package: str, spec: str, line: int = 1) -> Pin:
        return Pin(package, spec, "requirements.txt", line)

    tf = resolve([pin("huggingface-hub", "==0.17.3", 4), pin("transformers", "")])["transformers"]
    assert (tf.why, tf.via, [p.spec for p in tf.pins]) == ("range", "huggingface-hub==0.17.3", ["<=4.35.2"])
    assert tf.describe() == "transformers<=4.35.2 (implied by huggingface-hub==0.17.3; requirements.txt:4)"
    assert tf.allowed and tf.allowed[-1] == "4.35.2"
    assert resolve([pin("trl", "==0.7.4")])["transformers"].pins[0].spec == ">=4.18.0"  # trl's own requirement
    assert "transformers" not in resolve([pin("huggingface-hub", "==0.17.3"), pin("huggingface-hub", "==0.20.0", 2)])
    assert resolve([pin("huggingface-hub", "==0.17.3"), pin("transformers", "==4.46.0")])["transformers"].version \
        == "4.46.0"


def test_own_package_version(tmp_path: Path) -> None:
    """A checkout of the package itself pins its own version, over any other pin: DeepSpeed's version.txt beside
    ``deepspeed/``, a ``__version__`` literal in ``<pkg>/__init__.py`` or ``src/<pkg>/__init__.py``. A version.txt
    without ``deepspeed/`` beside it, a package lint does not judge, or a computed ``__version__`` pin nothing."""
    (tmp_path / "requirements.txt").write_text("deepspeed>=0.14\ntransformers==4.46.0\n")
    (tmp_path / "version.txt").write_text("0.19.6\n")
    assert {p.package for p in read_pins(str(tmp_path))} == {"deepspeed", "transformers"}
    assert resolve(read_pins(str(tmp_path)))["deepspeed"].version is None  # the range: no deepspeed/ beside it
    (tmp_path / "deepspeed").mkdir()
    (tmp_path / "deepspeed" / "__init__.py").write_text("from .git_version_info import version as __version__\n")
    got = resolve(read_pins(str(tmp_path)))
    assert got["deepspeed"].version == "0.19.6" and got["deepspeed"].source.endswith("version.txt:1")
    (tmp_path / "src" / "transformers").mkdir(parents=True)
    (tmp_path / "src" / "transformers" / "__init__.py").write_text('"""Doc."""\n\n__version__ = "4.57.0.dev0"\n')
    (tmp_path / "src" / "mylib").mkdir()
    (tmp_path / "src" / "mylib" / "__init__.py").write_text('__version__ = "1.0"\n')
    got = resolve(read_pins(str(tmp_path)))
    assert got["transformers"].version == "4.57.0.dev0" and got["transformers"].source.endswith("__init__.py:3")
    assert "mylib" not in got
