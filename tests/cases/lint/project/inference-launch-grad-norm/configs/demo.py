# the experiment config the demo reads to rebuild the model (its training_args are those of the run that made it)
model_args = dict(pretrained_model_name_or_path="gpt2")
training_args = dict(output_dir="out", deepspeed="./scripts/zero2.json", max_grad_norm=1.0)
