deepspeed train.py --lora_ckpt out --output_dir out --deepspeed scripts/zero2.json
