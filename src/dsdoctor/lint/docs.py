"""docs/rules.md, generated from the rule registry (tests check it is current)."""

from __future__ import annotations

from typing import List

from ..catalog import code_for
from .rule import REGISTRY, rules_for


def render() -> str:
    list(rules_for("ds_config"))
    out: List[str] = ["# dsdoctor lint rules", "",
                      "Generated from `src/dsdoctor/lint` by `python -m dsdoctor.lint.docs > docs/rules.md`. Each rule's "
                      "examples are also its tests (`tests/test_lint_rules.py`).", ""]
    for name, r in sorted(REGISTRY.items(), key=lambda kv: code_for(kv[0])):
        out += [f"## `{name}` ({code_for(name)}, {r.severity.value}, {r.kind})", "", r.summary + ".", "",
                f"**What.** {r.what}", "", f"**Why.** {r.why}", "", f"**Fix.** {r.fix}", "", "Example (reported):", "",
                "```", r.invalid[0].text.rstrip("\n"), "```", ""]
        if r.invalid[0].options:
            out += ["with " + ", ".join(f"{k}={v}" for k, v in r.invalid[0].options), ""]
    return "\n".join(out)


if __name__ == "__main__":
    print(render(), end="")
