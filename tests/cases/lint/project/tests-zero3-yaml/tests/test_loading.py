from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


def test_load_on_one_gpu():
    model = AutoModelForCausalLM.from_pretrained("gpt2", device_map="auto")
    Trainer(model=model, args=TrainingArguments("out", deepspeed="tests/zero3.json")).train()
