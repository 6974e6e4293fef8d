deepspeed src/sft_gqa.py \
    --deepspeed ./scripts/zero3_offload.json \
    --output_dir out
