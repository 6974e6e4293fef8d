"""The smoke runner: ``train.py`` (a tiny model, ZeRO-3 + offload_optimizer + offload_param) through the real
``deepspeed`` launcher, its progress events collected (:class:`SmokeRun`; the checks on them: :mod:`.checks`;
the command: :mod:`dsdoctor.commands.smoke`). No processes or temporary files survive it, even on Ctrl-C."""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Mapping, Optional

from ..probes.run import kill_tree

TRAIN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "train.py")
MARK = "DSDOCTOR-SMOKE "
PROGRESS_HINTS = ("Building extension module", "Loading extension module", "Time to load", "ninja: ", "Emitting ninja")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def extensions_dir(env: Mapping[str, str]) -> str:
    """A build cache kept between smoke runs (the first cpu_adam JIT build takes about a minute)."""
    if env.get("TORCH_EXTENSIONS_DIR"):
        return env["TORCH_EXTENSIONS_DIR"]
    cache = env.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "dsdoctor", "torch_extensions")


@dataclass
class SmokeRun:
    rc: Optional[int]
    timed_out: bool
    interrupted: bool
    seconds: float
    log: str
    events: List[Dict[str, Any]] = field(default_factory=list)
    config: Dict[str, Any] = field(default_factory=dict)
    nproc: int = 1


def run(python: str, cfg: Dict[str, Any], nproc: int, timeout: float, steps: int = 12,
        model_config: Optional[Dict[str, Any]] = None, env: Optional[Mapping[str, str]] = None,
        progress: Optional[Callable[[str], None]] = None, scale: bool = True, seq: Optional[int] = None) -> SmokeRun:
    """Launch ``python -m deepspeed.launcher.runner --num_gpus N train.py`` and collect its events.
    ``scale=False`` builds ``model_config`` at its real size (bench/estimate_accuracy.py); ``seq`` sets
    the sequence length (train.py's default 16 otherwise)."""
    base = dict(os.environ if env is None else env)
    tmp = tempfile.mkdtemp(prefix="dsdoctor-smoke-")
    t0 = time.monotonic()
    lines: List[str] = []
    events: List[Dict[str, Any]] = []
    timed_out = interrupted = False
    proc: "Optional[subprocess.Popen[bytes]]" = None
    try:
        cfg_path = os.path.join(tmp, "ds_config.json")
        with open(cfg_path, "w") as fh:
            json.dump(cfg, fh)
        script = os.path.join(tmp, "train.py")  # a copy: the target interpreter needs no dsdoctor
        shutil.copyfile(TRAIN, script)
        argv = [python, "-u", "-m", "deepspeed.launcher.runner", "--num_gpus", str(nproc),
                "--master_port", str(free_port()), script, "--ds-config", cfg_path, "--out", tmp, "--steps", str(steps)]
        if model_config is not None:
            mpath = os.path.join(tmp, "model_config.json")
            with open(mpath, "w") as fh:
                json.dump(model_config, fh)
            argv += ["--model-config", mpath]
        if not scale:
            argv.append("--no-scale")
        if seq is not None:
            argv += ["--seq", str(seq)]
        private_tmp = os.path.join(tmp, "tmp")  # torch leaves torchinductor_<user> etc. in TMPDIR
        os.mkdir(private_tmp)
        run_env = dict(base, PYTHONUNBUFFERED="1", TORCH_EXTENSIONS_DIR=extensions_dir(base), TMPDIR=private_tmp)
        run_env.setdefault("OMP_NUM_THREADS", "1")  # N ranks x all cores each was 15x slower per step
        run_env["PATH"] = os.path.dirname(python) + os.pathsep + run_env.get("PATH", "")  # the env's ninja
        try:
            proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                    env=run_env, cwd=tmp, start_new_session=True)
        except OSError as exc:
            lines.append(f"could not start {python}: {exc}")
            return SmokeRun(None, False, False, 0.0, lines[0], [], cfg, nproc)
        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        buf = ""
        while True:
            ready, _, _ = select.select([fd], [], [], 0.2)
            if ready:
                chunk = os.read(fd, 1 << 16)
                if not chunk:  # EOF: the launcher and every rank closed the pipe
                    proc.wait()
                    break
                buf += chunk.decode("utf-8", errors="replace")
                *done, buf = buf.split("\n")
                for ln in done:
                    _line(ln, lines, events, progress)
            if time.monotonic() - t0 > timeout:
                timed_out = True
                break
        if buf:
            _line(buf, lines, events, progress)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if proc is not None:
            if proc.poll() is None or timed_out or interrupted:
                _stop(proc)
            else:
                kill_tree(proc.pid)  # ranks that outlived the launcher
        shutil.rmtree(tmp, ignore_errors=True)
    rc = proc.returncode if proc is not None else None
    return SmokeRun(rc, timed_out, interrupted, time.monotonic() - t0, "\n".join(lines), events, cfg, nproc)


def _stop(proc: "subprocess.Popen[bytes]") -> None:
    """SIGINT the launcher (it forwards to ranks), then SIGKILL the whole tree."""
    try:
        os.killpg(proc.pid, signal.SIGINT)
        proc.wait(timeout=3)
    except (OSError, subprocess.TimeoutExpired):
        pass
    kill_tree(proc.pid)
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass


def _line(ln: str, lines: List[str], events: List[Dict[str, Any]],
          progress: Optional[Callable[[str], None]]) -> None:
    lines.append(ln)
    if MARK in ln:
        for part in ln.split(MARK)[1:]:
            try:
                ev, _end = json.JSONDecoder().raw_decode(part)
            except ValueError:
                continue
            if isinstance(ev, dict):
                events.append(ev)
                if progress:
                    progress(_describe(ev))
    elif progress and any(h in ln for h in PROGRESS_HINTS):
        progress(ln.strip()[:160])


def _describe(ev: Dict[str, Any]) -> str:
    r = ev.get("rank")
    kind = ev.get("event")
    if kind == "step":
        return f"rank {r}: step {ev['step']} loss {ev['loss']:.4f} ({ev['seconds']:.2f}s)"
    if kind == "initialized":
        return f"rank {r}: engine ready in {ev['seconds']:.1f}s, optimizer {ev['optimizer']}"
    return f"rank {r}: {kind}"
