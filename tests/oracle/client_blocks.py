"""Runs the real deepspeed.initialize on one CPU rank with a config whose optimizer / scheduler blocks hold "auto",
passing a client optimizer and lr_scheduler or not (argv[2]: both | optimizer | none); prints one JSON line."""

import json
import sys

import deepspeed
import torch

cfg = json.load(open(sys.argv[1]))
mode = sys.argv[2]
net = torch.nn.Linear(4, 4)
opt = torch.optim.AdamW(net.parameters(), lr=1e-3) if mode != "none" else None
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda step: 1.0) if mode == "both" and opt is not None else None
try:
    deepspeed.initialize(model=net, model_parameters=net.parameters(), config=cfg, optimizer=opt, lr_scheduler=sched)
    print(json.dumps({"ok": True}))
except Exception as exc:  # noqa: BLE001 - the oracle reports what DeepSpeed raised
    print(json.dumps({"ok": False, "error": f"{type(exc).__name__}: {exc}"[:300]}))
