"""Fingerprints of several nodes -> findings: what differs (``node-env-drift`` when the difference breaks a
run, ``node-env-differs`` otherwise) and each node's own findings grouped, so one problem on 7 of 8 nodes
is one line. Pure: no I/O."""

from __future__ import annotations

import json
from typing import Any, Dict, List, Mapping, Sequence, Tuple

from .. import names as N
from ..model import Evidence, Finding, Report, Severity
from ..spec import Docs, FindingSpec, RuleExample

# differences that break a job: ranks import different code, build ops for another toolkit, or cannot
# agree on the collective backend
BREAKING = ("python_version", "torch", "torch_cuda", "torch_hip", "deepspeed", "transformers", "accelerate", "peft",
            "nvcc", "accelerator", "deepspeed_ops")
# worth knowing but not fatal by themselves (a missing variable also shows up as a per-node finding)
NOTED = ("python", "cuda_home", "gpus", "gpu_names", "ninja_executable", "compiler", "memlock_bytes", "shm_bytes",
         "mem_total", "env")


E, INFO = Severity.ERROR, Severity.INFO


def _nodes_example(situation: str, prints: Dict[str, Dict[str, Any]]) -> RuleExample:
    text = "\n".join(f"{h}: " + ", ".join(f"{k}={v}" for k, v in fp.items()) for h, fp in prints.items()) + "\n"
    return RuleExample("nodes", situation, text, data=json.dumps(prints, sort_keys=True))


NODE_ENV_DRIFT = FindingSpec(
    N.NODE_ENV_DRIFT,
    E,
    "Nodes differ in something every rank must share (torch, CUDA, DeepSpeed, ...)",
    Docs(
        what="`dsdoctor check --hostfile` (and `launch`'s preflight): the nodes differ in something every rank must "
         "share: Python version, torch / its CUDA or ROCm build, DeepSpeed, Transformers, accelerate, peft, the "
         "nvcc release, the accelerator, DeepSpeed's prebuilt ops. The finding lists each value with the nodes "
         "that have it, most common first.",
        why="Every rank must import the same versions: a different torch, CUDA build, DeepSpeed or Transformers on "
        "one node fails the whole job minutes in (mismatched collectives, ops built for another toolkit, "
        "different module code).",
        fix="Make the odd nodes match the others: install the listed versions there (or point them at the same "
        "shared environment), then re-run `dsdoctor check --hostfile`.",
        examples=(
        _nodes_example("Three nodes, one with another torch:",
              {"worker-1": {"torch": "2.4.0+cu121"}, "worker-2": {"torch": "2.4.0+cu121"},
               "worker-3": {"torch": "2.5.1+cu121"}}),
    ),
        reads="nodes"),
    ("multinode", "launch"))


NODE_ENV_DIFFERS = FindingSpec(
    N.NODE_ENV_DIFFERS,
    INFO,
    "Nodes differ in something not fatal by itself (paths, limits, variables)",
    Docs(
        what="The nodes differ in something not fatal by itself: the interpreter path, CUDA_HOME, GPU count or "
         "names, the ninja executable, the compiler, memlock / shm limits, total memory, forwarded environment "
         "variables.",
        why="Not fatal by itself; listed so the nodes can be made identical (a missing variable also shows up as a "
        "per-node finding).",
        fix="Make the nodes identical where it matters to you; forward variables every node needs with "
        "`.deepspeed_env` (`dsdoctor launch` offers the lines).",
        examples=(
        _nodes_example("Two nodes with their CUDA toolkit at different paths:",
              {"worker-1": {"cuda_home": "/usr/local/cuda-12.1"}, "worker-2": {"cuda_home": "/opt/cuda"}}),
    ),
        reads="nodes"),
    ("multinode", "launch"))


def _show(v: Any) -> str:
    return "(none)" if v is None else v if isinstance(v, str) else json.dumps(v, sort_keys=True)


def _nodes(hosts: Sequence[str], total: int) -> str:
    shown = ", ".join(hosts[:6]) + (f", +{len(hosts) - 6} more" if len(hosts) > 6 else "")
    return f"{len(hosts)} of {total} nodes ({shown})"


def differences(prints: Mapping[str, Mapping[str, Any]]) -> Dict[str, List[Tuple[str, List[str]]]]:
    """key -> [(value shown, hosts)] for the keys whose values differ, most common value first."""
    out: Dict[str, List[Tuple[str, List[str]]]] = {}
    for key in BREAKING + NOTED:
        groups: Dict[str, List[str]] = {}
        for host, fp in prints.items():
            groups.setdefault(_show(fp.get(key)), []).append(host)
        if len(groups) > 1:
            out[key] = sorted(groups.items(), key=lambda kv: -len(kv[1]))
    return out


def drift_findings(prints: Mapping[str, Mapping[str, Any]]) -> List[Finding]:
    total = len(prints)
    found = []
    for key, groups in differences(prints).items():
        breaking = key in BREAKING
        summary = "; ".join(f"{v} on {_nodes(h, total)}" for v, h in groups)
        spec = NODE_ENV_DRIFT if breaking else NODE_ENV_DIFFERS
        found.append(spec.finding(spec.severity, f"{key} differs between nodes: {summary}",
                                  evidence=tuple(Evidence(what=f"{key} = {v}", where=", ".join(h)) for v, h in groups),
                                  section="Multi-node"))
    return found


def group_findings(per_node: Mapping[str, Report]) -> List[Finding]:
    """One finding per (name, title) with the nodes it is on; a name whose titles differ per node keeps one
    line per distinct title."""
    total = len(per_node)
    seen: Dict[Tuple[str, str], Tuple[Finding, List[str]]] = {}
    for host, rep in per_node.items():
        for f in rep.findings:
            key = (f.name, f.title)
            if key not in seen:
                seen[key] = (f, [])
            seen[key][1].append(host)
    out = []
    for f, hosts in seen.values():
        where = "all %d nodes" % total if len(hosts) == total else _nodes(hosts, total)
        out.append(Finding(name=f.name, severity=f.severity, title=f"[{where}] {f.title}",
                           explanation=f.explanation, fixes=f.fixes, section=f.section,
                           evidence=(Evidence(what="nodes", where=", ".join(hosts)),) + f.evidence))
    return out
