import deepspeed
from peft import LoraConfig, get_peft_model
from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainerCallback, TrainingArguments


def gathered_state(model):
    params = [p for _, p in model.named_parameters()]
    with deepspeed.zero.GatheredParameters(params):
        return {n: p.detach().cpu().clone() for n, p in model.named_parameters() if "lora_" in n}


class SaveAdapter(TrainerCallback):
    def on_train_end(self, args, state, control, **kwargs):
        model = kwargs["model"]
        model.save_pretrained(args.output_dir)  # replaced by the gathered save below, into the same directory
        model.save_pretrained(args.output_dir, state_dict=gathered_state(model))


class SaveOnce(TrainerCallback):
    def on_train_end(self, args, state, control, **kwargs):
        kwargs["model"].save_pretrained(args.output_dir + "/once")  # nothing replaces it: empty partitions


training_args, = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
model = get_peft_model(AutoModelForCausalLM.from_pretrained("gpt2"), LoraConfig(r=8))
Trainer(model=model, args=training_args, callbacks=[SaveAdapter(), SaveOnce()]).train()
