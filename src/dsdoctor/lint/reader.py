"""Lint's config reader: the position-preserving HJSON reader of DeepSpeed configs, which lives in
:mod:`dsdoctor.hjsondoc` (core: ``dsconfig`` and the API read configs with it too, below lint's layer)."""

from __future__ import annotations

from ..hjsondoc import Document, FileError, Member, Node, ReadError, parse, read

__all__ = ["Document", "FileError", "Member", "Node", "ReadError", "parse", "read"]
