torchrun --nproc_per_node 8 finetune.py --gradient_checkpointing true --deepspeed ds_config_zero3.json --output_dir out
