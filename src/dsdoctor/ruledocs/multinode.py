"""Multi-node check and launch (``dsdoctor check --hostfile``, ``dsdoctor launch``; DS70x). Drift examples are
per-node fingerprints judged by ``multinode.diff.drift_findings`` (the same function ``check --hostfile`` uses on
what its probes return; real multi-node runs across network namespaces are in ``tests/test_multinode_netns.py``);
the others are real dsdoctor command lines the test runs."""

from __future__ import annotations

import json
from typing import Any, Dict, Tuple

from ..model import Severity
from .spec import Entry, RuleExample

E, INFO = Severity.ERROR, Severity.INFO


def nodes(situation: str, prints: Dict[str, Dict[str, Any]]) -> RuleExample:
    text = "\n".join(f"{h}: " + ", ".join(f"{k}={v}" for k, v in fp.items()) for h, fp in prints.items()) + "\n"
    return RuleExample("nodes", situation, text, data=json.dumps(prints, sort_keys=True))


def command(situation: str, argv: Tuple[str, ...], files: Dict[str, str], shown: str) -> RuleExample:
    return RuleExample("command", situation, shown, data=json.dumps({"argv": list(argv), "files": files}, sort_keys=True))


ENTRIES: Tuple[Entry, ...] = (
    Entry(
        "node-env-drift", E, ("multinode", "launch"), "nodes",
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
            nodes("Three nodes, one with another torch:",
                  {"worker-1": {"torch": "2.4.0+cu121"}, "worker-2": {"torch": "2.4.0+cu121"},
                   "worker-3": {"torch": "2.5.1+cu121"}}),
        ),
    ),
    Entry(
        "node-unreachable", E, ("multinode", "launch"), "nodes",
        what="A node of the hostfile could not be probed: ssh/pdsh/srun failed (unknown host, refused, no key), the "
             "probe hung past `--timeout`, or it returned no result. The other nodes are still checked.",
        why="The launcher cannot start ranks there either: the job would fail or hang at startup.",
        fix="Make non-interactive ssh work exactly as the launcher uses it (`ssh -o BatchMode=yes <host> true`, "
            "`ssh-copy-id <host>`), fix the host name in the hostfile, or leave the node out (`--exclude`).",
        examples=(
            command("A hostfile naming a host that does not resolve, probed over ssh (the real ssh client):",
                    ("check", "--hostfile", "hostfile", "--transport", "ssh", "--timeout", "20", "--format", "json"),
                    {"hostfile": "worker-9.invalid slots=8\n"},
                    "$ cat hostfile\nworker-9.invalid slots=8\n$ dsdoctor check --hostfile hostfile --transport ssh\n"),
        ),
    ),
    Entry(
        "node-env-differs", INFO, ("multinode", "launch"), "nodes",
        what="The nodes differ in something not fatal by itself: the interpreter path, CUDA_HOME, GPU count or "
             "names, the ninja executable, the compiler, memlock / shm limits, total memory, forwarded environment "
             "variables.",
        why="Not fatal by itself; listed so the nodes can be made identical (a missing variable also shows up as a "
            "per-node finding).",
        fix="Make the nodes identical where it matters to you; forward variables every node needs with "
            "`.deepspeed_env` (`dsdoctor launch` offers the lines).",
        examples=(
            nodes("Two nodes with their CUDA toolkit at different paths:",
                  {"worker-1": {"cuda_home": "/usr/local/cuda-12.1"}, "worker-2": {"cuda_home": "/opt/cuda"}}),
        ),
    ),
    Entry(
        "launch-failed", E, ("launch",), "run",
        what="`dsdoctor launch`: the launcher (`deepspeed`, `torchrun`, `accelerate launch`, run unchanged after "
             "`--`) exited non-zero. The finding heads the explanation of its log (`dsdoctor explain` on what it "
             "printed); dsdoctor exits with the launcher's code. In `explain` it is a symptom line (`exits with "
             "return code`, `ChildFailedError`), never the cause.",
        why="The run failed; the cause is in the findings that follow it.",
        fix="Apply the fixes of the cause explained below it; when none is recognised, follow `unknown`'s advice "
            "(`dsdoctor check -v`, the full log).",
        examples=(
            command("A launched command that exits with code 7 (no preflight):",
                    ("launch", "--no-preflight", "--", "{python}", "-c", "import sys; print('step 1'); sys.exit(7)"),
                    {}, "$ dsdoctor launch --no-preflight -- python -c \"import sys; print('step 1'); sys.exit(7)\"\n"),
        ),
    ),
)
