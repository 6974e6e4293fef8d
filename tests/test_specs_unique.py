"""One spine: every finding name is one spec (``dsdoctor.specs``), the catalog and the docs are derived from it,
and every fact the knowledge modules hold is read somewhere."""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path
from typing import Dict, Iterator, List, Tuple

from dsdoctor.catalog import RULES
from dsdoctor.explain.causes import CAUSES
from dsdoctor.lint.all_rules import RULES as LINT_RULES
from dsdoctor.lint.all_rules import VARIANTS
from dsdoctor.ruledocs import doc_for
from dsdoctor.spec import FindingSpec
from dsdoctor.specs import FAMILIES, forms, owners

SRC = Path(__file__).resolve().parents[1] / "src" / "dsdoctor"


def _names_written(tree: ast.AST) -> Iterator[str]:
    """Name literals a spec is written with: ``FindingSpec("x", ...)``, ``Cause("x", ...)``, ``Rule(name="x", ...)``."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        fn = node.func.id if isinstance(node.func, ast.Name) else node.func.attr if isinstance(node.func, ast.Attribute) else ""
        if fn in ("FindingSpec", "Cause") and node.args and isinstance(node.args[0], ast.Constant):
            yield str(node.args[0].value)
        if fn in ("FindingSpec", "Cause", "Rule"):
            yield from (str(k.value.value) for k in node.keywords if k.arg == "name" and isinstance(k.value, ast.Constant))


def test_every_name_has_exactly_one_spec() -> None:
    got = Counter(s.name for s in owners())
    assert not [n for n, k in got.items() if k > 1], "documented twice"
    assert set(got) == set(RULES), set(got) ^ set(RULES)


def test_no_name_is_written_into_two_specs() -> None:
    """A second spec of a name (a cause or check typing a lint rule's name, code and summary again instead of taking
    them from it) fails here even when it agrees with the first."""
    seen: Dict[str, List[str]] = {}
    for p in SRC.rglob("*.py"):
        for name in _names_written(ast.parse(p.read_text(encoding="utf-8"))):
            seen.setdefault(name, []).append(str(p.relative_to(SRC)))
    twice = {n: ps for n, ps in seen.items() if len(ps) > 1}
    assert not twice, twice


def test_forms_take_the_owners_name_code_and_summary() -> None:
    own = {s.name: s for s in owners()}
    for c in CAUSES:
        o = own[c.name]
        assert (c.code, c.summary) == (o.code, o.summary), c.name
        assert (c.docs is None) == (o is not c), f"{c.name}: a cause without docs is a form of another command's spec"
    for name, f in forms():
        assert name in own, f"a {f.command} form of {name}, which no spec owns"
        assert f.command == "explain" or f.of is own[name], name
    for v in VARIANTS:
        assert (v.code, v.summary) == (own[v.name].code, own[v.name].summary), v.name


def test_codes_unique_and_well_formed() -> None:
    codes = Counter(s.code for s in owners())
    assert not [c for c, k in codes.items() if k > 1]
    for s in owners():
        assert re.fullmatch(r"DS\d{3}", s.code), s.name
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", s.name), s.name
        assert s.summary and not s.summary.endswith("."), s.name
    assert all(r.code for r in LINT_RULES)


def test_catalog_is_the_specs() -> None:
    for s in owners():
        assert RULES[s.name].code == s.code and RULES[s.name].summary == s.summary, s.name
    first = {s.name for s in dict(FAMILIES)["dsdoctor.checks.rules"]()}  # what `dsdoctor check` reports needs only its family
    from dsdoctor.checks.rules import FORMS, SPECS

    assert {s.name for s in SPECS} | {f.of.name for f in FORMS} <= first


def test_every_catalog_entry_has_docs_from_its_spec() -> None:
    for s in owners():
        d = doc_for(s.name)
        assert d.code == s.code and d.what.strip() and d.why.strip() and d.fix.strip() and d.examples, s.name
        if isinstance(s, FindingSpec):
            assert (d.what, d.why, d.fix, d.commands[:len(s.commands)]) == (s.what, s.why, s.fix, s.commands), s.name


# ------------------------------------------------------------------------------------------ knowledge constants


def _constants(path: Path) -> List[Tuple[str, int]]:
    out: List[Tuple[str, int]] = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        out += [(t.id, node.lineno) for t in targets if isinstance(t, ast.Name) and re.fullmatch(r"[A-Z][A-Z0-9_]*", t.id)]
    return out


def _references(tree: ast.AST, name: str) -> int:
    """Reads of ``name`` (a name, an attribute, an import of it, or the string of it for ``getattr``)."""
    return sum(1 for n in ast.walk(tree)
               if (isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load))
               or (isinstance(n, ast.Attribute) and n.attr == name)
               or (isinstance(n, ast.alias) and n.name == name)
               or (isinstance(n, ast.Constant) and n.value == name))


def test_every_knowledge_constant_is_used() -> None:
    """A public UPPER_CASE constant of ``knowledge/*.py`` that nothing in ``src/`` reads is a fact nobody checks:
    use it where its text is typed again, or delete it."""
    sources = {p: p.read_text(encoding="utf-8") for p in SRC.rglob("*.py")}
    trees = {p: ast.parse(s) for p, s in sources.items()}
    unused = []
    for mod in sorted((SRC / "knowledge").glob("*.py")):
        for name, line in _constants(mod):
            if not any(_references(t, name) for p, t in trees.items() if name in sources[p]):
                unused.append(f"knowledge/{mod.name}:{line} {name}")
    assert not unused, unused
