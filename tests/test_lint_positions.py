"""lint/script/source.py: the ranges of a codegen pass stopped after a node are those of the whole pass."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from dsdoctor.lint.script.source import Source, positions_until
from dsdoctor.lint.script.walk import descendants

FILES = sorted((Path(__file__).parent / "cases" / "lint-scripts").glob("*.py"))


@pytest.mark.parametrize("path", FILES[:12], ids=[f.stem for f in FILES[:12]])
def test_positions_until_match_the_whole_pass(path: Path) -> None:
    module = cst.parse_module(path.read_text())
    whole = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    nodes = list(descendants(module))
    for node in nodes[:: max(1, len(nodes) // 40)] + nodes[-3:]:
        upto = positions_until(module, node)
        assert node in upto
        assert all(upto[n] == whole[n] for n in upto), path


def test_span_past_the_first_node_asked(tmp_path: Path) -> None:
    text = "import os\nx = 1\n\n\ndef f():\n    return os.path.join('a', 'b')\n"
    module = cst.parse_module(text)
    src = Source("t.py", text, "utf-8", module)
    ret = module.body[2].body.body[0].body[0]
    first = module.body[1]
    assert text[slice(*src.span(first))] == "x = 1"
    assert text[slice(*src.span(ret.value))] == "os.path.join('a', 'b')"
    assert text[slice(*src.span(module.body[0]))] == "import os"


def test_span_of_an_ancestor_in_the_same_statement_needs_no_whole_pass() -> None:
    text = "import os\nfrom transformers.deepspeed import HfDeepSpeedConfig\n\n\ndef f():\n    return os.sep\n"
    module = cst.parse_module(text)
    src = Source("t.py", text, "utf-8", module)
    imp = module.body[1].body[0]
    assert text[slice(*src.span(imp.module))] == "transformers.deepspeed"
    assert text[slice(*src.span(imp))] == "from transformers.deepspeed import HfDeepSpeedConfig"
    assert text[slice(*src.span(module.body[0]))] == "import os"
    assert src._positions is None  # the statement's pass held them all
    ret = module.body[2].body.body[0].body[0]
    assert text[slice(*src.span(ret.value))] == "os.sep"
