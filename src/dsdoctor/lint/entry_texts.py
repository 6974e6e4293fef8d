"""The texts of the files one entry script reaches, read once per lint run, with each question asked of them
answered once: many launches start one entry (InternVL's hundreds of shell scripts start a few), and two readers of
the project model (lint/trainer_args.py, lint/training_options.py) ask of the same entries."""

from __future__ import annotations

from typing import Any, Callable, Dict, Hashable, List

from ..literal_gate import GatedPattern


class EntryTexts:
    """The texts (``texts``) and the answers asked of them so far."""

    def __init__(self, texts: List[str]) -> None:
        self.texts = texts
        self._answers: Dict[Hashable, Any] = {}

    def has(self, pat: GatedPattern) -> bool:
        """Does ``pat`` match in one of the texts?"""
        return bool(self.once(pat, lambda texts: any(pat.search(t) for t in texts)))

    def once(self, key: Hashable, ask: Callable[[List[str]], Any]) -> Any:
        """``ask(texts)``, computed the first time ``key`` is asked."""
        if key not in self._answers:
            self._answers[key] = ask(self.texts)
        return self._answers[key]
