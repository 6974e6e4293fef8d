"""A typical ZeRO-3 + CPU offload fine-tuning script with the classic loading mistake.

`device_map="auto"` / `low_cpu_mem_usage=True` under ZeRO-3: Transformers 4.20-4.50 raise
"DeepSpeed Zero-3 is not compatible with `low_cpu_mem_usage=True` or with passing a `device_map`."
(4.51+: only device_map raises). `dsdoctor lint` flags it (zero3-device-map-conflict,
zero3-low-cpu-mem-usage-conflict). Builds a tiny model from a config: no hub download.
"""

import argparse

from transformers import AutoModelForCausalLM, LlamaConfig, Trainer, TrainingArguments


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deepspeed", default="ds_config_zero3.json")
    parser.add_argument("--model_dir", default="tiny-llama")
    args = parser.parse_args()

    # TrainingArguments with a ZeRO-3 config registers ZeRO-3 before the model is loaded (correct).
    training_args = TrainingArguments(output_dir="out", deepspeed=args.deepspeed, per_device_train_batch_size=2,
                                      gradient_accumulation_steps=1, max_steps=3, bf16=True)

    LlamaConfig(hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4,
                num_key_value_heads=4, vocab_size=1000).save_pretrained(args.model_dir)
    # The mistake: both arguments conflict with ZeRO-3 (device_map="auto" wants accelerate dispatch).
    model = AutoModelForCausalLM.from_pretrained(args.model_dir, device_map="auto", low_cpu_mem_usage=True)

    trainer = Trainer(model=model, args=training_args)
    trainer.train()


if __name__ == "__main__":
    main()
