"""A position-preserving reader for DeepSpeed configs (HJSON documents with the offset of every key and value).

DeepSpeed loads a config *path* with ``hjson.load(open(path), object_pairs_hook=dict_raise_error_on_duplicate_keys)``
(``runtime/config.py``, every version 0.9-0.19.8): HJSON (comments, quoteless keys and strings, optional
commas, a root object without braces) with duplicate keys rejected in every object. This module is a port of
hjson-py 3.1.0's decoder (``hjson/decoder.py``) that keeps the offset of every key and value, so it accepts
and rejects exactly what DeepSpeed does (a property test compares it with the real hjson) and reports
``file:line:col``. Values are what hjson produces: e.g. ``5e8`` is the int 500000000 (hjson turns integral
floats below 1e10 into ints), unlike ``json.load`` (HF Trainer / accelerate), which gives a float.

``strict_json_error`` says whether plain ``json.loads`` (what ``TrainingArguments(deepspeed=path)`` and
accelerate use) would fail, and where.

Kept whole: it is one port of one upstream decoder, kept in hjson-py's own order so that it can be compared with
it line by line when hjson changes.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from .errors import UsageError
from .regular_file import read_bytes
from .textpos import HasLines

MAX_BYTES = 16 * 2**20  # a DeepSpeed config is a few KB; bigger files are reported, not parsed
MAX_DEPTH = 200  # hjson recurses ~3 Python frames per level: deeper documents hit RecursionError there

_WS = " \t\n\r"
_PUNCT = "{}[],:"
_NUMBER = re.compile(r"[\t ]*(-?(?:0|[1-9]\d*))(\.\d+)?([eE][-+]?\d+)?[\t ]*")
_CHUNK = re.compile(r"(.*?)(['\"\\\x00-\x1f])", re.VERBOSE | re.MULTILINE | re.DOTALL)
_BACKSLASH = {'"': '"', "'": "'", "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


class ReadError(UsageError):
    """The document is not what DeepSpeed's hjson loading accepts. ``pos`` is a 0-based offset."""

    def __init__(self, msg: str, pos: int) -> None:
        super().__init__(msg)
        self.msg = msg
        self.pos = pos


class FileError(ReadError):
    """The file itself could not be read as text (missing, unreadable, too large): no position in it."""


class _Fatal(ReadError):
    """Where hjson raises IndexError/RecursionError (not HjsonDecodeError): its braceless-root fallback does
    not catch these, so neither do we."""


@dataclass
class Member:
    """One ``key: value`` of an object, with the key's span."""

    key: str
    start: int
    end: int
    value: "Node"


@dataclass
class Node:
    """A parsed value with its span. ``members`` for objects (duplicates kept, in order), ``items`` for arrays."""

    kind: str  # object | array | string | number | bool | null
    value: Any
    start: int
    end: int
    members: List[Member] = field(default_factory=list)
    items: List["Node"] = field(default_factory=list)

    def member(self, key: str) -> Optional[Member]:
        """The last member named ``key`` (the one a plain dict keeps)."""
        found = None
        for m in self.members:
            if m.key == key:
                found = m
        return found

    def get(self, *path: str) -> Optional["Node"]:
        node: Optional[Node] = self
        for key in path:
            if node is None or node.kind != "object":
                return None
            m = node.member(key)
            node = m.value if m else None
        return node


@dataclass
class Document(HasLines):
    """A read config: text, root node (None when unreadable), the error that stopped reading, positions."""

    path: str
    text: str
    root: Optional[Node] = None
    error: Optional[ReadError] = None
    strict_json_error: Optional[Tuple[str, int]] = None  # json.loads' message and offset, if it fails
    comments: List[Tuple[int, int]] = field(default_factory=list)  # (start, end) of each comment hjson skipped

    @property
    def data(self) -> Dict[str, Any]:
        return self.root.value if self.root is not None and isinstance(self.root.value, dict) else {}


class _Parser:
    """hjson-py 3.1.0's decoder, one function per upstream function, returning Nodes."""

    def __init__(self, s: str) -> None:
        self.s = s
        self.depth = 0
        self.comments: Dict[int, int] = {}  # start -> end of every comment skipped (inline suppressions read them)

    # -- lexical helpers (getNext, getEol, skipIndent) ----------------------------------------------------
    def next(self, end: int) -> Tuple[str, int]:
        s = self.s
        while True:
            ch = s[end:end + 1]
            while ch and ch in _WS:
                end += 1
                ch = s[end:end + 1]
            if ch == "":
                return ch, end
            ch2 = s[end + 1:end + 2]
            if ch == "#" or (ch == "/" and ch2 == "/"):
                start, end = end, self.eol(end)
                self.comments[start] = end
            elif ch == "/" and ch2 == "*":
                close = s.find("*/", end + 2)
                if close < 0:  # hjson indexes past the end here (IndexError): still a rejection
                    raise _Fatal("Unterminated /* comment", end)
                self.comments[end] = close + 2
                end = close + 2
            else:
                return ch, end

    def eol(self, end: int) -> int:
        s = self.s
        while True:
            ch = s[end:end + 1]
            if ch in ("\r", "\n", ""):
                return end
            end += 1

    def skip_indent(self, end: int, n: int) -> int:
        s = self.s
        ch = s[end:end + 1]
        while ch != "" and ch in " \t\r" and n != 0:
            end += 1
            n -= 1
            ch = s[end:end + 1]
        return end

    # -- strings ------------------------------------------------------------------------------------
    def string(self, end: int) -> Tuple[str, int]:
        """``end`` is just after the opening quote (scanstring, strict=True)."""
        s = self.s
        chunks: List[str] = []
        begin = end - 1
        exit_ch = s[begin]
        while True:
            chunk = _CHUNK.match(s, end)
            if chunk is None:
                raise ReadError("Unterminated string starting at", begin)
            end = chunk.end()
            content, term = chunk.groups()
            if content:
                chunks.append(content)
            if term == exit_ch:
                break
            if term in ('"', "'"):
                chunks.append(term)
                continue
            if term != "\\":
                raise ReadError(f"Invalid control character {s[end - 1:end]!r} in string at", end - 1)
            if end >= len(s):
                raise ReadError("Unterminated string starting at", begin)
            esc = s[end]
            if esc != "u":
                if esc not in _BACKSLASH:
                    raise ReadError(f"Invalid \\X escape sequence {esc!r}", end)
                chunks.append(_BACKSLASH[esc])
                end += 1
                continue
            hexs = s[end + 1:end + 5]
            if len(hexs) != 4 or hexs[1:2] in ("x", "X"):
                raise ReadError("Invalid \\uXXXX escape sequence", end - 1)
            try:
                uni = int(hexs, 16)
            except ValueError:
                raise ReadError("Invalid \\uXXXX escape sequence", end - 1) from None
            end += 5
            if uni & 0xFC00 == 0xD800 and s[end:end + 2] == "\\u":
                hex2 = s[end + 2:end + 6]
                if len(hex2) == 4 and hex2[1:2] not in ("x", "X"):
                    try:
                        uni2 = int(hex2, 16)
                    except ValueError:
                        raise ReadError("Invalid \\uXXXX escape sequence", end) from None
                    if uni2 & 0xFC00 == 0xDC00:
                        uni = 0x10000 + (((uni - 0xD800) << 10) | (uni2 - 0xDC00))
                        end += 6
            chunks.append(chr(uni))
        return "".join(chunks), end

    def mlstring(self, end: int) -> Tuple[str, int]:
        s = self.s
        out: List[str] = []
        triple = 0
        indent = 0
        while True:  # upstream indexes with negative offsets too (wrapping around), then IndexError
            if end - indent - 1 < -len(s):
                raise _Fatal("Bad multiline string", end)
            ch = s[end - indent - 1]
            if ch == "\n":
                break
            indent += 1
        end = self.skip_indent(end + 3, -1)
        if end >= len(s):  # upstream reads s[end] here: IndexError
            raise _Fatal("Bad multiline string", end)
        if s[end] == "\n":
            end = self.skip_indent(end + 1, indent)
        while True:
            ch = s[end:end + 1]
            if ch == "":
                raise ReadError("Bad multiline string", end)
            if ch == "'":
                triple += 1
                end += 1
                if triple == 3:
                    text = "".join(out)
                    if text.endswith("\n"):
                        text = text[:-1]
                    return text, end
                continue
            while triple > 0:
                out.append("'")
                triple -= 1
            if ch == "\n":
                out.append(ch)
                end = self.skip_indent(end + 1, indent)
            else:
                if ch != "\r":
                    out.append(ch)
                end += 1

    def tfnns(self, end: int) -> Tuple[Node, int]:
        """A quoteless value: true/false/null/number, or a string to the end of the line."""
        s = self.s
        chf, begin = self.next(end)
        end = begin
        if chf in _PUNCT:
            raise ReadError("Found a punctuator character when expecting a quoteless string (check your syntax)", end)
        while True:
            ch = s[end:end + 1]
            is_eol = ch in ("\r", "\n", "")
            if is_eol or ch in (",", "}", "]", "#") or (ch == "/" and s[end + 1:end + 2] in ("/", "*")):
                word = s[begin:end].strip()
                if chf == "n" and word == "null":
                    return Node("null", None, begin, end), end
                if chf == "t" and word == "true":
                    return Node("bool", True, begin, end), end
                if chf == "f" and word == "false":
                    return Node("bool", False, begin, end), end
                if chf == "-" or "0" <= chf <= "9":
                    m = _NUMBER.match(s, begin)
                    if m is not None and m.end() == end:
                        integer, frac, exp = m.groups()
                        num: Any
                        if frac or exp:
                            num = float(integer + (frac or "") + (exp or ""))
                            if abs(num) == float("inf"):  # hjson's int(num) raises OverflowError here
                                raise _Fatal("Number out of range (OverflowError in hjson)", begin)
                            if int(num) == num and abs(num) < 1e10:
                                num = int(num)
                        else:
                            num = int(integer)
                        return Node("number", num, begin, begin + len(s[begin:end].rstrip())), end
                if is_eol:
                    return Node("string", word, begin, begin + len(s[begin:end].rstrip())), end
            end += 1

    def key(self, end: int) -> Tuple[str, int, int]:
        """scanKeyName: returns (key, key start, end after the key)."""
        s = self.s
        ch, end = self.next(end)
        if ch in ('"', "'"):
            k, after = self.string(end + 1)
            return k, end, after
        begin = end
        space = -1
        while True:
            ch = s[end:end + 1]
            if ch == "":
                raise ReadError("Bad key name (eof)", end)
            if ch == ":":
                if begin == end:
                    raise ReadError("Found ':' but no key name (for an empty key name use quotes)", begin)
                if space >= 0:
                    if space != end - 1:
                        raise ReadError("Found whitespace in your key name (use quotes to include)", space)
                    return s[begin:end].rstrip(), begin, end
                return s[begin:end], begin, end
            if ch in _WS:
                if space < 0 or space == end - 1:
                    space = end
            elif ch in "{}[],":
                raise ReadError(f"Found '{ch}' where a key name was expected (check your syntax or use quotes "
                                "if the key name includes {}[],: or whitespace)", begin)
            end += 1

    # -- values ---------------------------------------------------------------------------------------
    def value(self, idx: int) -> Tuple[Node, int]:
        s = self.s
        if idx >= len(s):
            raise ReadError("Expecting value", idx)
        ch = s[idx]
        if ch in ('"', "'"):
            if s[idx:idx + 3] == "'''":
                text, end = self.mlstring(idx)
            else:
                text, end = self.string(idx + 1)
            return Node("string", text, idx, end), end
        if ch == "{":
            return self.obj(idx + 1, idx)
        if ch == "[":
            return self.array(idx + 1, idx)
        return self.tfnns(idx)

    def _enter(self, pos: int) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise _Fatal(f"Nesting deeper than {MAX_DEPTH} levels (hjson, and so DeepSpeed, fail with a "
                            "RecursionError)", pos)

    def obj(self, end: int, start: int, braceless: bool = False) -> Tuple[Node, int]:
        self._enter(start)
        node = Node("object", None, start, end)
        ch, end = self.next(end)
        if not braceless and ch == "}":
            end += 1
        else:
            while True:
                k, kstart, kend = self.key(end)
                ch, end = self.next(kend)
                if ch != ":":
                    raise ReadError("Expecting ':' delimiter", end)
                ch, end = self.next(end + 1)
                val, end = self.value(end)
                node.members.append(Member(k, kstart, kend, val))
                ch, end = self.next(end)
                if ch == ",":
                    ch, end = self.next(end + 1)
                if braceless:
                    if ch == "":
                        break
                elif ch == "}":
                    end += 1
                    break
                ch, end = self.next(end)
        node.value = {m.key: m.value.value for m in node.members}
        node.end = end
        self.depth -= 1
        return node, end

    def array(self, end: int, start: int) -> Tuple[Node, int]:
        self._enter(start)
        node = Node("array", None, start, end)
        ch, end = self.next(end)
        if ch == "]":
            end += 1
        elif ch == "":
            raise ReadError("End of input while parsing an array (did you forget a closing ']'?)", end)
        else:
            while True:
                val, end = self.value(end)
                node.items.append(val)
                ch, end = self.next(end)
                if ch == ",":
                    ch, end = self.next(end + 1)
                if ch == "]":
                    end += 1
                    break
                ch, end = self.next(end)
        node.value = [i.value for i in node.items]
        node.end = end
        self.depth -= 1
        return node, end

    def document(self) -> Node:
        s = self.s
        idx = 0
        if s[:1] == "\ufeff":
            idx = 1
        start = idx
        ch, idx = self.next(idx)
        if start == 0 and ch == "":
            return Node("object", {}, 0, 0)
        if ch in ("{", "["):
            root, end = self.value(idx)
        else:
            try:
                root, end = self.obj(idx, idx, braceless=True)
            except _Fatal:
                raise
            except ReadError as first:
                self.depth = 0
                try:
                    root, end = self.value(idx)
                except ReadError:
                    raise first from None
        _, end = self.next(end)
        if end != len(s):
            raise ReadError("Extra data", end)
        return root


def parse(text: str, path: str = "<string>") -> Document:
    """Parse HJSON/JSON text; never raises (the error is on the Document)."""
    doc = Document(path=path, text=text)
    parser = _Parser(text)
    try:
        doc.root = parser.document()
    except ReadError as exc:
        doc.error = exc
    except RecursionError:
        doc.error = ReadError("Nesting too deep", 0)
    doc.comments = sorted(parser.comments.items())
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        doc.strict_json_error = (exc.msg, exc.pos)
    except (RecursionError, ValueError):
        doc.strict_json_error = ("not plain JSON", 0)
    return doc


def read(path: str) -> Document:
    """Read a file as DeepSpeed would (``open(path, "r")``: UTF-8 text). Never raises."""
    try:
        raw = read_bytes(path, MAX_BYTES + 1)
    except OSError as exc:
        return Document(path=path, text="", error=FileError(f"cannot read the file: {exc.strerror or exc}", 0))
    if len(raw) > MAX_BYTES:
        return Document(path=path, text="", error=FileError(
            f"the file is larger than {MAX_BYTES // 2**20} MiB; a DeepSpeed config is a few KB (not parsed)", 0))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        head = raw[:exc.start].decode("utf-8", errors="replace")
        doc = Document(path=path, text=head)
        doc.error = ReadError(f"not UTF-8 text (byte 0x{raw[exc.start]:02x}): a binary file? DeepSpeed fails "
                              "with UnicodeDecodeError", len(head))
        return doc
    if "\x00" in text:
        doc = Document(path=path, text=text)
        doc.error = ReadError("NUL byte: a binary file, not a DeepSpeed config", text.index("\x00"))
        return doc
    return parse(text, path)
