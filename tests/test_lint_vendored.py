"""lint/script/vendored.py: a finding inside a vendored library copy is a library path unless the project's own code
names its function or class; a second copy of the library is no code of the project's own."""

from __future__ import annotations

from pathlib import Path

import pytest

from dsdoctor.lint.script import vendored as V

_CALLBACK = "class PushCallback:\n    def on_end(self):\n        self.model.save_pretrained('out')\n"


def _copy(root: Path, where: str, extra: str = "") -> None:
    lib = root / where / "transformers"
    (lib / "models").mkdir(parents=True)
    for f in ("__init__.py", "modeling_utils.py", "models/__init__.py"):
        (lib / f).write_text("", encoding="utf-8")
    (lib / "callbacks.py").write_text(_CALLBACK + extra, encoding="utf-8")


@pytest.fixture(autouse=True)
def _fresh() -> None:
    for f in (V.library_copy, V._own_texts, V._own_files, V._subclasses, V._setup_text):
        f.cache_clear()


@pytest.mark.parametrize("own, demoted", [
    ("import torch\n", True),  # the project's own code never names PushCallback
    ("from a.transformers.callbacks import PushCallback\n", False),  # it does: the finding keeps its severity
])
def test_second_copy_is_not_own_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, own: str, demoted: bool) -> None:
    _copy(tmp_path, "a")
    _copy(tmp_path, "b", "\n\nclass Other(PushCallback):\n    pass\n")  # names every class of the first copy
    (tmp_path / "train.py").write_text(own, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    path = "a/transformers/callbacks.py"
    note = V.library_path(path, _CALLBACK, 3, {})
    assert (note is not None) is demoted
    if note is not None:
        assert "PushCallback.on_end" in note and "a/transformers" in note


@pytest.mark.parametrize("own, demoted", [
    ("from handbook.utils import get_config\nget_config()\n", True),  # a function of that name, another module's
    ("def get_config():\n    pass\n\nget_config()\n", True),  # the project's own function of that name
    ("from a.transformers.callbacks import get_config\nget_config()\n", False),  # the copy's
    ("import a.transformers.callbacks as cb\ncb.get_config()\n", False),
])
def test_name_bound_elsewhere_is_not_the_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, own: str,
                                              demoted: bool) -> None:
    """A name the project's own file binds to another module's function, or defines itself, is not the copy's."""
    fn = "def get_config():\n    return BitsAndBytesConfig(load_in_4bit=True)\n"
    _copy(tmp_path, "a", "\n\n" + fn)
    (tmp_path / "train.py").write_text(own, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    text = (tmp_path / "a/transformers/callbacks.py").read_text(encoding="utf-8")
    line = text.splitlines().index("    return BitsAndBytesConfig(load_in_4bit=True)") + 1
    assert (V.library_path("a/transformers/callbacks.py", text, line, {}) is not None) is demoted
