"""lint/launch/script_dir.py: the script-directory idioms of launch scripts, and the command substitutions that are
not one (their value stays unknown)."""

from __future__ import annotations

from typing import Optional

import pytest

from dsdoctor.lint.launch.script_dir import script_dir


@pytest.mark.parametrize("line, want", [
    ('D=$(cd "$(dirname $0)"; pwd)', "a/b"),
    ('D="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"', "a/b"),
    ('export D=$(cd -P -- "$(dirname -- "$0")" && pwd -P)', "a/b"),
    ('D=$(dirname "$(readlink -f "$0")")', "a/b"),
    ('D=$(dirname "$0")  # where this file is', "a/b"),
    ('D=$(dirname $(realpath $0))/..', "a"),
    ('D=$(cd "$(dirname "$0")/.." && pwd)', "a"),
    ('D=$(dirname $(dirname $0))', "a"),
    # the caller's working directory, not the script's: a path below it resolves as a relative path does
    ("D=$(pwd)", "."),
    ("D=`pwd`/config/z3.json", "config/z3.json"),
    ('D="$PWD/config"', "config"),
    ("D=$(pwd)/$NAME", None),
    ("D=$(dirname $X)", None),
    ("D=$(dirname $0 $X)", None),
    ("D=$(cd $(dirname $0)/sub; pwd)", None),
    ("D=$(cd $(dirname $0); git rev-parse --show-toplevel)", None),
    ("D=$(dirname $0)/$NAME", None),
    ("D=/data/run", None),
])
def test_script_dir(line: str, want: Optional[str]) -> None:
    assert script_dir(line + "\n", 0, "a/b/run.sh") == want
