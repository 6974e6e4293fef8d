deepspeed finetune.py \
    --deepspeed configs/zero2.json \
    --output_dir out
