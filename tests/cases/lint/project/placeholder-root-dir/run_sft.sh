# set base to where you cloned this repository
base=/
deepspeed $base/src/sft.py \
    --model_name_or_path facebook/opt-1.3b \
    --output_dir $base/out/ \
    --per_device_train_batch_size 4 \
    --deepspeed $base/ds/zero3.json
