deepspeed train.py --deepspeed_config ds.json
