"""A range pin of Transformers (lint/pins.py ``Pinned.allowed``): the releases it allows, from the releases
dsdoctor's knowledge read, and the Python rules judged over all of them (tests/cases/lint/project/ranged-pins runs
the CLI on a project)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List

from dsdoctor.knowledge.api_history import releases
from dsdoctor.lint.pins import Pin, allowed_releases, resolve

SCRIPT = ('from transformers import AutoModelForCausalLM\n'
          'from transformers.deepspeed import is_deepspeed_zero3_enabled\n'
          'model = AutoModelForCausalLM.from_pretrained("m", device_map="auto", low_cpu_mem_usage=False)\n')


def test_allowed_releases() -> None:
    """Each operator, combined clauses and several files: the releases read that every pin allows; the range's
    lowest bound first where it also allows older releases than those read; nothing where it allows none."""
    read = releases("transformers")
    got = allowed_releases("transformers", [">=4.32.0,<4.38.0"])
    assert got and got[0] == "4.32.0" and all("4.32.0" <= v < "4.38" for v in got[1:])
    assert set(got) <= set(read)
    assert "4.37.2" in got and "4.38.0" not in got
    assert allowed_releases("transformers", ["<4.30"])[0] == "0"  # older releases than those read
    assert allowed_releases("transformers", [">=4.20,<4.30"])[0] == "4.20.0"  # a release read
    assert allowed_releases("transformers", [">=3.5,<4.1"])[0] == "3.5"  # its bound is older than the releases read
    assert allowed_releases("transformers", [">4.20,<4.30"])[0] == "4.20.1"
    # a development or local pin (Griffon's ``transformers>=4.45.0.dev0``): its releases, never a crash
    assert allowed_releases("transformers", [">=4.45.0.dev0"])[0] == "4.45.0"
    assert allowed_releases("transformers", [">4.45.0.dev0"])[0] == "4.45.0"
    assert allowed_releases("transformers", [">4.44.2+local"]) == ()  # not a valid specifier: nothing is known
    tilde = allowed_releases("transformers", ["~=4.36.0"])
    assert tilde and all(v.startswith("4.36.") for v in tilde)
    assert "4.45.1" not in allowed_releases("transformers", [">=4.44,!=4.45.1,<4.48"])
    both = allowed_releases("transformers", [">=4.40", "<4.42"])  # two files: both must allow
    assert both and all(v.startswith(("4.40.", "4.41.")) for v in both)
    assert allowed_releases("transformers", [">=99"]) == ()
    assert allowed_releases("transformers", ["^4.30"]) == ()  # unparseable (Poetry): nothing known


def test_pinned_allowed() -> None:
    """A resolved range gives its releases; an exact pin its one release; a URL or no version nothing."""
    ranged = resolve([Pin("transformers", ">=5.6.0", "requirements.txt", 9)])["transformers"]
    assert ranged.version is None and ranged.why == "range" and ranged.allowed[0] == "5.6.0"
    assert "judged for every release it allows: 5.6.0-" in ranged.allowed_text()
    assert resolve([Pin("transformers", "", "requirements.txt", 1)])["transformers"].allowed == ()
    assert resolve([Pin("transformers", "@ https://x/y.whl", "r.txt", 1)])["transformers"].allowed == ()
    conflict = resolve([Pin("transformers", "==4.33.1", "a", 1), Pin("transformers", "==4.30.2", "b", 1)])
    assert conflict["transformers"].allowed == ("4.30.2", "4.33.1")
    # two environments' exact pins, neither a release dsdoctor's knowledge read (Online-DPO-R1's README): said so,
    # where an IndexError once stopped lint and check
    unread = resolve([Pin("transformers", "==4.48.1", "a", 1), Pin("transformers", "==4.42.2", "b", 1)])["transformers"]
    assert unread.allowed_text() == "judged for each release it names: 4.42.2, 4.48.1 (none of them a release read)"


def _lint(root: Path, *args: str) -> Dict[str, Any]:
    p = subprocess.run([sys.executable, "-m", "dsdoctor", "lint", "train.py", "--format", "json", "--exit-zero",
                        *args], cwd=root, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)  # type: ignore[no-any-return]


def _found(out: Dict[str, Any]) -> List[str]:
    return sorted(f"{f['severity']} {f['name']}" for f in out["findings"]
                  if f["name"] in ("removed-transformers-deepspeed-import", "device-map-requires-low-cpu-mem-usage"))


def test_cli_range_and_precedence(tmp_path: Path) -> None:
    """>=5.6.0: the import fails on every release allowed (error), the load check is gone on all (quiet); the
    output says the range was judged. --target and an exact pin keep precedence over a range."""
    (tmp_path / "train.py").write_text(SCRIPT)
    (tmp_path / "requirements.txt").write_text("transformers>=5.6.0\n")
    out = _lint(tmp_path)
    assert _found(out) == ["error removed-transformers-deepspeed-import"]
    assert out["facts"]["judged_for"][0].startswith("transformers>=5.6.0 (range; requirements.txt:1): judged for")
    assert _found(_lint(tmp_path, "--target", "transformers==4.37.2")) == [
        "error device-map-requires-low-cpu-mem-usage", "info removed-transformers-deepspeed-import"]
    (tmp_path / "requirements.txt").write_text("transformers>=4.40,<4.50\n")  # the import: some releases only
    assert _found(_lint(tmp_path)) == ["error device-map-requires-low-cpu-mem-usage",
                                       "warning removed-transformers-deepspeed-import"]
    (tmp_path / "requirements.txt").write_text("transformers>=4.40,<4.60\ntransformers==4.51.3\n")
    assert _found(_lint(tmp_path)) == ["error removed-transformers-deepspeed-import"]  # the exact pin


CONFIG = '{\n  "zero_optimization": {"stage": 3},\n  "train_micro_batch_size_per_gpu": "auto"\n}\n'


def _clipping(root: Path) -> List[str]:
    p = subprocess.run([sys.executable, "-m", "dsdoctor", "lint", "ds_config.json", "--format", "json", "--exit-zero"],
                       cwd=root, capture_output=True, text=True, timeout=300)
    return [f"{f['severity']} {f['title']}" for f in json.loads(p.stdout)["findings"]
            if f["name"] == "gradient-clipping-unset-under-trainer"]


def test_deepspeed_range_gradient_clipping(tmp_path: Path) -> None:
    """DeepSpeed's default gradient_clipping is 0.0 up to 0.19.2, 1.0 from 0.19.3: a range below 0.19.3 is no
    clipping on all its releases, one from 0.19.3 clipping at 1.0; a range across it keeps the version assumed."""
    from dsdoctor.lint.script.context import installed

    if installed(None, ("deepspeed",)):
        return  # the range is judged only where nothing else gives the version: the case needs none installed
    (tmp_path / "ds_config.json").write_text(CONFIG)
    (tmp_path / "requirements.txt").write_text("deepspeed>=0.14,<0.17\n")
    got = _clipping(tmp_path)
    assert len(got) == 1 and "no gradient clipping at all" in got[0] and "deepspeed<0.17,>=0.14 (range; requirements" in got[0]
    (tmp_path / "requirements.txt").write_text("deepspeed>=0.19.3\n")
    assert "clips at its default 1" in _clipping(tmp_path)[0]
    (tmp_path / "requirements.txt").write_text("deepspeed>=0.12\n")  # some releases each way: as before
    assert _clipping(tmp_path)[0].startswith("info") and "(DeepSpeed " in _clipping(tmp_path)[0]
    (tmp_path / "requirements.txt").write_text("deepspeed>=0.12\ndeepspeed==0.16.9\n")  # the exact pin decides
    assert "(DeepSpeed 0.16.9)" in _clipping(tmp_path)[0]
