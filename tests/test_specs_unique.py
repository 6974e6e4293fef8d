"""One spine: every finding name is one spec (``dsdoctor.all_specs``), the catalog and the docs are derived from it,
and every fact the knowledge modules hold is read somewhere."""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path
from typing import Iterator, List, Tuple

from dsdoctor import names
from dsdoctor.all_specs import FAMILIES, forms, owners
from dsdoctor.catalog import RULES
from dsdoctor.explain.causes import CAUSES
from dsdoctor.lint.all_rules import VARIANTS
from dsdoctor.ruledocs import doc_for

SRC = Path(__file__).resolve().parents[1] / "src" / "dsdoctor"


WORDS = {names.UNKNOWN}  # also an ordinary word (a value nobody could read): code means the name by N.UNKNOWN


def _name_literals(tree: ast.AST) -> Iterator[Tuple[str, int]]:
    """String literals equal to a finding name (docstrings and f-string pieces included)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names.CODES \
                and node.value not in WORDS:
            yield node.value, node.lineno


def test_every_name_has_exactly_one_spec() -> None:
    got = Counter(s.name for s in owners())
    assert not [n for n, k in got.items() if k > 1], "documented twice"
    assert set(got) == set(names.CODES), set(got) ^ set(names.CODES)


def test_every_spec_is_held_by_its_owner() -> None:
    """The names table says which family holds each name's spec; ``all_specs.FAMILIES`` reads it from there."""
    for owner, family in FAMILIES.items():
        for s in family():
            assert names.owner(s.name) in FAMILIES and FAMILIES[names.owner(s.name)] is family, (s.name, owner)


def test_no_name_is_typed_outside_the_names_table() -> None:
    """Code refers to a finding name through its constant in ``dsdoctor.names``, never by retyping the string
    (a typo there is a silent miss: a finding nobody documents, a rule select that matches nothing)."""
    typed = [f"{p.relative_to(SRC)}:{line} {name!r}" for p in sorted(SRC.rglob("*.py")) if p.name != "names.py"
             for name, line in _name_literals(ast.parse(p.read_text(encoding="utf-8")))]
    assert not typed, typed


def test_forms_name_an_owned_spec() -> None:
    own = {s.name: s for s in owners()}
    for c in CAUSES:
        assert c.name in own, c.name
        assert (c.spec is None) == (own[c.name] is not c.spec), f"{c.name}: a cause without a spec is a form"
        assert c.code == own[c.name].code
    for f in forms():
        assert f.of in own, f"a {f.command} form of {f.of}, which no spec owns"
    for v in VARIANTS:
        assert (v.code, v.summary) == (own[v.name].code, own[v.name].summary), v.name


def test_codes_unique_and_well_formed() -> None:
    codes = Counter(code for code, _ in names.CODES.values())
    assert not [c for c, k in codes.items() if k > 1]
    for s in owners():
        assert re.fullmatch(r"DS\d{3}", s.code), s.name
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", s.name), s.name
        assert s.summary and not s.summary.endswith("."), s.name
    for const, value in vars(names).items():
        if const.isupper() and isinstance(value, str) and const != "UNKNOWN_CODE":
            assert const == value.upper().replace("-", "_") and value in names.CODES, const


def test_catalog_is_the_specs() -> None:
    for s in owners():
        assert RULES[s.name].code == s.code and RULES[s.name].summary == s.summary, s.name
    assert list(RULES) == list(names.CODES)


def test_every_catalog_entry_has_docs_from_its_spec() -> None:
    for s in owners():
        d = doc_for(s.name)
        assert d.code == s.code and d.what.strip() and d.why.strip() and d.fix.strip() and d.examples, s.name
        assert (d.what, d.why, d.fix, d.commands[:len(s.commands)]) == (s.docs.what, s.docs.why, s.docs.fix,
                                                                         s.commands), s.name


# ------------------------------------------------------------------------------------------ knowledge constants


def _constants(path: Path) -> List[Tuple[str, int]]:
    out: List[Tuple[str, int]] = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        out += [(t.id, node.lineno) for t in targets if isinstance(t, ast.Name) and re.fullmatch(r"[A-Z][A-Z0-9_]*", t.id)]
    return out


def _references(tree: ast.AST, name: str, reexports: bool = False) -> int:
    """Reads of ``name`` (a name, an attribute, an import of it, or the string of it for ``getattr``). Listing a
    name is not reading it: an ``__all__`` entry never counts, nor (``reexports``: a knowledge module, where the
    facade ``knowledge/deepspeed.py`` re-exports the area modules) an import."""
    listed = {id(c) for n in ast.walk(tree) if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign))
              and any(isinstance(t, ast.Name) and t.id == "__all__"
                      for t in (n.targets if isinstance(n, ast.Assign) else [n.target]))
              for c in ast.walk(n)}
    return sum(1 for n in ast.walk(tree) if id(n) not in listed and (
               (isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load))
               or (isinstance(n, ast.Attribute) and n.attr == name)
               or (isinstance(n, ast.alias) and n.name == name and not reexports)
               or (isinstance(n, ast.Constant) and n.value == name)))


def test_every_knowledge_constant_is_used() -> None:
    """A public UPPER_CASE constant of ``knowledge/*.py`` that nothing in ``src/`` reads is a fact nobody checks:
    use it where its text is typed again, or delete it."""
    sources = {p: p.read_text(encoding="utf-8") for p in SRC.rglob("*.py")}
    trees = {p: ast.parse(s) for p, s in sources.items()}
    unused = []
    for mod in sorted((SRC / "knowledge").glob("*.py")):
        for name, line in _constants(mod):
            if not any(_references(t, name, reexports=p.parent.name == "knowledge")
                       for p, t in trees.items() if name in sources[p]):
                unused.append(f"knowledge/{mod.name}:{line} {name}")
    assert not unused, unused
