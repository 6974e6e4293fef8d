"""SFT with TRL: SFTConfig turns bf16 on when the launch does not pass it (TRL 0.19 and later)."""
from datasets import load_dataset
from trl import ModelConfig, SFTConfig, SFTTrainer, TrlParser

parser = TrlParser((SFTConfig, ModelConfig))
training_args, model_args = parser.parse_args_and_config()
trainer = SFTTrainer(model=model_args.model_name_or_path, args=training_args,
                     train_dataset=load_dataset("trl-lib/Capybara", split="train"))
trainer.train()
trainer.save_model()
