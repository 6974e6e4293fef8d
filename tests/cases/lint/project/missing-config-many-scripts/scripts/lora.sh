deepspeed train.py \
    --deepspeed ./scripts/zero2.json \
    --output_dir out
