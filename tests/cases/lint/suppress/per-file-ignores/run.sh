deepspeed --num_gpus 1 train.py --deepspeed_config configs/new.json
deepspeed --num_gpus 1 train.py --deepspeed_config configs/legacy/old.json
