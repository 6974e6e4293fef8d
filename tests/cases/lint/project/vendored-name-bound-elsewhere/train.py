"""The project's own SFT script: its quantization config comes from its own helper, not the trl copy's."""
import sys

from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

sys.path.insert(0, "lib")
from handbook import get_quantization_config  # noqa: E402
from trl_mod.trainer.utils import get_kbit_device_map  # noqa: E402

args, = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
model = AutoModelForCausalLM.from_pretrained("gpt2", quantization_config=get_quantization_config(args))
trainer = Trainer(model=model, args=args)
trainer.train()
print(get_kbit_device_map)
