"""Config keys the launch's script sets in code before handing the config over.

A script that reads the config its option names (``ds_config = json.load(open(os.path.join(ROOT, ...,
args.deepspeed_config)))``) and assigns into it (``ds_config["scheduler"]["params"] = {...}``) replaces what the file
says there: an ``"auto"`` it fills, a batch size it computes. A finding on such a key (or under it) is about text
DeepSpeed never sees as written: it is ``info``, saying where the code sets it. Read with regular expressions on the
script that reads the option: the loaded name must come from the option (directly or through a variable assigned
from it), so a data JSON the script also reads is none. The code the entry imports is read the same way
(:func:`reached_filled`): a trainer class that loads ``json.load(open(config.deepspeed_config))`` and fills
``ds_config["gradient_accumulation_steps"]`` in the method it hands the dict to, before ``deepspeed.initialize``; and
a name bound to a block of it (``opt = ds_config["optimizer"]``, then ``opt["params"]["lr"] = ...``) fills that block.
A config a script loads by its literal path (no option) is read the same way (:func:`path_filled`), also through a
function of the script it is handed to.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Callable, Dict, Iterable, List, Optional, Tuple

from .reading import read_text as _read

if TYPE_CHECKING:
    from ..hjsondoc import Node
    from .rule import Hit

_LOAD = re.compile(r"^[ \t]*(\w+)[ \t]*=[ \t]*h?json\.load\([ \t]*open\([ \t]*([^,)]+)", re.M)
_KEY = re.compile(r"\[\s*[\"']([^\"'\]]+)[\"']\s*\]")


MODULE_BYTES = 512 * 1024  # a module larger than this is not read for the keys it fills


def module_text(py: str) -> Optional[str]:
    """The text of the Python module ``py``; None when it is larger than :data:`MODULE_BYTES` or unreadable."""
    try:
        if os.path.getsize(py) > MODULE_BYTES:
            return None
    except OSError:
        return None
    return _read(py)


def filled_keys(script: str, option: str) -> List[Tuple[str, int]]:
    """(dotted key path, line) of each key ``script`` assigns in the config it loads from ``--option``."""
    text = _read(script)
    if option not in text:
        return []
    # the option's value itself, a dict the arguments hold (a YAML's inline ``deepspeed:`` block), assigned into:
    # ``self.args.deepspeed["train_batch_size"] = bs`` (Genie-Envisioner, aside140)
    direct = re.compile(r"^[ \t]*[\w.]*\." + re.escape(option) + r"((?:\[\s*[\"'][^\"'\]]+[\"']\s*\])+)[ \t]*=(?!=)", re.M)
    out = [(".".join(_KEY.findall(m.group(1))), text.count("\n", 0, m.start()) + 1) for m in direct.finditer(text)]
    if "json.load" not in text:
        return out
    attr = re.compile(r"\b\w+\." + re.escape(option) + r"\b")
    from_option = {m.group(1) for m in re.finditer(r"^[ \t]*(\w+)[ \t]*=[^=\n][^\n]*$", text, re.M)
                   if attr.search(m.group(0))}
    for m in _LOAD.finditer(text):
        arg = m.group(2).strip()
        if not (attr.search(arg) or arg in from_option):
            continue
        out += _assigned(text, m.group(1), m.end()) + _updated(text, m.group(1), m.end())
    return out


def _updated(text: str, var: str, after: int) -> List[Tuple[str, int]]:
    """(key, line) of each top-level key a ``var.update({...})`` / ``var.update(**{...})`` / ``var.update(k=...)``
    after ``after`` sets (MiniMA fills its "auto" values so)."""
    out: List[Tuple[str, int]] = []
    for m in re.finditer(r"\b" + re.escape(var) + r"\.update\(", text[after:]):
        start = after + m.end()
        depth, i = 0, start
        while i < len(text) and i - start < 4000:
            c = text[i]
            if c in "([{":
                depth += 1
            elif c in ")]}":
                if depth == 0:
                    break
                depth -= 1
            elif depth <= 1 and text.startswith(("'", '"'), i):
                k = re.match(r"[\"']([^\"'\n]{1,80})[\"']\s*:", text[i:])
                if k is not None and depth == 1:
                    out.append((k.group(1), text.count("\n", 0, i) + 1))
            elif depth == 0:
                k = re.match(r"(\w+)\s*=(?!=)", text[i:])
                if k is not None and (i == start or not text[i - 1].isalnum() and text[i - 1] != "_"):
                    out.append((k.group(1), text.count("\n", 0, i) + 1))
                    i += k.end() - 1
            i += 1
    return out


def _assigned(text: str, var: str, after: int) -> List[Tuple[str, int]]:
    """(dotted key path, line) of each ``var[...] = `` after ``after``, and of each ``alias[...] = `` where
    ``alias = var["block"]`` (the block's keys). ``var["k"] = var.get("k", default)`` keeps the file's value: it
    sets nothing the file says, so it is none."""
    out: List[Tuple[str, int]] = []
    sub = r"((?:\[\s*[\"'][^\"'\]]+[\"']\s*\])+)"
    rest = text[after:]
    for k in re.finditer(r"\b" + re.escape(var) + sub + r"[ \t]*=(?!=)", rest):
        keys = _KEY.findall(k.group(1))
        if len(keys) == 1 and re.match(r"[ \t]*" + re.escape(var) + r"\.get\(\s*[\"']" + re.escape(keys[0]) + r"[\"']",
                                       rest[k.end():]):
            continue
        out.append((".".join(keys), text.count("\n", 0, after + k.start()) + 1))
    for a in re.finditer(r"^[ \t]*(\w+)[ \t]*=[ \t]*" + re.escape(var) + sub + r"[ \t]*$", rest, re.M):
        if a.group(1) == var:
            continue
        base = _KEY.findall(a.group(2))
        for k in re.finditer(r"\b" + re.escape(a.group(1)) + sub + r"[ \t]*=(?!=)", rest[a.end():]):
            out.append((".".join(base + _KEY.findall(k.group(1))),
                        text.count("\n", 0, after + a.end() + k.start()) + 1))
    return out


def path_filled(text: str, script: str, cfg: str, ref: "Callable[[str, str], str]") -> List[Tuple[str, int]]:
    """(dotted key path, line) of each key ``script`` (its ``text``) sets in the config it loads by a literal path
    (``stage3_config = json.load(open("configs/stage3_config.json"))``; ``ref`` resolves such a path from the script
    to a project path, as lint names ``cfg``): assigned into the loaded name, or by a function of the same file the
    name is handed to (``stage3_config = setup_dsconfig(stage3_config, config)``, whose first parameter's
    ``ds_config['train_batch_size'] = ...``: PAR)."""
    out: List[Tuple[str, int]] = []
    for m in _LOAD.finditer(text):
        lit = re.fullmatch(r"[\"']([^\"']+)[\"']", m.group(2).strip())
        if lit is None or ref(script, lit.group(1)) != cfg:
            continue
        var = m.group(1)
        out += _assigned(text, var, m.end()) + _updated(text, var, m.end())
        for call in re.finditer(r"\b(\w+)\(\s*" + re.escape(var) + r"\s*[,)]", text[m.end():]):
            out += _in_function(text, call.group(1))
    return out


def _in_function(text: str, name: str) -> List[Tuple[str, int]]:
    """The keys a top-level function ``name`` of ``text`` assigns into its first parameter, with their lines."""
    d = re.search(r"^def[ \t]+" + re.escape(name) + r"[ \t]*\(\s*(\w+)", text, re.M)
    if d is None:
        return []
    end = re.search(r"\n(?=\S)", text[d.end():])  # the next line at the top level ends the function
    body = text[:d.end() + (end.start() if end else len(text) - d.end())]
    return _assigned(body, d.group(1), d.end())


def reached_filled(files: Iterable[str], option: str) -> Dict[str, str]:
    """Key path -> "file:line" for the keys the files an entry imports (``files``) set in the config they load from
    the entry's ``--option`` (read as :func:`filled_keys` reads the entry)."""
    out: Dict[str, str] = {}
    for f in sorted(files):
        for k, line in filled_keys(f, option):
            out.setdefault(k, f"{f}:{line}")
    return out


def _key_at(root: "Node", start: int, end: int, prefix: str = "") -> Optional[str]:
    """The dotted path of the innermost member whose key starts in [start, end) (the finding's place)."""
    for m in root.members:
        path = f"{prefix}.{m.key}" if prefix else m.key
        if m.value.kind == "object" and m.value.start <= start < m.value.end:
            got = _key_at(m.value, start, end, path)
            if got is not None:
                return got
        if start <= m.start < end:
            return path
    return None


def soften(hits: "List[Hit]", path: str, text: str, root: "Optional[Node]", filled: Dict[str, str]) -> "List[Hit]":
    """Errors and warnings of the config ``path`` on a key the launch's script sets in code (``filled``: key path
    -> where) are info, saying so (an info finding there says it too)."""
    if root is None or root.kind != "object" or not filled:
        return hits
    from dataclasses import replace

    from ..model import Severity
    from .rule import Hit

    starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
    out = []
    for h in hits:
        f = h.finding
        if f.path == path and f.line and f.line <= len(starts):
            end = starts[f.line] if f.line < len(starts) else len(text)
            at = starts[f.line - 1] + max((f.col or 1) - 1, 0)
            key = _key_at(root, at, at + 1) or _key_at(root, starts[f.line - 1], end)
            got = next(((k, w) for k, w in filled.items() if key is not None and (key == k or key.startswith(k + "."))),
                       None)
            if got is not None:
                h = Hit(replace(f, severity=Severity.INFO, title=f"{f.title} (the launch's script sets {got[0]} in "
                                                                  f"code before it hands the config over: {got[1]})"))
        out.append(h)
    return out
