"""``dsdoctor check --hostfile``: probe every node through ssh / pdsh / srun with the self-contained probe
(``probes.remote``), decide each node with the single-node checks, diff the fingerprints, group findings."""

from __future__ import annotations

import json
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Dict, List, Mapping, Optional, Tuple

from .. import names as N
from ..checks import evaluate
from ..knowledge import deepspeed as K
from ..lint.launch.launcher_files import env_file_vars
from ..model import Evidence, Report, Severity
from ..probes.environment import EnvFacts
from ..probes.remote import MARK, bundle, one_liner
from ..probes.wire import decode
from ..spec import Docs, FindingSpec, RuleExample
from . import transport as T
from .diff import NODE_ENV_DIFFERS, NODE_ENV_DRIFT, drift_findings, group_findings
from .hosts import HostfileError, read_hostfile, select

__all__ = ["HostfileError", "check_nodes", "forwarded_env", "nodes_of"]

_REMOTE_STDIN = "command -v python3 >/dev/null 2>&1 && exec python3 - || exec python -"


E = Severity.ERROR


def _command_example(situation: str, argv: Tuple[str, ...], files: Dict[str, str], shown: str) -> RuleExample:
    return RuleExample("command", situation, shown, data=json.dumps({"argv": list(argv), "files": files}, sort_keys=True))


NODE_UNREACHABLE = FindingSpec(
    N.NODE_UNREACHABLE,
    E,
    "A node of the hostfile could not be probed (ssh/pdsh/srun failed or hung)",
    Docs(
        what="A node of the hostfile could not be probed: ssh/pdsh/srun failed (unknown host, refused, no key), the "
         "probe hung past `--timeout`, or it returned no result. The other nodes are still checked.",
        why="The launcher cannot start ranks there either: the job would fail or hang at startup.",
        fix="Make non-interactive ssh work exactly as the launcher uses it (`ssh -o BatchMode=yes <host> true`, "
        "`ssh-copy-id <host>`), fix the host name in the hostfile, or leave the node out (`--exclude`).",
        examples=(
        _command_example("A hostfile naming a host that does not resolve, probed over ssh (the real ssh client):",
                ("check", "--hostfile", "hostfile", "--transport", "ssh", "--timeout", "20", "--format", "json"),
                {"hostfile": "worker-9.invalid slots=8\n"},
                "$ cat hostfile\nworker-9.invalid slots=8\n$ dsdoctor check --hostfile hostfile --transport ssh\n"),
    ),
        reads="nodes"),
    ("multinode", "launch"))


def nodes_of(hostfile: str, include: str = "", exclude: str = "") -> List[str]:
    """The hosts a ``deepspeed --hostfile F -i/-e ...`` launch would use (HostfileError otherwise)."""
    return list(select(read_hostfile(hostfile), include, exclude))


def env_file(env: Mapping[str, str], cwd: str = ".") -> Dict[str, str]:
    """The ``.deepspeed_env`` variables (``~`` then ``.``; the later wins), as runner.py reads them."""
    name = env.get(K.DEEPSPEED_ENV_FILE_VAR, K.DEEPSPEED_ENV_FILE)
    got: Dict[str, str] = {}
    for d in (os.path.expanduser("~"), cwd):
        p = os.path.join(d, name)
        if os.path.isfile(p):
            with open(p, encoding="utf-8", errors="replace") as fh:
                got.update(env_file_vars(fh.read()))
    return got


def forwarded_env(env: Mapping[str, str], cwd: str = ".") -> Dict[str, str]:
    """What a multi-node launch exports to every node: prefixed variables (current DeepSpeed, CUDA) plus
    ``.deepspeed_env`` -- the remote probe applies them so it sees what the ranks will see."""
    from packaging.version import Version

    prefixes = K.export_env_prefixes(Version("999"), "cuda")
    out = {k: v for k, v in env.items() if k.startswith(prefixes)}
    out.update(env_file(env, cwd))
    return out


def fingerprint(facts: EnvFacts, report: Report) -> Dict[str, Any]:
    fp = dict(report.facts)
    ds = facts.packages.deepspeed
    fp["deepspeed_ops"] = sorted(k for k, v in (ds.installed_ops if ds else {}).items() if v) or None
    fp["gpus"] = facts.gpus.count
    fp["gpu_names"] = list(facts.gpus.names)
    fp["mem_total"] = facts.limits.mem_total
    fp["cpu_count"] = facts.limits.cpu_count
    return fp


def _parse(out: T.HostOutput) -> Tuple[Optional[Dict[str, Any]], str]:
    for line in out.stdout.splitlines():
        if line.startswith(MARK + " "):
            try:
                return json.loads(line[len(MARK) + 1:]), ""
            except ValueError as exc:
                return None, f"unreadable probe output: {exc}"
    if out.returncode is None or "command timeout" in out.stderr:  # ours, or pdsh -u's
        return None, f"no answer within {out.seconds:.0f}s (timed out; the transport was killed)"
    tail = (out.stderr.strip() or out.stdout.strip()).splitlines()[-3:]
    return None, f"exit {out.returncode}: " + (" | ".join(tail) or "no output")


def _run(hosts: List[str], via: str, script: str, timeout: float, connect_timeout: int) -> Dict[str, T.HostOutput]:
    if via == "ssh":
        return T.run_ssh(hosts, _REMOTE_STDIN, script, timeout, connect_timeout)
    if via == "pdsh":
        return T.run_pdsh(hosts, one_liner(script), timeout, connect_timeout)
    return T.run_srun(hosts, one_liner(script), timeout)


def check_nodes(hosts: List[str], python: Optional[str] = None, transport: str = "auto", timeout: float = 120.0,
                connect_timeout: int = 10, env: Optional[Mapping[str, str]] = None, nvme: bool = False) -> Report:
    """Probe ``hosts``; one Report with the diff, the grouped per-node findings and facts per node."""
    environ = dict(os.environ if env is None else env)
    via = T.pick(transport, environ)
    script = bundle(python, forwarded_env(environ))
    outs = _run(hosts, via, script, timeout, connect_timeout)
    per_node: Dict[str, Report] = {}
    prints: Dict[str, Dict[str, Any]] = {}
    report = Report()
    down: Dict[str, str] = {}
    decoded: Dict[str, EnvFacts] = {}
    for h in hosts:
        got, why = _parse(outs[h])
        if got is None:
            down[h] = why
        else:
            decoded[h] = decode(EnvFacts, got["facts"])
    with ThreadPoolExecutor(max_workers=4) as pool:
        reps = dict(zip(decoded, pool.map(lambda f: evaluate(f, nvme=nvme), decoded.values())))
    for h, rep in reps.items():
        per_node[h] = rep
        prints[h] = fingerprint(decoded[h], rep)
    for h, why in down.items():
        report.findings.append(NODE_UNREACHABLE.finding(
            Severity.ERROR, f"{h}: not checked ({why})", NODE_UNREACHABLE.why + " The other nodes were still checked.",
            (Evidence(what=why, where=f"{via} {h}"),), section="Multi-node"))
    report.findings += drift_findings(prints) + group_findings(per_node)
    report.findings.sort(key=lambda f: -f.severity.rank)
    report.facts = {"transport": via, "nodes": prints, "unreachable": down,
                    "seconds": {h: round(o.seconds, 2) for h, o in outs.items()}}
    return report


SPECS: Tuple[FindingSpec, ...] = (NODE_UNREACHABLE, NODE_ENV_DRIFT, NODE_ENV_DIFFERS)
