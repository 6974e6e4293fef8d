"""``dsdoctor report``: a Markdown bug report to paste into an issue, with every secret redacted.

Sections: versions (dsdoctor, OS, Python, torch + its CUDA build, DeepSpeed, Transformers, Accelerate, PEFT,
nvcc, GPUs/driver), findings (``check`` plus the lint of the current directory), the tail of a given log with
``explain``'s diagnosis, the relevant environment variables, and ``check``'s JSON facts. A section that cannot
be produced says why instead of failing the whole report.

The whole document goes through :func:`dsdoctor.redact.redact` before it is printed or written (``-o``,
atomically), so the file is as safe to paste as the terminal output.

Kept whole: one function per section of the one document, in the document's order; the sections share the
redaction and the fence helpers, and none is used elsewhere.
"""

from __future__ import annotations

import collections
import gzip
import json
import os
import platform
import re
import sys
from dataclasses import dataclass, field
from typing import Any, Deque, List, Mapping, Optional, Sequence, Tuple

from .errors import UsageError
from .model import CONSEQUENCE, Finding, Report, Severity

TAIL_LINES = 80
MAX_TAIL_LINE = 400  # characters of one log line shown in the tail
MAX_CONFIG_LINES = 200  # of the --ds-config file shown
MAX_TAIL_READ = 4 << 20  # bytes read from the end of a plain log to find its last lines
ENV_PREFIXES = ("CUDA_", "CUDNN_", "NCCL_", "DS_", "DEEPSPEED_", "TORCH_", "PYTORCH_", "HF_", "HUGGING_FACE_",
                "HUGGINGFACE_", "TRANSFORMERS_", "ACCELERATE_", "PEFT_", "WANDB_", "NVIDIA_", "NVCC_", "OMP_", "MKL_",
                "SLURM_JOB_", "PDSH_", "DSDOCTOR_")
ENV_NAMES = ("CUDA_HOME", "CUDA_PATH", "CC", "CXX", "CUDAHOSTCXX", "LD_LIBRARY_PATH", "LIBRARY_PATH", "CPATH", "PATH",
             "PYTHONPATH", "PYTHONNOUSERSITE", "CONDA_PREFIX", "CONDA_DEFAULT_ENV", "VIRTUAL_ENV", "MAX_JOBS",
             "MASTER_ADDR", "MASTER_PORT", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "RANK", "LOCAL_RANK", "NODE_RANK",
             "TOKENIZERS_PARALLELISM", "NO_COLOR")
_MARK = {Severity.ERROR: "✗", Severity.WARNING: "!", Severity.INFO: "i"}


class ReportInputError(UsageError):
    """A --log / --ds-config / --python the report cannot use (exit 2 with this message)."""


@dataclass
class Inputs:
    log: Optional[str] = None
    ds_config: Optional[str] = None
    python: Optional[str] = None
    lint: bool = True
    tail_lines: int = TAIL_LINES
    env: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))


# ---------------------------------------------------------------------------------------------------------
# Markdown helpers


def fence(text: str, lang: str = "") -> str:
    """``text`` in a fenced code block whose fence is longer than any backtick run inside it."""
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    ticks = "`" * max(3, longest + 1)
    return f"{ticks}{lang}\n{text.rstrip(chr(10))}\n{ticks}"


def code(text: str) -> str:
    """Inline code that survives backticks in ``text``."""
    if "`" not in text:
        return f"`{text}`"
    longest = max(len(m) for m in re.findall(r"`+", text))
    ticks = "`" * (longest + 1)
    return f"{ticks} {text} {ticks}"


def _md(text: str) -> str:
    """Prose on one line: redacted first (escaping would hide a secret's shape from the final pass), then the
    characters Markdown would turn into markup or HTML escaped outside `code spans` (kept as written)."""
    from .redact import redact

    text = " ".join(redact(text).split())
    out = []
    for i, part in enumerate(_CODE_SPAN.split(text)):
        out.append(part if i % 2 else re.sub(r"([\\`*_<>\[\]|#~])", r"\\\1", part))
    return "".join(out)


_CODE_SPAN = re.compile(r"(`[^`]+`)")


# ---------------------------------------------------------------------------------------------------------
# sections


def os_description() -> str:
    pretty = ""
    try:
        with open("/etc/os-release", encoding="utf-8", errors="replace") as fh:
            for line in fh:
                if line.startswith("PRETTY_NAME="):
                    pretty = line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    libc = " ".join(x for x in platform.libc_ver() if x)
    parts = [pretty or platform.system(), f"kernel {platform.release()}", platform.machine()]
    if libc:
        parts.append(libc)
    return ", ".join(p for p in parts if p)


def gpu_description(env: Mapping[str, str]) -> Optional[str]:
    from .probes.run import run_tool, which

    smi = which("nvidia-smi", env.get("PATH"))
    if not smi:
        return None
    res = run_tool([smi, "--query-gpu=name,driver_version,memory.total", "--format=csv,noheader"], timeout=10.0)
    if not res.ok:
        return f"nvidia-smi failed: {res.describe_failure()}"
    rows = [ln.strip() for ln in res.stdout.splitlines() if ln.strip()]
    if not rows:
        return "nvidia-smi lists no GPU"
    counts = collections.Counter(rows)
    return "; ".join(f"{n} x {row}" if n > 1 else row for row, n in counts.items())


def _versions(facts: Mapping[str, Any], env: Mapping[str, str]) -> List[Tuple[str, str]]:
    from .version import __version__

    def v(key: str) -> str:
        val = facts.get(key)
        return str(val) if val else "not installed"

    torch = v("torch")
    if facts.get("torch") and facts.get("torch_cuda"):
        torch += f" (CUDA {facts['torch_cuda']})"
    elif facts.get("torch") and facts.get("torch_hip"):
        torch += f" (ROCm/HIP {facts['torch_hip']})"
    elif facts.get("torch"):
        torch += " (CPU build)"
    nvcc = str(facts["nvcc"]) if facts.get("nvcc") else "not found"
    if facts.get("cuda_home"):
        nvcc += f" (CUDA_HOME {facts['cuda_home']}" + (f", from {facts['cuda_home_source']})" if facts.get("cuda_home_source") else ")")
    checked = facts.get("python_version") or "?"
    if facts.get("python"):
        checked += f" ({facts['python']})"
    own = f"{platform.python_version()} ({sys.executable})"
    same = facts.get("python") and os.path.realpath(str(facts["python"])) == os.path.realpath(sys.executable)
    pythons = [("Python", own)] if same else [("Python (checked environment)", checked), ("Python (dsdoctor)", own)]
    rows = [
        ("dsdoctor", __version__),
        ("OS", os_description()),
        *pythons,
        ("torch", torch),
        ("DeepSpeed", v("deepspeed")),
        ("Transformers", v("transformers")),
        ("Accelerate", v("accelerate")),
        ("PEFT", v("peft")),
        ("nvcc", nvcc),
    ]
    gpus = None
    try:
        gpus = gpu_description(env)
    except Exception as exc:  # noqa: BLE001 - a report section never fails the report
        gpus = f"probe failed: {type(exc).__name__}: {exc}"
    if gpus:
        rows.append(("GPUs", gpus))
    if facts.get("accelerator"):
        rows.append(("Accelerator", f"{facts['accelerator']} ({facts.get('accelerator_how') or '?'}), "
                                    f"{facts.get('gpus_visible', '?')} GPU(s) visible"))
    return rows


def _table(rows: Sequence[Tuple[str, str]]) -> str:
    out = ["| | |", "|---|---|"]
    out += [f"| {k} | {_md(val)} |" for k, val in rows]
    return "\n".join(out)


def _finding_md(f: Finding, fixes: int = 2) -> List[str]:
    loc = f"{f.path}:{f.line or 1}:{f.col or 1}: " if f.path and f.section != "explain" else ""
    lines = [f"- {_MARK[f.severity]} **{f.severity.value}** {code(f.name)} ({f.code}): {_md(loc + f.title)}"]
    for fix in f.fixes[:fixes]:
        tag = "" if fix.applicability == "safe" else " (unsafe)"
        lines.append(f"  - fix: {_md(fix.title)}{tag}")
        for cmd in fix.commands:
            lines.append(f"    {code(cmd)}")
    return lines


def _findings_section(report: Report) -> str:
    out: List[str] = []
    if not report.findings:
        out.append("No issues found.")
    for f in report.findings:
        out += _finding_md(f)
    pred = report.predictions.get("cpu_adam")
    if pred and pred.get("path"):
        verdict = "will load" if pred.get("loads") else f"will FAIL ({', '.join(pred.get('blockers') or [])})"
        out.append("")
        out.append(f"cpu_adam ({pred.get('accelerator')} accelerator, {pred.get('path')}): **{verdict}**")
    linted = (report.facts.get("lint") or {}).get("files")
    if linted:
        out.append("")
        out.append(f"Linted {len(linted)} file(s): " + ", ".join(code(str(p)) for p in linted[:20])
                   + (" ..." if len(linted) > 20 else ""))
    if report.passed:
        out.append("")
        out.append("<details><summary>Passed checks</summary>")
        out.append("")
        out += [f"- {_md(p.section)}: {_md(p.title)}" for p in report.passed]
        out.append("")
        out.append("</details>")
    return "\n".join(out)


def _clean_line(raw: str) -> str:
    from .explain.reader import terminal_text

    raw = terminal_text(raw)
    if len(raw) > MAX_TAIL_LINE:
        raw = raw[: MAX_TAIL_LINE // 2] + " [...] " + raw[-MAX_TAIL_LINE // 2:]
    return raw


def log_tail(path: str, lines: int = TAIL_LINES) -> Tuple[List[str], bool]:
    """(the last ``lines`` lines of ``path`` as the terminal showed them, whether there were more);
    gzip is read as a stream, a plain file from its end."""
    with open(path, "rb") as fh:
        gz = fh.read(2) == b"\x1f\x8b"
        if gz:
            fh.seek(0)
            keep: Deque[bytes] = collections.deque(maxlen=lines + 1)
            with gzip.GzipFile(fileobj=fh) as z:
                for ln in z:
                    keep.append(ln)
            data = b"".join(keep)
            more = len(keep) > lines
        else:
            size = fh.seek(0, os.SEEK_END)
            start = max(0, size - MAX_TAIL_READ)
            fh.seek(start)
            data = fh.read()
            more = start > 0
    text = data.decode("utf-8", "replace").replace("\r\n", "\n")
    got = text.split("\n")
    if got and got[-1] == "":
        got.pop()
    if len(got) > lines:
        more = True
        got = got[-lines:]
    return [_clean_line(x) for x in got], more


def _tail_source(paths: Sequence[str], primary: Optional[Finding]) -> Optional[str]:
    """The file whose tail is shown: the primary diagnosis's evidence file, else the newest log."""
    if primary is not None:
        for e in primary.evidence:
            if e.path and e.path in paths:
                return e.path
    files = [p for p in paths if os.path.isfile(p)]
    return max(files, key=lambda p: os.stat(p).st_mtime) if files else None


def _log_section(path: str, tail_lines: int) -> str:
    from .explain.logfiles import explain_paths

    out: List[str] = []
    rep = explain_paths([path])
    sources: List[str] = list(rep.facts.get("sources") or [path])
    primary = rep.findings[0] if rep.findings else None
    if primary is not None:
        label = "Root cause" if primary.severity is Severity.ERROR else "Diagnosis"
        out.append(f"**{label}:** {_md(primary.title)} ({code(primary.name)} {primary.code})")
        ev = [e for e in primary.evidence if e.where != CONSEQUENCE][:4]
        cons = [e for e in primary.evidence if e.where == CONSEQUENCE][:3]
        if ev or cons:
            shown = [f"{e.path or path}:{e.line}: {e.what[:MAX_TAIL_LINE]}" if e.line else e.what[:MAX_TAIL_LINE] for e in ev]
            shown += [f"(consequence) {e.path or path}:{e.line}: {e.what[:MAX_TAIL_LINE]}" for e in cons]
            out.append("")
            out.append(fence("\n".join(shown)))
        if primary.explanation:
            out.append("")
            out.append(_md(primary.explanation))
        for fx in primary.fixes[:2]:
            out.append(f"- fix: {_md(fx.title)}" + ("" if fx.applicability == "safe" else " (unsafe)"))
            for cmd in fx.commands:
                out.append(f"  {code(cmd)}")
        others = rep.findings[1:6]
        if others:
            out.append("")
            out.append("Also: " + "; ".join(f"{code(f.name)} ({_md(f.title)})" for f in others))
    src = _tail_source(sources, primary)
    if src is not None:
        lines, more = log_tail(src, tail_lines)
        out.append("")
        what = f"last {len(lines)} lines" if more else f"all {len(lines)} lines"
        out.append(f"<details><summary>{_md(os.path.basename(src))}: {what}</summary>")
        out.append("")
        out.append(fence("\n".join(lines), "text"))
        out.append("")
        out.append("</details>")
    if len(sources) > 1:
        out.append("")
        out.append(f"Explained {len(sources)} log files: " + ", ".join(code(os.path.basename(s)) for s in sources[:16])
                   + (" ..." if len(sources) > 16 else ""))
    return "\n".join(out)


def _config_section(path: str) -> str:
    with open(path, encoding="utf-8", errors="replace") as fh:
        lines = fh.read().splitlines()
    more = len(lines) > MAX_CONFIG_LINES
    body = fence("\n".join(lines[:MAX_CONFIG_LINES]) + ("\n..." if more else ""), "json" if path.endswith(".json") else "")
    return body + (f"\n\n(first {MAX_CONFIG_LINES} of {len(lines)} lines)" if more else "")


def relevant_env(env: Mapping[str, str]) -> List[str]:
    """The names of the environment variables a DeepSpeed bug report should show."""
    return sorted(k for k in env if k in ENV_NAMES or k.startswith(ENV_PREFIXES))


def _env_section(env: Mapping[str, str]) -> str:
    from .redact import redact_env

    names = relevant_env(env)
    if not names:
        return "None of the variables dsdoctor looks at are set."
    shown = redact_env(env, names)
    return fence("\n".join(f"{k}={shown[k]}" for k in names), "sh")


# ---------------------------------------------------------------------------------------------------------
# the report


def _section(title: str, body: "Any") -> str:
    """``## title`` and the body (a callable); a failing section reports its error instead."""
    try:
        text = body()
    except Exception as exc:  # noqa: BLE001 - a report section never fails the whole report
        text = f"_This section could not be produced: {_md(type(exc).__name__ + ': ' + str(exc))}_"
    return f"### {title}\n\n{text}\n"


def _check(inp: Inputs) -> Report:
    from .checks import InputError, resolve_inputs, run_check

    try:
        interp, intent = resolve_inputs(inp.python, inp.ds_config)
    except InputError as exc:
        raise ReportInputError(str(exc)) from exc
    return run_check(inp.python, interp=interp, intent=intent)


def _lint(report: Report, inp: Inputs) -> None:
    from .lint.project import lint_project, merge
    from .paths import inside

    merge(report, lint_project(".", report.facts.get("deepspeed"), inp.python))
    if inp.ds_config and not inside(inp.ds_config, ["."]):
        from .lint import lint

        extra = lint([inp.ds_config], ds_version=report.facts.get("deepspeed"), python=inp.python).report
        seen = {(f.name, f.path, f.line) for f in report.findings}
        report.findings += [f for f in extra.findings if (f.name, f.path, f.line) not in seen]
        report.findings.sort(key=lambda f: -f.severity.rank)
        files = report.facts.setdefault("lint", {}).setdefault("files", [])
        if isinstance(files, list):
            files.append(inp.ds_config)


def build(inp: Inputs) -> str:
    """The Markdown report (not yet redacted; :func:`render` redacts). Raises :class:`ReportInputError`."""
    from .version import __version__

    if inp.log is not None and not os.path.exists(inp.log):
        raise ReportInputError(f"{inp.log}: no such file or directory")
    if inp.log is not None and not os.access(inp.log, os.R_OK):
        raise ReportInputError(f"{inp.log}: not readable")
    if inp.ds_config is not None and not os.path.isfile(inp.ds_config):
        raise ReportInputError(f"{inp.ds_config}: no such file")
    report = _check(inp)
    lint_note = ""
    if inp.lint:
        try:
            _lint(report, inp)
        except Exception as exc:  # noqa: BLE001 - lint trouble is shown, the rest of the report still helps
            lint_note = f"\n\n_Lint of the current directory failed: {_md(type(exc).__name__ + ': ' + str(exc))}_"
    facts = report.facts
    parts = [
        "## dsdoctor report\n",
        f"<!-- generated by dsdoctor {__version__} (`dsdoctor report`); secrets are redacted - review before posting -->\n",
        _section("Versions", lambda: _table(_versions(facts, inp.env))),
        _section("Findings" + (" (check and lint of the current directory)" if inp.lint else " (check)"),
                 lambda: _findings_section(report) + lint_note),
    ]
    if inp.ds_config is not None:
        cfg = inp.ds_config
        parts.append(_section(f"DeepSpeed config: {_md(os.path.basename(cfg))}", lambda: _config_section(cfg)))
    if inp.log is not None:
        log = inp.log
        parts.append(_section(f"Log: {_md(os.path.basename(log.rstrip('/')) or log)}", lambda: _log_section(log, inp.tail_lines)))
    parts.append(_section("Environment variables", lambda: _env_section(inp.env)))
    facts_json = {k: v for k, v in facts.items() if k != "lint"}
    parts.append(_section("Environment facts", lambda: "<details><summary><code>dsdoctor check --format json</code> facts"
                          "</summary>\n\n" + fence(json.dumps(facts_json, indent=2, default=str), "json") + "\n\n</details>"))
    return "\n".join(parts)


def render(inp: Inputs) -> str:
    """The redacted Markdown report (home-path user names too after ``redact.set_redact_paths(True)`` or with
    ``DSDOCTOR_REDACT_PATHS=1``)."""
    from .redact import redact

    return redact(build(inp))
