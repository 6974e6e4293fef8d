deepspeed train.py --deepspeed ds_z3.json --output_dir out
