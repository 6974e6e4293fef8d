deepspeed train.py --do_train --output_dir out --gradient_checkpointing --deepspeed scripts/zero2.json
