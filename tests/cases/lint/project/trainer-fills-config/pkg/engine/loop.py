import json

import deepspeed
import torch


class Loop:
    def __init__(self, opts):
        self.opts = opts
        self.net = torch.nn.Linear(8, 8)
        cfg = json.load(open(opts.deepspeed_config))
        self.opt = self.pick_optimizer(cfg)
        self.sched = None if self.opt is None else torch.optim.lr_scheduler.StepLR(self.opt, 10)
        self.engine = self.wrap(cfg)

    def pick_optimizer(self, cfg):
        if "optimizer" in cfg:
            block = cfg["optimizer"]
            block["params"]["lr"] = 3e-4
            return None
        return torch.optim.SGD(self.net.parameters(), lr=0.1)

    def wrap(self, cfg):
        if cfg["train_micro_batch_size_per_gpu"] == "auto":
            cfg["train_micro_batch_size_per_gpu"] = 4
        engine, *_ = deepspeed.initialize(model=self.net, config=cfg, optimizer=self.opt, lr_scheduler=self.sched)
        return engine

    def fit(self):
        for _ in range(3):
            loss = self.engine(torch.ones(4, 8)).sum()
            self.engine.backward(loss)
            self.engine.step()
