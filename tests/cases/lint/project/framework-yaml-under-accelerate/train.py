"""Hands the training YAML to a fine-tuning framework, which builds the HF Trainer with its `deepspeed` value."""
import sys

from finetune_framework.cli import load_cfg
from finetune_framework.train import train

train(cfg=load_cfg(sys.argv[1]))
