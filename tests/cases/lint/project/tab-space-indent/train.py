from transformers import AutoModelForCausalLM, AutoTokenizer, HfArgumentParser, Trainer, TrainingArguments


def tokenizer_for(name, chatml):
    tok = AutoTokenizer.from_pretrained(name)
    if chatml:
	    tok.chat_template = "{{ messages }}"  # a tab then spaces: Python reads it, libcst does not
    return tok


args, = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
model = AutoModelForCausalLM.from_pretrained("gpt2")
Trainer(model=model, args=args, tokenizer=tokenizer_for("gpt2", True)).train()
