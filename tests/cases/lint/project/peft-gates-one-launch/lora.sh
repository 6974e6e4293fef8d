accelerate launch --num_processes 4 --use_deepspeed --deepspeed_config_file z3.json train.py --use_lora --gradient_checkpointing
