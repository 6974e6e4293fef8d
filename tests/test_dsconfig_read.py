"""check --ds-config, smoke and lint read a ds_config the same way (lint's reader), with or without the hjson
package: the fixtures in tests/cases/ds-config-read (HJSON with comments, malformed JSON, ...) are accepted or
rejected alike, and a rejection names the same file:line:col lint reports."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any, Dict, Optional

import pytest

from dsdoctor.checks import InputError, resolve_inputs
from dsdoctor.dsconfig import ConfigError, load
from dsdoctor.lint import lint

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

CASES = Path(__file__).parent / "cases" / "ds-config-read"
EXPECT: Dict[str, Dict[str, Any]] = tomllib.loads((CASES / "expect.toml").read_text(encoding="utf-8"))


def _lint_rejection(path: str) -> Optional[str]:
    """lint's read error for the file: "line:col: message", or None when lint reads it."""
    for f in lint([path], ds_version="0.19.8").report.findings:
        if f.name == "ds-config-invalid" and f.title.startswith(("not a loadable", "the top level")):
            return f"{f.line}:{f.col}: {f.title}"
    return None


@pytest.mark.parametrize("hjson_installed", [True, False], ids=["hjson", "no-hjson"])
@pytest.mark.parametrize("name", sorted(EXPECT))
def test_check_and_lint_agree(name: str, hjson_installed: bool, tmp_path: Path,
                              monkeypatch: pytest.MonkeyPatch) -> None:
    if not hjson_installed:
        monkeypatch.setitem(sys.modules, "hjson", None)  # `import hjson` raises ImportError
    exp = EXPECT[name]
    path = str(tmp_path / name)
    shutil.copy(CASES / name, path)
    monkeypatch.chdir(tmp_path)
    linted = _lint_rejection(name)
    try:
        _, intent = resolve_inputs(None, name)
        checked: Optional[str] = None
    except InputError as exc:
        checked, intent = str(exc), None
    assert (linted is None) == (checked is None) == exp["loads"], (linted, checked)
    if exp["loads"]:
        assert intent is not None and intent.source == name
        assert (intent.offload, intent.nvme, intent.pin_memory) == \
            (exp.get("offload", False), exp.get("nvme", False), exp.get("pin"))
        return
    assert checked is not None and linted is not None
    if "at" in exp:  # the same position and reason as lint's finding
        assert linted.startswith(exp["at"] + ": ")
        assert checked == f"{name}:{linted}"
    else:
        assert checked.startswith(f"{name}: the top level must be an object")


def test_real_hjson_agrees_with_the_fixtures() -> None:
    """The fixtures' verdicts are DeepSpeed's: hjson (what it loads a config path with) reads the same ones."""
    hjson = pytest.importorskip("hjson")
    for name, exp in EXPECT.items():
        try:
            data = hjson.loads((CASES / name).read_text(encoding="utf-8"))
            ok = isinstance(data, dict)
        except (ValueError, IndexError):
            ok = False
        assert ok == exp["loads"], name


def test_unreadable_and_binary(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"missing\.json: cannot read the file"):
        load(str(tmp_path / "missing.json"))
    p = tmp_path / "bin.json"
    p.write_bytes(b'{"a": "\xff"}')
    with pytest.raises(ConfigError, match=r"bin\.json:1:8: not a loadable DeepSpeed config: not UTF-8"):
        load(str(p))
    p.write_bytes(b'\xef\xbb\xbf{"zero_optimization": {"stage": 3}}')  # a UTF-8 BOM: hjson skips it, json.loads fails
    assert load(str(p)) == {"zero_optimization": {"stage": 3}}
