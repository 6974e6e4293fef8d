"""ds_configs written inside another file of the project, linted as configs with findings at the host file's lines.

Two shapes a launch really uses:

- a training YAML whose ``deepspeed:`` key holds the config itself as a mapping (``deepspeed:`` then indented
  ``zero_optimization:`` ...): the script reads the YAML with ``yaml.safe_load`` and hands the mapping to
  ``deepspeed.initialize(config=...)`` or the Trainer. The mapping is read as PyYAML's safe loader reads it (YAML
  1.1 scalars: ``yes`` / ``on`` are true, ``1.0e+08`` is a float, ``1e8`` is the string "1e8"; a key given twice
  keeps its last value) and written out as JSON, one key a line;
- a shell heredoc a launch script writes its config with (``cat <<EOT > $DS_CONFIG`` ... ``EOT``) and then hands
  to the launch: the JSON body with the script's variables substituted as the shell expands them (a quoted
  delimiter expands nothing). A variable the script does not assign (or assigns different values in its branches)
  is an unknown value: findings on its line are
  dropped (never an error about what dsdoctor could not read), and a ZeRO stage given by one is unknown.

Such a config has a name of its own, ``HOST#L<line>`` (the line of the ``deepspeed:`` key or of the heredoc's
first body line): recipes hand it over like a file (:mod:`.recipes`), :func:`load` rebuilds it from the host file,
and :func:`to_host` moves each finding to the host file's line.
"""

from __future__ import annotations

import dataclasses
import json
import re
from functools import lru_cache
from typing import Any, Dict, List, Optional, Set, Tuple

from ..model import Finding
from .reading import read_text

_NAME = re.compile(r"^(.+)#L(\d+)$")
_YAML_KEY = re.compile(r"^([ \t]*)(?:-[ \t]+)?(['\"]?)([^'\"#:\s][^'\"#:]*?)\2[ \t]*:(?:[ \t]+(.*?))?[ \t]*$")
# a ds_config's own top-level keys: the mapping under ``deepspeed:`` is a config when it has one of these
DS_KEYS = ("zero_optimization", "train_batch_size", "train_micro_batch_size_per_gpu", "gradient_accumulation_steps")
# ``cat <<EOT > $CONFIG`` / ``cat > ds.json <<'EOF'``: the delimiter, whether quoted, and the file written
_HEREDOC = re.compile(r"^[ \t]*cat[ \t]+(?:>{1,2}[ \t]*(?P<t1>\S+)[ \t]+)?<<(?P<dash>-?)[ \t]*(?P<q>['\"]?)(?P<tag>\w+)(?P=q)"
                      r"(?:[ \t]+>{1,2}[ \t]*(?P<t2>\S+))?[ \t]*$", re.M)
_POS = "\x00pos"  # a mapping's key positions, kept in the mapping under a key no YAML key can be


@dataclasses.dataclass(frozen=True)
class Embedded:
    """A config inside ``host``: its JSON ``text``, the host (line, col) of each JSON line (col 0: the JSON's own
    column), the JSON lines whose value is unknown (a shell variable nothing assigns)."""

    host: str
    text: str
    where: Tuple[Tuple[int, int], ...]  # index: JSON line - 1
    unknown: Tuple[int, ...] = ()


def name(host: str, line: int) -> str:
    """The name of the config at ``line`` of ``host``."""
    return f"{host}#L{line}"


def split(path: str) -> Optional[Tuple[str, int]]:
    """(host, line) of an embedded config's name; None for a file's path."""
    m = _NAME.match(path)
    return (m.group(1), int(m.group(2))) if m else None


def shown(path: str) -> str:
    """A config's path as a finding shows it: an embedded config at its line of the host, ``train.yaml:40``."""
    got = split(path)
    return f"{got[0]}:{got[1]}" if got else path


def is_embedded(path: str) -> bool:
    return _NAME.match(path) is not None and load(path) is not None


@lru_cache(maxsize=256)
def load(path: str) -> Optional[Embedded]:
    """The config a name stands for, rebuilt from its host file (None: not an embedded config's name, or the host
    no longer holds one there)."""
    got = split(path)
    if got is None:
        return None
    host, line = got
    text = read_text(host)  # as lint reads every file (not through .discover: it imports what imports this module)
    if host.endswith((".yaml", ".yml")):
        return yaml_config(host, text, line)
    for doc in heredocs(text):
        if doc[0] == line:
            return heredoc_config(host, text, doc)
    return None


def stage(path: str) -> Optional[int]:
    """``zero_optimization.stage`` of an embedded config (None: not set, unknown or not embedded)."""
    e = load(path)
    if e is None:
        return None
    try:
        data = json.loads(e.text)
    except ValueError:
        return None
    st = data.get("zero_optimization", {}).get("stage") if isinstance(data, dict) and isinstance(
        data.get("zero_optimization"), dict) else None
    return st if isinstance(st, int) and not isinstance(st, bool) else None


def to_host(f: Finding, e: Embedded) -> Optional[Finding]:
    """``f`` (on the JSON text) at the host's line; None when it is about an unknown value's line."""
    line = f.line or 1
    if line in e.unknown:
        return None
    pos = e.where[line - 1] if 0 < line <= len(e.where) else (e.where[0] if e.where else (1, 1))
    what = "the ds_config written inline under its `deepspeed:` key" if e.host.endswith((".yaml", ".yml")) else \
        "the ds_config this script writes with a heredoc"
    col = pos[1] or f.col  # a heredoc's line is the script's line: its column too
    return dataclasses.replace(f, path=e.host, line=pos[0], col=col, title=f"{f.title} (in {what})")


# --- YAML: the mapping under a `deepspeed:` key ---------------------------------------------------------------

_INT = re.compile(r"^[-+]?(?:0|[1-9][0-9_]*)$")
_FLOAT = re.compile(r"^[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?$|^[-+]?\.[0-9_]+(?:[eE][-+][0-9]+)?$")


def yaml_scalar(raw: str) -> Any:
    """A plain or quoted YAML scalar as PyYAML's safe loader resolves it (YAML 1.1)."""
    raw = re.sub(r"[ \t]+#.*$", "", raw).strip()
    if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "'\"":
        return raw[1:-1]
    low = raw.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("null", "~", ""):
        return None
    if _INT.match(raw):
        return int(raw.replace("_", ""))
    if _FLOAT.match(raw):
        return float(raw.replace("_", ""))
    if low in (".inf", "+.inf"):
        return float("inf")
    if raw.startswith("[") and raw.endswith("]"):
        return [yaml_scalar(x) for x in raw[1:-1].split(",") if x.strip()]
    if raw == "{}":
        return {}
    return raw


@dataclasses.dataclass
class _Line:
    no: int
    indent: int
    key: Optional[str]  # None: a sequence item
    value: str
    col: int


def _lines(text: str, start: int) -> List[_Line]:
    """The lines of the block under the key at line ``start`` (1-based): more indented than it."""
    rows = text.split("\n")
    head = rows[start - 1]
    base = len(head) - len(head.lstrip())
    out: List[_Line] = []
    for no in range(start + 1, len(rows) + 1):
        line = rows[no - 1].rstrip()
        body = line.strip()
        if not body or body.startswith("#"):
            continue
        indent = len(line) - len(line.lstrip())
        if indent <= base:
            break
        m = _YAML_KEY.match(line)
        if m is not None and not body.startswith("- "):
            out.append(_Line(no, indent, m.group(3).strip(), m.group(4) or "", indent + 1))
        elif body.startswith("-"):
            out.append(_Line(no, indent, None, body[1:].strip(), indent + 1))
        else:
            return []  # a shape this reader does not know (flow over lines, a multi-line scalar): not read
    return out


def _block(rows: List[_Line], i: int) -> Tuple[Any, int]:
    """The value of the block starting at ``rows[i]`` and the index after it; a mapping keeps each key's host
    position under ``_POS``."""
    indent = rows[i].indent
    if rows[i].key is None:
        items: List[Any] = []
        while i < len(rows) and rows[i].indent == indent and rows[i].key is None:
            items.append(yaml_scalar(rows[i].value))
            i += 1
        return items, i
    out: Dict[str, Any] = {}
    pos: Dict[str, Tuple[int, int]] = {}
    while i < len(rows) and rows[i].indent == indent and rows[i].key is not None:
        r = rows[i]
        i += 1
        nested = i < len(rows) and (rows[i].indent > indent or rows[i].indent == indent and rows[i].key is None)
        if r.value == "" and nested:  # a mapping or sequence below (a sequence may sit at the key's own indent)
            val, i = _block(rows, i)
        else:
            val = yaml_scalar(r.value)
        assert r.key is not None
        out[r.key] = val  # a key given twice: the last value, at the first key's place (a dict)
        pos[r.key] = (r.no, r.col)
    out[_POS] = pos
    return out, i


def _emit(value: Any, lines: List[str], where: List[Tuple[int, int]], at: Tuple[int, int], indent: str) -> None:
    """``value`` as JSON, one member a line (the line's host position in ``where``)."""
    if not isinstance(value, dict):
        lines[-1] += json.dumps(value)
        return
    pos = value.get(_POS, {})
    members = [(k, v) for k, v in value.items() if k != _POS]
    lines[-1] += "{"
    for n, (k, v) in enumerate(members):
        lines.append(f"{indent} {json.dumps(k)}: ")
        where.append(pos.get(k, at))
        _emit(v, lines, where, pos.get(k, at), indent + " ")
        if n < len(members) - 1:
            lines[-1] += ","
    lines.append(indent + "}")
    where.append(at)


def yaml_config(host: str, text: str, line: int) -> Optional[Embedded]:
    """The mapping under the ``deepspeed:`` key at ``line`` of a YAML as a JSON config; None when it is no
    ds_config (no ds_config key) or not a block mapping this reader knows."""
    rows = _lines(text, line)
    if not rows or rows[0].key is None:
        return None
    value, _ = _block(rows, 0)
    if not any(k in value for k in DS_KEYS):
        return None
    lines, where = [""], [(line, 1)]
    _emit(value, lines, where, (line, 1), "")
    return Embedded(host, "\n".join(lines) + "\n", tuple(where))


def yaml_blocks(text: str) -> List[int]:
    """The lines of a YAML's ``deepspeed:`` keys (any indent) whose value is a mapping on the lines below."""
    return [text.count("\n", 0, m.start()) + 1
            for m in re.finditer(r"^[ \t]*deepspeed[ \t]*:[ \t]*(?:#[^\n]*)?$", text, re.M)]


# --- shell: a heredoc the script writes its config with -------------------------------------------------------

def heredocs(text: str) -> List[Tuple[int, str, str, bool, int]]:
    """(first body line, body, file written, delimiter quoted, offset of the ``cat`` line) of each
    ``cat <<TAG > FILE`` heredoc whose body is a JSON object with a ds_config's keys."""
    out = []
    for m in _HEREDOC.finditer(text):
        target = m.group("t1") or m.group("t2")
        if not target:
            continue
        body_start = text.find("\n", m.end())
        if body_start < 0:
            continue
        end = re.compile(r"^[ \t]*" + re.escape(m.group("tag")) + r"[ \t]*$", re.M).search(text, body_start + 1)
        if end is None:
            continue
        body = text[body_start + 1:end.start()]
        if not body.lstrip().startswith("{") or not any(f'"{k}"' in body for k in DS_KEYS):
            continue  # not a JSON object with a ds_config's keys
        first = text.count("\n", 0, body_start + 1) + 1
        out.append((first, body, target.strip("'\""), bool(m.group("q")), m.start()))
    return out


def heredoc_config(host: str, text: str, doc: Tuple[int, str, str, bool, int]) -> Embedded:
    """The heredoc ``doc`` as the shell writes it: the script's assignments before it substituted (none where
    the delimiter is quoted); a variable it does not assign, or assigns different values in branches (indented
    assignments), stands for an unknown value."""
    first, body, _, quoted, at = doc
    if quoted:
        return Embedded(host, body, tuple((first + i, 0) for i in range(body.count("\n") + 1)))
    from .launch.shell import assignments, expand

    env: Dict[str, str] = {}
    seen: Dict[str, Set[str]] = {}
    branched: Set[str] = set()
    for off, var, val in assignments(text):
        if off < at:
            env[var] = expand(val, env)
            seen.setdefault(var, set()).add(env[var])
            line = text.rfind("\n", 0, off) + 1
            if off > line and not text[line:off].strip():
                branched.add(var)  # indented: inside an if / case, whose other branch may assign another value
    for var in branched:
        if len(seen[var]) > 1:
            env.pop(var, None)  # which branch ran is not known here: an unknown value
    unknown: List[int] = []
    rows = [_substitute(row, i, env, unknown) for i, row in enumerate(body.split("\n"), 1)]
    return Embedded(host, "\n".join(rows), tuple((first + i, 0) for i in range(len(rows))), tuple(unknown))


def _substitute(row: str, i: int, env: Dict[str, str], unknown: List[int]) -> str:
    """One heredoc line as the shell expands it; an unassigned variable stays (quoted when it stands alone as a
    JSON value, so the JSON still reads) and its line ``i`` goes to ``unknown``."""
    from .launch.shell import VAR

    def one(m: "re.Match[str]") -> str:
        got = env.get(m.group(1) or m.group(3), m.group(2))
        if got is not None and "$" not in got and "`" not in got:
            return got
        unknown.append(i)
        quoted = len(re.findall(r'(?<!\\)"', row[:m.start()])) % 2 == 1
        return m.group(0) if quoted else json.dumps(m.group(0))

    return VAR.sub(one, row)
