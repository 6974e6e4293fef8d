from transformers import AutoModelForCausalLM

from .trainer import PPOTrainer


def run_ppo(stage_args, training_args):
    model = AutoModelForCausalLM.from_pretrained(stage_args.model_name_or_path)
    trainer = PPOTrainer(model, training_args)
    trainer.train()
    trainer.save_model("out")
