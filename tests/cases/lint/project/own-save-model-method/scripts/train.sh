deepspeed --num_gpus 8 train.py --ds_config ds/zero3.json
