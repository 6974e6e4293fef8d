from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


def main():
    args = TrainingArguments(
        output_dir="out",
        bf16=True,
        # deepspeed='config/ds_config.json',
        save_strategy="no",
    )
    model = AutoModelForCausalLM.from_pretrained("gpt2", device_map="auto")
    Trainer(model=model, args=args).train()


if __name__ == "__main__":
    main()
