deepspeed ./run-from-parent/train/train.py \
    --deepspeed ./run-from-parent/configs/zero3.json \
    --output_dir out
