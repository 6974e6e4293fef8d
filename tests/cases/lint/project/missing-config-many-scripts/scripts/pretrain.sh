deepspeed train.py \
    --deepspeed ./scripts/zero3.json \
    --output_dir out
