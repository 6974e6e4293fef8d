torchrun --nproc_per_node 8 train_rl.py \
    --model_name_or_path Qwen/Qwen2.5-VL-7B-Instruct \
    --output_dir out \
    --deepspeed configs/zero3.json
