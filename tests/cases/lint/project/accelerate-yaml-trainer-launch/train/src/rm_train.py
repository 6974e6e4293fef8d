from transformers import AutoModelForSequenceClassification, AutoTokenizer, HfArgumentParser
from trl import RewardConfig, RewardTrainer

args, = HfArgumentParser((RewardConfig,)).parse_args_into_dataclasses()
model = AutoModelForSequenceClassification.from_pretrained("gpt2", num_labels=1)
trainer = RewardTrainer(model=model, args=args, processing_class=AutoTokenizer.from_pretrained("gpt2"))
trainer.train()
trainer.save_model()
