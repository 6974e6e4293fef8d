training_args = dict(
    output_dir="out",
    per_device_train_batch_size=8,
    learning_rate=2e-5,
    bf16=True,
    deepspeed="config/zero2.json",
)
