"""Compare dsdoctor's cpu_adam predictions with the real builds of scripts/device-check.sh.

    python scripts/device_compare.py RESULTS_DIR

RESULTS_DIR holds check-<ds>-<toolkit>.json, verify-<ds>-<toolkit>.json, smoke-<ds>-gpu.json, facts.txt and
rc.txt. Prints one line per case (predicted, got, agree) and the smoke run's findings and passed checks.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Dict, List, Tuple


def _load(path: Path) -> Dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8", errors="replace"))
    except (OSError, ValueError) as e:
        return {"error": f"{path.name}: {e}"}
    return data if isinstance(data, dict) else {"error": f"{path.name}: not an object"}


def _names(report: Dict[str, Any]) -> List[str]:
    return [str(f.get("name")) for f in report.get("findings", []) if isinstance(f, dict)]


def _case(d: Path, ds: str, tk: str) -> Tuple[str, bool]:
    check, verify = _load(d / f"check-{ds}-{tk}.json"), _load(d / f"verify-{ds}-{tk}.json")
    pred = check.get("predictions", {}).get("cpu_adam", {}) if "error" not in check else {}
    loads = bool(verify.get("passed")) and not verify.get("findings")
    got = "loads" if loads else ("fails: " + ",".join(_names(verify)) if "error" not in verify else verify["error"])
    want = "loads" if pred.get("loads") else f"fails: {pred.get('cause')}"
    agree = bool(pred) and "error" not in verify and (
        bool(pred.get("loads")) == loads and (loads or pred.get("cause") in _names(verify)))
    return f"{ds:7} {tk:16} predicted {want:32} got {got:40} {'AGREE' if agree else 'DIFFER'}", agree


def main(argv: List[str]) -> int:
    d = Path(argv[1])
    print((d / "facts.txt").read_text(errors="replace") if (d / "facts.txt").exists() else "no facts.txt")
    print("== cpu_adam: check's prediction vs verify's real build")
    cases = sorted(p.name[len("check-"):-len(".json")].split("-", 1) for p in d.glob("check-*.json"))
    lines = [_case(d, ds, tk) for ds, tk in cases]
    for line, _ in lines:
        print(line)
    print("== check's errors and warnings per case (info left out)")
    for ds, tk in cases:
        report = _load(d / f"check-{ds}-{tk}.json")
        ew = [f"{f.get('severity')}:{f.get('name')}" for f in report.get("findings", [])
              if isinstance(f, dict) and f.get("severity") in ("error", "warning")]
        print(f"{ds:7} {tk:16} {', '.join(ew) or 'none'}")
    smoke = _load(d / "smoke-0.19.8-gpu.json")
    print("== smoke on the GPU (0.19.8, matching toolkit)")
    print("findings:", _names(smoke) or "none", smoke.get("error", ""))
    for p in smoke.get("passed", []):
        print("passed:", p.get("title"), "|", p.get("detail", ""))
    ranks = smoke.get("facts", {}).get("ranks", [])
    print("ranks:", json.dumps(ranks))
    rc = (d / "rc.txt").read_text() if (d / "rc.txt").exists() else ""
    print("== exit codes and times\n" + rc)
    ok = all(a for _, a in lines) and not _names(smoke) and bool(smoke.get("passed"))
    print("RESULT:", "all agree, smoke passed" if ok else "see above")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
