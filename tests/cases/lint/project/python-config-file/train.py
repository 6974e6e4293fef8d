import sys

from accelerate import Accelerator
from configs.loader import load_config
from transformers import AutoModel, AutoModelForCausalLM


def main(config):
    accelerator = Accelerator()
    model = AutoModelForCausalLM.from_pretrained(config.model.repo_id)
    if config.model.load_from_origin:
        lm = AutoModelForCausalLM.from_pretrained(config.model.origin_llm, device_map="cpu")
        model.load_state_dict(lm.state_dict(), strict=False)
    if config.model.cpu_vision_init:
        vision = AutoModel.from_pretrained(config.model.origin_vision, device_map="cpu")
        model.vision_tower.load_state_dict(vision.state_dict(), strict=False)
    model = accelerator.prepare(model)


if __name__ == "__main__":
    main(load_config(sys.argv[1], sys.argv[2:]))
