import sys

from mmengine.config import Config

from builders import build_trainer

cfg = Config.fromfile(sys.argv[1])
build_trainer(cfg.training_args).train()
