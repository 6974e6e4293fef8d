#!/bin/bash
DS_CONFIG_PATH="ds_config_zero3.json"
Q_LORA=False

while [[ "$1" != "" ]]; do
    case $1 in
        --deepspeed )
            shift
            DS_CONFIG_PATH=$1
            ;;
        --q_lora )
            shift
            Q_LORA=$1
            ;;
        * )
            echo "Unknown argument ${1}"
            exit 1
            ;;
    esac
    shift
done

torchrun --nproc_per_node 8 finetune.py \
    --model_name_or_path gpt2 \
    --output_dir out \
    --q_lora ${Q_LORA} \
    --deepspeed ${DS_CONFIG_PATH}
