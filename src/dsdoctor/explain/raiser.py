"""Who raised an exception, read from the log itself: the traceback's frames, the exception's class path, or the C++
source location a message quotes. Used only for an ``unknown`` answer (:mod:`.attribute` joins it with the message
index), never on the scan path.

- A frame is a **library's** when its file is in an installed package (``site-packages/<pkg>/...``,
  ``dist-packages``, an egg, a conda env, Windows paths) or in a source checkout of a known library
  (``.../DeepSpeed/deepspeed/runtime/...``, ``.../transformers/src/transformers/...``: the package directory under
  a directory of its own name, or a DeepSpeed tree by its subpackages); Python's own library (``lib/python3.x``,
  ``<frozen ...>``) is **Python's**; anything else is **the user's**.
- The raising library is the innermost frame that is not Python's, when it is a library's (an exception raised in
  the user's code, e.g. their ``compute_loss`` called by a Trainer, is not attributed to the Trainer). Its module
  comes from the path (``deepspeed/runtime/zero/stage3.py`` -> ``deepspeed.runtime.zero.stage3``), its function
  from the frame. The user frame that called into it is the innermost user frame outside it.
- Without frames: an exception class with a package path (``torch.distributed.DistBackendError``,
  ``deepspeed.runtime.zero.utils.ZeRORuntimeException``; not Python's own modules), a C++ source path in the message
  (``torch/csrc/...``, ``c10/...``, ``aten/...``, c10's ``Exception raised from F at FILE``), a message whose C++
  function running torch showed (:mod:`dsdoctor.knowledge.torch_cpp`), c10's ``c10::``
  classes or NCCL's return codes (``NCCL error``, ``ncclSystemError``: torch's c10d raises them) name the package
  (and, for C++, the file and function).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

from ..knowledge import torch_cpp as TC

# a frame's file in an installed package: the package directory (an egg's directory skipped) and the rest
_INSTALLED = re.compile(r"[/\\](?:site|dist)-packages[/\\](?:[^/\\]{1,200}\.egg[/\\])?([A-Za-z_]\w{0,60})([/\\][^\n]{0,400})?$")
# libraries people run from a source checkout (an editable install, a clone on PYTHONPATH)
CHECKOUTS = ("deepspeed", "transformers", "accelerate", "peft", "trl", "torch", "diffusers", "datasets", "vllm",
             "flash_attn", "bitsandbytes", "apex", "megatron", "xformers", "triton", "huggingface_hub", "lightning",
             "pytorch_lightning", "safetensors", "tokenizers", "llamafactory", "axolotl", "openrlhf", "swift")
# DeepSpeed's source tree, known by what is under deepspeed/ (a user's own folder named deepspeed is not it)
_DS_SUB = ("runtime", "ops", "launcher", "module_inject", "accelerator", "moe", "elasticity", "autotuning", "nvme",
           "model_implementations", "nebula", "env_report.py", "git_version_info.py")  # not a generic utils/, comm/
_PYTHON = re.compile(r"^<(?:frozen |string>|stdin>)|[/\\]lib[/\\]python\d[\d.]*[/\\](?!site-packages|dist-packages)|"
                     r"[/\\](?:Python\d{1,3}|python\d[\d.]*|envs[/\\][^/\\]{1,100}|[Aa]naconda\d?|[Mm]iniconda\d?)[/\\]Lib[/\\]"
                     r"(?!site-packages)|[/\\](?:bin|Scripts)[/\\][\w.-]{1,60}$")  # and an entry point (bin/torchrun)
# an exception class with a package path: ``torch.distributed.DistBackendError``
_CLASS = re.compile(r"(?<![\w.])([a-z_]\w{0,60}(?:\.\w{1,60}){0,8})\.([A-Z]\w{0,80}(?:Error|Exception)):")
# Python's own modules (and names that are no package): their exceptions are raised for whoever called them
_NOT_A_LIBRARY = frozenset(("builtins", "__main__", "subprocess", "json", "pickle", "_pickle", "urllib", "http", "socket",
                            "ssl", "os", "concurrent", "multiprocessing", "asyncio", "zipfile", "tarfile", "shutil",
                            "argparse", "importlib", "collections", "typing", "queue", "io", "errno", "select",
                            "signal", "threading", "unittest", "ctypes", "zlib", "gzip", "csv", "re", "sqlite3",
                            "email", "xml", "distutils", "setuptools", "pkg_resources", "pip", "self", "e", "exc", "err"))
# a C++ source location of torch in a message: "NCCL error in: .../torch/csrc/distributed/c10d/NCCLUtils.cpp:210",
# c10's "Exception raised from checkForNCCLErrors at ../torch/csrc/...cpp:1234"
_CPP_FROM = re.compile(r"Exception raised from (\S{1,200}) at \S{0,200}?((?:torch[/\\]csrc|c10|aten[/\\]src)[/\\][\w/\\.]{1,200}"
                       r"\.(?:cpp|cu|cuh|h|hpp))")
_CPP_PATH = re.compile(r"(?:\bin:?|\bat|\bfrom) \S{0,200}?(?<![\w])"
                       r"((?:torch[/\\]csrc|c10[/\\](?:cuda|core|util)|aten[/\\]src)[/\\][\w/\\.]{1,200}\.(?:cpp|cu|cuh|h|hpp))")
_C10 = re.compile(r"\bc10::(\w{1,60})")
# NCCL's return codes as torch's c10d reports them ("NCCL error in: ...", "ncclUnhandledCudaError: ...")
_NCCL = re.compile(r"\bNCCL error\b|\bnccl(?:UnhandledCuda|System|Internal|InvalidArgument|InvalidUsage|Remote)Error\b")
# launchers: a cut traceback that ends in one is the launcher's report of a rank that failed, not the failure
_LAUNCHERS = ("torch.distributed.run", "torch.distributed.launch", "torch.distributed.elastic", "deepspeed.launcher",
              "accelerate.commands")


@dataclass(frozen=True)
class Raiser:
    """Who raised: the package, its module (or C++ file), the function(s) when the log shows them, how it is known
    (``frames``, ``message`` (the message index), ``exception class``, ``C++ source``, ``C++ message`` (run), ``NCCL error``), the raising frame's
    location, the user's frame that called into it, and whether the traceback is cut (the raising frame may be
    deeper than the last one shown)."""

    package: str
    module: str = ""
    functions: Tuple[str, ...] = ()
    how: str = "frames"
    releases: str = ""
    path: str = ""
    line: int = 0
    caller: Tuple[str, int, str] = ("", 0, "")
    cut: bool = False

    def said(self) -> str:
        """``torch's torch.autograd.graph _engine_run_backward (.../graph.py:769)``, ``TRL's trl.x (one of: F, G)``."""
        from ..knowledge.messages import TITLES

        name = f"{TITLES.get(self.package, self.package)}'s"
        funcs = ("" if not self.functions else f" {self.functions[0]}" if len(self.functions) == 1
                 else f" (one of {', '.join(self.functions[:6])}{', ...' if len(self.functions) > 6 else ''})")
        extra = [x for x in (self.releases, f"{self.path}:{self.line}" if self.path else "",
                             "the exception's class" if self.how == "exception class" else "") if x]
        return f"{name} {self.module}{funcs}".replace("  ", " ").strip() + (f" ({'; '.join(extra)})" if extra else "")

    def fields(self) -> Tuple[Tuple[str, str], ...]:
        """The JSON's ``raised_by`` object, as pairs (``functions`` ``|``-joined)."""
        out = [("package", self.package), ("module", self.module), ("function", self.functions[0] if len(self.functions) == 1 else ""),
               ("functions", "|".join(self.functions) if len(self.functions) > 1 else ""), ("from", self.how),
               ("releases", self.releases), ("path", self.path), ("line", str(self.line) if self.line else ""),
               ("caller_path", self.caller[0]), ("caller_line", str(self.caller[1]) if self.caller[1] else ""),
               ("caller_function", self.caller[2]), ("cut", "1" if self.cut else "")]
        return tuple((k, v) for k, v in out if v)


def _module(parts: List[str]) -> str:
    """The dotted module of a package-relative path's parts ("" when a part is no name: a garbled path)."""
    parts = [p[:-3] if p.endswith(".py") else p for p in parts if p]
    if parts and parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts) if all(re.fullmatch(r"[A-Za-z_][\w-]{0,100}", p) for p in parts) else ""


def _bare(name: str) -> str:
    """A checkout's directory name as compared with its package: case, ``-``, ``_`` and ``.`` ignored
    (``LLaMA-Factory`` is ``llamafactory``'s, ``DeepSpeed`` ``deepspeed``'s)."""
    return re.sub(r"[-_.]", "", name.lower())


def library(path: str) -> Optional[Tuple[str, str]]:
    """(package, module) of a frame's file when it is a library's, else None (the user's code, or Python's). The
    module is "" when the path is not one (a log pasted through OCR: ``lr schedules.py``)."""
    m = _INSTALLED.search(path)
    if m:
        rest = [p for p in re.split(r"[/\\]", m.group(2) or "") if p]
        return m.group(1), _module([m.group(1)] + rest)
    parts = [p for p in re.split(r"[/\\]", path) if p]
    for i in range(len(parts) - 1, 0, -1):
        pkg = parts[i]
        if pkg not in CHECKOUTS or i == len(parts) - 1:
            continue
        own = _bare(parts[i - 1]) == _bare(pkg) or (
            parts[i - 1] == "src" and i >= 2 and _bare(parts[i - 2]) == _bare(pkg))
        if own or (pkg == "deepspeed" and parts[i + 1] in _DS_SUB):
            return pkg, _module(parts[i:])
    return None


def python_own(path: str) -> bool:
    """The frame is in Python's own library (or ``<frozen ...>``, ``<string>``), or an entry-point script
    (``bin/torchrun``): neither a library's nor the user's."""
    return bool(_PYTHON.search(path)) and library(path) is None


# the names a code line calls: ``self.concatenated_forward(`` -> concatenated_forward
_CALLED = re.compile(r"([A-Za-z_]\w{0,100})\s*\(")


def cut_name(func: str, caller_code: str) -> str:
    """The whole name of a last frame's function when the log ends in its line (no code line after it, so the name
    may be cut): a ``<module>``-like name (its ``>`` closes it); else the one name the calling frame's code line
    calls that starts with it, at least 3 characters shown (``in conc`` below ``self.concatenated_forward(batch)``;
    ``in _engine_run_backward`` below ``_engine_run_backward(``). "" when not certain."""
    if re.fullmatch(r"<\w{1,40}>", func):
        return func
    if len(func) < 3:
        return ""
    names = {n for n in _CALLED.findall(caller_code) if n.startswith(func)}
    return names.pop() if len(names) == 1 else ""


def complete(frames: List[Tuple[str, int, str]], codes: Sequence[str]) -> Tuple[List[Tuple[str, int, str]], bool]:
    """``frames`` (outermost first) with the last one's function name completed where the log cuts its line
    (:func:`cut_name`), and whether that name is whole. ``codes``: the code lines of the innermost frames (the
    last traceback's), "" where the log shows none."""
    if not frames:
        return frames, False
    if codes and codes[-1]:
        return frames, True
    name = cut_name(frames[-1][2], codes[-2] if len(codes) > 1 else "")
    if not name:
        return frames, False
    return frames[:-1] + [(frames[-1][0], frames[-1][1], name)], True


def from_frames(frames: Sequence[Tuple[str, int, str]], cut: bool = False, whole: bool = True) -> Optional[Raiser]:
    """The library whose frame raised (the innermost frame not Python's), with the user frame that called into it;
    None when that frame is the user's (or there are no frames), or when a cut traceback ends in a launcher
    (``torchrun``'s ``torch.distributed.run``: it reports a rank's failure, shown elsewhere). ``whole``: the last frame's line is complete (a
    code line follows it; a log cut inside it may cut the function's name: then only the module is said)."""
    at = next((i for i in range(len(frames) - 1, -1, -1) if not python_own(frames[i][0])), -1)
    if at < 0:
        return None
    path, line, func = frames[at]
    lib = library(path)
    if lib is None:
        return None
    caller = next((f for f in reversed(frames[:at]) if library(f[0]) is None and not python_own(f[0])), ("", 0, ""))
    if cut and launcher_cut(frames):
        return None  # the launcher's own traceback, cut: its child's failure is elsewhere
    sure = bool(func and lib[1] and (whole or at < len(frames) - 1))
    return Raiser(lib[0], lib[1], (func,) if sure else (), "frames", "", path, line, caller, cut)


def launcher_cut(frames: Sequence[Tuple[str, int, str]]) -> bool:
    """The innermost frame that is not Python's is a launcher's (torchrun's ``torch.distributed.run``): a cut
    traceback ending there is the launcher reporting a rank's failure, which it did not raise."""
    at = next((f for f in reversed(frames) if not python_own(f[0])), None)
    lib = library(at[0]) if at is not None else None
    return lib is not None and lib[1].startswith(_LAUNCHERS)


def from_message(text: str) -> Optional[Raiser]:
    """The package an exception line names: its class's package path, a C++ source location of torch, a message
    whose C++ function running torch showed, or c10."""
    m = _CPP_FROM.search(text)
    if m:
        return Raiser("torch", m.group(2).replace("\\", "/"), (m.group(1),), "C++ source")
    m = _CPP_PATH.search(text)
    if m:
        return Raiser("torch", m.group(1).replace("\\", "/"), (), "C++ source")
    row = TC.lookup(text)  # a message whose C++ function was read by running torch
    if row is not None:
        return Raiser("torch", row.file, (row.function,), "C++ message", row.describe())
    m = _CLASS.search(text)
    if m and m.group(1).split(".")[0] not in _NOT_A_LIBRARY:
        return Raiser(m.group(1).split(".")[0], m.group(1), (), "exception class")
    if _C10.search(text):
        return Raiser("torch", "c10", (), "exception class")
    if _NCCL.search(text):  # NCCL's return code, raised by torch.distributed's NCCL process group (C++)
        return Raiser("torch", "torch/csrc/distributed/c10d", (), "NCCL error")
    return None
