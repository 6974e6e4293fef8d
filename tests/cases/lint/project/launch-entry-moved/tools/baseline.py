from transformers import AutoModelForMaskedLM, Trainer, TrainingArguments


def main() -> None:
    args = TrainingArguments("out", save_steps=1000, max_steps=10_000)
    model = AutoModelForMaskedLM.from_pretrained("facebook/esm2_t6_8M_UR50D")
    Trainer(model=model, args=args).train()


if __name__ == "__main__":
    main()
