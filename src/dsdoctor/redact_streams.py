"""dsdoctor's stdout and stderr through :mod:`dsdoctor.redact`: :func:`install` wraps them in
:class:`RedactingStream` (whole lines redacted; PEM blocks held until their end), :func:`set_redact_paths`
turns home-path redaction on for the rest of the process, :func:`passthrough` gives ``launch`` the raw stdout."""

from __future__ import annotations

import io
import re
import sys
from typing import IO, Any, Callable, Optional, TextIO

from .redact import Redactor, enabled, get_redactor, override_paths

_END_PEM = re.compile(r"-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----")

# ---------------------------------------------------------------------------------------------------------
# stdout / stderr


class RedactingStream(io.TextIOBase):
    """A text stream that redacts whole lines before they reach ``inner``.

    Text is held until a newline (or :meth:`flush`, so prompts still show), then redacted and written; a
    private-key block spanning lines is masked to its END line. ``buffer`` is a redacting binary view (click
    writes there when the terminal encoding is ASCII); :func:`passthrough` gives the raw one for relaying a
    child's output verbatim (``dsdoctor launch``)."""

    MAX_PENDING = 1 << 16

    def __init__(self, inner: TextIO, redactor: Callable[[], Redactor]) -> None:
        super().__init__()
        self.inner = inner
        self._redactor = redactor
        self._pending = ""
        self._in_pem = False
        self._buffer: Optional[_RedactingBinary] = None

    def _emit(self, chunk: str) -> None:
        if not chunk:
            return
        if self._in_pem:
            m = _END_PEM.search(chunk)
            if m is None:
                return
            self._in_pem = False
            chunk = chunk[m.end():]
        if not enabled():
            self.inner.write(chunk)
            return
        out, self._in_pem = self._redactor().redact_open(chunk)
        self.inner.write(out)

    def write(self, s: str) -> int:
        if not isinstance(s, str):
            raise TypeError(f"write() argument must be str, not {type(s).__name__}")
        self._pending += s
        if "\n" in s:
            cut = self._pending.rfind("\n") + 1
            chunk, self._pending = self._pending[:cut], self._pending[cut:]
            self._emit(chunk)
        elif len(self._pending) > self.MAX_PENDING:
            chunk, self._pending = self._pending, ""
            self._emit(chunk)
        return len(s)

    def flush(self) -> None:
        if self._pending:
            chunk, self._pending = self._pending, ""
            self._emit(chunk)
        self.inner.flush()

    def close(self) -> None:  # never close the real stdout/stderr
        try:
            self.flush()
        except (OSError, ValueError):
            pass

    def isatty(self) -> bool:
        return self.inner.isatty()

    def fileno(self) -> int:
        return self.inner.fileno()

    def writable(self) -> bool:
        return True

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.inner, "encoding", None) or "utf-8"

    @property
    def errors(self) -> Optional[str]:  # type: ignore[override]
        return getattr(self.inner, "errors", None)

    @property
    def buffer(self) -> "_RedactingBinary":
        if self._buffer is None:
            self._buffer = _RedactingBinary(self)
        return self._buffer

    def raw_buffer(self) -> IO[bytes]:
        self.flush()
        return self.inner.buffer

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


class _RedactingBinary(io.RawIOBase):
    """Bytes written to a :class:`RedactingStream` (decoded as UTF-8, undecodable bytes kept)."""

    def __init__(self, text: RedactingStream) -> None:
        super().__init__()
        self._text = text

    def writable(self) -> bool:
        return True

    def write(self, b: Any) -> int:
        data = bytes(b)
        self._text.write(data.decode("utf-8", "replace"))
        return len(data)

    def flush(self) -> None:
        self._text.flush()

    def close(self) -> None:
        self.flush()

    def isatty(self) -> bool:
        return self._text.isatty()

    def fileno(self) -> int:
        return self._text.fileno()


def install() -> Callable[[], None]:
    """Wrap ``sys.stdout``/``sys.stderr`` in :class:`RedactingStream`; returns the function that restores them."""
    saved = (sys.stdout, sys.stderr)

    def current() -> Redactor:
        return get_redactor()

    for attr in ("stdout", "stderr"):
        stream = getattr(sys, attr)
        if stream is not None and not isinstance(stream, RedactingStream):
            setattr(sys, attr, RedactingStream(stream, current))

    def restore() -> None:
        for s in (sys.stdout, sys.stderr):
            try:
                s.flush()
            except (OSError, ValueError):
                pass
        sys.stdout, sys.stderr = saved
        override_paths(None)

    return restore


def set_redact_paths(on: bool) -> None:
    """Turn home-path redaction on for the rest of this process's output (``report --redact-paths``)."""
    for s in (sys.stdout, sys.stderr):
        if isinstance(s, RedactingStream):
            s.flush()
    override_paths(on or None)


def passthrough() -> IO[bytes]:
    """The real binary stdout, for relaying a child process's output unchanged (``launch``)."""
    out = sys.stdout
    if isinstance(out, RedactingStream):
        return out.raw_buffer()
    return out.buffer
