"""removed-transformers-deepspeed-import: ``transformers.deepspeed`` is gone from Transformers 4.46."""

from __future__ import annotations

import os
from typing import Any, Callable, Iterator, List, Optional, Tuple

from ... import names as N
from ...knowledge import api_history
from ...knowledge import transformers as TF
from ...knowledge.release_spans import Span
from ...knowledge.versions import parse
from ...model import Fix, Severity
from ..rule import Edit, Example, Hit, Rule, spec
from ..target import Target
from ..unrun import unused_code
from . import Ctx, active, emit
from .vendored import copy_package, library_repo

NEW = "transformers.integrations.deepspeed"


def _copy_has_module(path: str) -> bool:
    """Is ``path`` in a copy of transformers's repository the project bundles, whose own package still has
    ``transformers/deepspeed.py``? Its examples and tests import that copy (what its setup.py installs)."""
    lib = library_repo(path)
    pkg = copy_package(lib[1], lib[0]) if lib is not None and lib[0] == "transformers" else None
    return pkg is not None and os.path.isfile(os.path.join(pkg, "deepspeed.py"))


def _imports(t: Target, c: Ctx) -> List[Tuple[Any, Optional[Edit]]]:
    """The unguarded imports of ``transformers.deepspeed`` in script context ``c``, each with its rewrite (None where
    there is none)."""
    import libcst as cst

    from .dataflow import dotted

    assert c.script is not None
    hits: List[Tuple[Any, Optional[Edit]]] = []
    for node, mod, guarded in c.script.import_nodes:
        if guarded:  # version-gated / try-except fallbacks (accelerate, peft do this) are fine
            continue
        edit = None
        if isinstance(node, cst.ImportFrom) and node.module is not None and not node.relative:
            names = [] if isinstance(node.names, cst.ImportStar) else [dotted(a.name) for a in node.names]
            if mod == "transformers.deepspeed" or mod.startswith("transformers.deepspeed."):
                edit = Edit(t.path, *c.src.span(node.module), NEW + mod[len("transformers.deepspeed"):], "safe",
                            f"import from {NEW}")
            elif mod == "transformers" and "deepspeed" in names:
                if names == ["deepspeed"]:
                    edit = Edit(t.path, *c.src.span(node.module), "transformers.integrations", "safe",
                                "from transformers.integrations import deepspeed")
            else:
                continue
            hits.append((node, edit))
        elif isinstance(node, cst.Import) and any(dotted(a.name).startswith("transformers.deepspeed") for a in node.names):
            hits.append((node, None))
    return hits


def check(t: Target) -> Iterator[Hit]:
    if active(t) is None:  # not parsed (nothing a rule reads): libcst stays unimported
        return
    c = active(t)
    if c is None:
        return
    hits = _imports(t, c)
    if not hits:  # the rest reads the API history: only for a file that imports the module
        return
    gone = parse(TF.TF_DEEPSPEED_MODULE_REMOVED)

    def lacks(v: Optional[str]) -> Optional[bool]:
        p = parse(v)
        return None if p is None else p >= gone  # type: ignore[operator]

    lacking = c.on_tf(lacks)  # the release judged, or every one the project's pins allow (a range, conflicts)
    span = api_history.module_span("transformers.deepspeed")  # the releases read that have it (4.7.0-4.45.2)
    # an exact pin below the removal that the releases read do not show with the module: one older than any read
    # (transformers 2.9.1: not judged) or one before the module was added (4.5.1: the import fails there too)
    had = span.has(c.tf) if span is not None and c.tf and lacking is False else True
    early = had is not True
    if had is False:
        lacking = True
    kept = lacking is False and not early  # a release that still has the module: only an upgrade breaks it, so info
    # unknown because the project installs a git commit (the release it pins is fixed, only not read), or because
    # it pins a release older than those read: info
    sev = Severity.INFO if kept or (lacking is None and c.tf_url) or had is None else \
        Severity.ERROR if lacking else Severity.WARNING
    if c.tf:
        on = f"transformers {c.tf}" + (f", {c.tf_source}" if c.tf_source.startswith("pinned in ") else "")
    else:
        on = c.tf_source if c.tf_pins else f"version unknown: the project installs a git commit, {c.tf_url}" if c.tf_url \
            else "version unknown"
    title = (f"`transformers.deepspeed` is gone from transformers >= {TF.TF_DEEPSPEED_MODULE_REMOVED}: {on} still has "
             "it, an upgrade breaks this import (ImportError)" if kept else
             f"`transformers.deepspeed` exists only on {_has(span)}: {on} is older than the releases read (not judged)"
             if had is None else
             f"`transformers.deepspeed` does not exist yet on {on} (only on {_has(span)}): ImportError" if early else
             f"`transformers.deepspeed` does not exist on transformers >= {TF.TF_DEEPSPEED_MODULE_REMOVED} ({on}): ImportError")
    fix = (Fix(f"import from {NEW} (is_deepspeed_zero3_enabled, HfDeepSpeedConfig, ...)", "safe"),) if not early else \
        (Fix(f"require transformers>={_first(NEW)} and import from {NEW} (transformers {c.tf} has neither module)", "unsafe"),)
    if _copy_has_module(t.path):
        return
    gated = _gated(t, lacks) if not kept else None
    if gated:
        sev, title = Severity.INFO, f"`transformers.deepspeed` is gone from transformers >= " \
            f"{TF.TF_DEEPSPEED_MODULE_REMOVED}: {gated}, which still have it (an importer's change breaks it)"
    unrun = t.usage.unrun.get(os.path.normpath(t.path)) if sev != Severity.INFO else None
    if unrun is not None and unused_code(unrun):
        sev, title = Severity.INFO, f"{title} ({unrun})"
    for node, edit in hits:
        yield from emit(RULE, t, node, title, fixes=fix, edits=(edit,) if edit and not early else (), severity=sev)


def _has(span: Optional[Span]) -> str:
    """``transformers 4.7.0-4.45.2``: the releases read that have the module."""
    return span.describe() if span is not None else "no transformers release read"


def _first(module: str) -> str:
    """The first release read that has ``module`` (``transformers.integrations.deepspeed``: 4.33.0)."""
    span = api_history.module_span(module)
    return (span.first() if span is not None else None) or "?"


def _gated(t: Target, lacks: Callable[[Optional[str]], Optional[bool]]) -> str:
    """Where every project import of this module sits under tests of the Transformers version that let it load
    only on releases that still have the module: ``every project import of it runs only on transformers
    4.0.0-4.41.2 (pkg/utils/__init__.py:36)``; "" otherwise."""
    if t.usage.version_gate is None:
        return ""
    read = api_history.releases("transformers")
    got = t.usage.version_gate(os.path.normpath(t.path), read)
    if got is None or any(lacks(v) for v in got[1]):
        return ""
    runs = [v for v in read if v in got[1]]
    on = f"transformers {runs[0]}-{runs[-1]}" if runs else "no transformers release read"
    return f"every project import of it runs only on {on} ({got[0]})"


RULE = Rule(
    spec(
        N.REMOVED_TRANSFORMERS_DEEPSPEED_IMPORT,
        "python",
        Severity.ERROR,
        summary="An import of transformers.deepspeed, removed in Transformers 4.46",
        what="`from transformers.deepspeed import ...`, `from transformers import deepspeed` or "
         "`import transformers.deepspeed` (the pre-4.31 location, kept as a shim until 4.45). Which releases have the "
         "module is read from the released wheels (knowledge/api_history: 4.7.0-4.45.2): a pin before 4.7.0 fails the "
         "same import; one older than the releases read (4.0.0) is not judged (info).",
        why="Transformers 4.46 removed the module: the script dies with an ImportError before training.",
        fix=f"`from {NEW} import is_deepspeed_zero3_enabled, HfDeepSpeedConfig` (dsdoctor fix rewrites the import). "
        "A module every project import of which sits under tests of the Transformers version that let it load only "
        "on releases that still have the module (`if transformers.__version__ < \"4.42\": from .old import ...`, "
        "`if is_transformers_version(\"<\", \"4.40\")`, a helper `..._at_least(\"transformers\", \"4.35.0\")`; "
        "lint/version_tests.py), or that only such a module imports (test files' imports aside), is info, as is a "
        "dead module (lint/unrun.py: it runs nothing itself and nothing "
        "imports it, beside modules the project imports: a backup copy of a live one) and a file of a bundled copy "
        "of another project (a directory with its own license) that nothing of the project launches or imports.",
        section="Script"),
    check=check,
    valid=(Example("from transformers.integrations.deepspeed import is_deepspeed_zero3_enabled\n",
                   (("transformers", "4.46.3"),)),
           Example("try:\n    from transformers.integrations import HfDeepSpeedConfig\nexcept ImportError:\n"
                   "    from transformers.deepspeed import HfDeepSpeedConfig\n", (("transformers", "4.46.3"),)),
           Example("from transformers.deepspeed import is_deepspeed_zero3_enabled\n", (("transformers", "4.40.0"),))),
    invalid=(Example("from transformers.deepspeed import is_deepspeed_zero3_enabled\n", (("transformers", "4.46.3"),),
                     fixed="from transformers.integrations.deepspeed import is_deepspeed_zero3_enabled\n"),
             Example("from transformers import deepspeed\n", (("transformers", "5.24.0"),),
                     fixed="from transformers.integrations import deepspeed\n")),
)
