import argparse
import os

import torch
from peft import PeftModel
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


def load_model(ckpt, base):
    if os.path.exists(os.path.join(ckpt, "model.safetensors")):
        return AutoModelForCausalLM.from_pretrained(ckpt, torch_dtype=torch.bfloat16)
    # an adapter checkpoint: merge it into its base model once, then train the merged model
    model = AutoModelForCausalLM.from_pretrained(base, torch_dtype=torch.bfloat16, device_map={"": 0})
    model = PeftModel.from_pretrained(model, ckpt).merge_and_unload()
    model.save_pretrained(ckpt + "-merged")
    return model


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ckpt", required=True)
    parser.add_argument("--base", default="my-org/base-7b")
    parser.add_argument("--out", required=True)
    cli = parser.parse_args()
    args = TrainingArguments(cli.out, deepspeed="configs/zero3.json", bf16=True, save_strategy="no")
    model = load_model(cli.ckpt, cli.base)
    trainer = Trainer(model=model, args=args)
    trainer.train()
    model.save_pretrained(cli.out)


if __name__ == "__main__":
    main()
