from datasets import load_dataset
from trl import GRPOConfig, GRPOTrainer

# every setting is written here: the script reads nothing from its command line
config = GRPOConfig(output_dir="out", per_device_train_batch_size=4, learning_rate=1e-6, bf16=True)
trainer = GRPOTrainer(model="Qwen/Qwen2.5-0.5B", reward_funcs=[], args=config,
                      train_dataset=load_dataset("trl-lib/tldr", split="train"))
trainer.train()
