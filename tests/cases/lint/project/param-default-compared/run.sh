deepspeed train.py --deepspeed ds/zero3.json --output_dir out
