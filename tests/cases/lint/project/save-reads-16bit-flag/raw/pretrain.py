import os

import deepspeed
import torch


def main():
    model = torch.nn.Linear(8, 8)
    engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config="ds_zero3.json")
    print("16-bit gathering:", os.environ.get("ACCELERATE_DEEPSPEED_ZERO3_SAVE_16BIT_MODEL"))  # only logged
    engine.save_checkpoint("ckpt")  # for resuming, whatever the flag says
    engine.save_16bit_model("out")  # without the flag this writes no weights


if __name__ == "__main__":
    main()
