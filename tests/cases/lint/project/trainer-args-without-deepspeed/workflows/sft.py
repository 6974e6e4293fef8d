from transformers import AutoModelForCausalLM, Trainer


def run(training_args):
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    Trainer(model=model, args=training_args).train()
