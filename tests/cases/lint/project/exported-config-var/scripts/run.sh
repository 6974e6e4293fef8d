#!/bin/bash
# the settings of every stage, exported to the stage scripts
export base_dir=${base_dir:-"./"}
export finetune_deepspeed=${finetune_deepspeed:-"./scripts/zero3.json"}
export finetune_lr=${finetune_lr:-"2e-5"}

bash scripts/finetune.sh
