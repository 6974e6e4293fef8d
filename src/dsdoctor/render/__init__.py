"""Rendering: one place picks the renderer by (command, ``--format``) and writes it.

Every command's output goes through :func:`emit`: ``json`` (the envelope of :mod:`.json_out`; lint's and
explain's own shapes), ``sarif`` (:mod:`.sarif`), ``github`` (:mod:`.github`) and text (:mod:`.text` for
check / verify / smoke / launch, :mod:`.lint` for lint and fix, :mod:`.explain`, :mod:`.estimate`). Renderers
are imported on first use: ``dsdoctor check`` starts without rich or json.
"""

from __future__ import annotations

import sys
from typing import Any, Mapping, Optional, Sequence, TextIO


def render(report: Any, command: str, fmt: str, verbose: bool = False,
           edits: Optional[Mapping[Any, Sequence[Any]]] = None) -> Optional[str]:
    """The output of ``command`` in ``fmt`` (a ``Format`` or its value) as a string, or None for text (printed
    directly by rich). ``report`` is a Report (estimate: an Estimate); ``edits``: lint's edits per finding
    (SARIF ``fixes``)."""
    fmt = str(getattr(fmt, "value", fmt))
    if command == "estimate":
        if fmt != "json":
            return None
        from .estimate import render_json as estimate_json

        return estimate_json(report)
    if fmt == "json":
        if command == "lint":
            from .json_out import dumps
            from .lint import to_json as lint_json

            return dumps(lint_json(report))
        if command == "explain":
            from .explain import to_json as explain_json

            return explain_json(report)
        from .json_out import render as render_json

        return render_json(report, command)
    if fmt == "sarif":
        from ..version import __version__
        from .sarif import render as render_sarif

        return render_sarif(report, command, __version__, edits)
    if fmt == "github":
        from .github import render as render_github

        return render_github(report, command)
    return None


def emit(report: Any, command: str, fmt: str, verbose: bool = False,
         edits: Optional[Mapping[Any, Sequence[Any]]] = None, out: Optional[TextIO] = None) -> None:
    """Write ``report`` in ``fmt`` to ``out`` (default stdout; machine formats print nothing else there)."""
    stream = out or sys.stdout
    text = render(report, command, fmt, verbose, edits)
    if text is not None:
        stream.write(text if text.endswith("\n") or not text else text + "\n")
    elif command == "lint":
        from .lint import render as render_lint

        render_lint(report, verbose, stream)
    elif command == "explain":
        from .explain import render_text as render_explain

        render_explain(report, verbose, stream)
    elif command == "estimate":
        from .estimate import render_text as render_estimate

        render_estimate(report, stream)
    else:
        from .text import render as render_text

        render_text(report, verbose, stream)
