"""The one error every command raises when it cannot run on its input: :class:`UsageError`.

Every input/usage exception (a config that cannot be read, a bad --python, an unknown rule, ...) derives from
it; :func:`dsdoctor.cli.main` catches it in one place, prints ``dsdoctor: message`` (and the hint and note) on
stderr and exits 2 (:data:`dsdoctor.exitcodes.FAILED`). The public API's own error is ``api.DsDoctorError``.
"""

from __future__ import annotations


class UsageError(Exception):
    """dsdoctor cannot run on what it was given. ``message`` says what and why (``str(exc)`` is the message);
    ``hint`` what to do instead; ``note`` any context worth a line."""

    def __init__(self, message: str = "", hint: str = "", note: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.note = note

    def lines(self) -> str:
        """The text the CLI prints on stderr: ``dsdoctor: message`` then ``  hint: ...`` / ``  note: ...``."""
        out = f"dsdoctor: {self.message or self}"
        for label, text in (("hint", self.hint), ("note", self.note)):
            if text:
                out += f"\n  {label}: {text}"
        return out + "\n"
