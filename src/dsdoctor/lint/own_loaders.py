"""The project's own loaders: classes the project defines whose ``from_pretrained`` is not Transformers' loader.

``X.from_pretrained(..., low_cpu_mem_usage=True / device_map=...)`` meets Transformers' ZeRO-3 checks only where
``X.from_pretrained`` is ``PreTrainedModel.from_pretrained``. A class of the project is that only if it derives
(through the project's own classes, each base resolved through the imports of the file defining the class) from a
Transformers class and does not define its own ``from_pretrained``. A class deriving from diffusers' ``ModelMixin``
(diffusers 0.42.1 ``ModelMixin.from_pretrained`` has no DeepSpeed check: ``low_cpu_mem_usage`` defaults to True,
``device_map`` goes to accelerate's dispatch), from torch only (``nn.Module``), or one with its own
``from_pretrained`` that loads the weights itself is not; one whose ``from_pretrained`` forwards ``**kwargs`` to
another ``from_pretrained`` is followed only through ``super()`` (anything else: undecided, kept).

Read by regular expressions (as :mod:`.plain_classes`), so undecided is the answer wherever the text is not plain:
a base imported from an unknown library, a star import, a name the project defines several ways of which one is
Transformers'. Only the decided "not Transformers" names are returned; a name any project file imports from
Transformers (or another library) is never one of them (the loads' own imports decide those: :func:`library_of`).
"""

from __future__ import annotations

import os
import re
from typing import Dict, Iterable, List, Optional, Set, Tuple

from ..literal_gate import gated
from .discover import _read

_CLASS = re.compile(r"^([ \t]*)class[ \t]+(\w+)[ \t]*(?:\(([^)]*)\))?[ \t]*:", re.M)
_FROM = re.compile(r"^[ \t]*from[ \t]+([\w.]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]*)", re.M)
_IMPORT = re.compile(r"^[ \t]*import[ \t]+([\w.]+)(?:[ \t]+as[ \t]+(\w+))?", re.M)
_OWN = gated(r"^([ \t]+)(?:async[ \t]+)?def[ \t]+from_pretrained[ \t]*\(", re.M)
# a from_pretrained call in the method that passes its keyword arguments on (``**kwargs``) or names the two
_FORWARD = gated(r"\.from_pretrained\((?:[^()]|\([^()]*\))*(?:\*\*|low_cpu_mem_usage|device_map)")
_SUPER_FORWARD = gated(r"super\([^)]*\)\s*\.from_pretrained\(")

TRANSFORMERS, OTHER, UNKNOWN = "transformers", "other", "unknown"
# in own_loaders' answer where a class of the project has an instance method ``from_pretrained(self, ...)`` that
# loads itself (a model wrapper: ``self.slim_model.from_pretrained(path, device_map=...)`` calls it, not Transformers)
INSTANCE = "<instance from_pretrained>"
_SELF_FIRST = re.compile(r"def[ \t]+from_pretrained[ \t]*\([ \t\n]*self\b")
# libraries whose classes' from_pretrained (if any) is not Transformers': diffusers' ModelMixin / ConfigMixin and
# torch's modules (no from_pretrained at all); builtins and typing bases add none
_NOT_TF_LIBS = ("diffusers", "torch")
_PLAIN = {"object", "ABC", "Generic", "Protocol", "Enum"}


def library_of(module: str) -> Optional[str]:
    """``transformers`` / ``other`` for a module of Transformers / of a library whose loaders are not Transformers',
    None for any other (the project's, or a library not known here)."""
    top = module.lstrip(".").split(".")[0]
    if module.startswith("."):
        return None
    if top == "transformers":
        return TRANSFORMERS
    if top in _NOT_TF_LIBS:
        return OTHER
    return None


def _imports(text: str) -> Dict[str, str]:
    """Local name -> module it is imported from (``from m import a as b``: b -> m; ``import m as n``: n -> m)."""
    out: Dict[str, str] = {}
    for m in _FROM.finditer(text):
        for part in m.group(2).strip("()").replace("\n", " ").split(","):
            words = part.split()
            if words:
                out[words[-1] if len(words) == 3 and words[1] == "as" else words[0]] = m.group(1)
    for m in _IMPORT.finditer(text):
        out[m.group(2) or m.group(1).split(".")[0]] = m.group(1)
    return out


def _body(text: str, m: "re.Match[str]") -> str:
    """The text of the class ``m`` opens: up to the next line indented no deeper than its ``class``."""
    indent = len(m.group(1).expandtabs())
    end = len(text)
    for line in re.finditer(r"^([ \t]*)\S.*$", text[m.end():], re.M):
        if len(line.group(1).expandtabs()) <= indent and not line.group(0).lstrip().startswith(("#", ")", "@")):
            end = m.end() + line.start()
            break
    return text[m.end():end]


def _method(body: str, own: "re.Match[str]") -> str:
    """The text of the method ``own`` opens: up to the next ``def`` / decorator at its indentation."""
    nxt = re.compile(rf"^{own.group(1)}(?:@|def[ \t]|async[ \t]|class[ \t])", re.M).search(body, own.end())
    return body[own.start():nxt.start() if nxt else len(body)]


# bases, the file's imports, own from_pretrained: "" / "self" / "super" / "forward", and whether that one is a method
# of an object (``def from_pretrained(self, ...)``)
Def = Tuple[List[str], Dict[str, str], str, bool]


def _defs(files: Iterable[str]) -> Tuple[Dict[str, List[Def]], Set[str]]:
    """Every class definition of ``files``; the names some file imports from a library (not the project)."""
    defs: Dict[str, List[Def]] = {}
    from_libs: Set[str] = set()
    for f in files:
        text = _read(f, 4 * 2**20)
        imports = _imports(text)
        from_libs.update(n for n, mod in imports.items() if library_of(mod) is not None)
        if "class" not in text:
            continue
        for m in _CLASS.finditer(text):
            body = _body(text, m)
            own = _OWN.search(body)
            method = "" if own is None else _method(body, own)
            how = "" if own is None else "super" if _SUPER_FORWARD.search(method) else \
                "forward" if _FORWARD.search(method[own.end() - own.start():]) else "self"
            instance = own is not None and _SELF_FIRST.match(method.lstrip(" \t")) is not None
            bases = [b.strip() for b in re.sub(r"\[[^\]]*\]", "", m.group(3) or "").split(",")]
            defs.setdefault(m.group(2), []).append(([b for b in bases if b and "=" not in b], imports, how, instance))
    return defs, from_libs


def _base(base: str, imports: Dict[str, str], verdict: Dict[str, str], defs: Dict[str, List[Def]]) -> str:
    head = base.split(".")[0]
    lib = library_of(imports[head]) if head in imports else None
    if lib is not None:
        return lib
    if base in _PLAIN or head in ("nn", "torch"):
        return OTHER if base in _PLAIN or head in imports else UNKNOWN
    name = base.split(".")[-1]
    return verdict.get(name, UNKNOWN) if name in defs else UNKNOWN


def _decide(d: Def, verdict: Dict[str, str], defs: Dict[str, List[Def]]) -> str:
    bases, imports, how, _ = d
    if how == "self":
        return OTHER
    if how == "forward":
        return UNKNOWN
    seen = [_base(b, imports, verdict, defs) for b in bases] or [OTHER]
    return TRANSFORMERS if TRANSFORMERS in seen else UNKNOWN if UNKNOWN in seen else OTHER


_SKIP_DIRS = ("node_modules", "site-packages", "venv", "__pycache__")


def project_files(paths: Iterable[str], known: Iterable[str], limit: int = 5000) -> List[str]:
    """``known`` and every Python file under the directories of ``paths`` (hidden directories, virtualenvs and
    site-packages left out; what git ignores included: a tracked package named like an ignored pattern is still
    imported), at most ``limit``: the classes a load may name are read wherever they are defined."""
    out = list(known)
    seen = set(out)
    for root in (p for p in paths if os.path.isdir(p)):
        for d, dirs, files in os.walk(root):
            dirs[:] = sorted(x for x in dirs if not x.startswith(".") and x not in _SKIP_DIRS and "venv" not in x)
            for f in sorted(files):
                p = os.path.normpath(os.path.join(d, f))
                if f.endswith(".py") and p not in seen:
                    seen.add(p)
                    out.append(p)
                    if len(out) >= limit:
                        return out
    return out


def own_loaders(files: Iterable[str]) -> Set[str]:
    """The names of classes defined in ``files`` whose ``from_pretrained`` is decided not to be Transformers'
    (every definition of the name, and no file imports the name from a library)."""
    defs, from_libs = _defs(f for f in files if os.path.isfile(f))
    verdict: Dict[str, str] = {}
    for _ in range(len(defs) + 1):  # a base's verdict first: settles in at most one round per class
        grew = False
        for name, all_defs in defs.items():
            seen = {_decide(d, verdict, defs) for d in all_defs}
            v = TRANSFORMERS if TRANSFORMERS in seen else UNKNOWN if UNKNOWN in seen else OTHER
            if verdict.get(name) != v:
                verdict[name], grew = v, True
        if not grew:
            break
    out = {n for n, v in verdict.items() if v == OTHER and n not in from_libs}
    if any(d[3] for n, all_defs in defs.items() if n not in from_libs for d in all_defs):
        out.add(INSTANCE)
    return out
