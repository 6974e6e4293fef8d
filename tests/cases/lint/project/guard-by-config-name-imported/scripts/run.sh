deepspeed train_mem.py \
    --deepspeed ./scripts/zero3.json \
    --output_dir out
