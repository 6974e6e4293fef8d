"""lint/own_loaders.py: which classes of a project have a from_pretrained that is not Transformers' loader."""

from __future__ import annotations

from pathlib import Path

from dsdoctor.lint.own_loaders import own_loaders


def _project(tmp_path: Path, files: dict) -> list:
    out = []
    for name, text in files.items():
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
        out.append(str(p))
    return out


def test_bases_and_own_loaders(tmp_path: Path) -> None:
    files = _project(tmp_path, {
        "pkg/base.py": "from diffusers import ModelMixin\nfrom transformers import PreTrainedModel\n"
                       "class DiffBase(ModelMixin):\n    pass\n"
                       "class LMBase(PreTrainedModel):\n    pass\n",
        "pkg/models.py": "import torch.nn as nn\nfrom transformers import AutoModel\nfrom .base import DiffBase, LMBase\n"
                         "class Video(DiffBase):\n    pass\n"
                         "class Tuned(LMBase):\n    pass\n"
                         "class SelfLoaded(LMBase):\n    @classmethod\n    def from_pretrained(cls, path):\n"
                         "        return cls.load(path)\n"
                         "class Forwards(nn.Module):\n    @classmethod\n    def from_pretrained(cls, path, **kw):\n"
                         "        return AutoModel.from_pretrained(path, **kw)\n"
                         "class SuperForwards(LMBase):\n    @classmethod\n    def from_pretrained(cls, *a, **kw):\n"
                         "        return super().from_pretrained(*a, **kw)\n"
                         "class Unknown(somelib.Thing):\n    pass\n"
                         "class Shadow(nn.Module):\n    pass\n",
        "other.py": "from transformers import Shadow\n",
    })
    got = own_loaders(files)
    assert {"DiffBase", "Video", "SelfLoaded"} <= got
    # Transformers' classes and subclasses, a loader handing **kwargs on, an unknown base, a name some file imports
    # from Transformers: undecided or Transformers', never returned
    assert not {"LMBase", "Tuned", "Forwards", "SuperForwards", "Unknown", "Shadow"} & got
