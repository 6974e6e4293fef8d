deepspeed --num_gpus 1 train.py --deepspeed_config ds.json
