"""Fine-tune a causal LM with the HF Trainer (a fixture of dsdoctor's own).

Run it from the repository root:

    CUDA_VISIBLE_DEVICES=0,1,2,3 uv run accelerate launch \
        --config_file configs/zero3.yaml train.py
"""
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


def main() -> None:
    args = TrainingArguments(output_dir="out", bf16=True)
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    trainer = Trainer(model=model, args=args)
    trainer.train()
    trainer.save_model("out")


if __name__ == "__main__":
    main()
