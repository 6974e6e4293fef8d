deepspeed train.py --deepspeed ds_config.json
