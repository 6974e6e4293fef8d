"""Tests of the Transformers version around imports (lint/version_tests.py), evaluated as Python would on each
release: string comparisons stay string comparisons, parsed versions compare as versions, and a test that also
reads something else only narrows where the import may run."""

from __future__ import annotations

import ast
from typing import Dict, Optional

from dsdoctor.lint.version_tests import VersionTests

RELEASES = ("4.5.0", "4.40.0", "4.45.2", "4.46.0", "5.0.0")


def _runs(src: str) -> Dict[str, Optional[frozenset]]:
    vt = VersionTests(ast.parse(src))
    return {ast.unparse(node): vt.releases(conds, RELEASES) for node, conds in vt.imports()}


def test_string_comparison_is_lexicographic() -> None:
    got = _runs('import transformers\ntv = transformers.__version__\nif tv >= "4.46.0":\n    import new\n'
                'else:\n    import old\n')
    assert got["import new"] == {"4.5.0", "4.46.0", "5.0.0"}  # "4.5.0" >= "4.46.0" as strings
    assert got["import old"] == {"4.40.0", "4.45.2"}
    assert got["import transformers"] is None


def test_parsed_versions_and_elif() -> None:
    got = _runs('from packaging import version\nimport transformers\n'
                'if version.parse(transformers.__version__) < version.parse("4.46"):\n    import a\n'
                'elif not version.parse("5.0") <= version.parse(transformers.__version__):\n    import b\n')
    assert got["import a"] == {"4.5.0", "4.40.0", "4.45.2"}
    assert got["import b"] == {"4.46.0"}


def test_other_tests_only_narrow() -> None:
    got = _runs('import importlib.metadata as md\nimport os\n'
                'if md.version("transformers") < "4.46" and os.environ.get("X"):\n    import a\nelse:\n    import b\n'
                'if os.environ.get("Y"):\n    import c\n')
    assert got["import a"] == {"4.40.0", "4.45.2"}  # where the version test holds (X may be set)
    assert got["import b"] == set(RELEASES)  # X may be unset on any release
    assert got["import c"] is None  # no version test: it runs on any
