"""Derive the message index (``src/dsdoctor/knowledge/data/messages.json.gz``) from the released sources unpacked by
``scripts/upstream/releases.py``.

For every release unpacked of each package below, and each of its modules kept (``SELECT``), parse the source with
``ast`` and collect every message raised (``raise X("...")``, ``assert c, "..."``) or logged at warning level or
above (``logger.warning/warning_once/error/critical/exception/fatal``, ``warnings.warn``) as a template: the literal
text with ``{}`` for each dynamic part (f-string fields, ``%`` / ``.format`` arguments, concatenated variables, a
message built in a local variable before the raise), whitespace collapsed, literal braces doubled. Templates with
fewer than ``MIN_LITERAL`` literal characters are dropped (they would match anything).

Run: ``python scripts/upstream/releases.py && python scripts/upstream/derive_messages.py`` (no network here).
"""

from __future__ import annotations

import ast
import datetime
import gzip
import hashlib
import json
import re
import sys
import warnings
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Set, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

import releases  # noqa: E402

from dsdoctor.knowledge.messages import keys  # noqa: E402
from dsdoctor.knowledge.release_spans import encode  # noqa: E402

OUT = releases.ROOT / "src" / "dsdoctor" / "knowledge" / "data" / "messages.json.gz"
MIN_LITERAL = 12  # literal characters (not counting spaces) a template needs
LOG_LEVELS = {"warning": "warning", "warn": "warning", "warning_once": "warning", "warning_advice": "warning",
              "error": "error", "exception": "error", "critical": "critical", "fatal": "critical"}
_RAISABLE = ("Error", "Exception", "Warning")
SLOT = "\x00"  # a dynamic part while a template is built (braces are escaped at the end)

# Transformers: every module unpacked (``releases.py`` keeps no model but ``models/auto``) but those of other
# frameworks, tests, command-line tools, conversions, pipelines and the placeholder objects
_TF_SKIP = re.compile(r"(?:^|[._])(?:tf|flax|keras|onnx)(?:$|[._])|^(?:testing_utils|commands|convert_|sagemaker|"
                      r"pipelines|utils\.dummy_|benchmark)")
# torch: every module unpacked (``releases.py`` keeps utils, distributed, cuda, compiler, optim, nn, amp, _dynamo and
# the top-level files) but Dynamo's internals, tools' modules, and the meta registrations (Python copies of ATen's C++
# checks, for meta tensors: a real run's message is the C++ one, not theirs)
_TORCH_SKIP = ("_dynamo", "_meta_registrations", "utils.hipify", "utils.tensorboard", "utils.benchmark", "utils.bottleneck", "utils.jit",
               "nn.quantized", "nn.intrinsic", "nn.qat")


def _tf(rel: str) -> bool:
    """Transformers: every module unpacked but ``_TF_SKIP``'s."""
    return not _TF_SKIP.search(rel)


def _torch(rel: str) -> bool:
    return not rel.startswith(_TORCH_SKIP)


MODULES_READ = {
    "deepspeed": "all modules", "accelerate": "all modules", "peft": "all modules", "trl": "all modules",
    "transformers": "every module unpacked (no models/* but models/auto/*) but TensorFlow / Flax / Keras / ONNX "
                    "ones, testing_utils, commands/*, convert_*, sagemaker/*, pipelines/*, utils/dummy_*, benchmark/*",
    "torch": "every module unpacked (top-level files, utils/**, distributed/**, cuda/**, compiler/**, optim/**, "
             "nn/**, amp/**) but _dynamo/**, _meta_registrations, utils/hipify, utils/tensorboard, utils/benchmark, utils/bottleneck, "
             "utils/jit, nn/quantized, nn/intrinsic, nn/qat",
}
# package -> which of its modules (dotted, without the top package) are read
SELECT: Dict[str, Callable[[str], bool]] = {
    "deepspeed": lambda rel: True,
    "transformers": _tf,
    "accelerate": lambda rel: True,
    "peft": lambda rel: True,
    "trl": lambda rel: True,
    "torch": _torch,
}


# ------------------------------------------------------------------------------------------- templates


def _percent(fmt: str) -> str:
    """A ``%``-format string with each conversion a slot (``%%`` is a literal ``%``)."""
    return re.sub(r"%(?:\([^)]*\))?[-#0 +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?[diouxXeEfFgGcrsa%]",
                  lambda m: "%" if m.group(0) == "%%" else SLOT, fmt)


def _format(fmt: str) -> str:
    """A ``str.format`` string with each field a slot (``{{``/``}}`` are literal braces)."""
    out, i = [], 0
    while i < len(fmt):
        c = fmt[i]
        if c in "{}" and fmt[i:i + 2] in ("{{", "}}"):
            out.append(c)
            i += 2
        elif c == "{":
            j = fmt.find("}", i)
            out.append(SLOT)
            i = len(fmt) if j < 0 else j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


class Builder:
    """Turns a message expression into template text (dynamic parts are ``SLOT``), resolving simple local names."""

    def __init__(self, local: Callable[[str, int], Optional[ast.expr]]) -> None:
        self.local = local
        self.depth = 0

    def text(self, node: Optional[ast.expr], line: int) -> str:
        if node is None or self.depth > 6:
            return SLOT
        self.depth += 1
        try:
            return self._text(node, line)
        finally:
            self.depth -= 1

    def _text(self, node: ast.expr, line: int) -> str:
        if isinstance(node, ast.Constant):
            return node.value if isinstance(node.value, str) else SLOT
        if isinstance(node, ast.JoinedStr):
            return "".join(v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else SLOT
                           for v in node.values)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return self.text(node.left, line) + self.text(node.right, line)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
            left = self.text(node.left, line)
            return _percent(left) if left != SLOT else SLOT
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format"):
            base = self.text(node.func.value, line)
            return _format(base) if base != SLOT else SLOT
        if isinstance(node, ast.Name):
            found = self.local(node.id, line)
            return self.text(found, line) if found is not None else SLOT
        return SLOT


def template(raw: str) -> Optional[str]:
    """The stored template of built text: whitespace collapsed, braces doubled, slots ``{}`` (adjacent slots merged);
    None when it has too few literal characters."""
    text = re.sub(r"\s+", " ", raw).strip()
    text = re.sub(SLOT + r"(?:\s*" + SLOT + ")+", SLOT, text)
    if sum(1 for c in text if c != SLOT and not c.isspace()) < MIN_LITERAL:
        return None
    return text.replace("{", "{{").replace("}", "}}").replace(SLOT, "{}")


# ------------------------------------------------------------------------------------------- one module


Found = Tuple[str, str, str]  # (function qualname, kind, template)


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    if isinstance(node, ast.Call):
        return _dotted(node.func)
    return ""


def _assignments(fn: ast.AST) -> Dict[str, List[Tuple[int, ast.expr, bool]]]:
    """name -> [(line, value, augmented)] of the simple assignments in a function (or module) body."""
    out: Dict[str, List[Tuple[int, ast.expr, bool]]] = {}
    for node in _own_nodes(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            out.setdefault(node.targets[0].id, []).append((node.lineno, node.value, False))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            out.setdefault(node.target.id, []).append((node.lineno, node.value, False))
        elif (isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and isinstance(node.op, ast.Add)):
            out.setdefault(node.target.id, []).append((node.lineno, node.value, True))
    return out


def _own_nodes(fn: ast.AST) -> Iterator[ast.AST]:
    """The nodes of ``fn``'s body, not those of functions or classes defined inside it."""
    stack = list(ast.iter_child_nodes(fn))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            stack.extend(ast.iter_child_nodes(node))


def _resolver(fn: ast.AST) -> Callable[[str, int], Optional[ast.expr]]:
    assigned = _assignments(fn)

    def local(name: str, line: int) -> Optional[ast.expr]:
        rows = sorted(r for r in assigned.get(name, []) if r[0] < line)
        if not rows:
            return None
        # the last plain assignment before the line, then the ``+=`` after it (as one concatenation)
        start = max((i for i, r in enumerate(rows) if not r[2]), default=None)
        if start is None:
            return None
        expr = rows[start][1]
        for _, value, _ in rows[start + 1:]:
            expr = ast.BinOp(left=expr, op=ast.Add(), right=value)
        return expr
    return local


def _message(node: ast.AST, build: Builder) -> Optional[Tuple[str, str]]:
    """(kind, built text) when ``node`` raises or logs a message."""
    if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args:
        kind = _dotted(node.exc.func).rsplit(".", 1)[-1] or "Exception"
        return kind, build.text(node.exc.args[0], node.lineno)
    if isinstance(node, ast.Assert) and node.msg is not None:
        return "AssertionError", build.text(node.msg, node.lineno)
    if (isinstance(node, ast.Return) and isinstance(node.value, ast.Call) and node.value.args
            and _dotted(node.value.func).endswith(_RAISABLE)):  # a helper that builds the exception to raise
        return _dotted(node.value.func).rsplit(".", 1)[-1], build.text(node.value.args[0], node.lineno)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
        owner, attr = _dotted(node.func.value), node.func.attr
        if attr == "warn" and owner.rsplit(".", 1)[-1] == "warnings":
            cat = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "category"), None)
            kind = _dotted(cat).rsplit(".", 1)[-1] if cat is not None else "UserWarning"
            return kind or "UserWarning", build.text(node.args[0], node.lineno)
        if attr == "append" and re.search(r"err|msg", owner.rsplit(".", 1)[-1], re.I):  # error_msgs.append(...), raised joined
            return "error", build.text(node.args[0], node.lineno)
        if attr in ("warning", "error") and owner == "self":  # DeepSpeed's OpBuilder.warning / error
            return LOG_LEVELS[attr], build.text(node.args[0], node.lineno)
        if attr in LOG_LEVELS and "log" in owner.rsplit(".", 1)[-1].lower():
            text = build.text(node.args[0], node.lineno)
            return LOG_LEVELS[attr], _percent(text) if len(node.args) > 1 else text  # logging's lazy % args
    return None


def messages(source: str) -> Iterator[Found]:
    """Every (function qualname, kind, template) raised or logged in one module's source."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tree = ast.parse(source)
    yield from _scope(tree, "")


def _scope(scope: ast.AST, qual: str, outer: Optional[Callable[[str, int], Optional[ast.expr]]] = None) -> Iterator[Found]:
    own = _resolver(scope)
    # a name not assigned in the function: a module constant (``CUDA_MISMATCH_MESSAGE``), wherever it is assigned
    local = own if outer is None else (lambda name, line: own(name, line) or outer(name, 10 ** 9))  # type: ignore[misc]
    build = Builder(local)
    for node in _own_nodes(scope):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield from _scope(node, f"{qual}.{node.name}" if qual else node.name, outer or own)
            continue
        got = _message(node, build)
        if got is not None:
            text = template(got[1])
            if text is not None:
                yield qual or "<module>", got[0], text


# ------------------------------------------------------------------------------------------- one package


# what each file (by content) holds, kept between runs; stale when this script changes
MEMO_FILE = releases.CACHE / "messages-memo.json"
_SELF = "extract-2"  # bump when what is extracted from a file changes
_MEMO: Dict[str, List[Found]] = {}


def _load_memo() -> None:
    try:
        data = json.loads(MEMO_FILE.read_text())
    except (OSError, ValueError):
        return
    if data.get("script") == _SELF:
        _MEMO.update({k: [tuple(x) for x in v] for k, v in data["files"].items()})  # type: ignore[misc]


def _save_memo() -> None:
    MEMO_FILE.write_text(json.dumps({"script": _SELF, "files": _MEMO}))


def derive(dist: str) -> Tuple[List[Dict[str, str]], Dict[str, Any]]:
    """(the releases read with their provenance rows, the package's table) for one package."""
    rels = releases.unpacked(dist)
    rows = [dict(json.loads((root / ".source.json").read_text())) for _, root in rels]
    keep = SELECT[dist]
    seen: Dict[Tuple[str, str, str, str], Set[int]] = {}
    failed = 0
    for i, (_, root) in enumerate(rels):
        for mod, path in releases.modules(root, dist):
            rel = mod.split(".", 1)[1] if "." in mod else ""
            if not keep(rel):
                continue
            source = path.read_text(encoding="utf-8", errors="replace")
            key = hashlib.sha1(source.encode("utf-8", "surrogateescape")).hexdigest()
            found = _MEMO.get(key)
            if found is None:  # most files are the same in the next release
                try:
                    found = _MEMO[key] = list(messages(source))
                except (SyntaxError, ValueError, RecursionError):
                    failed += 1
                    continue
            for func, kind, text in found:
                seen.setdefault((mod, func, kind, text), set()).add(i)
    mods = sorted({k[0] for k in seen})
    at = {m: i for i, m in enumerate(mods)}
    kinds = sorted({k[2] for k in seen})
    kat = {k: i for i, k in enumerate(kinds)}
    table = [[at[m], f, kat[k], t, encode(sorted(ix))] for (m, f, k, t), ix in sorted(seen.items())]
    return rows, {"releases": [r["version"] for r in rows], "modules": mods, "kinds": kinds,
                  "messages": table, "unparsed": failed}


def _key(packages: Dict[str, Dict[str, Any]]) -> None:
    """Append each row's index words (``messages.keys``, rarity counted over every package)."""
    rows = [row for table in packages.values() for row in table["messages"]]
    for row, k in zip(rows, keys([row[3] for row in rows])):
        row.append(k)


def main(argv: Sequence[str]) -> int:
    dists = list(argv) or list(SELECT)
    _load_memo()
    packages: Dict[str, Dict[str, Any]] = {}
    read: Dict[str, List[Dict[str, str]]] = {}
    for dist in dists:
        rows, table = derive(dist)
        if not rows:
            print(f"[messages] {dist}: no release unpacked", file=sys.stderr)
            continue
        packages[dist], read[dist] = table, rows
        print(f"[messages] {dist}: {len(table['messages'])} templates from {len(rows)} releases "
              f"({rows[0]['version']}..{rows[-1]['version']}), {table['unparsed']} files unparsed")
    _save_memo()
    _key(packages)
    data = {
        "provenance": {
            "script": "scripts/upstream/derive_messages.py",
            "sources": "scripts/upstream/releases.py (PyPI: DeepSpeed sdists, Hugging Face wheels, torch macOS arm64 wheels)",
            "packages": read,
            "modules_read": {d: MODULES_READ[d] for d in packages},
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%MZ"),
            "refresh": "python scripts/upstream/releases.py && python scripts/upstream/derive_messages.py",
        },
        "packages": packages,
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    body = json.dumps(data, separators=(",", ":"), sort_keys=True).encode("utf-8")
    OUT.write_bytes(gzip.compress(body, 9, mtime=0))
    print(f"[messages] wrote {OUT.relative_to(releases.ROOT)}: {OUT.stat().st_size} bytes ({len(body)} uncompressed)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
