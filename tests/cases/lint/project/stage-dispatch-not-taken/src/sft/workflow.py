from transformers import AutoModelForCausalLM, Trainer


def run_sft(stage_args, training_args):
    model = AutoModelForCausalLM.from_pretrained(stage_args.model_name_or_path, device_map="auto")
    trainer = Trainer(model=model, args=training_args)
    trainer.train()
    trainer.save_model()
