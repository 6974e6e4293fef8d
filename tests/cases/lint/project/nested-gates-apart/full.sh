deepspeed --num_gpus 4 train.py --deepspeed z3.json --output_dir out --int8
