deepspeed llava/train/train_mem.py \
    --deepspeed ./scripts/zero2.json \
    --output_dir out
