import argparse

import deepspeed
import torch
from deepspeed.utils.zero_to_fp32 import convert_zero_checkpoint_to_fp32_state_dict
from transformers import AutoModelForCausalLM, AutoTokenizer


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--deepspeed_config")
    p.add_argument("--out")
    a = p.parse_args()
    tok = AutoTokenizer.from_pretrained("gpt2")
    with deepspeed.zero.Init(config_dict_or_path=a.deepspeed_config):
        model = AutoModelForCausalLM.from_pretrained("gpt2")
    engine, *_ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config=a.deepspeed_config)
    batch = tok("a short line", return_tensors="pt")
    loss = engine(**batch, labels=batch["input_ids"]).loss
    engine.backward(loss)
    engine.step()
    engine.save_checkpoint(a.out)
    torch.distributed.barrier()
    if torch.distributed.get_rank() == 0:
        convert_zero_checkpoint_to_fp32_state_dict(a.out, a.out + "/weights")
        tok.save_pretrained(a.out + "/weights")


if __name__ == "__main__":
    main()
