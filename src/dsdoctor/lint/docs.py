"""docs/rules.md: generated for every finding name (lint rules included, from their definitions in this package)
by :mod:`dsdoctor.ruledocs.markdown`; ``python -m dsdoctor.lint.docs`` is kept as an alias. tests/test_lint_rules.py
checks the file is current."""

from __future__ import annotations


def render() -> str:
    from ..ruledocs.markdown import render as render_all

    return render_all()


if __name__ == "__main__":
    print(render(), end="")
