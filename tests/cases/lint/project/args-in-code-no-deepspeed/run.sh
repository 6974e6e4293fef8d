#!/bin/bash
# the project's training runs through a framework's own module, with the YAML beside this script
accelerate launch -m finetune_framework.cli.train sft.yaml
