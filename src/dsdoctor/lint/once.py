"""One finding per problem: lint's findings of the same rule at the same file and line are merged into one.

A rule that runs once per thing a line can mean (each model class a registry lets ``VLLMs[name].from_pretrained``
be, each call path) reports the same problem several times at one place. The merged finding keeps the most severe
of them and the first one's explanation and fixes; its title names the variants (the words in which the titles
differ) and its evidence lists them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Dict, List, Optional, Sequence, Tuple

from ..model import Evidence, Finding

Key = Tuple[str, Optional[str], Optional[int]]


def _variants(titles: Sequence[str]) -> List[str]:
    """The part of each title that differs from the others (the words between their common start and end)."""
    words = [t.split(" ") for t in titles]
    short = min(len(w) for w in words)
    head = 0
    while head < short and all(w[head] == words[0][head] for w in words):
        head += 1
    tail = 0
    while tail < short - head and all(w[-1 - tail] == words[0][-1 - tail] for w in words):
        tail += 1
    out: List[str] = []
    for w in words:
        v = " ".join(w[head:len(w) - tail]) or "(no difference)"
        if v not in out:
            out.append(v)
    return out


def merge_same_place(findings: Sequence[Finding]) -> Tuple[List[Finding], Dict[Finding, List[Finding]]]:
    """The findings with each group of the same (rule, path, line) merged into one, in the order of each group's
    first finding; and, for each merged finding, the findings it replaces (to carry their fix edits over).
    Findings without a line are kept as they are."""
    groups: Dict[Key, List[Finding]] = {}
    order: List[object] = []
    for f in findings:
        if f.path is None or f.line is None:
            order.append(f)
            continue
        key: Key = (f.name, f.path, f.line)
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(f)
    out: List[Finding] = []
    replaced: Dict[Finding, List[Finding]] = {}
    for item in order:
        if isinstance(item, Finding):
            out.append(item)
            continue
        group = groups[item]  # type: ignore[index]
        titles = list(dict.fromkeys(f.title for f in group))
        if len(titles) == 1:
            out.append(max(group, key=lambda f: f.severity.rank))
            if len(group) > 1:
                replaced[out[-1]] = group
            continue
        variants = _variants(titles)
        first = group[0]
        worst = max(group, key=lambda f: f.severity.rank)
        title = f"{first.title} (one problem, reported for {len(variants)} variants: {', '.join(variants)})"
        evidence = [Evidence(f"variant: {v}", f"{first.path}:{first.line}", first.path, first.line, first.col)
                    for v in variants]
        for f in group:
            evidence += [e for e in f.evidence if e not in evidence]
        merged = replace(first, severity=worst.severity, title=title, evidence=tuple(evidence))
        out.append(merged)
        replaced[merged] = group
    return out, replaced
