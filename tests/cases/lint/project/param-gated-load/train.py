"""Training under ZeRO-3: the policy is loaded for training, the reference model sharded by device_map."""
from lib.loading import load_merged, load_model, load_reference
from transformers import HfArgumentParser, Trainer, TrainingArguments

(training_args,) = HfArgumentParser((TrainingArguments,)).parse_args_into_dataclasses()
model = load_model("gpt2", for_inference=False)
reference = load_reference("gpt2", True)
value_head = load_merged("gpt2", None)
trainer = Trainer(model=model, args=training_args)
trainer.train()
