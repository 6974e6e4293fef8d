deepspeed finetune.py \
    --deepspeed upstream/configs/zero3.json \
    --output_dir out
