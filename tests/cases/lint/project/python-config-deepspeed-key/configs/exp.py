# an mmengine-style experiment config the training script reads (never run by dsdoctor)
model_args = dict(pretrained_model_name_or_path="gpt2")
training_args = dict(
    output_dir="out",
    deepspeed="./scripts/zero3.json",
    bf16=True,
)
