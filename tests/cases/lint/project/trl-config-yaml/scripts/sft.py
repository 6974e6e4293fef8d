import sys

sys.path.insert(0, "src")
from handbook import get_model
from trl import ModelConfig, SFTConfig, SFTTrainer, TrlParser

parser = TrlParser((ModelConfig, SFTConfig))
model_args, training_args = parser.parse_args_and_config()
model = get_model(model_args)
SFTTrainer(model=model, args=training_args).train()
