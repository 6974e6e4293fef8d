import sys

from builders import build_trainer
from mmengine.config import Config

cfg = Config.fromfile(sys.argv[1])
build_trainer(cfg.training_args).train()
