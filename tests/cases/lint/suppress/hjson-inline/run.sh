deepspeed --num_gpus 8 train.py --deepspeed_config ds.hjson
